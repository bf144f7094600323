/* SPDX-License-Identifier: MIT */
/* GNTTABOP_copy: every combination of sides and every status. */
#include "gnttab_helpers.h"

static struct domain *d1, *d2, *d3;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1);
	d2 = harness_domain(2, 1);
	d3 = harness_domain(3, 1);
	return 0;
}

static struct gnttab_copy *copy_op(unsigned int i)
{
	struct gnttab_copy *op = (struct gnttab_copy *)harness_gpa(d2, GNT_ARGS) + i;

	memset(op, 0, sizeof(*op));
	op->status = 0x55;
	return op;
}

static void copy_side(struct gnttab_copy_ptr *p, domid_t dom, uint64_t ref_or_gmfn,
		      uint16_t off)
{
	p->domid = dom;
	p->offset = off;
	p->u.gmfn = ref_or_gmfn;
}

static int16_t run1(struct gnttab_copy *op)
{
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_copy, GNT_ARGS, 1), 0);
	return op->status;
}

VERIFIES(REQ-GNT-008, REQ-PATH-006)
static void test_copy_from_grant_to_own_frame(void **state)
{
	struct gnttab_copy *op = copy_op(0);
	int64_t cleans = host_page_cleans;

	(void)state;
	memcpy(harness_gpa(d1, harness_ram(10, 100)), "frontend data", 14);
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access | GTF_readonly);
	copy_side(&op->source, 1, 8, 100);
	copy_side(&op->dest, DOMID_SELF, gnt_page_gfn(20), 4000);
	op->len = 14;
	op->flags = GNTCOPY_source_gref;
	assert_int_equal(run1(op), GNTST_okay);
	assert_memory_equal(harness_gpa(d2, harness_ram(20, 4000)), "frontend data", 14);
	/* Arguments, status and data: no cache maintenance (Write-Back by the ABI). */
	assert_int_equal(host_page_cleans, cleans);
	/* The pin lasted for the copy only. */
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access | GTF_readonly);
}

VERIFIES(REQ-GNT-008)
static void test_copy_to_grant_and_between_grants(void **state)
{
	struct gnttab_copy *op = copy_op(0);

	(void)state;
	memcpy(harness_gpa(d2, harness_ram(20, 0)), "backend reply", 14);
	harness_gnt_grant(d1, 9, 2, gnt_page_gfn(11), GTF_permit_access);
	copy_side(&op->source, DOMID_SELF, gnt_page_gfn(20), 0);
	copy_side(&op->dest, 1, 9, 4096 - 14);
	op->len = 14;
	op->flags = GNTCOPY_dest_gref;
	assert_int_equal(run1(op), GNTST_okay);
	assert_memory_equal(harness_gpa(d1, harness_ram(11, 4096 - 14)), "backend reply", 14);
	assert_int_equal(gnt_flags(d1, 9), GTF_permit_access);

	/* d1 -> d3, both through grants to d2. */
	harness_gnt_grant(d3, 8, 2, gnt_page_gfn(12), GTF_permit_access);
	op = copy_op(0);
	copy_side(&op->source, 1, 9, 4096 - 14);
	copy_side(&op->dest, 3, 8, 0);
	op->len = 14;
	op->flags = GNTCOPY_source_gref | GNTCOPY_dest_gref;
	assert_int_equal(run1(op), GNTST_okay);
	assert_memory_equal(harness_gpa(d3, harness_ram(12, 0)), "backend reply", 14);
	/* Own frame to own frame, a whole page. */
	op = copy_op(0);
	copy_side(&op->source, DOMID_SELF, gnt_page_gfn(20), 0);
	copy_side(&op->dest, DOMID_SELF, gnt_page_gfn(21), 0);
	op->len = 4096;
	assert_int_equal(run1(op), GNTST_okay);
	assert_memory_equal(harness_gpa(d2, harness_ram(21, 0)), "backend reply", 14);
	assert_int_equal(gnttab_nr_pins(d1) + gnttab_nr_pins(d3), 0);
}

VERIFIES(REQ-GNT-008, REQ-PATH-002)
static void test_copy_overlapping_within_one_frame(void **state)
{
	static const char text[] = "0123456789abcdefghijklmnopqrstuv";
	struct gnttab_copy *op = copy_op(0);
	uint8_t *page = harness_gpa(d2, harness_ram(22, 0));

	(void)state;
	/* Upwards: the destination overlaps the end of the source. */
	memcpy(page + 64, text, 32);
	copy_side(&op->source, DOMID_SELF, gnt_page_gfn(22), 64);
	copy_side(&op->dest, DOMID_SELF, gnt_page_gfn(22), 72);
	op->len = 32;
	assert_int_equal(run1(op), GNTST_okay);
	assert_memory_equal(page + 72, text, 32);
	assert_memory_equal(page + 64, text, 8);
	/* Downwards, through a grant of that same frame to ourselves. */
	harness_gnt_grant(d2, 10, 2, gnt_page_gfn(22), GTF_permit_access);
	op = copy_op(0);
	copy_side(&op->source, DOMID_SELF, gnt_page_gfn(22), 72);
	copy_side(&op->dest, 2, 10, 60);
	op->len = 32;
	op->flags = GNTCOPY_dest_gref;
	assert_int_equal(run1(op), GNTST_okay);
	assert_memory_equal(page + 60, text, 32);
	assert_int_equal(gnttab_nr_pins(d2), 0);
}

VERIFIES(REQ-GNT-008)
static void test_copy_status_codes(void **state)
{
	struct gnttab_copy *op;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access | GTF_readonly);
	harness_gnt_grant(d1, 9, 2, gnt_page_gfn(11), GTF_permit_access);
	harness_gnt_grant(d1, 10, 3, gnt_page_gfn(11), GTF_permit_access);
	/* Another partition's frame by number: permission denied, either side. */
	op = copy_op(0);
	copy_side(&op->source, 1, gnt_page_gfn(10), 0);
	copy_side(&op->dest, DOMID_SELF, gnt_page_gfn(20), 0);
	op->len = 8;
	assert_int_equal(run1(op), GNTST_permission_denied);
	op = copy_op(0);
	copy_side(&op->source, DOMID_SELF, gnt_page_gfn(20), 0);
	copy_side(&op->dest, 2, gnt_page_gfn(21), 0);
	op->len = 8;
	assert_int_equal(run1(op), GNTST_permission_denied);
	/* Unknown domain, bad ref, foreign grant, read-only grant as destination. */
	op = copy_op(0);
	copy_side(&op->source, 9, 8, 0);
	copy_side(&op->dest, DOMID_SELF, gnt_page_gfn(20), 0);
	op->len = 8;
	op->flags = GNTCOPY_source_gref;
	assert_int_equal(run1(op), GNTST_bad_domain);
	op->source.domid = 1;
	op->source.u.ref = 512;
	assert_int_equal(run1(op), GNTST_bad_gntref);
	op->source.u.ref = 10;
	assert_int_equal(run1(op), GNTST_general_error);
	op = copy_op(0);
	copy_side(&op->source, DOMID_SELF, gnt_page_gfn(20), 0);
	copy_side(&op->dest, 1, 8, 0);
	op->len = 8;
	op->flags = GNTCOPY_dest_gref;
	assert_int_equal(run1(op), GNTST_general_error);
	/* Own "frame" that is not RAM. */
	op = copy_op(0);
	copy_side(&op->source, DOMID_SELF, 0x1234, 0);
	copy_side(&op->dest, DOMID_SELF, gnt_page_gfn(20), 0);
	op->len = 8;
	assert_int_equal(run1(op), GNTST_bad_page);
	/* Crossing the end of a page on either side. */
	op = copy_op(0);
	copy_side(&op->source, 1, 9, 4000);
	copy_side(&op->dest, DOMID_SELF, gnt_page_gfn(20), 0);
	op->len = 97;
	op->flags = GNTCOPY_source_gref;
	assert_int_equal(run1(op), GNTST_bad_copy_arg);
	op->source.offset = 0;
	op->dest.offset = 4095;
	op->len = 2;
	assert_int_equal(run1(op), GNTST_bad_copy_arg);
	op->dest.offset = 0xffff;
	op->len = 1;
	assert_int_equal(run1(op), GNTST_bad_copy_arg);
	/* No failure kept a pin or a flag. */
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_flags(d1, 9), GTF_permit_access);
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access | GTF_readonly);
}

VERIFIES(REQ-GNT-008, REQ-GNT-014)
static void test_copy_batch_each_status(void **state)
{
	struct gnttab_copy *op;
	unsigned int i, n = CONFIG_HYPERCALL_BATCH + 3;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	memset(harness_gpa(d1, harness_ram(10, 0)), 0xab, 64);
	for (i = 0; i < n; i++) {
		op = copy_op(i);
		copy_side(&op->source, 1, (i == 4) ? 600 : 8, (uint16_t)i);
		copy_side(&op->dest, DOMID_SELF, gnt_page_gfn(30), (uint16_t)(8 * i));
		op->len = 8;
		op->flags = GNTCOPY_source_gref;
	}
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_copy, GNT_ARGS, n), 0);
	assert_int_equal(d2->vcpu[0].arch.continuations, 1);
	for (i = 0; i < n; i++) {
		op = (struct gnttab_copy *)harness_gpa(d2, GNT_ARGS) + i;
		assert_int_equal(op->status, (i == 4) ? GNTST_bad_gntref : GNTST_okay);
	}
	assert_int_equal(((uint8_t *)harness_gpa(d2, harness_ram(30, 0)))[8 * 5], 0xab);
	assert_int_equal(((uint8_t *)harness_gpa(d2, harness_ram(30, 0)))[8 * 4], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_copy_from_grant_to_own_frame, setup),
		cmocka_unit_test_setup(test_copy_to_grant_and_between_grants, setup),
		cmocka_unit_test_setup(test_copy_overlapping_within_one_frame, setup),
		cmocka_unit_test_setup(test_copy_status_codes, setup),
		cmocka_unit_test_setup(test_copy_batch_each_status, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
