/* SPDX-License-Identifier: MIT */
/* map_grant_ref, unmap_grant_ref, unmap_and_replace and the guest protocol. */
#include "gnttab_helpers.h"
#include <pthread.h>

static struct domain *d1, *d2, *d3;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1); /* frontend: grants */
	d2 = harness_domain(2, 2); /* backend: maps */
	d3 = harness_domain(3, 1); /* a third partition */
	return 0;
}

VERIFIES(REQ-GNT-001, REQ-GNT-002)
static void test_map_rw_shares_page_and_unmap_removes_it(void **state)
{
	uint32_t h;
	uint64_t bus;
	mfn_t mfn;
	enum p2m_type t;
	uint64_t flushes, vmid_flushes;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, &bus),
			 GNTST_okay);
	assert_true(h < CONFIG_GNTTAB_MAPTRACK_ENTRIES);
	assert_int_equal(bus, gnt_maddr(d1, harness_ram(10, 0)));
	assert_int_equal(p2m_lookup(&d2->p2m, gaddr_to_gfn(GNT_ADDR(0)), &mfn, &t), 0);
	assert_int_equal(t, p2m_grant_map_rw);
	assert_int_equal(mfn_to_maddr(mfn), bus);
	/* Each side sees the other's writes. */
	*(uint32_t *)harness_gpa(d2, GNT_ADDR(0) + 16) = 0xC0FFEE42U;
	assert_int_equal(*(uint32_t *)harness_gpa(d1, harness_ram(10, 16)), 0xC0FFEE42U);
	*(uint32_t *)harness_gpa(d1, harness_ram(10, 20)) = 0x3F00113DU;
	assert_int_equal(*(uint32_t *)harness_gpa(d2, GNT_ADDR(0) + 20), 0x3F00113DU);
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access | GTF_reading | GTF_writing);
	assert_int_equal(gnttab_nr_pins(d1), 1);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES - 1);

	flushes = host_tlb_flushes;
	vmid_flushes = host_tlb_flushes_vmid;
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(0), h, 0), GNTST_okay);
	assert_int_equal(p2m_lookup(&d2->p2m, gaddr_to_gfn(GNT_ADDR(0)), &mfn, &t), -XEN_ENOENT);
	/* One invalidation, of the mapper's VMID only (one per batch: REQ-GNT-021). */
	assert_int_equal(host_tlb_flushes, flushes);
	assert_int_equal(host_tlb_flushes_vmid, vmid_flushes + 1);
	assert_int_equal(host_tlb_last_vmid(), d2->vmid);
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access);
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
}

VERIFIES(REQ-GNT-001, REQ-GNT-003)
static void test_map_readonly(void **state)
{
	uint32_t h;
	mfn_t mfn;
	enum p2m_type t;

	(void)state;
	harness_gnt_grant(d1, 9, 2, gnt_page_gfn(11), GTF_permit_access | GTF_readonly);
	/* A read-only grant refuses a writable map and leaves the entry alone. */
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 9, GNTMAP_host_map, GNT_ADDR(1), &h, NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_flags(d1, 9), GTF_permit_access | GTF_readonly);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 9, GNTMAP_host_map | GNTMAP_readonly,
				 GNT_ADDR(1), &h, NULL),
			 GNTST_okay);
	assert_int_equal(p2m_lookup(&d2->p2m, gaddr_to_gfn(GNT_ADDR(1)), &mfn, &t), 0);
	assert_int_equal(t, p2m_grant_map_ro);
	assert_int_equal(gnt_flags(d1, 9), GTF_permit_access | GTF_readonly | GTF_reading);
	/* A read-only mapping cannot be upgraded by a second, writable one. */
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 9, GNTMAP_host_map, GNT_ADDR(2), NULL, NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(1), h, 0), GNTST_okay);
	assert_int_equal(gnt_flags(d1, 9), GTF_permit_access | GTF_readonly);
}

VERIFIES(REQ-GNT-003)
static void test_map_status_codes(void **state)
{
	struct vcpu *b = &d2->vcpu[0];

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	/* Observed on Xen 4.17: no map kind at all is a bad ref. */
	assert_int_equal(gnt_map(b, 1, 8, 0, GNT_ADDR(0), NULL, NULL), GNTST_bad_gntref);
	assert_int_equal(gnt_map(b, 1, 8, GNTMAP_device_map | GNTMAP_host_map, GNT_ADDR(0), NULL,
				 NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_map(b, 1, 8, GNTMAP_host_map | GNTMAP_application_map, GNT_ADDR(0),
				 NULL, NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_map(b, 1, 8, GNTMAP_host_map | GNTMAP_contains_pte, GNT_ADDR(0),
				 NULL, NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_map(b, 9, 8, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_bad_domain);
	assert_int_equal(gnt_map(b, DOMID_SELF, 8, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_bad_domain);
	assert_int_equal(gnt_map(b, 0x7ff2, 8, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_bad_domain);
	/* The table starts with one frame: 512 entries. */
	assert_int_equal(gnt_map(b, 1, 512, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_bad_gntref);
	assert_int_equal(gnt_map(b, 1, 0xffffffffU, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_bad_gntref);
	/* Guest-available flag bits are refused on Arm. */
	assert_int_equal(gnt_map(b, 1, 8, GNTMAP_host_map | 0x10000U, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
	/* host_addr in RAM (2 MiB blocks), or beyond the IPA space. */
	assert_int_equal(gnt_map(b, 1, 8, GNTMAP_host_map, harness_ram(5, 0), NULL, NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_map(b, 1, 8, GNTMAP_host_map, UL(1) << 40, NULL, NULL),
			 GNTST_general_error);
	/* None of the failures left a pin, a flag or a handle behind. */
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
}

VERIFIES(REQ-GNT-003, REQ-GNT-006)
static void test_map_refused_grants(void **state)
{
	struct vcpu *b = &d2->vcpu[0];

	(void)state;
	/* Observed on Xen 4.17: a grant for another domid is a general error. */
	harness_gnt_grant(d1, 10, 3, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(b, 1, 10, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_flags(d1, 10), GTF_permit_access);
	/* Never granted, revoked, wrong type, sub-page. */
	assert_int_equal(gnt_map(b, 1, 11, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
	harness_gnt_grant(d1, 12, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_true(gnt_guest_revoke(d1, 12));
	assert_int_equal(gnt_map(b, 1, 12, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
	harness_gnt_grant(d1, 13, 2, gnt_page_gfn(10), GTF_accept_transfer);
	assert_int_equal(gnt_map(b, 1, 13, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
	harness_gnt_grant(d1, 14, 2, gnt_page_gfn(10), GTF_permit_access | GTF_sub_page);
	assert_int_equal(gnt_map(b, 1, 14, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
	/* A frame that is not the granter's RAM: bad page, flags restored. */
	harness_gnt_grant(d1, 15, 2, 0x1234, GTF_permit_access);
	assert_int_equal(gnt_map(b, 1, 15, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_bad_page);
	assert_int_equal(gnt_flags(d1, 15), GTF_permit_access);
	harness_gnt_grant(d1, 16, 2, gaddr_to_gfn(GUEST_GNTTAB_BASE), GTF_permit_access);
	assert_int_equal(gnt_map(b, 1, 16, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_bad_page);
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
}

VERIFIES(REQ-GNT-003)
static void test_map_onto_used_address(void **state)
{
	uint32_t h;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	harness_gnt_grant(d1, 9, 2, gnt_page_gfn(11), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(3), &h, NULL),
			 GNTST_okay);
	/* The stage-2 slot is taken: never silently replaced. */
	assert_int_equal(gnt_map(&d2->vcpu[1], 1, 9, GNTMAP_host_map, GNT_ADDR(3), NULL, NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_flags(d1, 9), GTF_permit_access);
	assert_int_equal(gnt_maddr(d2, GNT_ADDR(3)), gnt_maddr(d1, harness_ram(10, 0)));
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(3), h, 0), GNTST_okay);
}

VERIFIES(REQ-GNT-004)
static void test_unmap_status_codes(void **state)
{
	struct vcpu *b = &d2->vcpu[0];
	uint32_t h;
	uint64_t bus;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_unmap(b, GNT_ADDR(0), CONFIG_GNTTAB_MAPTRACK_ENTRIES, 0),
			 GNTST_bad_handle);
	assert_int_equal(gnt_unmap(b, GNT_ADDR(0), 0xffffffffU, 0), GNTST_bad_handle);
	assert_int_equal(gnt_unmap(b, GNT_ADDR(0), 3, 0), GNTST_bad_handle);
	assert_int_equal(gnt_map(b, 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, &bus), GNTST_okay);
	/* Another partition's handle space is its own: d3 has no such handle. */
	assert_int_equal(gnt_unmap(&d3->vcpu[0], GNT_ADDR(0), h, 0), GNTST_bad_handle);
	/* Wrong address or bus address: refused, mapping intact. */
	assert_int_equal(gnt_unmap(b, GNT_ADDR(1), h, 0), GNTST_general_error);
	assert_int_equal(gnt_unmap(b, GNT_ADDR(0), h, bus + PAGE_SIZE), GNTST_general_error);
	/* No host address: Xen does nothing and says okay. */
	assert_int_equal(gnt_unmap(b, 0, h, 0), GNTST_okay);
	assert_int_equal(gnt_maddr(d2, GNT_ADDR(0)), bus);
	assert_int_equal(gnttab_nr_pins(d1), 1);
	/* Any vCPU of the mapper may unmap; the second time the handle is gone. */
	assert_int_equal(gnt_unmap(&d2->vcpu[1], GNT_ADDR(0), h, bus), GNTST_okay);
	assert_int_equal(gnt_unmap(b, GNT_ADDR(0), h, 0), GNTST_bad_handle);
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
}

VERIFIES(REQ-GNT-005)
static void test_unmap_and_replace(void **state)
{
	struct gnttab_unmap_and_replace *op = harness_gpa(d2, GNT_ARGS);
	uint32_t h;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	op->host_addr = GNT_ADDR(0);
	op->new_addr = GNT_ADDR(5);
	op->handle = h;
	/* Arm cannot move a mapping: a new address is an error. */
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_unmap_and_replace, GNT_ARGS, 1), 0);
	assert_int_equal(op->status, GNTST_general_error);
	assert_int_equal(gnttab_nr_pins(d1), 1);
	op->new_addr = 0;
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_unmap_and_replace, GNT_ARGS, 1), 0);
	assert_int_equal(op->status, GNTST_okay);
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_unmap_and_replace, GNT_ARGS, 1), 0);
	assert_int_equal(op->status, GNTST_bad_handle);
}

VERIFIES(REQ-GNT-006)
static void test_in_use_grant_cannot_be_revoked(void **state)
{
	uint32_t h1, h2;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map | GNTMAP_readonly,
				 GNT_ADDR(0), &h1, NULL),
			 GNTST_okay);
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access | GTF_reading);
	assert_false(gnt_guest_revoke(d1, 8));
	assert_int_equal(gnt_map(&d2->vcpu[1], 1, 8, GNTMAP_host_map, GNT_ADDR(1), &h2, NULL),
			 GNTST_okay);
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access | GTF_reading | GTF_writing);
	assert_int_equal(gnttab_nr_pins(d1), 2);
	/* Writing clears with the last writable pin, reading with the last pin. */
	assert_int_equal(gnt_unmap(&d2->vcpu[1], GNT_ADDR(1), h2, 0), GNTST_okay);
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access | GTF_reading);
	assert_false(gnt_guest_revoke(d1, 8));
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(0), h1, 0), GNTST_okay);
	assert_true(gnt_guest_revoke(d1, 8));
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
}

VERIFIES(REQ-GNT-003)
static void test_second_mapper_refused_while_pinned(void **state)
{
	uint32_t h;

	(void)state;
	/* d1 grants ref 8 to d2 and d2 maps it; d3 cannot piggyback on the pin. */
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	assert_int_equal(gnt_map(&d3->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), NULL, NULL),
			 GNTST_general_error);
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(0), h, 0), GNTST_okay);
}

static volatile bool flipper_stop;
static struct grant_entry_v1 *flipper_entry;

static void *flipper(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&flipper_stop, __ATOMIC_ACQUIRE)) {
		uint32_t *w = (uint32_t *)(void *)flipper_entry;
		/* Toggle a bit the hypervisor does not care about, as fast as possible. */
		__atomic_fetch_xor(w, GTF_PAT, __ATOMIC_ACQ_REL);
	}
	return NULL;
}

VERIFIES(REQ-GNT-006)
static void test_flag_flipping_guest_cannot_livelock(void **state)
{
	pthread_t t;
	unsigned int i, ok = 0, failed = 0;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	flipper_entry = harness_gnt_entry(d1, 8);
	flipper_stop = false;
	assert_int_equal(pthread_create(&t, NULL, flipper, NULL), 0);
	for (i = 0; i < 2000; i++) {
		uint32_t h;
		int16_t st = gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL);

		/* Every call returns: mapped, or refused after the bounded retries. */
		if (st == GNTST_okay) {
			ok++;
			assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(0), h, 0), GNTST_okay);
		} else {
			assert_int_equal(st, GNTST_general_error);
			failed++;
		}
	}
	__atomic_store_n(&flipper_stop, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	assert_int_equal(ok + failed, 2000);
	assert_int_equal(gnttab_nr_pins(d1), 0);
	assert_int_equal(gnt_free(d2), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
	print_message("# flipping guest: %u mapped, %u refused\n", ok, failed);
}

/* The documented order is enforced: a table lock inside a maptrack lock panics. */
static void table_lock_inside_maptrack(void *arg)
{
	(void)arg;
	spin_lock(&d2->vcpu[0].gnttab.maptrack_list.lock);
	read_lock(&d1->gt.lock);
}

VERIFIES(REQ-GNT-016)
static void test_lock_order_checked_and_clean(void **state)
{
	struct gnttab_copy *c;
	uint32_t h;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	assert_int_equal(lock_check_depth(), 0);
	c = harness_gpa(d2, GNT_ARGS);
	memset(c, 0, sizeof(*c));
	c->source.domid = 1;
	c->source.u.ref = 8;
	c->dest.domid = 1;
	c->dest.u.ref = 8;
	c->dest.offset = 64;
	c->len = 8;
	c->flags = GNTCOPY_source_gref | GNTCOPY_dest_gref;
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_copy, GNT_ARGS, 1), 0);
	assert_int_equal(c->status, GNTST_okay);
	assert_int_equal(lock_check_depth(), 0);
	assert_int_equal(gnt_unmap(&d2->vcpu[0], GNT_ADDR(0), h, 0), GNTST_okay);
	assert_int_equal(lock_check_depth(), 0);
	assert_true(harness_expect_panic(table_lock_inside_maptrack, NULL));
	assert_non_null(strstr(host_console_text(), "gnttab taken while holding maptrack"));
	lock_check_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_map_rw_shares_page_and_unmap_removes_it, setup),
		cmocka_unit_test_setup(test_map_readonly, setup),
		cmocka_unit_test_setup(test_map_status_codes, setup),
		cmocka_unit_test_setup(test_map_refused_grants, setup),
		cmocka_unit_test_setup(test_map_onto_used_address, setup),
		cmocka_unit_test_setup(test_unmap_status_codes, setup),
		cmocka_unit_test_setup(test_unmap_and_replace, setup),
		cmocka_unit_test_setup(test_in_use_grant_cannot_be_revoked, setup),
		cmocka_unit_test_setup(test_second_mapper_refused_while_pinned, setup),
		cmocka_unit_test_setup(test_flag_flipping_guest_cannot_livelock, setup),
		cmocka_unit_test_setup(test_lock_order_checked_and_clean, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
