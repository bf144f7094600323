/* SPDX-License-Identifier: MIT */
/* Grant tables: placeholder until the grant-table issue lands. */
#include <bulkhead/gnttab.h>
#include <bulkhead/domain.h>
#include <public/errno.h>

int gnttab_domain_init(struct domain *d)
{
	rwlock_init(&d->gt.lock, LOCK_CLASS_GNTTAB);
	d->gt.nr_frames = 0U;
	return 0;
}

void gnttab_domain_reset(struct domain *d)
{
	d->gt.nr_frames = 0U;
}

long do_grant_table_op(unsigned int cmd, xen_guest_handle_t uop, unsigned int count)
{
	(void)cmd;
	(void)uop;
	(void)count;
	return -XEN_ENOSYS;
}

int gnttab_map_frame(struct domain *d, uint64_t idx, gfn_t gfn)
{
	(void)d;
	(void)idx;
	(void)gfn;
	return -XEN_EINVAL;
}
