/* SPDX-License-Identifier: MIT */
/*
 * Guest-virtual copies: pages of the partition's own RAM are copied after the
 * one-step (both stages) translation; every other stage-2 entry still goes
 * through the p2m type checks, so what is refused stays refused.
 */
#include "harness.h"
#include <string.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/p2m.h>
#include <public/errno.h>

#define OWN_PAGE     10U
#define ALIAS_PAGE   30U
#define FOREIGN_PAGE 5U

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
	mfn_t mfn;
	enum p2m_type t;

	(void)state;
	page[0] = 0x11;
	assert_int_equal(p2m_lookup(&d1->p2m, gaddr_to_gfn(gva), &mfn, &t), 0);
	assert_int_equal(p2m_set_entry(&d1->p2m, gaddr_to_gfn(gva), mfn, p2m_ram_ro, false), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_own_ram_copied_across_pages, setup),
		cmocka_unit_test_setup(test_own_read_only_page_refuses_writes, setup),
		cmocka_unit_test_setup(test_grant_mapped_page_follows_its_type, setup),
		cmocka_unit_test_setup(test_mmio_and_hypervisor_pages_refused, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
