/* SPDX-License-Identifier: MIT */
/*
 * Stage-2 page tables (VMSAv8-64, 4 KiB granule, IPA 39 bits, levels 1-3).
 * Plain C on memory: the host build runs this same file, with TLB
 * invalidation counted instead of executed.
 */
#include <bulkhead/p2m.h>
#include <bulkhead/mm.h>
#include <bulkhead/lib.h>
#include <public/errno.h>

#define PTE_VALID     ULL(1)
#define PTE_TABLE     ULL(3)            /* table (L1/L2) or page (L3) */
#define PTE_BLOCK     ULL(1)
#define PTE_TYPE_MASK ULL(3)
#define PTE_ADDR_MASK ULL(0x0000fffffffff000)
#define S2_ATTR_NORMAL (ULL(0xf) << 2)  /* Normal, Inner/Outer WB */
#define S2_ATTR_DEVICE (ULL(0x0) << 2)  /* Device-nGnRnE */
#define S2_ATTR_DEVICE_NGNRE (ULL(0x1) << 2)  /* Device-nGnRE */
#define S2_AP_RO      (ULL(1) << 6)
#define S2_AP_RW      (ULL(3) << 6)
#define S2_SH_INNER   (ULL(3) << 8)
#define S2_AF         (ULL(1) << 10)
#define S2_XN         (ULL(2) << 53)
#define P2M_TYPE_SHIFT U(55)             /* software bits 58:55 hold the type */
#define P2M_TYPE_MASK (ULL(0xf) << P2M_TYPE_SHIFT)

#define LEVEL_SHIFT(l) (U(12) + (U(9) * (U(3) - (l))))
#define LEVEL_INDEX(gfn, l) ((unsigned int)(((gfn) >> (LEVEL_SHIFT(l) - U(12))) & U(511)))

BUILD_ASSERT(p2m_type_nr <= 16);

static uint64_t p2m_pte(mfn_t mfn, enum p2m_type t, bool block)
{
	uint64_t pte = (mfn_to_maddr(mfn) & PTE_ADDR_MASK) | S2_AF | S2_SH_INNER |
		       ((uint64_t)t << P2M_TYPE_SHIFT);

	pte |= block ? PTE_BLOCK : PTE_TABLE;
	switch (t) {
	case p2m_ram_rw:
		pte |= S2_ATTR_NORMAL | S2_AP_RW;
		break;
	case p2m_mmio_direct:
		pte |= S2_ATTR_DEVICE | S2_AP_RW | S2_XN;
		break;
	case p2m_mmio_direct_dev:
		pte |= S2_ATTR_DEVICE_NGNRE | S2_AP_RW | S2_XN;
		break;
	case p2m_grant_map_rw:
	case p2m_hyp_page:
	case p2m_map_foreign_rw:
		pte |= S2_ATTR_NORMAL | S2_AP_RW | S2_XN;
		break;
	case p2m_grant_map_ro:
		pte |= S2_ATTR_NORMAL | S2_AP_RO | S2_XN;
		break;
	default: /* p2m_ram_ro */
		pte |= S2_ATTR_NORMAL | S2_AP_RO;
		break;
	}
	return pte;
}

static uint64_t *p2m_table_of(uint64_t desc)
{
	return (uint64_t *)maddr_to_virt(desc & PTE_ADDR_MASK);
}

static uint64_t *p2m_alloc_table(struct p2m_domain *p2m)
{
	uint64_t *t;

	if (p2m->pool_used >= p2m->pool_size) {
		return NULL;
	}
	t = p2m->pool[p2m->pool_used];
	p2m->pool_used++;
	(void)memset(t, 0, PAGE_SIZE);
	return t;
}

int p2m_init(struct p2m_domain *p2m, uint16_t vmid, uint64_t (*pool)[P2M_ENTRIES],
	     uint32_t pool_pages)
{
	p2m->vmid = vmid;
	p2m->pool = pool;
	p2m->pool_size = pool_pages;
	p2m->pool_used = 0U;
	p2m->max_mapped_gfn = 0U;
	spin_lock_init(&p2m->lock, LOCK_CLASS_P2M);
	p2m->root = p2m_alloc_table(p2m);
	return (p2m->root == NULL) ? -XEN_ENOMEM : 0;
}

/* Record gfn as mapped; racing writers may only raise it. */
static void p2m_note_mapped(struct p2m_domain *p2m, gfn_t gfn)
{
	gfn_t cur = read_atomic(&p2m->max_mapped_gfn);

	/* LOOP-BOUND: each failed exchange saw a larger value written by another CPU, and the
	 * value only grows towards gfn: at most one round per concurrent writer. */
	while ((cur < gfn) && !atomic_cmpxchg(&p2m->max_mapped_gfn, &cur, gfn)) {
	}
}

void p2m_reset(struct p2m_domain *p2m)
{
	p2m->pool_used = 0U;
	p2m->max_mapped_gfn = 0U;
	p2m->root = p2m_alloc_table(p2m);
	arch_tlb_flush_vmid(p2m->vmid);
}

/* Walk to the table at level `level` covering gfn, allocating if asked. */
static uint64_t *p2m_walk(struct p2m_domain *p2m, gfn_t gfn, unsigned int level, bool alloc)
{
	uint64_t *table = p2m->root;
	unsigned int l;

	for (l = 1U; l < level; l++) {
		uint64_t *slot = &table[LEVEL_INDEX(gfn, l)];
		uint64_t desc = read_atomic(slot);

		if ((desc & PTE_TYPE_MASK) != PTE_TABLE) {
			uint64_t *next;
			if (!alloc || ((desc & PTE_VALID) != 0U)) {
				return NULL; /* absent, or a block in the way */
			}
			next = p2m_alloc_table(p2m);
			if (next == NULL) {
				return NULL;
			}
			desc = (virt_to_maddr(next) & PTE_ADDR_MASK) | PTE_TABLE;
			store_release(slot, desc);
		}
		table = p2m_table_of(desc);
	}
	return table;
}

int p2m_map_range(struct p2m_domain *p2m, gfn_t gfn, mfn_t mfn, uint64_t nr,
		  enum p2m_type t)
{
	int rc = 0;

	if (((gfn + nr) >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U) {
		return -XEN_EINVAL;
	}
	spin_lock(&p2m->lock);
	/* LOOP-BOUND: each round takes 1 or 512 from nr (or sets rc), so at most nr rounds; nr was
	 * checked against the IPA size above. */
	while ((nr > 0U) && (rc == 0)) {
		bool block = ((gfn & 511U) == 0U) && ((mfn & 511U) == 0U) && (nr >= 512U);
		uint64_t *table = p2m_walk(p2m, gfn, block ? 2U : 3U, true);
		uint64_t step = block ? 512U : 1U;

		if (table == NULL) {
			rc = -XEN_ENOMEM;
		} else {
			unsigned int idx = LEVEL_INDEX(gfn, block ? 2U : 3U);
			store_release(&table[idx], p2m_pte(mfn, t, block));
			p2m_note_mapped(p2m, gfn + step - 1U);
			gfn += step;
			mfn += step;
			nr -= step;
		}
	}
	spin_unlock(&p2m->lock);
	return rc;
}

int p2m_prealloc(struct p2m_domain *p2m, gfn_t gfn, uint64_t nr)
{
	int rc = 0;
	uint64_t i;

	spin_lock(&p2m->lock);
	for (i = 0U; (i < nr) && (rc == 0); i += 512U) {
		if (p2m_walk(p2m, gfn + i, 3U, true) == NULL) {
			rc = -XEN_ENOMEM;
		}
	}
	spin_unlock(&p2m->lock);
	return rc;
}

/*
 * Replace the 2 MiB block covering gfn by a last-level table with the same
 * pages and attributes, so one page of it can change. Break-before-make:
 * the block is removed and its TLB entries invalidated before the table
 * goes in; a vCPU of the partition that faults in that window retries
 * (p2m_fault_is_transient). Caller holds p2m->lock.
 */
static int p2m_split_block(struct p2m_domain *p2m, gfn_t gfn)
{
	uint64_t *l2 = p2m_walk(p2m, gfn, 2U, true);
	uint64_t *slot;
	uint64_t desc;
	uint64_t *t;
	unsigned int i;

	if (l2 == NULL) {
		return -XEN_ENOMEM;
	}
	slot = &l2[LEVEL_INDEX(gfn, 2U)];
	desc = read_atomic(slot);
	if ((desc & PTE_TYPE_MASK) != PTE_BLOCK) {
		return 0; /* already a table, or nothing mapped */
	}
	t = p2m_alloc_table(p2m);
	if (t == NULL) {
		return -XEN_ENOMEM;
	}
	for (i = 0U; i < P2M_ENTRIES; i++) {
		t[i] = (desc & ~(PTE_ADDR_MASK | PTE_TYPE_MASK)) |
		       ((desc & PTE_ADDR_MASK) + ((uint64_t)i << PAGE_SHIFT)) | PTE_TABLE;
	}
	store_release(slot, 0U);
	arch_tlb_flush_vmid(p2m->vmid);
	store_release(slot, (virt_to_maddr(t) & PTE_ADDR_MASK) | PTE_TABLE);
	return 0;
}

int p2m_prepare_page(struct p2m_domain *p2m, gfn_t gfn)
{
	int rc;

	if ((gfn >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U) {
		return -XEN_EINVAL;
	}
	spin_lock(&p2m->lock);
	rc = p2m_split_block(p2m, gfn);
	if ((rc == 0) && (p2m_walk(p2m, gfn, 3U, true) == NULL)) {
		rc = -XEN_ENOMEM;
	}
	spin_unlock(&p2m->lock);
	return rc;
}

bool p2m_fault_is_transient(struct p2m_domain *p2m, gfn_t gfn)
{
	mfn_t mfn;
	enum p2m_type t;

	/* Wait out any split in progress, then look again. */
	spin_lock(&p2m->lock);
	spin_unlock(&p2m->lock);
	return (p2m_lookup(p2m, gfn, &mfn, &t) == 0) && (t != p2m_mmio_direct) &&
	       (t != p2m_mmio_direct_dev);
}

int p2m_set_entry(struct p2m_domain *p2m, gfn_t gfn, mfn_t mfn, enum p2m_type t,
		  bool expect_empty)
{
	uint64_t *table;
	uint64_t *slot;
	uint64_t pte = p2m_pte(mfn, t, false);

	if ((gfn >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U) {
		return -XEN_EINVAL;
	}
	table = p2m_walk(p2m, gfn, 3U, false);
	if (table == NULL) {
		return -XEN_EINVAL;
	}
	slot = &table[LEVEL_INDEX(gfn, 3U)];
	if (expect_empty) {
		uint64_t old = 0U;
		if (!atomic_cmpxchg(slot, &old, pte)) {
			return -XEN_EBUSY;
		}
	} else {
		uint64_t old = atomic_xchg(slot, pte);
		if ((old & PTE_VALID) != 0U) {
			arch_tlb_flush_ipa(p2m->vmid, gfn_to_gaddr(gfn));
		}
	}
	p2m_note_mapped(p2m, gfn);
	return 0;
}

/* Swap the 4 KiB entry of gfn for an empty one; *old is what was there. */
static int p2m_take_entry(struct p2m_domain *p2m, gfn_t gfn, uint64_t *old)
{
	uint64_t *table;

	if ((gfn >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U) {
		return -XEN_EINVAL;
	}
	table = p2m_walk(p2m, gfn, 3U, false);
	if (table == NULL) {
		return -XEN_ENOENT;
	}
	*old = atomic_xchg(&table[LEVEL_INDEX(gfn, 3U)], 0U);
	return ((*old & PTE_VALID) == 0U) ? -XEN_ENOENT : 0;
}

int p2m_remove_entry(struct p2m_domain *p2m, gfn_t gfn)
{
	uint64_t old;

	return p2m_take_entry(p2m, gfn, &old);
}

int p2m_replace_entry(struct p2m_domain *p2m, gfn_t gfn, mfn_t mfn, enum p2m_type t)
{
	uint64_t *table;
	uint64_t old;

	if ((gfn >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U) {
		return -XEN_EINVAL;
	}
	table = p2m_walk(p2m, gfn, 3U, false);
	if (table == NULL) {
		return -XEN_ENOENT;
	}
	old = load_acquire(&table[LEVEL_INDEX(gfn, 3U)]);
	/* One try: if the entry changed meanwhile, its partition changed it itself. */
	if (((old & PTE_VALID) == 0U) ||
	    !atomic_cmpxchg(&table[LEVEL_INDEX(gfn, 3U)], &old, p2m_pte(mfn, t, false))) {
		return -XEN_ENOENT;
	}
	return 0;
}

int p2m_remove_grant(struct p2m_domain *p2m, gfn_t gfn, mfn_t mfn)
{
	uint64_t *table;
	uint64_t *slot;
	uint64_t cur;

	if ((gfn >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U) {
		return -XEN_EINVAL;
	}
	table = p2m_walk(p2m, gfn, 3U, false);
	if (table == NULL) {
		return -XEN_ENOENT;
	}
	slot = &table[LEVEL_INDEX(gfn, 3U)];
	cur = load_acquire(slot);
	/* A grant mapping's entry is exactly what p2m_set_entry wrote for it. */
	if ((cur != p2m_pte(mfn, p2m_grant_map_rw, false)) &&
	    (cur != p2m_pte(mfn, p2m_grant_map_ro, false))) {
		return -XEN_ENOENT;
	}
	return atomic_cmpxchg(slot, &cur, 0U) ? 0 : -XEN_ENOENT;
}

void p2m_flush_tlb(const struct p2m_domain *p2m)
{
	arch_tlb_flush_vmid(p2m->vmid);
}

int p2m_clear_entry(struct p2m_domain *p2m, gfn_t gfn, mfn_t *old_mfn,
		    enum p2m_type *old_t)
{
	uint64_t old = 0U;
	int rc = p2m_take_entry(p2m, gfn, &old);

	if (rc != 0) {
		return rc;
	}
	arch_tlb_flush_ipa(p2m->vmid, gfn_to_gaddr(gfn));
	if (old_mfn != NULL) {
		*old_mfn = maddr_to_mfn(old & PTE_ADDR_MASK);
	}
	if (old_t != NULL) {
		*old_t = (enum p2m_type)((old & P2M_TYPE_MASK) >> P2M_TYPE_SHIFT);
	}
	return 0;
}

int p2m_lookup(const struct p2m_domain *p2m, gfn_t gfn, mfn_t *mfn, enum p2m_type *t)
{
	const uint64_t *table = p2m->root;
	unsigned int l;

	if ((table == NULL) || ((gfn >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U)) {
		return -XEN_EINVAL;
	}
	for (l = 1U; l <= P2M_LEVELS; l++) {
		uint64_t desc = load_acquire(&table[LEVEL_INDEX(gfn, l)]);

		if ((desc & PTE_VALID) == 0U) {
			return -XEN_ENOENT;
		}
		if ((l == P2M_LEVELS) || ((desc & PTE_TYPE_MASK) == PTE_BLOCK)) {
			uint64_t span = (UL(1) << (LEVEL_SHIFT(l) - PAGE_SHIFT)) - 1U;
			*mfn = maddr_to_mfn(desc & PTE_ADDR_MASK) + (gfn & span);
			*t = (enum p2m_type)((desc & P2M_TYPE_MASK) >> P2M_TYPE_SHIFT);
			return 0;
		}
		table = p2m_table_of(desc);
	}
	return -XEN_ENOENT;
}

uint32_t p2m_pool_free(const struct p2m_domain *p2m)
{
	return p2m->pool_size - p2m->pool_used;
}

uint64_t p2m_vttbr(const struct p2m_domain *p2m)
{
	return ((uint64_t)p2m->vmid << 48) | (virt_to_maddr(p2m->root) & PTE_ADDR_MASK);
}
