/* SPDX-License-Identifier: MIT */
/*
 * memory_op inside a static partition: reservation changes (decrease,
 * populate, increase) with Xen's counts and accounting, pages kept in the
 * partition and scrubbed on their way back, holes that grant maps fill,
 * the query and refused sub-ops with Xen's codes. guests/memop checks the
 * same answers against Xen 4.17 itself.
 */
#include "harness.h"
#include <string.h>
#include <public/memory.h>

#define RAM4 (UL(4) << 20)   /* two 2 MiB blocks: the split path */
#define ARGS 0x0fU           /* argument page: the struct at offset 0, extents at 0x800 */

static struct domain *d1;
static struct domain *d2;
static gfn_t ram0;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = host_domain_running(1, 2, RAM4);
	d2 = harness_domain(2, 1);
	assert_non_null(d1);
	ram0 = GUEST_RAM0_BASE >> PAGE_SHIFT;
	return 0;
}

static paddr_t arg_gpa(unsigned int off)
{
	return harness_ram(ARGS, off);
}

/* A reservation op on d1 with extents list[0..nr) (copied into its RAM). */
static long resv(unsigned int op, const xen_pfn_t *list, unsigned long nr, unsigned int order,
		 unsigned int flags, domid_t dom)
{
	struct xen_memory_reservation *r = harness_gpa(d1, arg_gpa(0));
	xen_pfn_t *ext = harness_gpa(d1, arg_gpa(0x800));
	unsigned long i;

	for (i = 0; (list != NULL) && (i < nr) && (nr <= 64); i++) {
		ext[i] = list[i];
	}
	memset(r, 0, sizeof(*r));
	r->extent_start = arg_gpa(0x800);
	r->nr_extents = nr;
	r->extent_order = order;
	r->mem_flags = flags;
	r->domid = dom;
	return harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, op, arg_gpa(0), 0);
}

static long resv1(unsigned int op, gfn_t gfn, unsigned int order)
{
	xen_pfn_t l = gfn;

	return resv(op, &l, 1, order, 0, DOMID_SELF);
}

static long query(struct domain *d, regval_t op, domid_t dom)
{
	domid_t *p = harness_gpa(d, arg_gpa(0x100));

	*p = dom;
	return harness_call(&d->vcpu[0], __HYPERVISOR_memory_op, op, arg_gpa(0x100), 0);
}

static bool mapped(struct domain *d, gfn_t gfn, mfn_t *mfn, enum p2m_type *t)
{
	mfn_t m;
	enum p2m_type tt;

	return p2m_lookup(&d->p2m, gfn, mfn != NULL ? mfn : &m, t != NULL ? t : &tt) == 0;
}

VERIFIES(REQ-MEM-004)
static void test_decrease_populate(void **state)
{
	gfn_t g = ram0 + 0x100;
	mfn_t before;
	mfn_t after;
	mfn_t next_before;
	mfn_t next_after;
	uint32_t *page;
	long max = (long)(RAM4 >> PAGE_SHIFT);

	(void)state;
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max);
	assert_int_equal(query(d1, XENMEM_maximum_reservation, DOMID_SELF), max);
	assert_true(mapped(d1, g, &before, NULL));
	assert_true(mapped(d1, g + 1, &next_before, NULL));
	page = harness_gpa(d1, g << PAGE_SHIFT);
	page[7] = 0xdeadbeefU;

	assert_int_equal(resv1(XENMEM_decrease_reservation, g, 0), 1);
	assert_false(mapped(d1, g, NULL, NULL));
	/* The block was split: its other pages keep their frames. */
	assert_true(mapped(d1, g + 1, &next_after, NULL));
	assert_int_equal(next_after, next_before);
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max - 1);
	assert_int_equal(resv1(XENMEM_decrease_reservation, g, 0), 0);

	/* Back: the same frame at the same gfn, scrubbed. */
	assert_int_equal(resv1(XENMEM_populate_physmap, g, 0), 1);
	assert_true(mapped(d1, g, &after, NULL));
	assert_int_equal(after, before);
	assert_int_equal(((uint32_t *)harness_gpa(d1, g << PAGE_SHIFT))[7], 0);
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max);
	/* Never past the device tree's memory: nothing to populate, nothing to increase. */
	assert_int_equal(resv1(XENMEM_populate_physmap, g, 0), 0);
	assert_int_equal(resv(XENMEM_increase_reservation, NULL, 1, 0, 0, DOMID_SELF), 0);
	/* The other partition never noticed. */
	assert_int_equal(query(d2, XENMEM_current_reservation, DOMID_SELF),
			 (long)(HARNESS_RAM_BYTES >> PAGE_SHIFT));
}

VERIFIES(REQ-MEM-004)
static void test_extents_orders_and_counts(void **state)
{
	gfn_t g = ram0 + 0x200; /* 2 MiB aligned: the second block */
	xen_pfn_t list[3] = { ram0 + 0x10, ram0 + 0x5000, ram0 + 0x11 };
	long max = (long)(RAM4 >> PAGE_SHIFT);

	(void)state;
	/* Stops at the first extent that fails: a gfn beyond RAM. */
	assert_int_equal(resv(XENMEM_decrease_reservation, list, 3, 0, 0, DOMID_SELF), 1);
	assert_true(mapped(d1, ram0 + 0x11, NULL, NULL));
	/* A whole block, and an unaligned order-1 extent. */
	assert_int_equal(resv1(XENMEM_decrease_reservation, g, 9), 1);
	assert_int_equal(resv1(XENMEM_decrease_reservation, ram0 + 0x21, 1), 1);
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max - 515);
	/* An order-1 extent with one half still mapped changes nothing on populate. */
	assert_int_equal(resv1(XENMEM_populate_physmap, ram0 + 0x22, 1), 0);
	assert_false(mapped(d1, ram0 + 0x22, NULL, NULL));
	/* Part of an extent fails on decrease: the pages before it are given back, it is not counted. */
	assert_int_equal(resv1(XENMEM_decrease_reservation, ram0 + 0x1ff, 1), 0);
	assert_false(mapped(d1, ram0 + 0x1ff, NULL, NULL));
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max - 516);
	assert_int_equal(resv1(XENMEM_populate_physmap, g, 9), 1);
	assert_int_equal(resv1(XENMEM_populate_physmap, ram0 + 0x21, 1), 1);
	list[0] = ram0 + 0x10;
	list[1] = ram0 + 0x1ff;
	assert_int_equal(resv(XENMEM_populate_physmap, list, 2, 0, 0, DOMID_SELF), 2);
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max);
	/* Order 10 is above Xen's domU limit. */
	assert_int_equal(resv1(XENMEM_decrease_reservation, g, 10), 0);
}

VERIFIES(REQ-MEM-004)
static void test_long_list_is_continued(void **state)
{
	xen_pfn_t list[40];
	unsigned int i;

	(void)state;
	for (i = 0; i < 40; i++) {
		list[i] = ram0 + 0x300 + i;
	}
	assert_int_equal(resv(XENMEM_decrease_reservation, list, 40, 0, 0, DOMID_SELF), 40);
	assert_int_equal(d1->vcpu[0].arch.continuations, 2); /* 16 pages a call on the host */
	/* A continued call resumes at its extent and counts from the start. */
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_populate_physmap | (38U << MEMOP_EXTENT_SHIFT),
				      arg_gpa(0), 0), 40);
	assert_true(mapped(d1, ram0 + 0x300 + 39, NULL, NULL));
	assert_false(mapped(d1, ram0 + 0x300 + 37, NULL, NULL));
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_populate_physmap | (40U << MEMOP_EXTENT_SHIFT),
				      arg_gpa(0), 0), 40);
}

VERIFIES(REQ-MEM-005)
static void test_bad_reservations_return_start(void **state)
{
	gfn_t g = ram0 + 0x40;
	struct xen_memory_reservation *r;
	long max = (long)(RAM4 >> PAGE_SHIFT);
	xen_pfn_t l = g;

	(void)state;
	assert_int_equal(resv1(XENMEM_decrease_reservation, g, 0x80000000U), 0);
	assert_int_equal(resv(XENMEM_decrease_reservation, &l, 1, 0, 0, 2), 0);
	assert_int_equal(resv(XENMEM_decrease_reservation, &l, 1, 0, 0, 9), 0);
	assert_int_equal(resv(XENMEM_decrease_reservation, &l, 1, 0, 8, DOMID_SELF), 0);
	assert_int_equal(resv(XENMEM_decrease_reservation, &l, 1, 0,
			      (1U << 8) | XENMEMF_exact_node_request, DOMID_SELF), 0);
	assert_int_equal(resv(XENMEM_decrease_reservation, &l, 1UL << 58, 0, 0, DOMID_SELF), 0);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_decrease_reservation, 0x1000, 0), 0);
	/* The extent list itself at a bad address: nothing done. */
	r = harness_gpa(d1, arg_gpa(0));
	r->extent_start = 0x1000;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_decrease_reservation, arg_gpa(0), 0), 0);
	/* Not pages of the partition: the grant window, a hypervisor address, a device. */
	assert_int_equal(resv1(XENMEM_decrease_reservation, GUEST_GNTTAB_BASE >> PAGE_SHIFT, 0), 0);
	assert_int_equal(resv1(XENMEM_decrease_reservation, 0x3001, 0), 0);
	assert_int_equal(resv1(XENMEM_decrease_reservation, ~(xen_pfn_t)0, 0), 0);
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max);
	/* Populate: on demand on oneself, above its RAM, in the grant window. */
	assert_int_equal(resv1(XENMEM_decrease_reservation, g, 0), 1);
	assert_int_equal(resv(XENMEM_populate_physmap, &l, 1, 0, XENMEMF_populate_on_demand,
			      DOMID_SELF), 0);
	assert_int_equal(resv1(XENMEM_populate_physmap, ram0 + (RAM4 >> PAGE_SHIFT), 0), 0);
	assert_int_equal(resv1(XENMEM_populate_physmap, GUEST_GNTTAB_BASE >> PAGE_SHIFT, 0), 0);
	assert_int_equal(resv1(XENMEM_populate_physmap, g + 1, 0), 0); /* still mapped */
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max - 1);
}

VERIFIES(REQ-MEM-004)
static void test_increase_takes_the_room(void **state)
{
	gfn_t g = ram0 + 0x50;
	long max = (long)(RAM4 >> PAGE_SHIFT);

	(void)state;
	assert_int_equal(resv1(XENMEM_decrease_reservation, g, 0), 1);
	assert_int_equal(resv(XENMEM_increase_reservation, NULL, 1, 10, 0, DOMID_SELF), 0);
	assert_int_equal(resv(XENMEM_increase_reservation, NULL, 1, 0, 0, DOMID_SELF), 1);
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max);
	/* As on Xen the page increase took has no gfn: populate has no room left. */
	assert_int_equal(resv1(XENMEM_populate_physmap, g, 0), 0);
	assert_false(mapped(d1, g, NULL, NULL));
}

VERIFIES(REQ-MEM-006)
static void test_grant_map_fills_a_hole(void **state)
{
	gfn_t hole = ram0 + 0x60;
	gfn_t frame2 = (GUEST_RAM0_BASE >> PAGE_SHIFT) + 5;
	struct gnttab_map_grant_ref *m = harness_gpa(d1, arg_gpa(0x400));
	struct gnttab_unmap_grant_ref *u = harness_gpa(d1, arg_gpa(0x400));
	mfn_t mfn;
	enum p2m_type t;
	grant_handle_t h;

	(void)state;
	harness_gnt_grant(d2, 8, 1, frame2, GTF_permit_access);
	assert_int_equal(resv1(XENMEM_decrease_reservation, hole, 0), 1);
	memset(m, 0, sizeof(*m));
	m->host_addr = hole << PAGE_SHIFT;
	m->flags = GNTMAP_host_map;
	m->ref = 8;
	m->dom = 2;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_grant_table_op,
				      GNTTABOP_map_grant_ref, arg_gpa(0x400), 1), 0);
	assert_int_equal(m->status, GNTST_okay);
	h = m->handle;
	assert_true(mapped(d1, hole, &mfn, &t));
	assert_int_equal(t, p2m_grant_map_rw);
	/* The foreign page is not the partition's to give back or to replace. */
	assert_int_equal(resv1(XENMEM_decrease_reservation, hole, 0), 0);
	assert_int_equal(resv1(XENMEM_populate_physmap, hole, 0), 0);
	memset(u, 0, sizeof(*u));
	u->host_addr = hole << PAGE_SHIFT;
	u->handle = h;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_grant_table_op,
				      GNTTABOP_unmap_grant_ref, arg_gpa(0x400), 1), 0);
	assert_int_equal(resv1(XENMEM_populate_physmap, hole, 0), 1);
	assert_true(mapped(d1, hole, NULL, &t));
	assert_int_equal(t, p2m_ram_rw);
}

static long atp(unsigned int space, uint64_t idx, gfn_t gfn)
{
	struct xen_add_to_physmap *x = harness_gpa(d1, arg_gpa(0x200));

	memset(x, 0, sizeof(*x));
	x->domid = DOMID_SELF;
	x->space = space;
	x->idx = idx;
	x->gpfn = gfn;
	return harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
			    arg_gpa(0x200), 0);
}

static long rfp(domid_t dom, gfn_t gfn, unsigned int extra)
{
	struct xen_remove_from_physmap *x = harness_gpa(d1, arg_gpa(0x200));

	memset(x, 0, sizeof(*x));
	x->domid = dom;
	x->gpfn = gfn;
	return harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
			    XENMEM_remove_from_physmap | extra, arg_gpa(0x200), 0);
}

VERIFIES(REQ-MEM-007)
static void test_hypervisor_pages(void **state)
{
	gfn_t win = GUEST_GNTTAB_BASE >> PAGE_SHIFT;
	long max = (long)(RAM4 >> PAGE_SHIFT);

	(void)state;
	assert_int_equal(atp(XENMAPSPACE_shared_info, 0, win + 0xfff), 0);
	assert_int_equal(atp(XENMAPSPACE_grant_table, 0, win), 0);
	assert_int_equal(atp(XENMAPSPACE_grant_table, 1, win + 1), 0);
	/* shared_info given back: unmapped, not counted, placeable again. */
	assert_int_equal(resv1(XENMEM_decrease_reservation, win + 0xfff, 0), 1);
	assert_false(mapped(d1, win + 0xfff, NULL, NULL));
	assert_int_equal(d1->shared_info_gfn, INVALID_GFN);
	assert_int_equal(atp(XENMAPSPACE_shared_info, 0, win + 0xffe), 0);
	/* A grant frame given back is lost for good (Xen drops its allocation reference). */
	assert_int_equal(resv1(XENMEM_decrease_reservation, win + 1, 0), 1);
	assert_int_equal(atp(XENMAPSPACE_grant_table, 1, win + 1), -XEN_EBUSY);
	assert_int_equal(atp(XENMAPSPACE_grant_table, 1, win + 2), -XEN_EBUSY);
	/* remove_from_physmap only unplaces it. */
	assert_int_equal(rfp(DOMID_SELF, win, 0), 0);
	assert_int_equal(atp(XENMAPSPACE_grant_table, 0, win + 3), 0);
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max);
	/* A restart forgets it. */
	domain_restart(d1);
	assert_int_equal(atp(XENMAPSPACE_grant_table, 1, win + 1), 0);
}

VERIFIES(REQ-MEM-007)
static void test_remove_from_physmap(void **state)
{
	gfn_t g = ram0 + 0x70;
	long max = (long)(RAM4 >> PAGE_SHIFT);

	(void)state;
	assert_int_equal(rfp(DOMID_SELF, g, 0), 0);
	assert_false(mapped(d1, g, NULL, NULL));
	/* The page stays counted: a hole it fills only after giving back another page. */
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max);
	assert_int_equal(resv1(XENMEM_populate_physmap, g, 0), 0);
	assert_int_equal(rfp(DOMID_SELF, g, 0), -XEN_ENOENT);
	assert_int_equal(rfp(DOMID_SELF, 0x3001, 0), -XEN_ENOENT);
	assert_int_equal(rfp(2, g + 1, 0), -XEN_EPERM);
	assert_int_equal(rfp(9, g + 1, 0), -XEN_ESRCH);
	assert_int_equal(rfp(DOMID_SELF, g + 1, 1U << MEMOP_EXTENT_SHIFT), -XEN_EINVAL);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_remove_from_physmap, 0x1000, 0), -XEN_EFAULT);
	assert_int_equal(resv1(XENMEM_decrease_reservation, g + 1, 0), 1);
	assert_int_equal(resv1(XENMEM_populate_physmap, g, 0), 1);
	/* A restart maps all of its RAM again. */
	assert_int_equal(resv1(XENMEM_decrease_reservation, g + 2, 0), 1);
	domain_restart(d1);
	assert_true(mapped(d1, g + 1, NULL, NULL));
	assert_true(mapped(d1, g + 2, NULL, NULL));
	assert_int_equal(query(d1, XENMEM_current_reservation, DOMID_SELF), max);
}

VERIFIES(REQ-MEM-008)
static void test_queries(void **state)
{
	(void)state;
	assert_int_equal(query(d1, XENMEM_current_reservation, 2), -XEN_EPERM);
	assert_int_equal(query(d1, XENMEM_maximum_reservation, 2), -XEN_EPERM);
	assert_int_equal(query(d1, XENMEM_current_reservation, 9), -XEN_ESRCH);
	assert_int_equal(query(d1, XENMEM_current_reservation, 1), (long)(RAM4 >> PAGE_SHIFT));
	assert_int_equal(query(d1, XENMEM_maximum_gpfn, DOMID_SELF),
			 (long)(ram0 + (RAM4 >> PAGE_SHIFT) - 1U));
	assert_int_equal(query(d1, XENMEM_current_reservation | (1U << MEMOP_EXTENT_SHIFT),
			       DOMID_SELF), -XEN_EINVAL);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_current_reservation, 0x1000, 0), -XEN_EFAULT);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_maximum_ram_page, 0, 0), (long)mm_boot_max_page());
	assert_true(mm_boot_max_page() > ((GUEST_RAM0_BASE + RAM4) >> PAGE_SHIFT) ||
		    mm_boot_max_page() != 0U);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_get_sharing_freed_pages, 0, 0), 0);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, 5, 0, 0), -XEN_ENOSYS);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, 21, 0, 0), -XEN_ENOSYS);
}

VERIFIES(REQ-MEM-008)
static void test_refused_sub_ops(void **state)
{
	uint64_t *b = harness_gpa(d1, arg_gpa(0x400));
	struct xen_memory_exchange *x = (struct xen_memory_exchange *)b;
	struct xen_memory_reservation *r = (struct xen_memory_reservation *)b;
	uint32_t *u32 = (uint32_t *)b;
	uint16_t *u16 = (uint16_t *)b;
	xen_pfn_t *ext = harness_gpa(d1, arg_gpa(0x800));
	paddr_t p = arg_gpa(0x400);

	(void)state;
#define MOP(op) harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, (op), p, 0)
	memset(b, 0, 128);
	assert_int_equal(MOP(XENMEM_exchange), 0);
	ext[0] = ram0 + 0x80;
	x->in.extent_start = arg_gpa(0x800);
	x->in.nr_extents = 1;
	x->in.domid = DOMID_SELF;
	x->out.extent_start = arg_gpa(0x880);
	x->out.nr_extents = 1;
	x->out.domid = DOMID_SELF;
	x->nr_exchanged = 0;
	assert_int_equal(MOP(XENMEM_exchange), -XEN_EOPNOTSUPP);
	assert_int_equal(x->nr_exchanged, 0);
	ext[0] = 0x3001;
	assert_int_equal(MOP(XENMEM_exchange), -XEN_EINVAL);
	x->out.extent_order = 1;
	assert_int_equal(MOP(XENMEM_exchange), -XEN_EINVAL);
	x->in.extent_order = 10;
	assert_int_equal(MOP(XENMEM_exchange), -XEN_EPERM);
	x->in.extent_order = 0;
	x->out.extent_order = 0;
	x->in.domid = 2;
	x->out.domid = 2;
	assert_int_equal(MOP(XENMEM_exchange), -XEN_EPERM);
	assert_int_equal(MOP(XENMEM_exchange | (1U << MEMOP_EXTENT_SHIFT)), -XEN_EINVAL);

	memset(b, 0, 128);
	r->domid = 1;
	assert_int_equal(MOP(XENMEM_claim_pages), -XEN_EPERM);
	r->domid = DOMID_SELF;
	assert_int_equal(MOP(XENMEM_claim_pages), -XEN_EINVAL);
	r->domid = 1;
	r->mem_flags = 1;
	assert_int_equal(MOP(XENMEM_claim_pages), -XEN_EINVAL);

	memset(b, 0, 128);
	u16[0] = DOMID_SELF;
	assert_int_equal(MOP(XENMEM_get_vnumainfo), -XEN_EOPNOTSUPP);
	u16[0] = 2;
	assert_int_equal(MOP(XENMEM_get_vnumainfo), -XEN_EPERM);
	u16[1] = 1;
	assert_int_equal(MOP(XENMEM_get_vnumainfo), -XEN_EINVAL);

	memset(b, 0, 128);
	u32[1] = 7;
	assert_int_equal(MOP(XENMEM_reserved_device_memory_map), 0);
	assert_int_equal(u32[1], 0);
	u32[0] = 2;
	assert_int_equal(MOP(XENMEM_reserved_device_memory_map), -XEN_EINVAL);

	memset(b, 0, 128);
	u16[0] = 1;
	assert_int_equal(MOP(XENMEM_acquire_resource), -XEN_EPERM);
	u16[0] = DOMID_SELF;
	assert_int_equal(MOP(XENMEM_acquire_resource), -XEN_ESRCH);
	u32[3] = 1;
	assert_int_equal(MOP(XENMEM_acquire_resource), -XEN_EINVAL);
#undef MOP
}

VERIFIES(REQ-MEM-001)
static void test_add_to_physmap_codes(void **state)
{
	struct xen_add_to_physmap_batch *b = harness_gpa(d1, arg_gpa(0x400));
	uint64_t *idxs = harness_gpa(d1, arg_gpa(0x800));
	uint64_t *gpfns = harness_gpa(d1, arg_gpa(0x840));
	int32_t *errs = harness_gpa(d1, arg_gpa(0x880));
	struct xen_add_to_physmap *x = harness_gpa(d1, arg_gpa(0x200));

	(void)state;
	assert_int_equal(atp(XENMAPSPACE_gmfn, 0, ram0 + 1), -XEN_ENOSYS);
	assert_int_equal(atp(XENMAPSPACE_gmfn_foreign, 0, ram0 + 1), -XEN_ENOSYS);
	assert_int_equal(atp(XENMAPSPACE_dev_mmio, 0x9000, 0x9000), -XEN_EACCES);
	assert_int_equal(atp(XENMAPSPACE_gmfn, 0, ~(xen_pfn_t)0), -XEN_EINVAL);
	x->space = XENMAPSPACE_gmfn_range;
	x->gpfn = ram0 + 1;
	x->size = 0;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      arg_gpa(0x200), 0), 0);
	x->size = 1;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      arg_gpa(0x200), 0), -XEN_ENOSYS);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_add_to_physmap | (0x10000U << MEMOP_EXTENT_SHIFT),
				      arg_gpa(0x200), 0), -XEN_EDOM);

	memset(b, 0, sizeof(*b));
	b->domid = DOMID_SELF;
	b->space = XENMAPSPACE_gmfn_foreign;
	b->size = 2;
	b->foreign_domid = 2;
	b->idxs = arg_gpa(0x800);
	b->gpfns = arg_gpa(0x840);
	b->errs = arg_gpa(0x880);
	idxs[0] = idxs[1] = 5;
	gpfns[0] = gpfns[1] = ram0 + 1;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_add_to_physmap_batch, arg_gpa(0x400), 0), 0);
	assert_int_equal(errs[0], -XEN_EPERM);
	assert_int_equal(errs[1], -XEN_EPERM);
	b->foreign_domid = DOMID_SELF;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_add_to_physmap_batch, arg_gpa(0x400), 0), 0);
	assert_int_equal(errs[0], -XEN_EINVAL);
	b->foreign_domid = 1;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_add_to_physmap_batch, arg_gpa(0x400), 0), 0);
	assert_int_equal(errs[0], -XEN_ESRCH);
	b->space = XENMAPSPACE_gmfn_range;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_add_to_physmap_batch, arg_gpa(0x400), 0),
			 -XEN_EOPNOTSUPP);
	b->space = XENMAPSPACE_shared_info;
	b->errs = 0x1000;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_add_to_physmap_batch, arg_gpa(0x400), 0), -XEN_EFAULT);
	b->domid = 2;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
				      XENMEM_add_to_physmap_batch, arg_gpa(0x400), 0), -XEN_EPERM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_decrease_populate, setup),
		cmocka_unit_test_setup(test_extents_orders_and_counts, setup),
		cmocka_unit_test_setup(test_long_list_is_continued, setup),
		cmocka_unit_test_setup(test_bad_reservations_return_start, setup),
		cmocka_unit_test_setup(test_increase_takes_the_room, setup),
		cmocka_unit_test_setup(test_grant_map_fills_a_hole, setup),
		cmocka_unit_test_setup(test_hypervisor_pages, setup),
		cmocka_unit_test_setup(test_remove_from_physmap, setup),
		cmocka_unit_test_setup(test_queries, setup),
		cmocka_unit_test_setup(test_refused_sub_ops, setup),
		cmocka_unit_test_setup(test_add_to_physmap_codes, setup),
	};
	return cmocka_run_group_tests_name("memory", tests, NULL, NULL);
}
