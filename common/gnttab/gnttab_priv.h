/* SPDX-License-Identifier: MIT */
/*
 * Grant tables, internal: active entries, maptrack entries and the lock
 * helpers that let one source build the three lock configurations.
 * Lock order (docs/locking.md): table lock -> active entry -> maptrack.
 */
#ifndef GNTTAB_PRIV_H
#define GNTTAB_PRIV_H

#include <bulkhead/gnttab.h>
#include <bulkhead/domain.h>
#include <bulkhead/mm.h>
#include <public/grant_table.h>
#include <public/errno.h>

/* {flags, domid} is read and updated as one little-endian word. */
BUILD_ASSERT(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);

/* Attempts at a guest-shared word before we call the guest hostile. */
#define GNTTAB_CMPXCHG_TRIES U(5)

/* Pin counts: 8-bit counters in one word, as Xen; only host maps on Arm. */
#define GNTPIN_HSTW_INC  U(0x00000001)
#define GNTPIN_HSTW_MASK U(0x000000ff)
#define GNTPIN_HSTR_INC  U(0x00000100)
#define GNTPIN_HSTR_MASK U(0x0000ff00)
#define GNTPIN_OVERFLOW  U(0x80808080)

/* The hypervisor's shadow of one grant in use. */
struct gnttab_active {
	spinlock_t lock;
	uint32_t pin;
	domid_t domid;     /* the partition holding the pins */
	uint16_t pad;
	mfn_t mfn;
} __attribute__((aligned(32)));
BUILD_ASSERT(sizeof(struct gnttab_active) == 32U);

/* Maptrack flags: GNTMAP_host_map [| GNTMAP_readonly], or 0 when free. */
#define MAPTRACK_REVOKED U(0x8000) /* granter restarted: mapping removed */
#define MAPTRACK_UNMAPPING U(0x4000) /* stage-2 entry removed, invalidation and unpin due */

struct gnttab_maptrack {
	uint32_t ref;
	uint16_t flags;
	domid_t domid;
	uint32_t gfn;      /* where the mapping sits in the mapper's stage 2 */
	uint32_t next;     /* free-list link */
};
BUILD_ASSERT(sizeof(struct gnttab_maptrack) == 16U);
BUILD_ASSERT((P2M_IPA_BITS - PAGE_SHIFT) <= 32U);

static inline uint32_t gnttab_nr_entries(const struct grant_table *gt)
{
	return gt->nr_frames * GNTTAB_ENTRIES_PER_FRAME;
}

/*
 * "Read" side of the table lock: shared with split locks, exclusive in
 * the base configuration, where it is the one lock of the table.
 */
static inline void gnttab_read_lock(struct grant_table *gt)
{
#if GNTTAB_SPLIT_LOCKS
	read_lock(&gt->lock);
#else
	write_lock(&gt->lock);
#endif
}

static inline void gnttab_read_unlock(struct grant_table *gt)
{
#if GNTTAB_SPLIT_LOCKS
	read_unlock(&gt->lock);
#else
	write_unlock(&gt->lock);
#endif
}

/* Caller holds the table lock (read side). */
static inline struct gnttab_active *gnttab_act_acquire(struct grant_table *gt, grant_ref_t ref)
{
	struct gnttab_active *act = &gt->active[ref];
#if GNTTAB_SPLIT_LOCKS
	spin_lock(&act->lock);
#endif
	return act;
}

static inline void gnttab_act_release(struct gnttab_active *act)
{
#if GNTTAB_SPLIT_LOCKS
	spin_unlock(&act->lock);
#else
	(void)act;
#endif
}

static inline uint32_t *gnttab_entry_word(struct grant_table *gt, grant_ref_t ref)
{
	return (uint32_t *)(void *)&gt->shared[ref];
}

/* pin.c: the guest-side protocol and pin counts. Caller holds act. */
int16_t gnttab_pin(struct domain *rd, struct gnttab_active *act, grant_ref_t ref,
		   domid_t ldom, bool readonly, bool map);
void gnttab_unpin(struct grant_table *gt, struct gnttab_active *act, grant_ref_t ref,
		  bool readonly);
void gnttab_clear_flags(struct grant_table *gt, grant_ref_t ref, uint16_t clear);

/* maptrack.c */
void gnttab_maptrack_init(struct domain *d);
uint32_t gnttab_maptrack_get(struct vcpu *v);
void gnttab_maptrack_put(struct vcpu *v, uint32_t handle);

/* table.c */
void gnttab_table_clear(struct domain *d);
/* Let the table hold nr_frames (initialising frames never used). Write lock held. */
void gnttab_table_grow(struct grant_table *gt, uint32_t nr_frames);

/* map.c, copy.c, misc.c: one array element each; status in the op. */
void gnttab_map_one(struct vcpu *v, struct gnttab_map_grant_ref *op);

/* unmap.c: one element of either unmap op, in two phases (see there). */
struct gnttab_unmap_args {
	uint64_t host_addr;
	uint64_t dev_bus_addr;
	uint64_t new_addr;
	grant_handle_t handle;
};

union gnttab_unmap_elem {
	struct gnttab_unmap_grant_ref unmap;
	struct gnttab_unmap_and_replace replace;
};

/* The element's status; *pending: the caller invalidates, then finishes. */
int16_t gnttab_unmap_begin(struct vcpu *v, const struct gnttab_unmap_args *a, bool *pending);
void gnttab_unmap_finish(struct vcpu *v, grant_handle_t handle);
/* The whole array: 0, the number done when preempted, or -EFAULT. */
long gnttab_unmap_array(struct vcpu *v, bool replace, xen_guest_handle_t uop, unsigned int count);
void gnttab_copy_one(struct vcpu *v, struct gnttab_copy *op);
int16_t gnttab_swap_one(struct domain *d, grant_ref_t a, grant_ref_t b);
int gnttab_cache_flush_one(struct vcpu *v, const struct gnttab_cache_flush *op,
			   uint32_t *cur_ref);
long gnttab_setup_table(struct vcpu *v, xen_guest_handle_t uop, unsigned int count);
long gnttab_query_size(struct vcpu *v, xen_guest_handle_t uop, unsigned int count);
long gnttab_set_version(struct vcpu *v, xen_guest_handle_t uop);
long gnttab_get_version(struct vcpu *v, xen_guest_handle_t uop);
long gnttab_get_status_frames(struct vcpu *v, xen_guest_handle_t uop, unsigned int count);

#endif
