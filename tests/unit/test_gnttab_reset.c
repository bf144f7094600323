/* SPDX-License-Identifier: MIT */
/* Grant tables across a partition restart (gnttab_domain_reset). */
#include "gnttab_helpers.h"

#define N CONFIG_GNTTAB_MAPTRACK_ENTRIES

static struct domain *d1, *d2, *d3;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1); /* restarts */
	d2 = harness_domain(2, 2);
	d3 = harness_domain(3, 1);
	return 0;
}

VERIFIES(REQ-GNT-018)
static void test_reset_revokes_foreign_mappings(void **state)
{
	uint32_t h2, h3, hr;
	mfn_t mfn;
	enum p2m_type t;
	uint64_t flushes = host_tlb_flushes_vmid;

	(void)state;
	assert_int_equal(gnttab_map_frame(d1, 0, gaddr_to_gfn(GUEST_GNTTAB_BASE)), 0);
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	harness_gnt_grant(d1, 9, 3, gnt_page_gfn(11), GTF_permit_access | GTF_readonly);
	harness_gnt_grant(d1, 10, 2, gnt_page_gfn(12), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[1], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h2, NULL),
			 GNTST_okay);
	assert_int_equal(gnt_map(&d3->vcpu[0], 1, 9, GNTMAP_host_map | GNTMAP_readonly,
				 GNT_ADDR(0), &h3, NULL),
			 GNTST_okay);
	/* d1 itself maps a grant of d2's. */
	harness_gnt_grant(d2, 8, 1, gnt_page_gfn(20), GTF_permit_access);
	assert_int_equal(gnt_map(&d1->vcpu[0], 2, 8, GNTMAP_host_map, GNT_ADDR(4), &hr, NULL),
			 GNTST_okay);
	assert_int_equal(gnttab_nr_pins(d1), 2);
	assert_int_equal(gnttab_nr_pins(d2), 1);

	gnttab_domain_reset(d1);

	/*
	 * Others' mappings of d1's pages now reach their own scratch page, with
	 * the access they had: they keep running and never see d1's new RAM.
	 */
	assert_int_equal(p2m_lookup(&d2->p2m, gaddr_to_gfn(GNT_ADDR(0)), &mfn, &t), 0);
	assert_int_equal(mfn, d2->gt.sink_mfn);
	assert_int_equal(t, p2m_grant_map_rw);
	assert_int_equal(p2m_lookup(&d3->p2m, gaddr_to_gfn(GNT_ADDR(0)), &mfn, &t), 0);
	assert_int_equal(mfn, d3->gt.sink_mfn);
	assert_int_equal(t, p2m_grant_map_ro);
	assert_true(d2->gt.sink_mfn != d3->gt.sink_mfn);
	/* Once per holder (d2, d3) and once for d1's own mappings (REQ-GNT-021). */
	assert_int_equal(host_tlb_flushes_vmid, flushes + 3);
	/* d1's own mapping of d2's grant is released: pin and flags dropped. */
	assert_int_equal(p2m_lookup(&d1->p2m, gaddr_to_gfn(GNT_ADDR(4)), &mfn, &t), -XEN_ENOENT);
	assert_int_equal(gnttab_nr_pins(d2), 0);
	assert_int_equal(gnt_flags(d2, 8), GTF_permit_access);
	/* d1's table is as at creation: no grants, no pins, frames unmapped. */
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_flags(d1, 8), 0);
	assert_int_equal(d1->gt.nr_frames, 1);
	assert_int_equal(d1->gt.frame_gfn[0], INVALID_GFN);
	assert_int_equal(gnt_free(d1), N);
	/* The holders' handles stay allocated until they unmap: okay once, then bad. */
	assert_int_equal(gnt_free(d2), N - 1);
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(0), h2, 0), GNTST_okay);
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(0), h2, 0), GNTST_bad_handle);
	assert_int_equal(gnt_unmap(&d3->vcpu[0], 0, h3, 0), GNTST_okay);
	/* The unmaps took the scratch entries out. */
	assert_int_equal(p2m_lookup(&d2->p2m, gaddr_to_gfn(GNT_ADDR(0)), &mfn, &t), -XEN_ENOENT);
	assert_int_equal(p2m_lookup(&d3->p2m, gaddr_to_gfn(GNT_ADDR(0)), &mfn, &t), -XEN_ENOENT);
	assert_int_equal(gnt_free(d2), N);
	assert_int_equal(gnt_free(d3), N);
	/* A stale grant of the old incarnation cannot be mapped. */
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 10, GNTMAP_host_map, GNT_ADDR(1), NULL, NULL),
			 GNTST_general_error);
}

VERIFIES(REQ-GNT-018)
static void test_new_incarnation_grants_again(void **state)
{
	uint32_t h;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	gnttab_domain_reset(d1);
	assert_int_equal(gnttab_map_frame(d1, 0, gaddr_to_gfn(GUEST_GNTTAB_BASE)), 0);
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	/* The revoked mapping still holds its address, as any mapping does. */
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
	/* Elsewhere the new incarnation's grant maps at once. */
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(1), NULL, NULL),
			 GNTST_okay);
	assert_int_equal(gnttab_nr_pins(d1), 1);
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(0), h, 0), GNTST_okay);
	/* Unmapping the revoked handle did not touch the new mapping. */
	assert_int_equal(gnttab_nr_pins(d1), 1);
	assert_int_equal(gnt_maddr(d2, GNT_ADDR(1)), gnt_maddr(d1, harness_ram(10, 0)));
	/* And freed the old address. */
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_okay);
}

VERIFIES(REQ-GNT-028)
static void test_revoked_mapping_reaches_only_the_holders_scratch(void **state)
{
	uint32_t h;
	uint8_t *seen;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	gnttab_domain_reset(d1);
	/* d2 (a backend mid-request) writes through its old mapping: its own page. */
	seen = maddr_to_virt(gnt_maddr(d2, GNT_ADDR(0)));
	assert_ptr_equal(seen, d2->gt.sink);
	memset(seen, 0xa5, 64);
	/* Nobody else's page took the write; d2's own restart wipes it. */
	assert_int_equal(d1->gt.sink[0], 0);
	assert_int_equal(d3->gt.sink[0], 0);
	gnttab_domain_reset(d2);
	assert_int_equal(d2->gt.sink[0], 0);
	assert_int_equal(d2->gt.sink[63], 0);
}

VERIFIES(REQ-GNT-018)
static void test_reset_of_the_mapper(void **state)
{
	unsigned int i;

	(void)state;
	/* d2 holds several mappings of d1's and d3's grants, then restarts. */
	for (i = 0; i < 6; i++) {
		struct domain *g = (i & 1U) ? d3 : d1;

		harness_gnt_grant(g, 8 + i, 2, gnt_page_gfn(10 + i), GTF_permit_access);
		assert_int_equal(gnt_map(&d2->vcpu[i & 1U], g->domain_id, 8 + i, GNTMAP_host_map,
					 GNT_ADDR(i), NULL, NULL),
				 GNTST_okay);
	}
	gnttab_domain_reset(d2);
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnttab_nr_pins(d3), 0);
	for (i = 0; i < 6; i++) {
		struct domain *g = (i & 1U) ? d3 : d1;
		assert_int_equal(gnt_flags(g, 8 + i), GTF_permit_access);
	}
	assert_int_equal(gnt_free(d2), N);
	assert_int_equal(d2->vcpu[0].gnttab.maptrack_list.nr_free, N / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_reset_revokes_foreign_mappings, setup),
		cmocka_unit_test_setup(test_new_incarnation_grants_again, setup),
		cmocka_unit_test_setup(test_reset_of_the_mapper, setup),
		cmocka_unit_test_setup(test_revoked_mapping_reaches_only_the_holders_scratch, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
