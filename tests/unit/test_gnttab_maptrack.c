/* SPDX-License-Identifier: MIT */
/* Maptrack pools: exhaustion, per-vCPU lists, stealing; batches and continuation. */
#include "gnttab_helpers.h"

#define N CONFIG_GNTTAB_MAPTRACK_ENTRIES

static struct domain *d1, *d2, *d4;

static int setup(void **state)
{
	unsigned int r;

	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1);
	d2 = harness_domain(2, 2);
	d4 = harness_domain(4, 1);
	/* Enough grants for N + 1 mappings; the table grows to two frames. */
	assert_int_equal(gnttab_map_frame(d1, 1, gaddr_to_gfn(GUEST_GNTTAB_BASE) + 1), 0);
	for (r = 8; r < 8 + N + 1; r++) {
		harness_gnt_grant(d1, r, 2, gnt_page_gfn(16), GTF_permit_access | GTF_readonly);
		harness_gnt_grant(d1, r + 600, 4, gnt_page_gfn(16), GTF_permit_access | GTF_readonly);
	}
	return 0;
}

/* Map refs [first, first+n) of d1 read-only in one hypercall at window slots [slot, ...). */
static void map_batch(struct vcpu *v, uint32_t first, unsigned int n, unsigned int slot,
		      struct gnttab_map_grant_ref **out)
{
	struct gnttab_map_grant_ref *ops = harness_gpa(v->domain, harness_ram(32, 0));
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].host_addr = GNT_ADDR(slot + i);
		ops[i].flags = GNTMAP_host_map | GNTMAP_readonly;
		ops[i].ref = first + i;
		ops[i].dom = 1;
		ops[i].status = 0x77;
	}
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, harness_ram(32, 0), n), 0);
	*out = ops;
}

VERIFIES(REQ-GNT-007, REQ-GNT-014)
static void test_exhausted_maptrack_no_space(void **state)
{
	struct gnttab_map_grant_ref *ops;
	unsigned int i;

	(void)state;
	map_batch(&d4->vcpu[0], 608, N + 1, 0, &ops);
	/* N + 1 elements: continued every CONFIG_HYPERCALL_BATCH elements. */
	assert_int_equal(d4->vcpu[0].arch.continuations, N / CONFIG_HYPERCALL_BATCH);
	for (i = 0; i < N; i++) {
		assert_int_equal(ops[i].status, GNTST_okay);
	}
	assert_int_equal(ops[N].status, GNTST_no_space);
	assert_int_equal(gnt_free(d4), 0);
	assert_int_equal(gnttab_nr_pins(d1), N);
	/* Freeing one makes room for exactly one. */
	assert_int_equal(gnt_unmap(&d4->vcpu[0], GNT_ADDR(0), ops[0].handle, 0), GNTST_okay);
	assert_int_equal(gnt_map(&d4->vcpu[0], 1, 608 + N, GNTMAP_host_map | GNTMAP_readonly,
				 GNT_ADDR(N), NULL, NULL),
			 GNTST_okay);
	assert_int_equal(gnt_map(&d4->vcpu[0], 1, 608, GNTMAP_host_map | GNTMAP_readonly,
				 GNT_ADDR(N + 1), NULL, NULL),
			 GNTST_no_space);
}

VERIFIES(REQ-GNT-007)
static void test_handles_unique_while_in_use(void **state)
{
	struct gnttab_map_grant_ref *ops;
	static bool seen[N];
	unsigned int i;

	(void)state;
	memset(seen, 0, sizeof(seen));
	map_batch(&d4->vcpu[0], 608, N, 0, &ops);
	for (i = 0; i < N; i++) {
		assert_int_equal(ops[i].status, GNTST_okay);
		assert_true(ops[i].handle < N);
		assert_false(seen[ops[i].handle]);
		seen[ops[i].handle] = true;
	}
}

VERIFIES(REQ-GNT-007)
static void test_vcpu_steals_from_sibling(void **state)
{
	struct gnttab_map_grant_ref *ops;
	unsigned int i;

	(void)state;
	/* The pool starts split evenly between d2's two vCPUs. */
	assert_int_equal(d2->vcpu[0].gnttab.maptrack_list.nr_free, N / 2);
	assert_int_equal(d2->vcpu[1].gnttab.maptrack_list.nr_free, N / 2);
	/* vCPU 0 maps the whole pool: half its own, half stolen from vCPU 1. */
	map_batch(&d2->vcpu[0], 8, N, 0, &ops);
	for (i = 0; i < N; i++) {
		assert_int_equal(ops[i].status, GNTST_okay);
	}
	assert_int_equal(d2->vcpu[0].gnttab.maptrack_list.nr_free, 0);
	assert_int_equal(d2->vcpu[1].gnttab.maptrack_list.nr_free, 0);
	/* Nothing left anywhere: vCPU 1 gets no_space, without blocking. */
	assert_int_equal(gnt_map(&d2->vcpu[1], 1, 8 + N, GNTMAP_host_map | GNTMAP_readonly,
				 GNT_ADDR(N), NULL, NULL),
			 GNTST_no_space);
	/* Frees go to the freeing vCPU's list. */
	for (i = 0; i < N; i++) {
		assert_int_equal(gnt_unmap(&d2->vcpu[1], GNT_ADDR(i), ops[i].handle, 0), GNTST_okay);
	}
	assert_int_equal(d2->vcpu[1].gnttab.maptrack_list.nr_free, N);
	assert_int_equal(gnt_free(d2), N);
	assert_int_equal(gnttab_nr_pins(d1), 0);
	/* And vCPU 0 steals them back one at a time. */
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map | GNTMAP_readonly,
				 GNT_ADDR(0), NULL, NULL),
			 GNTST_okay);
	assert_int_equal(d2->vcpu[1].gnttab.maptrack_list.nr_free, N - 1);
}

VERIFIES(REQ-GNT-014)
static void test_batch_statuses_and_continuation_args(void **state)
{
	struct gnttab_map_grant_ref *ops;
	struct vcpu *v = &d2->vcpu[0];
	unsigned int i, n = 2 * CONFIG_HYPERCALL_BATCH + 5;

	(void)state;
	ops = harness_gpa(d2, harness_ram(32, 0));
	for (i = 0; i < n; i++) {
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].host_addr = GNT_ADDR(i);
		ops[i].flags = GNTMAP_host_map | GNTMAP_readonly;
		/* Every third element names a ref beyond the table. */
		ops[i].ref = ((i % 3) == 2) ? 5000 : 8 + i;
		ops[i].dom = 1;
	}
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, harness_ram(32, 0), n), 0);
	assert_int_equal(v->arch.continuations, 2);
	/* The last continuation carried the remaining count and advanced array. */
	assert_int_equal(v->arch.args[0], GNTTABOP_map_grant_ref);
	assert_int_equal(v->arch.args[1], harness_ram(32, 0) + 2 * CONFIG_HYPERCALL_BATCH * 32);
	assert_int_equal(v->arch.args[2], 5);
	for (i = 0; i < n; i++) {
		assert_int_equal(ops[i].status, ((i % 3) == 2) ? GNTST_bad_gntref : GNTST_okay);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_exhausted_maptrack_no_space, setup),
		cmocka_unit_test_setup(test_handles_unique_while_in_use, setup),
		cmocka_unit_test_setup(test_vcpu_steals_from_sibling, setup),
		cmocka_unit_test_setup(test_batch_statuses_and_continuation_args, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
