/* SPDX-License-Identifier: MIT */
/* Grant tables: per-partition state embedded in struct domain. */
#ifndef BULKHEAD_GNTTAB_H
#define BULKHEAD_GNTTAB_H

#include <bulkhead/config.h>
#include <bulkhead/spinlock.h>
#include <public/xen.h>

struct domain;
struct vcpu;

struct grant_table {
	rwlock_t lock;
	uint32_t nr_frames;
};

struct gnttab_vcpu {
	uint32_t maptrack_head;
};

int gnttab_domain_init(struct domain *d);
void gnttab_domain_reset(struct domain *d);
long do_grant_table_op(unsigned int cmd, xen_guest_handle_t uop, unsigned int count);
/* XENMAPSPACE_grant_table: frame idx of d's table, or -errno. */
int gnttab_map_frame(struct domain *d, uint64_t idx, gfn_t gfn);

#endif
