/* SPDX-License-Identifier: MIT */
/*
 * Guest-virtual copies: pages of the partition's own RAM are copied after the
 * one-step (both stages) translation; every other stage-2 entry still goes
 * through the p2m type checks, so what is refused stays refused. Grant-table
 * array elements read and written back through one mapping (guest_elem_*)
 * must give the results of a separate copy_from_guest and copy_to_guest.
 */
#include "harness.h"
#include <string.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/p2m.h>
#include <public/errno.h>

#define OWN_PAGE     10U
#define ALIAS_PAGE   30U
#define FOREIGN_PAGE 5U
#define OTHER_PAGE   11U

static struct domain *d1;
static struct domain *d2;
static struct vcpu *v0;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1);
	d2 = harness_domain(2, 1);
	v0 = &d1->vcpu[0];
	return 0;
}

/* Point d1's ALIAS_PAGE at d2's FOREIGN_PAGE with type t. */
static uint8_t *alias_foreign(enum p2m_type t)
{
	mfn_t mfn;
	enum p2m_type old;
	uint8_t *foreign = harness_gpa(d2, harness_ram(FOREIGN_PAGE, 0));

	assert_int_equal(p2m_lookup(&d2->p2m, gaddr_to_gfn(harness_ram(FOREIGN_PAGE, 0)), &mfn,
				    &old), 0);
	assert_int_equal(p2m_set_entry(&d1->p2m, gaddr_to_gfn(harness_ram(ALIAS_PAGE, 0)), mfn, t,
				       false), 0);
	memset(foreign, 0x5a, 64);
	return foreign;
}

/* Point d1's page at gva at d1's own frame of RAM page `page`, with type t. */
static void remap_own(paddr_t gva, unsigned int page, enum p2m_type t)
{
	mfn_t mfn;
	enum p2m_type old;

	assert_int_equal(p2m_lookup(&d1->p2m, gaddr_to_gfn(harness_ram(page, 0)), &mfn, &old), 0);
	assert_int_equal(p2m_set_entry(&d1->p2m, gaddr_to_gfn(gva), mfn, t, false), 0);
}

VERIFIES(REQ-PATH-003)
static void test_own_ram_copied_across_pages(void **state)
{
	uint8_t out[96];
	uint8_t in[96];
	paddr_t gva = harness_ram(OWN_PAGE, 4096U - 40U);
	unsigned int i;

	(void)state;
	for (i = 0U; i < sizeof(out); i++) {
		out[i] = (uint8_t)(i * 7U + 1U);
	}
	assert_int_equal(copy_to_guest_vcpu(v0, gva, out, sizeof(out)), 0);
	assert_memory_equal(harness_gpa(d1, gva), out, 40);
	assert_memory_equal(harness_gpa(d1, harness_ram(OWN_PAGE + 1U, 0)), &out[40], 56);
	memset(in, 0, sizeof(in));
	assert_int_equal(copy_from_guest_vcpu(v0, in, gva, sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(out));
}

VERIFIES(REQ-PATH-003)
static void test_own_read_only_page_refuses_writes(void **state)
{
	paddr_t gva = harness_ram(OWN_PAGE, 0);
	uint8_t *page = harness_gpa(d1, gva);
	uint8_t v = 0xa5;
	uint8_t r = 0;

	(void)state;
	page[0] = 0x11;
	remap_own(gva, OWN_PAGE, p2m_ram_ro);
	assert_int_equal(copy_to_guest_vcpu(v0, gva, &v, 1), -XEN_EFAULT);
	assert_int_equal(page[0], 0x11);
	assert_int_equal(copy_from_guest_vcpu(v0, &r, gva, 1), 0);
	assert_int_equal(r, 0x11);
}

VERIFIES(REQ-PATH-003)
static void test_grant_mapped_page_follows_its_type(void **state)
{
	paddr_t gva = harness_ram(ALIAS_PAGE, 8);
	uint8_t v = 0x3c;
	uint8_t r = 0;
	uint8_t *foreign = alias_foreign(p2m_grant_map_rw);

	(void)state;
	assert_int_equal(copy_to_guest_vcpu(v0, gva, &v, 1), 0);
	assert_int_equal(foreign[8], 0x3c);
	foreign = alias_foreign(p2m_grant_map_ro);
	assert_int_equal(copy_to_guest_vcpu(v0, gva, &v, 1), -XEN_EFAULT);
	assert_int_equal(foreign[8], 0x5a);
	assert_int_equal(copy_from_guest_vcpu(v0, &r, gva, 1), 0);
	assert_int_equal(r, 0x5a);
}

VERIFIES(REQ-PATH-003)
static void test_mmio_and_hypervisor_pages_refused(void **state)
{
	paddr_t gva = harness_ram(ALIAS_PAGE, 0);
	uint8_t v = 0x77;
	uint8_t r = 0;
	uint8_t *foreign = alias_foreign(p2m_mmio_direct);

	(void)state;
	assert_int_equal(copy_to_guest_vcpu(v0, gva, &v, 1), -XEN_EFAULT);
	assert_int_equal(copy_from_guest_vcpu(v0, &r, gva, 1), -XEN_EFAULT);
	foreign = alias_foreign(p2m_hyp_page);
	assert_int_equal(copy_to_guest_vcpu(v0, gva, &v, 1), -XEN_EFAULT);
	assert_int_equal(copy_from_guest_vcpu(v0, &r, gva, 1), -XEN_EFAULT);
	assert_int_equal(foreign[0], 0x5a);
	assert_int_equal(r, 0);
}

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0U; i < n; i++) {
		p[i] = (uint8_t)(seed + i * 3U);
	}
}

VERIFIES(REQ-PATH-005, REQ-PATH-006)
static void test_elem_in_one_page_keeps_its_mapping(void **state)
{
	paddr_t gva = harness_ram(OWN_PAGE, 200U);
	uint8_t *page = harness_gpa(d1, gva);
	struct guest_elem g;
	uint8_t buf[40];
	uint8_t st[2] = { 0xee, 0xdd };
	int64_t cleans;

	(void)state;
	cleans = host_page_cleans;
	fill(page, sizeof(buf), 7U);
	memset(page + sizeof(buf), 0x33, 8);
	assert_int_equal(guest_elem_read(&g, v0, gva, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, page, sizeof(buf));
	assert_non_null(g.va);           /* held for the write-back */
	page[0] = 0x99;                  /* the guest changes it: the copy read stays */
	assert_int_not_equal(buf[0], 0x99);
	assert_int_equal(guest_elem_write(&g, 36U, st, sizeof(st)), 0);
	assert_null(g.va);
	assert_memory_equal(page + 36, st, sizeof(st));
	assert_int_equal(page[38], (uint8_t)(7U + 38U * 3U));   /* nothing past it */
	assert_int_equal(page[40], 0x33);
	assert_int_equal(host_page_cleans, cleans);   /* no cache maintenance */
}

VERIFIES(REQ-PATH-005)
static void test_elem_across_pages_takes_the_general_path(void **state)
{
	paddr_t gva = harness_ram(OWN_PAGE, 4096U - 16U);
	struct guest_elem g;
	uint8_t src[40];
	uint8_t buf[40];
	uint8_t st[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	(void)state;
	fill(src, sizeof(src), 50U);
	assert_int_equal(copy_to_guest_vcpu(v0, gva, src, sizeof(src)), 0);
	assert_int_equal(guest_elem_read(&g, v0, gva, buf, sizeof(buf)), 0);
	assert_null(g.va);
	assert_memory_equal(buf, src, sizeof(src));
	assert_int_equal(guest_elem_write(&g, 12U, st, sizeof(st)), 0);
	assert_memory_equal(harness_gpa(d1, gva) + 12, st, 4);
	assert_memory_equal(harness_gpa(d1, harness_ram(OWN_PAGE + 1U, 0)), &st[4], 4);
}

VERIFIES(REQ-PATH-005)
static void test_elem_in_read_only_page_refuses_write_back(void **state)
{
	paddr_t gva = harness_ram(OWN_PAGE, 64U);
	uint8_t *page = harness_gpa(d1, gva);
	struct guest_elem g;
	uint8_t buf[16];
	uint8_t st[2] = { 0xaa, 0xbb };

	(void)state;
	fill(page, sizeof(buf), 1U);
	remap_own(gva, OWN_PAGE, p2m_ram_ro);
	assert_int_equal(guest_elem_read(&g, v0, gva, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, page, sizeof(buf));
	assert_int_equal(guest_elem_write(&g, 0U, st, sizeof(st)), -XEN_EFAULT);
	assert_null(g.va);
	assert_int_equal(page[0], 1U);
	assert_int_equal(page[1], 4U);
}

VERIFIES(REQ-PATH-005)
static void test_elem_write_back_follows_a_changed_translation(void **state)
{
	paddr_t gva = harness_ram(OWN_PAGE, 128U);
	uint8_t *old_page = harness_gpa(d1, gva);
	uint8_t *new_page = harness_gpa(d1, harness_ram(OTHER_PAGE, 128U));
	struct guest_elem g;
	uint8_t buf[24];
	uint8_t st[4] = { 9, 8, 7, 6 };

	(void)state;
	memset(old_page, 0x11, sizeof(buf));
	memset(new_page, 0x22, sizeof(buf));
	assert_int_equal(guest_elem_read(&g, v0, gva, buf, sizeof(buf)), 0);
	assert_non_null(g.va);
	/* Between read and write-back the page at gva becomes another of its frames. */
	remap_own(gva, OTHER_PAGE, p2m_ram_rw);
	assert_int_equal(guest_elem_write(&g, 4U, st, sizeof(st)), 0);
	assert_memory_equal(new_page + 4, st, sizeof(st));
	assert_int_equal(old_page[4], 0x11);
}

VERIFIES(REQ-PATH-005)
static void test_elem_write_outside_what_was_read_refused(void **state)
{
	paddr_t gva = harness_ram(OWN_PAGE, 0U);
	uint8_t *page = harness_gpa(d1, gva);
	struct guest_elem g;
	uint8_t buf[16];
	uint8_t st[4] = { 1, 1, 1, 1 };

	(void)state;
	memset(page, 0x44, 32);
	assert_int_equal(guest_elem_read(&g, v0, gva, buf, sizeof(buf)), 0);
	assert_int_equal(guest_elem_write(&g, 14U, st, sizeof(st)), -XEN_EFAULT);
	assert_null(g.va);
	assert_int_equal(page[14], 0x44);
	assert_int_equal(page[17], 0x44);
}

VERIFIES(REQ-PATH-005)
static void test_elem_in_foreign_or_missing_page(void **state)
{
	paddr_t alias = harness_ram(ALIAS_PAGE, 0U);
	struct guest_elem g;
	uint8_t buf[8];
	uint8_t st[2] = { 0x77, 0x66 };
	/* A read-only grant mapping: readable, the write-back refused. */
	uint8_t *foreign = alias_foreign(p2m_grant_map_ro);

	(void)state;
	assert_int_equal(guest_elem_read(&g, v0, alias, buf, sizeof(buf)), 0);
	assert_null(g.va);
	assert_int_equal(buf[0], 0x5a);
	assert_int_equal(guest_elem_write(&g, 0U, st, sizeof(st)), -XEN_EFAULT);
	assert_int_equal(foreign[0], 0x5a);
	/* A writable one: both work, through the p2m checks. */
	foreign = alias_foreign(p2m_grant_map_rw);
	assert_int_equal(guest_elem_read(&g, v0, alias, buf, sizeof(buf)), 0);
	assert_int_equal(guest_elem_write(&g, 0U, st, sizeof(st)), 0);
	assert_memory_equal(foreign, st, sizeof(st));
	/* An MMIO entry is no hypercall buffer. */
	(void)alias_foreign(p2m_mmio_direct);
	assert_int_equal(guest_elem_read(&g, v0, alias, buf, sizeof(buf)), -XEN_EFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_own_ram_copied_across_pages, setup),
		cmocka_unit_test_setup(test_own_read_only_page_refuses_writes, setup),
		cmocka_unit_test_setup(test_grant_mapped_page_follows_its_type, setup),
		cmocka_unit_test_setup(test_mmio_and_hypervisor_pages_refused, setup),
		cmocka_unit_test_setup(test_elem_in_one_page_keeps_its_mapping, setup),
		cmocka_unit_test_setup(test_elem_across_pages_takes_the_general_path, setup),
		cmocka_unit_test_setup(test_elem_in_read_only_page_refuses_write_back, setup),
		cmocka_unit_test_setup(test_elem_write_back_follows_a_changed_translation, setup),
		cmocka_unit_test_setup(test_elem_write_outside_what_was_read_refused, setup),
		cmocka_unit_test_setup(test_elem_in_foreign_or_missing_page, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
