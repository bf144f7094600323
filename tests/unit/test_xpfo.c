/* SPDX-License-Identifier: MIT */
/*
 * The XPFO walk check (common/xpfo_check.c, arch/arm/xpfo_walk.c) against
 * fabricated EL2 tables in the format arch/arm/mmu.c writes: a clean table
 * passes with the right counts, and each kind of leak is caught. Also the
 * registered-page list the check trusts, through real registrations, an
 * EVTCHNOP_reset and a restart's channel reset.
 */
#include "evtchn_test.h"
#include <bulkhead/xpfo.h>

#define TABLE   ULL(3)
#define PAGE    (ULL(3) | (ULL(1) << 10))      /* level-3 page, access flag */
#define BLOCK   (ULL(1) | (ULL(1) << 10))      /* level-1/2 block */
#define RESERVED_L3 ULL(1)

/* One GiB window at VA 1 GiB: image pages, then the two slot windows. */
#define IMG_VA     ULL(0x40000000)
#define SLOTS_VA   ULL(0x7f000000)
#define GLOBAL_VA  ULL(0x7f200000)
#define PER_CPU    4U
#define NR_CPUS    4U
#define NR_GLOBAL  16U

static uint64_t pt[5][512] __attribute__((aligned(4096)));
#define ROOT  pt[0]
#define L2    pt[1]
#define L3IMG pt[2]
#define L3CPU pt[3]
#define L3GLB pt[4]

/* Hypervisor-owned pages the image leaves map (not any partition's RAM). */
static uint8_t hyp_pages[2][4096] __attribute__((aligned(4096)));

static struct domain *d1;
static struct domain *d2;
static struct xpfo_tables tabs;

static uint64_t tdesc(const uint64_t *next)
{
	return (uint64_t)(uintptr_t)next | TABLE;
}

static paddr_t ram_pa(const struct domain *d, unsigned int page)
{
	return d->ram_maddr + ((paddr_t)page << PAGE_SHIFT);
}

static uint64_t l2_index(uint64_t va)
{
	return (va >> 21) & 511U;
}

static void *global_va(unsigned int slot)
{
	return (void *)(uintptr_t)(GLOBAL_VA + ((uint64_t)slot << PAGE_SHIFT));
}

/* Image and devices mapped, every slot empty. */
static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 2);
	d2 = harness_domain(2, 1);
	memset(pt, 0, sizeof(pt));
	ROOT[1] = tdesc(L2);
	L2[0] = tdesc(L3IMG);
	L2[l2_index(SLOTS_VA)] = tdesc(L3CPU);
	L2[l2_index(GLOBAL_VA)] = tdesc(L3GLB);
	L3IMG[0] = (uint64_t)(uintptr_t)hyp_pages[0] | PAGE;
	L3IMG[1] = (uint64_t)(uintptr_t)hyp_pages[1] | PAGE;
	/* A device block (not RAM at all) at VA 2 MiB of the window. */
	L2[1] = ULL(0x08000000) | BLOCK;
	tabs.root = ROOT;
	tabs.cpu_slots_va = SLOTS_VA;
	tabs.cpu_slots_per_cpu = PER_CPU;
	tabs.nr_cpus = NR_CPUS;
	tabs.global_slots_va = GLOBAL_VA;
	tabs.nr_global_slots = NR_GLOBAL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	host_xpfo_set_tables(NULL);
	/* Fabricated registrations: forget them before anything releases them. */
	d1->vcpu[0].evtchn.vcpu_info_page = NULL;
	d1->vcpu[1].evtchn.fifo_cb = NULL;
	d1->ev.fifo_array[0] = NULL;
	return 0;
}

/* As arch/arm's map_domain_page_global() would have: d1's page 7 in slot 0. */
static void register_d1_vcpu_info(void)
{
	L3GLB[0] = ram_pa(d1, 7) | PAGE;
	d1->vcpu[0].evtchn.vcpu_info_page = global_va(0);
}

VERIFIES(REQ-XPFO-001)
static void test_clean_tables_pass(void **state)
{
	struct xpfo_report r;

	(void)state;
	register_d1_vcpu_info();
	/* CPU 2 is copying a page of d2: a temporary slot in use elsewhere. */
	L3CPU[(2U * PER_CPU) + 1U] = ram_pa(d2, 3) | PAGE;
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_OK);
	assert_int_equal(r.tables, 4);
	assert_int_equal(r.leaves, 5);
	assert_int_equal(r.shared, 1);
	assert_int_equal(r.shared_by_dom[0], 1);
	assert_int_equal(r.shared_by_dom[1], 0);
	assert_int_equal(r.transient, 1);
}

VERIFIES(REQ-XPFO-001)
static void test_partition_page_outside_slots_fails(void **state)
{
	struct xpfo_report r;

	(void)state;
	/* A stray identity-style mapping of d2's page 5 next to the image. */
	L3IMG[9] = ram_pa(d2, 5) | PAGE;
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_LEAK);
	assert_int_equal(r.bad_va, IMG_VA + (9U * 4096U));
	assert_int_equal(r.bad_pa, ram_pa(d2, 5));
	/* A block that only overlaps a partition's RAM counts as well. */
	L3IMG[9] = 0U;
	L2[2] = (d1->ram_maddr & ~ULL(0x1fffff)) | BLOCK;
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_LEAK);
	assert_int_equal(r.bad_va, IMG_VA + (2U << 21));
	/* Even a 1 GiB block at level 1. */
	L2[2] = 0U;
	ROOT[3] = (d1->ram_maddr & ~ULL(0x3fffffff)) | BLOCK;
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_LEAK);
	assert_int_equal(r.bad_va, ULL(3) << 30);
}

VERIFIES(REQ-XPFO-001)
static void test_own_slot_left_mapped_fails(void **state)
{
	struct xpfo_report r;

	(void)state;
	L3CPU[(1U * PER_CPU) + 3U] = ram_pa(d1, 2) | PAGE;
	/* Checked from CPU 0: CPU 1 may be mid-copy. From CPU 1: a leak. */
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_OK);
	assert_int_equal(r.transient, 1);
	assert_int_equal(xpfo_walk(&tabs, 1U, &r), XPFO_LEAK_OWN_SLOT);
	assert_int_equal(r.bad_pa, ram_pa(d1, 2));
}

VERIFIES(REQ-XPFO-001, REQ-XPFO-002)
static void test_unregistered_global_slot_fails(void **state)
{
	struct xpfo_report r;

	(void)state;
	register_d1_vcpu_info();
	/* Slot 3 still maps a FIFO page d1 no longer has registered. */
	L3GLB[3] = ram_pa(d1, 8) | PAGE;
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_LEAK_GLOBAL);
	assert_int_equal(r.bad_va, GLOBAL_VA + (3U * 4096U));
	assert_int_equal(r.bad_pa, ram_pa(d1, 8));
	/* Registered as d1's event array page: fine, and counted. */
	d1->ev.fifo_array[0] = global_va(3);
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_OK);
	assert_int_equal(r.shared_by_dom[0], 2);
	/* A slot mapping d2's page while only d1 lists that slot: d2 has not registered it. */
	L3GLB[3] = ram_pa(d2, 8) | PAGE;
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_SHARED_UNMAPPED);
	d1->ev.fifo_array[0] = NULL;
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_LEAK_GLOBAL);
	assert_int_equal(r.bad_pa, ram_pa(d2, 8));
}

VERIFIES(REQ-XPFO-001)
static void test_registered_but_unmapped_fails(void **state)
{
	struct xpfo_report r;

	(void)state;
	register_d1_vcpu_info();
	/* A control block registered in slot 5, whose entry was cleared. */
	d1->vcpu[1].evtchn.fifo_cb =
		(struct evtchn_fifo_control_block *)((uint8_t *)global_va(5) + 64);
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_SHARED_UNMAPPED);
	assert_int_equal(r.bad_va, GLOBAL_VA + (5U * 4096U));
	L3GLB[5] = ram_pa(d1, 9) | PAGE;
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_OK);
	assert_int_equal(r.shared, 2);
}

VERIFIES(REQ-XPFO-001)
static void test_reserved_descriptor_and_lookup(void **state)
{
	struct xpfo_report r;
	paddr_t pa;

	(void)state;
	assert_true(xpfo_pt_lookup(ROOT, IMG_VA + 0x1234U, &pa));
	assert_int_equal(pa, (paddr_t)(uintptr_t)hyp_pages[1] + 0x234U);
	assert_true(xpfo_pt_lookup(ROOT, IMG_VA + (1U << 21) + 0x12345U, &pa));
	assert_int_equal(pa, ULL(0x08012345));
	assert_false(xpfo_pt_lookup(ROOT, IMG_VA + (5U * 4096U), &pa));
	assert_false(xpfo_pt_lookup(ROOT, ULL(1) << 39, &pa));
	L3IMG[4] = (uint64_t)(uintptr_t)hyp_pages[0] | RESERVED_L3;
	assert_false(xpfo_pt_lookup(ROOT, IMG_VA + (4U * 4096U), &pa));
	assert_int_equal(xpfo_walk(&tabs, 0U, &r), XPFO_BAD_DESC);
	assert_int_equal(r.bad_va, IMG_VA + (4U * 4096U));
}

static void check_now(void *arg)
{
	xpfo_check("test", (unsigned int)(uintptr_t)arg);
}

VERIFIES(REQ-XPFO-001)
static void test_check_prints_and_panics(void **state)
{
	(void)state;
	/* No tables from the arch: nothing to check, nothing printed. */
	host_console_clear();
	xpfo_check("test", 1U);
	assert_null(strstr(host_console_text(), "xpfo:"));
	host_xpfo_set_tables(&tabs);
	register_d1_vcpu_info();
	assert_false(harness_expect_panic(check_now, (void *)(uintptr_t)1U));
	assert_non_null(strstr(host_console_text(),
			       "xpfo: el2 walk ok (d1 test): 1 pages shared [ d1:1 d2:0 ]"));
	L3IMG[9] = ram_pa(d2, 5) | PAGE;
	assert_true(harness_expect_panic(check_now, NULL));
	assert_non_null(strstr(host_console_text(),
			       "xpfo: el2 walk FAILED (test): partition RAM mapped"));
}

static unsigned int listed(const struct domain *d, const void **pages)
{
	return evtchn_shared_pages(d, pages, EVTCHN_SHARED_PAGES_MAX);
}

static long reg_vcpu_info(struct vcpu *v, unsigned int page, uint32_t offset)
{
	paddr_t a = harness_ram(EV_ARG_PAGE, 0);
	struct vcpu_register_vcpu_info r = {
		.mfn = gaddr_to_gfn(harness_ram(page, 0)), .offset = offset, .rsvd = 0 };

	memcpy(harness_gpa(v->domain, a), &r, sizeof(r));
	return harness_call(v, __HYPERVISOR_vcpu_op, VCPUOP_register_vcpu_info, v->vcpu_id, a);
}

VERIFIES(REQ-XPFO-002)
static void test_registrations_listed_and_released(void **state)
{
	const void *pages[EVTCHN_SHARED_PAGES_MAX];
	struct evtchn_reset rs = { .dom = DOMID_SELF };
	struct vcpu *v = &d1->vcpu[0];
	int64_t maps = host_global_maps;

	(void)state;
	assert_int_equal(listed(d1, pages), 0);
	assert_int_equal(reg_vcpu_info(v, 30, 64), 0);
	assert_int_equal(ev_fifo_init(v, 20, 0), 0);
	assert_int_equal(ev_fifo_expand(v, 21), 0);
	assert_int_equal(listed(d1, pages), 3);
	assert_ptr_equal(pages[0], harness_gpa(d1, harness_ram(30, 0)));
	assert_ptr_equal(pages[1], harness_gpa(d1, harness_ram(20, 0)));
	assert_ptr_equal(pages[2], harness_gpa(d1, harness_ram(21, 0)));
	assert_int_equal(listed(d2, pages), 0);
	/* EVTCHNOP_reset releases the FIFO pages; vcpu_info stays, as on Xen. */
	assert_int_equal(ev_op(v, EVTCHNOP_reset, &rs, sizeof(rs)), 0);
	assert_int_equal(listed(d1, pages), 1);
	assert_int_equal(host_global_maps, maps + 1);
	/* Registered again on other pages: only the new ones are listed. */
	assert_int_equal(ev_fifo_init(v, 22, 0), 0);
	assert_int_equal(ev_fifo_expand(v, 23), 0);
	assert_int_equal(listed(d1, pages), 3);
	assert_ptr_equal(pages[1], harness_gpa(d1, harness_ram(22, 0)));
	assert_ptr_equal(pages[2], harness_gpa(d1, harness_ram(23, 0)));
	/* A restart releases everything. */
	evtchn_domain_reset(d1);
	assert_int_equal(listed(d1, pages), 0);
	assert_int_equal(host_global_maps, maps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_tables_pass, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partition_page_outside_slots_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_own_slot_left_mapped_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unregistered_global_slot_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_registered_but_unmapped_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reserved_descriptor_and_lookup, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_check_prints_and_panics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_registrations_listed_and_released, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
