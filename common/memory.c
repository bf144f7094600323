/* SPDX-License-Identifier: MIT */
/*
 * memory_op: the parts Xen on Arm offers a dom0less domU. Partitions own a
 * fixed set of RAM pages, so reservation changes are refused; shared_info
 * and grant-table frames are placed where the guest asks.
 */
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/domain.h>
#include <bulkhead/gnttab.h>
#include <bulkhead/mm.h>
#include <public/memory.h>
#include <public/errno.h>

/*
 * The shared_info page is the hypervisor's; it only appears in the p2m. Like
 * Xen it may replace a RAM page (Linux puts it over a page it allocated);
 * it never replaces a grant mapping or a grant-table frame, whose
 * bookkeeping would be left stale (-EBUSY).
 */
static int memory_map_shared_info(struct domain *d, gfn_t gfn)
{
	int rc;
	gfn_t old;
	mfn_t cur_mfn;
	enum p2m_type cur_t;

	spin_lock(&d->lock);
	old = d->shared_info_gfn;
	if ((gfn != old) && (p2m_lookup(&d->p2m, gfn, &cur_mfn, &cur_t) == 0) &&
	    (cur_t != p2m_ram_rw) && (cur_t != p2m_ram_ro)) {
		spin_unlock(&d->lock);
		return -XEN_EBUSY;
	}
	if (old != INVALID_GFN) {
		(void)p2m_clear_entry(&d->p2m, old, NULL, NULL);
	}
	rc = p2m_prepare_page(&d->p2m, gfn);
	if (rc == 0) {
		rc = p2m_set_entry(&d->p2m, gfn, maddr_to_mfn(virt_to_maddr(d->shared_info)),
				   p2m_hyp_page, false);
	}
	d->shared_info_gfn = (rc == 0) ? gfn : INVALID_GFN;
	spin_unlock(&d->lock);
	return rc;
}

static long memory_add_to_physmap(xen_guest_handle_t arg)
{
	struct xen_add_to_physmap xatp;
	struct domain *d;
	long rc;

	if (copy_from_guest(&xatp, arg, sizeof(xatp)) != 0) {
		return -XEN_EFAULT;
	}
	d = domain_resolve(xatp.domid);
	if (d == NULL) {
		return -XEN_ESRCH;
	}
	/* A domU may only change its own physmap. */
	if (d != current->domain) {
		return -XEN_EPERM;
	}
	if ((xatp.gpfn >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U) {
		return -XEN_EINVAL;
	}
	switch (xatp.space) {
	case XENMAPSPACE_shared_info:
		rc = (xatp.idx == 0U) ? memory_map_shared_info(d, xatp.gpfn) : -XEN_EINVAL;
		break;
	case XENMAPSPACE_grant_table:
		rc = gnttab_map_frame(d, xatp.idx, xatp.gpfn);
		break;
	default:
		rc = -XEN_ENOSYS;
		break;
	}
	return rc;
}

long do_memory_op(unsigned int cmd, xen_guest_handle_t arg)
{
	switch (cmd & MEMOP_CMD_MASK) {
	case XENMEM_add_to_physmap:
		return memory_add_to_physmap(arg);
	default:
		return -XEN_ENOSYS;
	}
}
