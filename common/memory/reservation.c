/* SPDX-License-Identifier: MIT */
/*
 * increase_reservation, decrease_reservation, populate_physmap inside a
 * static partition. Linux's balloon driver and gntdev give pages back
 * (decrease) to get holes in their physmap for foreign mappings, and take
 * them back later (populate). Nothing leaves the partition: a page it gives
 * back is removed from its stage 2 but stays its own frame, in a reserve
 * that is simply the set of its RAM gfns with no entry; populate maps that
 * same frame back at its own gfn, scrubbed, and only while the partition
 * holds fewer pages than its device tree gave it. So it never grows past
 * its device-tree memory and no other partition ever sees a frame move.
 *
 * The counts are Xen's (common/memory.c in Xen 4.17): the number of
 * extents done, the starting extent when the arguments are refused, an
 * extent that fails part-way not counted; tot_pages/max_pages move as
 * Xen's do, so current_reservation answers what Xen would. Where Xen would
 * hand out a fresh page at a gfn outside the device-tree RAM or over a
 * mapped gfn, Bulkhead refuses the extent (docs/device-tree.md, "Memory").
 */
#include "private.h"
#include <bulkhead/lib.h>

#define NUMA_NO_NODE U(0xff)

struct memop_args {
	struct domain *d;
	xen_guest_handle_t list;
	uint64_t nr;
	uint32_t order;
	paddr_t limit;       /* frames must end at or below (address_bits), else 0 */
	bool pod;
};

unsigned int memory_max_page_order(void)
{
	mfn_t max = mm_boot_max_page();
	unsigned int order;

	for (order = 0U; (order < U(52)) && (((mfn_t)1U << order) < max); order++) {
	}
	return order;
}

/* Xen's construct_memop_from_reservation() and propagate_node() for a domU. */
static bool memop_flags(struct memop_args *a, uint32_t flags)
{
	uint32_t bits = XENMEMF_get_address_bits(flags);

	a->limit = 0U;
	if ((bits != 0U) && (bits < (memory_max_page_order() + PAGE_SHIFT))) {
		if (bits <= PAGE_SHIFT) {
			return false;
		}
		a->limit = (paddr_t)1U << bits;
	}
	/* No vNUMA: a vnode request is ignored; an exact physical node is the toolstack's. */
	if (((flags & XENMEMF_vnode) == 0U) && (XENMEMF_get_node(flags) != NUMA_NO_NODE) &&
	    ((flags & XENMEMF_exact_node_request) != 0U)) {
		return false;
	}
	return true;
}

/* The frame of d's device-tree RAM (its banks) at gfn, or false when gfn is not RAM. */
bool memory_ram_frame(const struct domain *d, gfn_t gfn, mfn_t *mfn)
{
	uint32_t i;

	for (i = 0U; (i < d->nr_ram_banks) && (i < DOMAIN_MAX_MEM_BANKS); i++) {
		const struct ram_bank *b = &d->ram_bank[i];
		gfn_t first = gaddr_to_gfn(b->gpa);

		if ((gfn >= first) && ((gfn - first) < (b->size >> PAGE_SHIFT))) {
			*mfn = maddr_to_mfn(b->maddr) + (gfn - first);
			return true;
		}
	}
	return false;
}

/*
 * Give back one page at gfn (Xen's guest_remove_page). RAM: unmapped,
 * kept. shared_info and grant-table frames: unmapped as on Xen (the frame
 * given back can never be placed again). A grant mapping is not the
 * partition's page, anything else is not a page at all: refused.
 */
static int memory_remove_page(struct domain *d, gfn_t gfn)
{
	mfn_t own;
	mfn_t mfn;
	enum p2m_type t;
	int rc;

	if (p2m_lookup(&d->p2m, gfn, &mfn, &t) != 0) {
		return -XEN_EINVAL;
	}
	switch (t) {
	case p2m_ram_rw:
	case p2m_ram_ro:
		/* Only the partition's RAM (not a disk it serves, mapped like RAM). */
		if (!memory_ram_frame(d, gfn, &own) || (own != mfn)) {
			return -XEN_EINVAL;
		}
		/* A 2 MiB block is split first; an empty table pool refuses the page. */
		rc = p2m_prepare_page(&d->p2m, gfn);
		if ((rc == 0) && (p2m_remove_entry(&d->p2m, gfn) != 0)) {
			rc = -XEN_EINVAL;
		}
		if (rc == 0) {
			d->tot_pages--;
		}
		return rc;
	case p2m_hyp_page:
		if (memory_unmap_shared_info(d, gfn) == 0) {
			return 0;
		}
		return (gnttab_unmap_frame(d, gfn, true) == 0) ? 0 : -XEN_EINVAL;
	default:
		return -XEN_ENXIO;
	}
}

static bool decrease_extent(struct domain *d, gfn_t gfn, uint32_t order)
{
	uint64_t n = (uint64_t)1U << order;
	uint64_t j;
	bool ok = true;

	spin_lock(&d->lock);
	for (j = 0U; (j < n) && ok; j++) {
		ok = memory_remove_page(d, gfn + j) == 0;
	}
	spin_unlock(&d->lock);
	/* Before the call returns no vCPU of d may still reach a page it gave back. */
	if (j != 0U) {
		p2m_flush_tlb(&d->p2m);
	}
	return ok;
}

/* Map back 2^order given-back pages at gfn.., scrubbed, or change nothing. */
static bool populate_extent(struct memop_args *a, gfn_t gfn)
{
	struct domain *d = a->d;
	uint64_t n = (uint64_t)1U << a->order;
	uint64_t j;
	uint64_t mapped = 0U;
	mfn_t mfn;
	enum p2m_type t;
	bool ok;

	spin_lock(&d->lock);
	ok = (d->tot_pages <= d->max_pages) && (n <= d->max_pages - d->tot_pages);
	for (j = 0U; (j < n) && ok; j++) {
		mfn_t cur;
		ok = memory_ram_frame(d, gfn + j, &mfn) &&
		     (p2m_lookup(&d->p2m, gfn + j, &cur, &t) != 0) &&
		     ((a->limit == 0U) || (mfn_to_maddr(mfn + 1U) <= a->limit));
	}
	for (j = 0U; (j < n) && ok; j++) {
		void *va;

		(void)memory_ram_frame(d, gfn + j, &mfn);
		va = map_domain_page(mfn);
		arch_clear_page(va);
		unmap_domain_page(va);
		/* Only a grant map racing into the same hole can take the entry first. */
		ok = p2m_set_entry(&d->p2m, gfn + j, mfn, p2m_ram_rw, true) == 0;
		mapped += ok ? 1U : 0U;
	}
	if (ok) {
		d->tot_pages += n;
	}
	for (j = 0U; (j < mapped) && !ok; j++) {
		(void)p2m_remove_entry(&d->p2m, gfn + j);
	}
	spin_unlock(&d->lock);
	if (!ok && (mapped != 0U)) {
		p2m_flush_tlb(&d->p2m);
	}
	return ok;
}

/* increase_reservation on a translated guest: pages counted, nothing mapped. */
static bool increase_extent(struct domain *d, uint32_t order)
{
	uint64_t n = (uint64_t)1U << order;
	bool ok;

	spin_lock(&d->lock);
	ok = (d->tot_pages <= d->max_pages) && (n <= d->max_pages - d->tot_pages);
	if (ok) {
		d->tot_pages += n;
	}
	spin_unlock(&d->lock);
	return ok;
}

static bool memop_extent(unsigned int op, struct memop_args *a, uint64_t i)
{
	xen_pfn_t gfn = 0U;

	if (op == XENMEM_increase_reservation) {
		return increase_extent(a->d, a->order);
	}
	if (copy_from_guest(&gfn, a->list + (i * sizeof(gfn)), sizeof(gfn)) != 0) {
		return false;
	}
	if (op == XENMEM_decrease_reservation) {
		return decrease_extent(a->d, gfn, a->order);
	}
	/* Populate-on-demand on oneself is refused by Xen. */
	return !a->pod && populate_extent(a, gfn);
}

long memory_reservation_op(unsigned int op, uint64_t start, xen_guest_handle_t arg)
{
	struct xen_memory_reservation r;
	struct memop_args a;
	uint32_t max_order = MEMOP_MAX_ORDER;
	uint64_t i;
	uint64_t pages = 0U;
	regval_t args[HYPERCALL_NR_ARGS];

	/* Every refusal of the arguments returns the starting extent, as Xen. */
	if ((copy_from_guest(&r, arg, sizeof(r)) != 0) ||
	    (r.nr_extents > (UINT32_MAX >> MEMOP_EXTENT_SHIFT)) || (start >= r.nr_extents) ||
	    (memory_target(r.domid, &a.d) != 0) || !memop_flags(&a, r.mem_flags)) {
		return (long)start;
	}
	a.list = r.extent_start;
	a.nr = r.nr_extents;
	a.order = r.extent_order;
	a.pod = (op == XENMEM_populate_physmap) && ((r.mem_flags & XENMEMF_populate_on_demand) != 0U);
	if (a.pod) {
		max_order = U(18); /* Xen's MAX_ORDER for populate-on-demand */
	}
	if (a.order > max_order) {
		return (long)start;
	}
	for (i = start; i < a.nr; i++) {
		if ((i != start) && (pages >= MEMOP_PAGES_PER_CALL)) {
			args[0] = (regval_t)op | ((regval_t)i << MEMOP_EXTENT_SHIFT);
			args[1] = arg;
			return hypercall_continue(2U, args);
		}
		if (!memop_extent(op, &a, i)) {
			break;
		}
		pages += (uint64_t)1U << a.order;
	}
	return (long)i;
}
