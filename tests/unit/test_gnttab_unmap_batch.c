/* SPDX-License-Identifier: MIT */
/*
 * Batched unmaps: one TLB invalidation per unmap hypercall chunk (not per
 * page), done while the pins are still held and before any status is
 * written back; the same for unmap_and_replace and for a restart's forced
 * unmaps. Invalidations are counted by the host shim, and a hook looks at
 * the guest-visible state at the moment of each one.
 */
#include "gnttab_helpers.h"

static struct domain *d1, *d2, *d3;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1); /* granter */
	d2 = harness_domain(2, 2); /* mapper */
	d3 = harness_domain(3, 1); /* a second mapper */
	return 0;
}

/* What the hook saw at each invalidation. */
static struct {
	unsigned int calls;
	uint16_t vmid;
	uint32_t pins;             /* d1's pins at that moment */
	unsigned int statuses_set; /* unmap statuses already written (sentinel gone) */
	uint16_t flags0;           /* GTF flags of the first grant */
	struct gnttab_unmap_grant_ref *ops;
	unsigned int nops;
} seen;

static void tlb_hook(uint16_t vmid)
{
	unsigned int i;

	seen.calls++;
	seen.vmid = vmid;
	seen.pins = gnttab_nr_pins(d1);
	seen.statuses_set = 0U;
	for (i = 0; i < seen.nops; i++) {
		if (seen.ops[i].status != 0x55) {
			seen.statuses_set++;
		}
	}
	seen.flags0 = gnt_flags(d1, 8);
}

/* Map n grants of d1 (refs 8..) into d2 at GNT_ADDR(0..), handles in h. */
static void map_n(unsigned int n, uint32_t *h)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		harness_gnt_grant(d1, 8 + i, 2, gnt_page_gfn(10 + i), GTF_permit_access);
		assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8 + i, GNTMAP_host_map, GNT_ADDR(i),
					 &h[i], NULL),
				 GNTST_okay);
	}
}

/* The unmap array for handles h at GNT_ADDR(i), in d2's argument page. */
static struct gnttab_unmap_grant_ref *unmap_ops(unsigned int n, const uint32_t *h)
{
	struct gnttab_unmap_grant_ref *op = harness_gpa(d2, GNT_ARGS);
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(&op[i], 0, sizeof(op[i]));
		op[i].host_addr = GNT_ADDR(i);
		op[i].handle = h[i];
		op[i].status = 0x55;
	}
	return op;
}

/* Chunks of an n-element unmap: never past a preemption point. */
static unsigned int chunks_of(unsigned int n)
{
	unsigned int i = 0, c = 0;

	while (i < n) {
		unsigned int step = CONFIG_HYPERCALL_BATCH - (i % CONFIG_HYPERCALL_BATCH);

		step = (step < GNTTAB_UNMAP_CHUNK) ? step : GNTTAB_UNMAP_CHUNK;
		step = (step < n - i) ? step : n - i;
		i += step;
		c++;
	}
	return c;
}

VERIFIES(REQ-GNT-002, REQ-GNT-021)
static void test_one_invalidation_per_unmap_batch(void **state)
{
	enum { N = 6 };
	uint32_t h[N];
	struct gnttab_unmap_grant_ref *op;
	uint64_t ipa0, vmid0;
	unsigned int i;
	mfn_t mfn;
	enum p2m_type t;

	(void)state;
	map_n(N, h);
	assert_int_equal(gnttab_nr_pins(d1), N);
	op = unmap_ops(N, h);
	memset(&seen, 0, sizeof(seen));
	seen.ops = op;
	seen.nops = N;
	ipa0 = host_tlb_flushes;
	vmid0 = host_tlb_flushes_vmid;
	host_set_tlb_hook(tlb_hook);
	assert_int_equal(gnt_op(&d2->vcpu[1], GNTTABOP_unmap_grant_ref, GNT_ARGS, N), 0);
	host_set_tlb_hook(NULL);
	/* Six pages, one invalidation, of the mapper's VMID only. */
	assert_int_equal(host_tlb_flushes, ipa0);
	assert_int_equal(host_tlb_flushes_vmid, vmid0 + 1);
	assert_int_equal(seen.calls, 1);
	assert_int_equal(seen.vmid, d2->vmid);
	/* At that moment every pin was held, GTF flags set, no status written. */
	assert_int_equal(seen.pins, N);
	assert_int_equal(seen.flags0, GTF_permit_access | GTF_reading | GTF_writing);
	assert_int_equal(seen.statuses_set, 0);
	/* After the call: all unmapped, pins and flags dropped, handles free. */
	for (i = 0; i < N; i++) {
		assert_int_equal(op[i].status, GNTST_okay);
		assert_int_equal(p2m_lookup(&d2->p2m, gaddr_to_gfn(GNT_ADDR(i)), &mfn, &t),
				 -XEN_ENOENT);
		assert_int_equal(gnt_flags(d1, 8 + i), GTF_permit_access);
		assert_true(gnt_guest_revoke(d1, 8 + i));
	}
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
}

VERIFIES(REQ-GNT-021)
static void test_long_batch_one_invalidation_per_chunk(void **state)
{
	enum { N = 40 };
	uint32_t h[N];
	struct gnttab_unmap_grant_ref *op;
	uint64_t ipa0, vmid0;
	unsigned int i;

	(void)state;
	map_n(N, h);
	op = unmap_ops(N, h);
	ipa0 = host_tlb_flushes;
	vmid0 = host_tlb_flushes_vmid;
	/* Preempted and continued (CONFIG_HYPERCALL_BATCH); each chunk flushes once. */
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_unmap_grant_ref, GNT_ARGS, N), 0);
	assert_true(chunks_of(N) < N);
	assert_int_equal(host_tlb_flushes_vmid, vmid0 + chunks_of(N));
	assert_int_equal(host_tlb_flushes, ipa0);
	for (i = 0; i < N; i++) {
		assert_int_equal(op[i].status, GNTST_okay);
	}
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
}

VERIFIES(REQ-GNT-004, REQ-GNT-021)
static void test_batch_with_bad_and_duplicate_elements(void **state)
{
	enum { N = 3 };
	uint32_t h[N];
	struct gnttab_unmap_grant_ref *op;
	uint64_t vmid0;

	(void)state;
	map_n(N, h);
	/* [0] good, [1] wrong address, [2] good, [3] [0]'s handle again, [4] bad handle. */
	op = unmap_ops(N, h);
	op[1].host_addr = GNT_ADDR(7);
	op[3] = op[0];
	op[4] = op[0];
	op[4].handle = CONFIG_GNTTAB_MAPTRACK_ENTRIES;
	vmid0 = host_tlb_flushes_vmid;
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_unmap_grant_ref, GNT_ARGS, 5), 0);
	assert_int_equal(host_tlb_flushes_vmid, vmid0 + 1);
	assert_int_equal(op[0].status, GNTST_okay);
	assert_int_equal(op[1].status, GNTST_general_error);
	assert_int_equal(op[2].status, GNTST_okay);
	/* The handle is being unmapped by this very batch: not twice. */
	assert_int_equal(op[3].status, GNTST_bad_handle);
	assert_int_equal(op[4].status, GNTST_bad_handle);
	/* Only [1]'s mapping is left, pinned once. */
	assert_int_equal(gnttab_nr_pins(d1), 1);
	assert_int_equal(gnt_flags(d1, 9), GTF_permit_access | GTF_reading | GTF_writing);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES - 1);
	/* A batch that unmaps nothing invalidates nothing. */
	op[0].handle = CONFIG_GNTTAB_MAPTRACK_ENTRIES;
	vmid0 = host_tlb_flushes_vmid;
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_unmap_grant_ref, GNT_ARGS, 1), 0);
	assert_int_equal(op[0].status, GNTST_bad_handle);
	assert_int_equal(host_tlb_flushes_vmid, vmid0);
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(1), h[1], 0), GNTST_okay);
}

VERIFIES(REQ-GNT-005, REQ-GNT-021)
static void test_unmap_and_replace_batch(void **state)
{
	enum { N = 4 };
	uint32_t h[N];
	struct gnttab_unmap_and_replace *op = harness_gpa(d2, GNT_ARGS);
	uint64_t ipa0, vmid0;
	unsigned int i;

	(void)state;
	map_n(N, h);
	for (i = 0; i < N; i++) {
		memset(&op[i], 0, sizeof(op[i]));
		op[i].host_addr = GNT_ADDR(i);
		op[i].handle = h[i];
	}
	ipa0 = host_tlb_flushes;
	vmid0 = host_tlb_flushes_vmid;
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_unmap_and_replace, GNT_ARGS, N), 0);
	assert_int_equal(host_tlb_flushes_vmid, vmid0 + 1);
	assert_int_equal(host_tlb_flushes, ipa0);
	for (i = 0; i < N; i++) {
		assert_int_equal(op[i].status, GNTST_okay);
	}
	assert_int_equal(gnttab_nr_pins(d1), 0);
}

VERIFIES(REQ-GNT-021)
static void test_fault_mid_batch_completes_what_was_read(void **state)
{
	enum { N = 2 };
	uint32_t h[N];
	struct gnttab_unmap_grant_ref *op;
	paddr_t last = harness_ram((HARNESS_RAM_BYTES >> PAGE_SHIFT) - 1U, PAGE_SIZE - 24U);
	uint64_t vmid0;

	(void)state;
	map_n(N, h);
	/* Element 0 is the last 24 bytes of RAM; element 1 lies past it. */
	op = harness_gpa(d2, last);
	memset(op, 0, sizeof(*op));
	op->host_addr = GNT_ADDR(0);
	op->handle = h[0];
	vmid0 = host_tlb_flushes_vmid;
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_unmap_grant_ref, last, 2), -XEN_EFAULT);
	assert_int_equal(op->status, GNTST_okay);
	assert_int_equal(host_tlb_flushes_vmid, vmid0 + 1);
	assert_int_equal(gnttab_nr_pins(d1), 1);
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(1), h[1], 0), GNTST_okay);
	assert_int_equal(gnttab_nr_pins(d1), 0);
}

VERIFIES(REQ-GNT-018, REQ-GNT-021)
static void test_restart_invalidates_once_per_holder(void **state)
{
	uint32_t h;
	uint64_t ipa0, vmid0;
	unsigned int i;

	(void)state;
	/* d2 holds four mappings of d1's grants, d3 one. */
	for (i = 0; i < 4; i++) {
		harness_gnt_grant(d1, 8 + i, 2, gnt_page_gfn(10 + i), GTF_permit_access);
		assert_int_equal(gnt_map(&d2->vcpu[i & 1U], 1, 8 + i, GNTMAP_host_map, GNT_ADDR(i),
					 NULL, NULL),
				 GNTST_okay);
	}
	harness_gnt_grant(d1, 20, 3, gnt_page_gfn(20), GTF_permit_access);
	assert_int_equal(gnt_map(&d3->vcpu[0], 1, 20, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	ipa0 = host_tlb_flushes;
	vmid0 = host_tlb_flushes_vmid;
	gnttab_domain_reset(d1);
	/* One VMID-wide invalidation per partition that held mappings. */
	assert_int_equal(host_tlb_flushes, ipa0);
	assert_int_equal(host_tlb_flushes_vmid, vmid0 + 2);
	assert_int_equal(gnttab_nr_pins(d1), 0);

	/* The mapper restarting: its five mappings released, its VMID flushed once. */
	for (i = 0; i < 5; i++) {
		harness_gnt_grant(d3, 8 + i, 2, gnt_page_gfn(30 + i), GTF_permit_access);
		assert_int_equal(gnt_map(&d2->vcpu[0], 3, 8 + i, GNTMAP_host_map,
					 GNT_ADDR(8 + i), NULL, NULL),
				 GNTST_okay);
	}
	vmid0 = host_tlb_flushes_vmid;
	gnttab_domain_reset(d2);
	assert_int_equal(host_tlb_flushes_vmid, vmid0 + 1);
	assert_int_equal(host_tlb_last_vmid(), d2->vmid);
	assert_int_equal(gnttab_nr_pins(d3), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_one_invalidation_per_unmap_batch, setup),
		cmocka_unit_test_setup(test_long_batch_one_invalidation_per_chunk, setup),
		cmocka_unit_test_setup(test_batch_with_bad_and_duplicate_elements, setup),
		cmocka_unit_test_setup(test_unmap_and_replace_batch, setup),
		cmocka_unit_test_setup(test_fault_mid_batch_completes_what_was_read, setup),
		cmocka_unit_test_setup(test_restart_invalidates_once_per_holder, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
