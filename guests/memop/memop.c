/* SPDX-License-Identifier: MIT */
/*
 * memory_op and xen_version as a dom0less domU sees them, checked against
 * the answers of Xen 4.17 (the same image runs under both: HYP=xen in
 * tests/qemu/scenarios.sh). Two partitions: role=main (d1) runs the
 * checks, role=granter (d2) grants it one page (ref 8) so that the checks
 * can use a foreign grant mapping, and waits until main has unmapped it.
 *
 * Every check prints "M: <what> = <got>" and " MISMATCH (want <n>)" when
 * the value is not Xen 4.17's. The few places where Bulkhead answers
 * differently on purpose (a static partition never maps memory outside its
 * device-tree RAM, never loses a page for good) are CHECK2 with both values,
 * and come last so that Xen's different accounting does not shift the
 * others. Reservation counts are taken relative to the first
 * current_reservation, which must equal the RAM the tree describes.
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

#define PAGE 4096UL
#define REF 8U
#define MAP_GFN 0x38e00ULL       /* where main maps the granter's page */
#define SINFO_GFN 0x38fffULL     /* evt_setup() puts shared_info there */
#define GNT0_GFN 0x38000ULL      /* gnt_setup() puts frame 0 there */
#define MAX_ORDER 9U             /* Xen's CONFIG_DOMU_MAX_ORDER on Arm */

static bool on_bulkhead;
static int fails;
static uint64_t ram_gfn;         /* first gfn of RAM */
static uint64_t g;               /* first test gfn: 4 MiB into RAM */

static void check(const char *what, long got, long want)
{
	if (got == want) {
		printf("M: %s = %ld\n", what, got);
	} else {
		printf("M: %s = %ld MISMATCH (want %ld)\n", what, got, want);
		fails++;
	}
}

/* A documented difference: want_xen under Xen 4.17, want_bh under Bulkhead. */
static void check2(const char *what, long got, long want_xen, long want_bh)
{
	long want = on_bulkhead ? want_bh : want_xen;

	if (got == want) {
		printf("M: %s = %ld%s\n", what, got, want_xen != want_bh ? " (bulkhead differs)" : "");
	} else {
		printf("M: %s = %ld MISMATCH (want %ld)\n", what, got, want);
		fails++;
	}
}

static xen_pfn_t extents[8] __attribute__((aligned(64)));

static long resv(unsigned int op, uint64_t list, unsigned long nr, unsigned int order,
		 unsigned int flags, domid_t dom)
{
	struct xen_memory_reservation r = {
		.extent_start = list, .nr_extents = nr, .extent_order = order,
		.mem_flags = flags, .domid = dom,
	};

	return HYPERVISOR_memory_op(op, &r);
}

/* One extent at gfn of the given order, on the caller. */
static long resv1(unsigned int op, uint64_t gfn, unsigned int order)
{
	extents[0] = gfn;
	return resv(op, (uint64_t)(uintptr_t)extents, 1, order, 0, DOMID_SELF);
}

static long dom_query(unsigned int op, domid_t dom)
{
	static domid_t d __attribute__((aligned(8)));

	d = dom;
	return HYPERVISOR_memory_op(op, &d);
}

static long cur(void)
{
	return dom_query(XENMEM_current_reservation, DOMID_SELF);
}

static long remove_gfn(domid_t dom, uint64_t gfn, unsigned int cmd_extra)
{
	struct xen_remove_from_physmap x = { .domid = dom, .gpfn = gfn };

	return HYPERVISOR_memory_op(XENMEM_remove_from_physmap | cmd_extra, &x);
}

static long atp(domid_t dom, unsigned int space, uint64_t idx, uint64_t gfn, uint16_t size,
		unsigned int cmd_extra)
{
	struct xen_add_to_physmap x = { .domid = dom, .size = size, .space = space,
					.idx = idx, .gpfn = gfn };

	return HYPERVISOR_memory_op(XENMEM_add_to_physmap | cmd_extra, &x);
}

static volatile uint32_t *gpage(uint64_t gfn)
{
	return (volatile uint32_t *)(uintptr_t)(gfn << 12);
}

static bool page_is_zero(uint64_t gfn)
{
	volatile uint32_t *p = gpage(gfn);
	unsigned int i;

	for (i = 0; i < PAGE / 4U; i++) {
		if (p[i] != 0U) {
			return false;
		}
	}
	return true;
}

static void queries(long ram_pages)
{
	check("current_reservation(self) == RAM pages", cur() == ram_pages, 1);
	check("maximum_reservation(self) == RAM pages",
	      dom_query(XENMEM_maximum_reservation, DOMID_SELF) == ram_pages, 1);
	check("current_reservation(d1 by id) == RAM pages",
	      dom_query(XENMEM_current_reservation, 1) == ram_pages, 1);
	check("current_reservation(d2)", dom_query(XENMEM_current_reservation, 2), -XEN_EPERM);
	check("maximum_reservation(d2)", dom_query(XENMEM_maximum_reservation, 2), -XEN_EPERM);
	check("current_reservation(d7)", dom_query(XENMEM_current_reservation, 7), -XEN_ESRCH);
	check("current_reservation(dom0)", dom_query(XENMEM_current_reservation, 0), -XEN_ESRCH);
	check("current_reservation(bad pointer)",
	      HYPERVISOR_memory_op(XENMEM_current_reservation, (void *)0x1000), -XEN_EFAULT);
	check("current_reservation(start extent 1)",
	      HYPERVISOR_memory_op(XENMEM_current_reservation | (1U << MEMOP_EXTENT_SHIFT),
				   extents), -XEN_EINVAL);
	check("maximum_gpfn(self) == last RAM gfn",
	      dom_query(XENMEM_maximum_gpfn, DOMID_SELF) == (long)(ram_gfn + (uint64_t)ram_pages - 1U), 1);
	check("maximum_gpfn(d2)", dom_query(XENMEM_maximum_gpfn, 2), -XEN_EPERM);
	printf("M: maximum_ram_page = 0x%lx\n", HYPERVISOR_memory_op(XENMEM_maximum_ram_page, NULL));
	check("maximum_ram_page(start extent 1)",
	      HYPERVISOR_memory_op(XENMEM_maximum_ram_page | (1U << MEMOP_EXTENT_SHIFT), NULL),
	      -XEN_EINVAL);
}

static void decreases(long ram_pages)
{
	long c0 = cur();

	gpage(g)[0] = 0xdeadbeefU; /* populate must not bring this back */
	check("decrease [g]", resv1(XENMEM_decrease_reservation, g, 0), 1);
	check("  current drops by 1", c0 - cur(), 1);
	check("decrease [g] again (already given back)", resv1(XENMEM_decrease_reservation, g, 0), 0);
	extents[0] = g + 1;
	extents[1] = ram_gfn + (uint64_t)ram_pages + 0x100U; /* beyond RAM */
	extents[2] = g + 2;
	check("decrease [g+1, beyond RAM, g+2]",
	      resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 3, 0, 0, DOMID_SELF), 1);
	check("decrease order 1 at g+4", resv1(XENMEM_decrease_reservation, g + 4, 1), 1);
	check("decrease order 1 at g+7 (unaligned)", resv1(XENMEM_decrease_reservation, g + 7, 1), 1);
	check("  current drops by 6", c0 - cur(), 6);
	check("decrease order 9 at g+0x200", resv1(XENMEM_decrease_reservation, g + 0x200, 9), 1);
	check("  current drops by 518", c0 - cur(), 518);
	check("decrease order 10", resv1(XENMEM_decrease_reservation, g + 0x400, MAX_ORDER + 1U), 0);
	check("decrease order 0x80000000",
	      resv1(XENMEM_decrease_reservation, g + 0x400, 0x80000000U), 0);
	check("decrease extent list at 0x1000",
	      resv(XENMEM_decrease_reservation, 0x1000, 1, 0, 0, DOMID_SELF), 0);
	check("decrease extent list NULL", resv(XENMEM_decrease_reservation, 0, 1, 0, 0, DOMID_SELF), 0);
	check("decrease reservation at 0x1000",
	      HYPERVISOR_memory_op(XENMEM_decrease_reservation, (void *)0x1000), 0);
	extents[0] = g + 0x10;
	check("decrease nr_extents 0",
	      resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 0, 0, 0, DOMID_SELF), 0);
	check("decrease nr_extents 2^58",
	      resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 1UL << 58, 0, 0,
		   DOMID_SELF), 0);
	check("decrease on d2", resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 1, 0,
				     0, 2), 0);
	check("decrease on d7", resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 1, 0,
				     0, 7), 0);
	check("decrease address_bits 8",
	      resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 1, 0, 8, DOMID_SELF), 0);
	check("decrease exact node 0",
	      resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 1, 0,
		   (1U << 8) | XENMEMF_exact_node_request, DOMID_SELF), 0);
	check("  current drops by 518", c0 - cur(), 518);
	check("decrease node 0 (not exact) at g+0x10",
	      resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 1, 0, 1U << 8,
		   DOMID_SELF), 1);
	extents[0] = g + 0x11;
	check("decrease vnode flag at g+0x11",
	      resv(XENMEM_decrease_reservation, (uint64_t)(uintptr_t)extents, 1, 0, XENMEMF_vnode,
		   DOMID_SELF), 1);
	/* Continuation encoding: start at extent 1 of [g+0x20, g+0x21]; the count includes it. */
	extents[0] = g + 0x20;
	extents[1] = g + 0x21;
	check("decrease [g+0x20, g+0x21] from extent 1",
	      resv(XENMEM_decrease_reservation | (1U << MEMOP_EXTENT_SHIFT),
		   (uint64_t)(uintptr_t)extents, 2, 0, 0, DOMID_SELF), 2);
	check("decrease from extent 2 of 2",
	      resv(XENMEM_decrease_reservation | (2U << MEMOP_EXTENT_SHIFT),
		   (uint64_t)(uintptr_t)extents, 2, 0, 0, DOMID_SELF), 2);
	check("  current drops by 521", c0 - cur(), 521);
	check("decrease the GIC distributor gfn", resv1(XENMEM_decrease_reservation, 0x3001, 0), 0);
	check("decrease the foreign grant mapping", resv1(XENMEM_decrease_reservation, MAP_GFN, 0), 0);
	check("  current drops by 521", c0 - cur(), 521);
}

static void populates(void)
{
	long c0 = cur();

	check("populate [g]", resv1(XENMEM_populate_physmap, g, 0), 1);
	check("  current grows by 1", cur() - c0, 1);
	check2("  the page comes back zeroed", page_is_zero(g), page_is_zero(g), 1);
	gpage(g)[0] = 1U; /* writable */
	check("populate order 10", resv1(XENMEM_populate_physmap, g + 1, MAX_ORDER + 1U), 0);
	check("populate extent list at 0x1000",
	      resv(XENMEM_populate_physmap, 0x1000, 1, 0, 0, DOMID_SELF), 0);
	extents[0] = g + 1;
	check("populate on demand on self",
	      resv(XENMEM_populate_physmap, (uint64_t)(uintptr_t)extents, 1, 0,
		   XENMEMF_populate_on_demand, DOMID_SELF), 0);
	check("populate on d2", resv(XENMEM_populate_physmap, (uint64_t)(uintptr_t)extents, 1, 0, 0, 2),
	      0);
	check("populate address_bits 8",
	      resv(XENMEM_populate_physmap, (uint64_t)(uintptr_t)extents, 1, 0, 8, DOMID_SELF), 0);
	check("populate [g+1]", resv(XENMEM_populate_physmap, (uint64_t)(uintptr_t)extents, 1, 0, 0,
				     DOMID_SELF), 1);
	check("populate order 1 at g+4", resv1(XENMEM_populate_physmap, g + 4, 1), 1);
	check("populate order 1 at g+7 (unaligned)", resv1(XENMEM_populate_physmap, g + 7, 1), 1);
	check("populate order 9 at g+0x200", resv1(XENMEM_populate_physmap, g + 0x200, 9), 1);
	extents[0] = g + 0x10;
	extents[1] = g + 0x11;
	check("populate [g+0x10, g+0x11]",
	      resv(XENMEM_populate_physmap, (uint64_t)(uintptr_t)extents, 2, 0, 0, DOMID_SELF), 2);
	/* From extent 1: extents[0] (mapped) is skipped, the count includes it. */
	extents[0] = g + 0x30;
	extents[1] = g + 0x21;
	check("populate [g+0x30, g+0x21] from extent 1",
	      resv(XENMEM_populate_physmap | (1U << MEMOP_EXTENT_SHIFT),
		   (uint64_t)(uintptr_t)extents, 2, 0, 0, DOMID_SELF), 2);
	check("  current back where it was", cur() - c0, 521);
	check("populate at the limit", resv1(XENMEM_populate_physmap, g + 0x30, 0), 0);
	check("increase at the limit", resv(XENMEM_increase_reservation, 0, 1, 0, 0, DOMID_SELF), 0);
}

static void increases(void)
{
	long c0 = cur();

	check("decrease [g+0x40]", resv1(XENMEM_decrease_reservation, g + 0x40, 0), 1);
	check("increase order 10", resv(XENMEM_increase_reservation, 0, 1, MAX_ORDER + 1U, 0,
					DOMID_SELF), 0);
	check("increase on d2", resv(XENMEM_increase_reservation, 0, 1, 0, 0, 2), 0);
	check("increase 1 (no list)", resv(XENMEM_increase_reservation, 0, 1, 0, 0, DOMID_SELF), 1);
	check("  current back where it was", cur() - c0, 0);
	check("populate [g+0x40] once increase took the page",
	      resv1(XENMEM_populate_physmap, g + 0x40, 0), 0);
	check("decrease [g+0x41]", resv1(XENMEM_decrease_reservation, g + 0x41, 0), 1);
	check("increase 1 with a list at 0x1000",
	      resv(XENMEM_increase_reservation, 0x1000, 1, 0, 0, DOMID_SELF), 1);
	check("  current back where it was", cur() - c0, 0);
}

static void removes(void)
{
	long c0 = cur();

	check("remove_from_physmap [g+0x50]", remove_gfn(DOMID_SELF, g + 0x50, 0), 0);
	check("  current unchanged", cur() - c0, 0);
	check("populate [g+0x50] after remove", resv1(XENMEM_populate_physmap, g + 0x50, 0), 0);
	check("remove_from_physmap [g+0x50] again", remove_gfn(DOMID_SELF, g + 0x50, 0), -XEN_ENOENT);
	check("remove_from_physmap beyond RAM", remove_gfn(DOMID_SELF, 0x50000, 0), -XEN_ENOENT);
	check("remove_from_physmap the foreign grant mapping", remove_gfn(DOMID_SELF, MAP_GFN, 0),
	      -XEN_ENOENT);
	check("remove_from_physmap on d2", remove_gfn(2, g + 0x51, 0), -XEN_EPERM);
	check("remove_from_physmap on d7", remove_gfn(7, g + 0x51, 0), -XEN_ESRCH);
	check("remove_from_physmap start extent 1",
	      remove_gfn(DOMID_SELF, g + 0x51, 1U << MEMOP_EXTENT_SHIFT), -XEN_EINVAL);
	check("remove_from_physmap at 0x1000",
	      HYPERVISOR_memory_op(XENMEM_remove_from_physmap, (void *)0x1000), -XEN_EFAULT);
}

static void hyp_pages(void)
{
	long c0 = cur();

	check("shared_info again at the same gfn", atp(DOMID_SELF, XENMAPSPACE_shared_info, 0,
						       SINFO_GFN, 0, 0), -XEN_EBUSY);
	check("shared_info at another gfn while placed",
	      atp(DOMID_SELF, XENMAPSPACE_shared_info, 0, SINFO_GFN - 1U, 0, 0), -XEN_EBUSY);
	check("remove_from_physmap shared_info", remove_gfn(DOMID_SELF, SINFO_GFN, 0), 0);
	check("shared_info placed again", atp(DOMID_SELF, XENMAPSPACE_shared_info, 0, SINFO_GFN, 0, 0),
	      0);
	check("decrease the shared_info gfn", resv1(XENMEM_decrease_reservation, SINFO_GFN, 0), 1);
	check("  current unchanged", cur() - c0, 0);
	check("shared_info placed again", atp(DOMID_SELF, XENMAPSPACE_shared_info, 0, SINFO_GFN, 0, 0),
	      0);
	check("grant frame 0 again at the same gfn", atp(DOMID_SELF, XENMAPSPACE_grant_table, 0,
							 GNT0_GFN, 0, 0), -XEN_EBUSY);
	check("grant frame 1 placed", atp(DOMID_SELF, XENMAPSPACE_grant_table, 1, GNT0_GFN + 1U, 0, 0),
	      0);
	check("remove_from_physmap grant frame 1", remove_gfn(DOMID_SELF, GNT0_GFN + 1U, 0), 0);
	check("grant frame 1 placed again", atp(DOMID_SELF, XENMAPSPACE_grant_table, 1,
						GNT0_GFN + 2U, 0, 0), 0);
	/* Xen drops the frame's allocation reference: it can never be placed again. */
	check("decrease the grant frame 1 gfn", resv1(XENMEM_decrease_reservation, GNT0_GFN + 2U, 0),
	      1);
	check("remove_from_physmap the decreased grant frame gfn",
	      remove_gfn(DOMID_SELF, GNT0_GFN + 2U, 0), -XEN_ENOENT);
	check("grant frame 1 placed after decrease", atp(DOMID_SELF, XENMAPSPACE_grant_table, 1,
							 GNT0_GFN + 2U, 0, 0), -XEN_EBUSY);
	check("grant frame 1 placed elsewhere after decrease",
	      atp(DOMID_SELF, XENMAPSPACE_grant_table, 1, GNT0_GFN + 3U, 0, 0), -XEN_EBUSY);
	check("  current unchanged", cur() - c0, 0);
}

/* GNTTABOP_query_size on itself: max_nr_frames, or -1. */
static long gnt_max_frames(void)
{
	struct gnttab_query_size q = { .dom = DOMID_SELF };

	if (HYPERVISOR_grant_table_op(GNTTABOP_query_size, &q, 1) != 0 || q.status != GNTST_okay) {
		return -1;
	}
	return (long)q.max_nr_frames;
}

/* The node says max_grant_frames = <8>, max_maptrack_frames = <1>. */
static void gnttab_sizes(void)
{
	/* Xen 4.18's properties: 4.17 ignores them (64 frames). */
	check2("query_size max_nr_frames (max_grant_frames = <8>)", gnt_max_frames(), 64, 8);
	check2("grant frame 8 (past the limit)", atp(DOMID_SELF, XENMAPSPACE_grant_table, 8,
						     GNT0_GFN + 8U, 0, 0), 0, -XEN_EINVAL);
	check("grant frame 7 (the last)", atp(DOMID_SELF, XENMAPSPACE_grant_table, 7, GNT0_GFN + 7U,
					      0, 0), 0);
}

static void add_to_physmap(void)
{
	static xen_ulong_t idxs[2] __attribute__((aligned(8)));
	static xen_pfn_t gpfns[2] __attribute__((aligned(8)));
	static int errs[2] __attribute__((aligned(8)));
	struct xen_add_to_physmap_batch b = {
		.domid = DOMID_SELF, .space = XENMAPSPACE_gmfn_foreign, .size = 1,
		.foreign_domid = 2, .idxs = (uint64_t)(uintptr_t)idxs,
		.gpfns = (uint64_t)(uintptr_t)gpfns, .errs = (uint64_t)(uintptr_t)errs,
	};

	check("add_to_physmap gmfn", atp(DOMID_SELF, XENMAPSPACE_gmfn, g, g + 0x60, 0, 0),
	      -XEN_ENOSYS);
	check("add_to_physmap gmfn_range", atp(DOMID_SELF, XENMAPSPACE_gmfn_range, g, g + 0x60, 1, 0),
	      -XEN_ENOSYS);
	check("add_to_physmap gmfn_range size 0",
	      atp(DOMID_SELF, XENMAPSPACE_gmfn_range, g, g + 0x60, 0, 0), 0);
	check("add_to_physmap gmfn_foreign", atp(DOMID_SELF, XENMAPSPACE_gmfn_foreign, g, g + 0x60,
						 0, 0), -XEN_ENOSYS);
	check("add_to_physmap dev_mmio", atp(DOMID_SELF, XENMAPSPACE_dev_mmio, 0x9000, 0x9000, 0, 0),
	      -XEN_EACCES);
	check("add_to_physmap space 6", atp(DOMID_SELF, 6, 0, g + 0x60, 0, 0), -XEN_ENOSYS);
	check("add_to_physmap on d2", atp(2, XENMAPSPACE_shared_info, 0, g + 0x60, 0, 0), -XEN_EPERM);
	check("add_to_physmap on d7", atp(7, XENMAPSPACE_shared_info, 0, g + 0x60, 0, 0), -XEN_ESRCH);
	check("add_to_physmap gpfn ~0", atp(DOMID_SELF, XENMAPSPACE_gmfn, 0, ~0ULL, 0, 0), -XEN_EINVAL);
	check("add_to_physmap start extent 2^16",
	      atp(DOMID_SELF, XENMAPSPACE_shared_info, 0, g + 0x60, 0, 0x10000U << MEMOP_EXTENT_SHIFT),
	      -XEN_EDOM);
	check("add_to_physmap grant frame 64", atp(DOMID_SELF, XENMAPSPACE_grant_table, 64, g + 0x60,
						   0, 0), -XEN_EINVAL);
	check("add_to_physmap shared_info idx 1", atp(DOMID_SELF, XENMAPSPACE_shared_info, 1,
						      g + 0x60, 0, 0), -XEN_EINVAL);

	idxs[0] = g;
	gpfns[0] = g + 0x60;
	errs[0] = 12345;
	check("add_to_physmap_batch gmfn_foreign from d2",
	      HYPERVISOR_memory_op(XENMEM_add_to_physmap_batch, &b), 0);
	check("  errs[0]", errs[0], -XEN_EPERM);
	b.foreign_domid = 7;
	check("add_to_physmap_batch gmfn_foreign from d7",
	      HYPERVISOR_memory_op(XENMEM_add_to_physmap_batch, &b), 0);
	check("  errs[0]", errs[0], -XEN_ESRCH);
	b.foreign_domid = DOMID_SELF;
	check("add_to_physmap_batch gmfn_foreign from self",
	      HYPERVISOR_memory_op(XENMEM_add_to_physmap_batch, &b), 0);
	check("  errs[0]", errs[0], -XEN_EINVAL);
	b.space = XENMAPSPACE_gmfn_range;
	check("add_to_physmap_batch gmfn_range", HYPERVISOR_memory_op(XENMEM_add_to_physmap_batch, &b),
	      -XEN_EOPNOTSUPP);
	b.space = XENMAPSPACE_gmfn;
	b.foreign_domid = 0;
	check("add_to_physmap_batch gmfn", HYPERVISOR_memory_op(XENMEM_add_to_physmap_batch, &b), 0);
	check("  errs[0]", errs[0], -XEN_ENOSYS);
	b.errs = 0x1000;
	check("add_to_physmap_batch errs at 0x1000",
	      HYPERVISOR_memory_op(XENMEM_add_to_physmap_batch, &b), -XEN_EFAULT);
	b.domid = 2;
	check("add_to_physmap_batch on d2", HYPERVISOR_memory_op(XENMEM_add_to_physmap_batch, &b),
	      -XEN_EPERM);
	check("add_to_physmap_batch at 0x1000",
	      HYPERVISOR_memory_op(XENMEM_add_to_physmap_batch, (void *)0x1000), -XEN_EFAULT);
}

/* The sub-ops a domU can only be refused, or that report nothing. */
static void others(void)
{
	static uint64_t buf[16] __attribute__((aligned(64)));
	static const struct { unsigned int op; long want; } plain[] = {
		{ XENMEM_machphys_mfn_list, -XEN_ENOSYS }, { 8, -XEN_ENOSYS },
		{ XENMEM_memory_map, -XEN_ENOSYS }, { XENMEM_machine_memory_map, -XEN_ENOSYS },
		{ XENMEM_machphys_mapping, -XEN_ENOSYS }, { XENMEM_set_memory_map, -XEN_ENOSYS },
		{ XENMEM_set_pod_target, -XEN_ENOSYS }, { XENMEM_get_pod_target, -XEN_ENOSYS },
		{ XENMEM_get_sharing_freed_pages, 0 }, { XENMEM_get_sharing_shared_pages, 0 },
		{ XENMEM_paging_op, -XEN_ENOSYS }, { XENMEM_access_op, -XEN_ENOSYS },
		{ XENMEM_sharing_op, -XEN_ENOSYS }, { XENMEM_machphys_compat_mfn_list, -XEN_ENOSYS },
		{ XENMEM_get_vnumainfo_compat, -XEN_ENOSYS }, { 30, -XEN_ENOSYS }, { 63, -XEN_ENOSYS },
	};
	char what[64];
	unsigned int i;
	struct xen_memory_reservation *r = (struct xen_memory_reservation *)buf;
	uint16_t *u16 = (uint16_t *)buf;
	uint32_t *u32 = (uint32_t *)buf;

	for (i = 0; i < ARRAY_SIZE(plain); i++) {
		memset(buf, 0, sizeof(buf));
		u16[0] = DOMID_SELF;
		snprintf(what, sizeof(what), "memory_op %u", plain[i].op);
		check(what, HYPERVISOR_memory_op(plain[i].op, buf), plain[i].want);
	}

	/* exchange: checks, then steal_page() fails on Arm. */
	memset(buf, 0, sizeof(buf));
	check("exchange of nothing", HYPERVISOR_memory_op(XENMEM_exchange, buf), 0);
	check("exchange at 0x1000", HYPERVISOR_memory_op(XENMEM_exchange, (void *)0x1000), -XEN_EFAULT);
	check("exchange start extent 1",
	      HYPERVISOR_memory_op(XENMEM_exchange | (1U << MEMOP_EXTENT_SHIFT), buf), -XEN_EINVAL);
	/* in = buf[0..3], out = buf[4..7], nr_exchanged = buf[8]. */
	extents[0] = g + 0x70;
	buf[0] = (uint64_t)(uintptr_t)extents; buf[1] = 1; r[0].domid = DOMID_SELF;
	buf[4] = (uint64_t)(uintptr_t)&extents[4]; buf[5] = 1; r[1].domid = DOMID_SELF;
	check("exchange one page", HYPERVISOR_memory_op(XENMEM_exchange, buf), -XEN_EOPNOTSUPP);
	check("  nr_exchanged", (long)buf[8], 0);
	r[0].extent_order = 10; r[1].extent_order = 10;
	check("exchange order 10", HYPERVISOR_memory_op(XENMEM_exchange, buf), -XEN_EPERM);
	r[0].extent_order = 0; r[1].extent_order = 1;
	check("exchange sizes differ", HYPERVISOR_memory_op(XENMEM_exchange, buf), -XEN_EINVAL);
	r[1].extent_order = 0; r[1].domid = 2;
	check("exchange domids differ", HYPERVISOR_memory_op(XENMEM_exchange, buf), -XEN_EINVAL);
	r[0].domid = 2;
	check("exchange on d2", HYPERVISOR_memory_op(XENMEM_exchange, buf), -XEN_EPERM);
	r[0].domid = 7; r[1].domid = 7;
	check("exchange on d7", HYPERVISOR_memory_op(XENMEM_exchange, buf), -XEN_ESRCH);
	r[0].domid = DOMID_SELF; r[1].domid = DOMID_SELF;
	extents[0] = 0x50000;
	check("exchange a gfn beyond RAM", HYPERVISOR_memory_op(XENMEM_exchange, buf), -XEN_EINVAL);

	/* claim_pages: privileged, after its argument checks. */
	memset(buf, 0, sizeof(buf));
	r->domid = 1;
	check("claim_pages on self", HYPERVISOR_memory_op(XENMEM_claim_pages, buf), -XEN_EPERM);
	r->domid = DOMID_SELF;
	check("claim_pages on DOMID_SELF", HYPERVISOR_memory_op(XENMEM_claim_pages, buf), -XEN_EINVAL);
	r->domid = 1; r->extent_order = 1;
	check("claim_pages order 1", HYPERVISOR_memory_op(XENMEM_claim_pages, buf), -XEN_EINVAL);
	check("claim_pages at 0x1000", HYPERVISOR_memory_op(XENMEM_claim_pages, (void *)0x1000),
	      -XEN_EFAULT);

	/* get_vnumainfo: no vNUMA on a dom0less domU. */
	memset(buf, 0, sizeof(buf));
	u16[0] = DOMID_SELF;
	check("get_vnumainfo on self", HYPERVISOR_memory_op(XENMEM_get_vnumainfo, buf),
	      -XEN_EOPNOTSUPP);
	u16[0] = 2;
	check("get_vnumainfo on d2", HYPERVISOR_memory_op(XENMEM_get_vnumainfo, buf), -XEN_EPERM);
	u16[0] = 7;
	check("get_vnumainfo on d7", HYPERVISOR_memory_op(XENMEM_get_vnumainfo, buf), -XEN_ESRCH);
	u16[0] = DOMID_SELF; u16[1] = 1;
	check("get_vnumainfo pad 1", HYPERVISOR_memory_op(XENMEM_get_vnumainfo, buf), -XEN_EINVAL);

	/* reserved_device_memory_map {flags, nr_entries, buffer, dev}: nothing reserved. */
	memset(buf, 0, sizeof(buf));
	u32[1] = 5;
	check("reserved_device_memory_map", HYPERVISOR_memory_op(XENMEM_reserved_device_memory_map,
								 buf), 0);
	check("  nr_entries", u32[1], 0);
	u32[0] = 2;
	check("reserved_device_memory_map flags 2",
	      HYPERVISOR_memory_op(XENMEM_reserved_device_memory_map, buf), -XEN_EINVAL);
	check("reserved_device_memory_map at 0x1000",
	      HYPERVISOR_memory_op(XENMEM_reserved_device_memory_map, (void *)0x1000), -XEN_EFAULT);
	u32[0] = 0;
	check("reserved_device_memory_map start extent 1",
	      HYPERVISOR_memory_op(XENMEM_reserved_device_memory_map | (1U << MEMOP_EXTENT_SHIFT),
				   buf), -XEN_EINVAL);

	/* acquire_resource: a domU maps no other domain's resources. */
	memset(buf, 0, sizeof(buf));
	u16[0] = 1;
	u16[1] = 1; /* XENMEM_resource_grant_table */
	check("acquire_resource on self", HYPERVISOR_memory_op(XENMEM_acquire_resource, buf),
	      -XEN_EPERM);
	u16[0] = 2;
	check("acquire_resource on d2", HYPERVISOR_memory_op(XENMEM_acquire_resource, buf), -XEN_EPERM);
	u16[0] = DOMID_SELF;
	check("acquire_resource on DOMID_SELF", HYPERVISOR_memory_op(XENMEM_acquire_resource, buf),
	      -XEN_ESRCH);
	u32[3] = 1;
	check("acquire_resource pad 1", HYPERVISOR_memory_op(XENMEM_acquire_resource, buf),
	      -XEN_EINVAL);
}

static void deviations(long ram_pages)
{
	long c0 = cur();

	/* Room for two pages: give them back, then ask for pages elsewhere. */
	check("decrease [g+0x80]", resv1(XENMEM_decrease_reservation, g + 0x80, 0), 1);
	check("decrease [g+0x82]", resv1(XENMEM_decrease_reservation, g + 0x82, 0), 1);
	check2("populate [g+0x81] (still mapped)", resv1(XENMEM_populate_physmap, g + 0x81, 0), 1, 0);
	check2("populate beyond RAM",
	       resv1(XENMEM_populate_physmap, ram_gfn + (uint64_t)ram_pages + 0x100U, 0), 1, 0);
	check("populate in the grant window", resv1(XENMEM_populate_physmap, 0x38800, 0), 0);
	check2("  current", cur() - c0, 0, -2);
}

static void xen_version_ops(void)
{
	static union {
		struct xen_compile_info ci;
		char s[1024];
		struct xen_platform_parameters pp;
		struct xen_feature_info fi;

		uint8_t b[1024];
	} u __attribute__((aligned(64)));
	unsigned int i;
	char what[64];

	check("xen_version version", xen_version(), (4 << 16) | 17);
	memset(&u, 0xff, sizeof(u));
	check("xen_version extraversion", HYPERVISOR_xen_version(XENVER_extraversion, &u), 0);
	check("  extraversion is a string", strlen(u.s) < XEN_EXTRAVERSION_LEN, 1);
	memset(&u, 0xff, sizeof(u));
	check("xen_version compile_info", HYPERVISOR_xen_version(XENVER_compile_info, &u), 0);
	check("  compiler is a string", strlen(u.ci.compiler) < 64 && u.ci.compiler[0] != 0, 1);
	check("  compile_date is a string", strlen(u.ci.compile_date) < 32, 1);
	memset(&u, 0xff, sizeof(u));
	check("xen_version capabilities", HYPERVISOR_xen_version(XENVER_capabilities, &u), 0);
	/* Xen adds xen-3.0-armv7l when the CPU runs AArch32 at EL1 (the Cortex-A57 and A53 the
	 * tests run on do); Bulkhead runs AArch64 partitions only. */
	check2("  capabilities is \"xen-3.0-aarch64 xen-3.0-armv7l \" (1), \"xen-3.0-aarch64 \" (2)",
	       strcmp(u.s, "xen-3.0-aarch64 xen-3.0-armv7l ") == 0 ? 1 :
	       (strcmp(u.s, "xen-3.0-aarch64 ") == 0 ? 2 : 0), 1, 2);
	memset(&u, 0xff, sizeof(u));
	check("xen_version changeset", HYPERVISOR_xen_version(XENVER_changeset, &u), 0);
	check("  changeset is a string", strlen(u.s) < 64, 1);
	memset(&u, 0xff, sizeof(u));
	check("xen_version platform_parameters",
	      HYPERVISOR_xen_version(XENVER_platform_parameters, &u), 0);
	printf("M: platform_parameters virt_start 0x%lx\n", u.pp.virt_start);
	for (i = 0; i < 4; i++) {
		u.fi.submap_idx = i;
		u.fi.submap = 0x12345678U;
		snprintf(what, sizeof(what), "xen_version get_features %u", i);
		check(what, HYPERVISOR_xen_version(XENVER_get_features, &u), i == 0 ? 0 : -XEN_EINVAL);
		if (i == 0) {
			check("  submap 0", u.fi.submap,
			      (1 << XENFEAT_writable_page_tables) |
			      (1 << XENFEAT_auto_translated_physmap) |
			      (1 << XENFEAT_memory_op_vnode_supported) |
			      (1 << XENFEAT_ARM_SMCCC_supported) | (1 << XENFEAT_not_direct_mapped));
		}
	}
	u.fi.submap_idx = 0xffffffffU;
	check("xen_version get_features 0xffffffff", HYPERVISOR_xen_version(XENVER_get_features, &u),
	      -XEN_EINVAL);
	check("xen_version get_features at 0x1000",
	      HYPERVISOR_xen_version(XENVER_get_features, (void *)0x1000), -XEN_EFAULT);
	check("xen_version pagesize", HYPERVISOR_xen_version(XENVER_pagesize, NULL), 4096);
	check("xen_version pagesize with a buffer", HYPERVISOR_xen_version(XENVER_pagesize, &u),
	      -XEN_EINVAL);
	memset(&u, 0xff, sizeof(u));
	check("xen_version guest_handle", HYPERVISOR_xen_version(XENVER_guest_handle, &u), 0);
	for (i = 0; i < XEN_DOMAIN_HANDLE_LEN && u.b[i] == 0; i++) {
	}
	check("  guest_handle is zero", i == XEN_DOMAIN_HANDLE_LEN, 1);
	memset(&u, 0xff, sizeof(u));
	check("xen_version commandline", HYPERVISOR_xen_version(XENVER_commandline, &u), 0);
	check("  commandline is <denied>", strcmp(u.s, "<denied>") == 0 && u.b[9] == 0xff, 1);
	check("xen_version build_id", HYPERVISOR_xen_version(XENVER_build_id, NULL), -XEN_EPERM);
	*(uint32_t *)u.b = 64;
	check("xen_version build_id with a buffer", HYPERVISOR_xen_version(XENVER_build_id, &u),
	      -XEN_EPERM);
	check("xen_version 11", HYPERVISOR_xen_version(11, &u), -XEN_ENOSYS);
	check("xen_version 0x80000000", HYPERVISOR_xen_version(0x80000000U, &u), -XEN_ENOSYS);
	check("xen_version extraversion at 0x1000",
	      HYPERVISOR_xen_version(XENVER_extraversion, (void *)0x1000), -XEN_EFAULT);
	check("xen_version compile_info at 0x1000",
	      HYPERVISOR_xen_version(XENVER_compile_info, (void *)0x1000), -XEN_EFAULT);
	check("xen_version capabilities at 0x1000",
	      HYPERVISOR_xen_version(XENVER_capabilities, (void *)0x1000), -XEN_EFAULT);
	check("xen_version changeset at 0x1000",
	      HYPERVISOR_xen_version(XENVER_changeset, (void *)0x1000), -XEN_EFAULT);
	check("xen_version platform_parameters at 0x1000",
	      HYPERVISOR_xen_version(XENVER_platform_parameters, (void *)0x1000), -XEN_EFAULT);
	check("xen_version guest_handle at 0x1000",
	      HYPERVISOR_xen_version(XENVER_guest_handle, (void *)0x1000), -XEN_EFAULT);
	check("xen_version commandline at 0x1000",
	      HYPERVISOR_xen_version(XENVER_commandline, (void *)0x1000), -XEN_EFAULT);
}

static int granter(void)
{
	static uint8_t page[PAGE] __attribute__((aligned(PAGE)));
	volatile uint16_t *flags;
	uint64_t t0 = cntpct();
	uint64_t limit = cntfrq() * 30U;
	bool seen = false;

	if (gnt_setup(1) != 0) {
		printf("G: FAIL grant table\n");
		return 1;
	}
	/* Its node says nothing: Xen's default size. */
	printf("G: max_nr_frames %ld%s\n", gnt_max_frames(), gnt_max_frames() == 64 ? "" : " MISMATCH");
	((volatile uint32_t *)page)[0] = 0x6ea47e42U;
	gnt_grant(REF, 1, (uint64_t)(uintptr_t)page >> 12, false);
	flags = &gnt_entry(REF)->flags;
	/* Wait for main to map the grant and unmap it again (bounded). */
	while (cntpct() - t0 < limit) {
		uint16_t f = *flags;
		if ((f & (GTF_reading | GTF_writing)) != 0U) {
			seen = true;
		} else if (seen) {
			break;
		}
		udelay(1000);
	}
	printf("G: grant %s, page still 0x%x\n", seen ? "mapped and unmapped" : "never mapped",
	       ((volatile uint32_t *)page)[0]);
	return seen ? 0 : 1;
}

int test_main(void)
{
	char role[16] = "main";
	char extra[XEN_EXTRAVERSION_LEN];
	long ram_pages = (long)(rt.ram_size / PAGE);
	grant_handle_t h = 0;
	int st = -1;
	unsigned int tries;

	(void)rt_arg("role", role, sizeof(role));
	if (strcmp(role, "granter") == 0) {
		return granter();
	}
	memset(extra, 0, sizeof(extra));
	(void)HYPERVISOR_xen_version(XENVER_extraversion, extra);
	on_bulkhead = strncmp(extra, "-bulkhead", 9) == 0;
	ram_gfn = rt.ram_base >> 12;
	g = ram_gfn + 0x400U;
	printf("M: memop on %s, %ld pages of RAM\n", on_bulkhead ? "Bulkhead" : "Xen", ram_pages);
	if ((gnt_setup(1) != 0) || (evt_setup(false) != 0)) {
		printf("M: FAIL setup\n");
		return 1;
	}
	/* The granter starts at the same time: retry for a few seconds. */
	for (tries = 0; tries < 3000U && st != GNTST_okay; tries++) {
		st = gnt_map(2, REF, MAP_GFN << 12, false, &h);
		if (st != GNTST_okay) {
			udelay(1000);
		}
	}
	check("map the granter's page", st, GNTST_okay);

	queries(ram_pages);
	decreases(ram_pages);
	populates();
	increases();
	removes();
	hyp_pages();
	gnttab_sizes();
	add_to_physmap();
	others();
	xen_version_ops();
	check("granter's page still mapped", gpage(MAP_GFN)[0], 0x6ea47e42);
	check("unmap the granter's page", gnt_unmap(MAP_GFN << 12, h), GNTST_okay);
	deviations(ram_pages);
	printf("M: memop done, %d mismatches\n", fails);
	return fails != 0;
}
