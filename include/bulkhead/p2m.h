/* SPDX-License-Identifier: MIT */
/*
 * Stage-2 translation of one partition (4 KiB granule, 39-bit IPA, three
 * levels from a single root table). Tables come from a static per-partition
 * pool; the grant window's last-level tables are allocated when the
 * partition is built, so mapping a grant never allocates and never takes a
 * lock: one entry is written with one atomic store.
 */
#ifndef BULKHEAD_P2M_H
#define BULKHEAD_P2M_H

#include <bulkhead/config.h>
#include <bulkhead/spinlock.h>

enum p2m_type {
	p2m_invalid = 0,
	p2m_ram_rw,          /* partition RAM */
	p2m_ram_ro,
	p2m_mmio_direct,     /* hardware the hypervisor lends (the GICv2 virtual CPU interface) */
	p2m_grant_map_rw,    /* foreign frame mapped through a grant */
	p2m_grant_map_ro,
	p2m_hyp_page,        /* hypervisor page shared by ABI (shared_info, grant frame) */
	p2m_mmio_direct_dev, /* assigned device memory (xen,reg): Device-nGnRE, as Xen maps it */
	p2m_map_foreign_rw,  /* static shared memory another partition (or DOMID_IO) owns */
	p2m_type_nr
};

#define P2M_IPA_BITS   U(39)
#define P2M_LEVELS     U(3)
#define P2M_ENTRIES    U(512)

struct p2m_domain {
	uint64_t *root;
	uint16_t vmid;
	uint32_t pool_used;
	uint32_t pool_size;
	uint64_t (*pool)[P2M_ENTRIES];
	spinlock_t lock; /* structural changes outside preallocated ranges */
	/* Highest gfn ever mapped since the last reset (XENMEM_maximum_gpfn); only grows. */
	gfn_t max_mapped_gfn;
};

int p2m_init(struct p2m_domain *p2m, uint16_t vmid, uint64_t (*pool)[P2M_ENTRIES],
	     uint32_t pool_pages);
/* Reset to an empty table (partition restart). */
void p2m_reset(struct p2m_domain *p2m);
/* Map nr pages (2 MiB blocks where aligned). Boot and restart only. */
int p2m_map_range(struct p2m_domain *p2m, gfn_t gfn, mfn_t mfn, uint64_t nr,
		  enum p2m_type t);
/* Make sure last-level tables exist for [gfn, gfn+nr). */
int p2m_prealloc(struct p2m_domain *p2m, gfn_t gfn, uint64_t nr);
/*
 * Make gfn individually mappable: split a 2 MiB block that covers it and
 * make sure its last-level table exists (static pool; shared_info placed
 * over a RAM page, as Linux does).
 */
int p2m_prepare_page(struct p2m_domain *p2m, gfn_t gfn);
/* A translation fault at gfn that a concurrent split explains: retry it. */
bool p2m_fault_is_transient(struct p2m_domain *p2m, gfn_t gfn);
/*
 * Set one 4 KiB entry where the last-level table exists. With expect_empty
 * the call fails with -EBUSY if an entry is already present.
 */
int p2m_set_entry(struct p2m_domain *p2m, gfn_t gfn, mfn_t mfn, enum p2m_type t,
		  bool expect_empty);
/* Remove one 4 KiB entry and invalidate its TLB entry for this VMID only. */
int p2m_clear_entry(struct p2m_domain *p2m, gfn_t gfn, mfn_t *old_mfn,
		    enum p2m_type *old_t);
/*
 * Remove one 4 KiB entry without invalidating: for batches (grant unmap,
 * restart), which call p2m_flush_tlb once before the frame may be reused.
 */
int p2m_remove_entry(struct p2m_domain *p2m, gfn_t gfn);
/*
 * Point a present 4 KiB entry at another frame, without invalidating (a
 * batch calls p2m_flush_tlb once); -ENOENT, and nothing written, when no
 * entry is present.
 */
int p2m_replace_entry(struct p2m_domain *p2m, gfn_t gfn, mfn_t mfn, enum p2m_type t);
/*
 * Remove gfn's 4 KiB entry only when it is a grant mapping (read-only or
 * read-write) of mfn: one compare-and-swap, so what is removed is what was
 * checked. -XEN_ENOENT when it is anything else (nothing changes). No TLB
 * invalidation (the caller's).
 */
int p2m_remove_grant(struct p2m_domain *p2m, gfn_t gfn, mfn_t mfn);
/* Invalidate every stage-1 and stage-2 TLB entry of this VMID (one broadcast). */
void p2m_flush_tlb(const struct p2m_domain *p2m);
int p2m_lookup(const struct p2m_domain *p2m, gfn_t gfn, mfn_t *mfn, enum p2m_type *t);
/* Table pages of the static pool still free (a split needs one). */
uint32_t p2m_pool_free(const struct p2m_domain *p2m);
/* The value for VTTBR_EL2. */
uint64_t p2m_vttbr(const struct p2m_domain *p2m);

#endif
