/* SPDX-License-Identifier: MIT */
/*
 * memory_op, internal: the sub-op handlers and the helpers they share.
 * Every change to a partition's own physmap (reservations, add/remove
 * to/from physmap) runs under d->lock, so the RAM entries of its stage 2 and
 * tot_pages change together. Grant maps never take it: they only fill empty
 * entries (one compare-and-swap), which populate fills the same way.
 */
#ifndef MEMORY_PRIVATE_H
#define MEMORY_PRIVATE_H

#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/domain.h>
#include <bulkhead/gnttab.h>
#include <bulkhead/mm.h>
#include <public/memory.h>
#include <public/errno.h>

/* Xen's CONFIG_DOMU_MAX_ORDER on Arm: the largest extent a domU may ask for. */
#define MEMOP_MAX_ORDER U(9)
/* Pages a reservation call handles before it is continued (whole extents). */
#define MEMOP_PAGES_PER_CALL ((uint32_t)CONFIG_HYPERCALL_BATCH)

/*
 * The partition a domU names in a memory_op argument: itself (by DOMID_SELF
 * or its own id), as Xen's XSM_TARGET allows a domU. -ESRCH for no such
 * partition, -EPERM for another one.
 */
int memory_target(domid_t dom, struct domain **out);

/* reservation.c: increase/decrease_reservation, populate_physmap. */
long memory_reservation_op(unsigned int op, uint64_t start, xen_guest_handle_t arg);
/* The frame of d's device-tree RAM at gfn (its banks in guest order), or false. */
bool memory_ram_frame(const struct domain *d, gfn_t gfn, mfn_t *mfn);
/* Xen's max_page as a power of two: addresses above need no address_bits limit. */
unsigned int memory_max_page_order(void);

/* physmap.c */
long memory_add_to_physmap(uint64_t start, xen_guest_handle_t arg);
long memory_add_to_physmap_batch(uint64_t start, xen_guest_handle_t arg);
long memory_remove_from_physmap(uint64_t start, xen_guest_handle_t arg);
/* Take shared_info out of d's physmap if it sits at gfn: 0, or -ENOENT. Under d->lock. */
int memory_unmap_shared_info(struct domain *d, gfn_t gfn);

/* refused.c: the sub-ops a domU may call and only ever gets a refusal or nothing from. */
long memory_exchange(uint64_t start, xen_guest_handle_t arg);
long memory_claim_pages(uint64_t start, xen_guest_handle_t arg);
long memory_get_vnumainfo(uint64_t start, xen_guest_handle_t arg);
long memory_reserved_device_memory_map(uint64_t start, xen_guest_handle_t arg);
long memory_acquire_resource(xen_guest_handle_t arg);

#endif
