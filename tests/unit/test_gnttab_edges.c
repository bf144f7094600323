/* SPDX-License-Identifier: MIT */
/*
 * Grant-table edge cases the main suites do not reach: argument pointers
 * that fault on read or only on write back, own frames that are not plain
 * RAM, a batch long enough to be preempted, a map during a reset, an unmap
 * at the wrong address, and the maptrack audit catching a corrupted list.
 */
#include "gnttab_helpers.h"
#include "../../common/gnttab/gnttab_priv.h"

static struct domain *d1, *d2;

/* Past the partition's 1 MiB of RAM: nothing is mapped there. */
#define BAD_PTR (harness_ram(0, 0) + HARNESS_RAM_BYTES + (UL(16) << PAGE_SHIFT))

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1);
	d2 = harness_domain(2, 1);
	return 0;
}

/* Make page `page` of d read-only in its stage 2, as the guest would see a ROM. */
static void make_ro(struct domain *d, unsigned int page)
{
	mfn_t mfn;
	enum p2m_type t;

	assert_int_equal(p2m_lookup(&d->p2m, gnt_page_gfn(page), &mfn, &t), 0);
	assert_int_equal(p2m_set_entry(&d->p2m, gnt_page_gfn(page), mfn, p2m_ram_ro, false), 0);
}

VERIFIES(REQ-GNT-009, REQ-GNT-010, REQ-GNT-012, REQ-GNT-014)
static void test_argument_pointer_faults(void **state)
{
	struct vcpu *v = &d1->vcpu[0];
	static const unsigned int single[] = {
		GNTTABOP_setup_table, GNTTABOP_query_size, GNTTABOP_set_version,
		GNTTABOP_get_version, GNTTABOP_get_status_frames, GNTTABOP_cache_flush,
	};
	unsigned int i;

	(void)state;
	for (i = 0U; i < sizeof(single) / sizeof(single[0]); i++) {
		assert_int_equal(gnt_op(v, single[i], BAD_PTR, 1), -XEN_EFAULT);
	}
}

VERIFIES(REQ-GNT-009, REQ-GNT-010, REQ-GNT-014)
static void test_read_only_argument_page_faults_on_write_back(void **state)
{
	struct vcpu *v = &d1->vcpu[0];
	paddr_t arg = harness_ram(3, 0);
	uint8_t *p = harness_gpa(d1, arg);
	struct gnttab_map_grant_ref *m = (struct gnttab_map_grant_ref *)p;
	static const unsigned int single[] = {
		GNTTABOP_setup_table, GNTTABOP_query_size, GNTTABOP_set_version,
		GNTTABOP_get_version, GNTTABOP_get_status_frames,
	};
	unsigned int i;

	(void)state;
	memset(p, 0, 64);
	((struct gnttab_set_version *)p)->version = 1U;
	make_ro(d1, 3);
	for (i = 0U; i < sizeof(single) / sizeof(single[0]); i++) {
		/* The argument is read (the page is readable), the result cannot land. */
		memset(p, 0, 64);
		((struct gnttab_setup_table *)p)->dom = DOMID_SELF;
		if (single[i] == GNTTABOP_set_version) {
			((struct gnttab_set_version *)p)->version = 1U;
		}
		assert_int_equal(gnt_op(v, single[i], arg, 1), -XEN_EFAULT);
	}
	/* A map element is read, acted on and its result cannot be written back. */
	harness_gnt_grant(d2, 8, 1, gnt_page_gfn(10), GTF_permit_access);
	memset(m, 0, sizeof(*m));
	m->host_addr = GNT_ADDR(0);
	m->flags = GNTMAP_host_map;
	m->ref = 8;
	m->dom = 2;
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, arg, 1), -XEN_EFAULT);
}

VERIFIES(REQ-GNT-004, REQ-GNT-021)
static void test_unmap_status_write_back_faults(void **state)
{
	struct vcpu *v = &d1->vcpu[0];
	paddr_t arg = harness_ram(3, 0);
	struct gnttab_unmap_grant_ref *u = harness_gpa(d1, arg);
	uint32_t h;

	(void)state;
	harness_gnt_grant(d2, 8, 1, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(v, 2, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL), GNTST_okay);
	memset(u, 0, sizeof(*u));
	u->host_addr = GNT_ADDR(0);
	u->handle = h;
	make_ro(d1, 3);
	assert_int_equal(gnt_op(v, GNTTABOP_unmap_grant_ref, arg, 1), -XEN_EFAULT);
	/* The unmap itself was done: the status only could not be reported. */
	assert_int_equal(gnttab_nr_pins(d2), 0);
	assert_int_equal(gnt_flags(d2, 8), GTF_permit_access);
	assert_int_equal(gnt_free(d1), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
}

VERIFIES(REQ-GNT-012, REQ-GNT-014)
static void test_cache_flush_batch_preempts_then_faults(void **state)
{
	struct vcpu *v = &d2->vcpu[0];
	unsigned int n = CONFIG_HYPERCALL_BATCH + 3U;
	struct gnttab_cache_flush *c = harness_gpa(d2, GNT_ARGS);
	uint64_t own = gnt_maddr(d2, harness_ram(40, 0));
	uint64_t ops = host_dcache_ops;
	paddr_t last;
	unsigned int i;

	(void)state;
	memset(c, 0, n * sizeof(*c));
	for (i = 0U; i < n; i++) {
		c[i].a.dev_bus_addr = own;
		c[i].length = 64;
		c[i].op = GNTTAB_CACHE_CLEAN;
	}
	assert_int_equal(gnt_op(v, GNTTABOP_cache_flush, GNT_ARGS, n), 0);
	assert_int_equal(host_dcache_ops, ops + n);
	assert_int_equal(v->arch.continuations, 1);
	/* Two elements, the second past the end of RAM: the first is done, then -EFAULT. */
	last = harness_ram(0, 0) + HARNESS_RAM_BYTES - sizeof(*c);
	c = harness_gpa(d2, last);
	memset(c, 0, sizeof(*c));
	c->a.dev_bus_addr = own;
	c->length = 64;
	c->op = GNTTAB_CACHE_INVAL;
	assert_int_equal(gnt_op(v, GNTTABOP_cache_flush, last, 2), -XEN_EFAULT);
	assert_int_equal(host_dcache_ops, ops + n + 1U);
}

static struct gnttab_copy *copy_op(void)
{
	struct gnttab_copy *op = harness_gpa(d2, GNT_ARGS);

	memset(op, 0, sizeof(*op));
	op->status = 0x55;
	op->len = 8;
	return op;
}

VERIFIES(REQ-GNT-008)
static void test_copy_own_frames_by_type(void **state)
{
	struct vcpu *v = &d2->vcpu[0];
	struct gnttab_copy *op;

	(void)state;
	memcpy(harness_gpa(d2, harness_ram(21, 0)), "romdata", 8);
	make_ro(d2, 21);
	assert_int_equal(gnttab_map_frame(d2, 0, gaddr_to_gfn(GUEST_GNTTAB_BASE)), 0);

	/* A read-only frame may be the source... */
	op = copy_op();
	op->source.domid = DOMID_SELF;
	op->source.u.gmfn = gnt_page_gfn(21);
	op->dest.domid = DOMID_SELF;
	op->dest.u.gmfn = gnt_page_gfn(22);
	assert_int_equal(gnt_op(v, GNTTABOP_copy, GNT_ARGS, 1), 0);
	assert_int_equal(op->status, GNTST_okay);
	assert_memory_equal(harness_gpa(d2, harness_ram(22, 0)), "romdata", 8);
	/* ...never the destination. */
	op = copy_op();
	op->source.domid = DOMID_SELF;
	op->source.u.gmfn = gnt_page_gfn(22);
	op->dest.domid = DOMID_SELF;
	op->dest.u.gmfn = gnt_page_gfn(21);
	assert_int_equal(gnt_op(v, GNTTABOP_copy, GNT_ARGS, 1), 0);
	assert_int_equal(op->status, GNTST_bad_page);
	/* A hypervisor page in the guest's stage 2 (its grant frame) is neither. */
	op = copy_op();
	op->source.domid = DOMID_SELF;
	op->source.u.gmfn = gaddr_to_gfn(GUEST_GNTTAB_BASE);
	op->dest.domid = DOMID_SELF;
	op->dest.u.gmfn = gnt_page_gfn(22);
	assert_int_equal(gnt_op(v, GNTTABOP_copy, GNT_ARGS, 1), 0);
	assert_int_equal(op->status, GNTST_bad_page);
}

VERIFIES(REQ-GNT-003, REQ-GNT-018)
static void test_map_frame_types_and_reset_window(void **state)
{
	struct vcpu *v = &d1->vcpu[0];
	uint32_t h;

	(void)state;
	assert_int_equal(gnttab_map_frame(d2, 0, gaddr_to_gfn(GUEST_GNTTAB_BASE)), 0);
	/* A grant of a frame that is not the granter's RAM: bad_page, flags put back. */
	harness_gnt_grant(d2, 8, 1, gaddr_to_gfn(GUEST_GNTTAB_BASE), GTF_permit_access);
	assert_int_equal(gnt_map(v, 2, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_bad_page);
	assert_int_equal(gnt_flags(d2, 8), GTF_permit_access);
	/* A read-only frame: a read-only map works, a writable one does not. */
	make_ro(d2, 11);
	harness_gnt_grant(d2, 9, 1, gnt_page_gfn(11), GTF_permit_access);
	assert_int_equal(gnt_map(v, 2, 9, GNTMAP_host_map, GNT_ADDR(1), &h, NULL),
			 GNTST_bad_page);
	assert_int_equal(gnt_flags(d2, 9), GTF_permit_access);
	assert_int_equal(gnt_map(v, 2, 9, GNTMAP_host_map | GNTMAP_readonly, GNT_ADDR(1), &h,
				 NULL), GNTST_okay);
	assert_int_equal(gnt_unmap(v, GNT_ADDR(1), h, 0), GNTST_okay);
	/* While the granter is being reset no new pin is taken. */
	harness_gnt_grant(d2, 10, 1, gnt_page_gfn(12), GTF_permit_access);
	write_atomic(&d2->gt.resetting, true);
	assert_int_equal(gnt_map(v, 2, 10, GNTMAP_host_map, GNT_ADDR(2), &h, NULL),
			 GNTST_bad_domain);
	write_atomic(&d2->gt.resetting, false);
	assert_int_equal(gnt_flags(d2, 10), GTF_permit_access);
	assert_int_equal(gnttab_nr_pins(d2), 0);
}

VERIFIES(REQ-GNT-004)
static void test_unmap_at_another_address(void **state)
{
	struct vcpu *v = &d1->vcpu[0];
	uint32_t h;

	(void)state;
	harness_gnt_grant(d2, 8, 1, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(v, 2, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL), GNTST_okay);
	/* Nothing mapped there, or something else: refused, the mapping stays. */
	assert_int_equal(gnt_unmap(v, GNT_ADDR(1), h, 0), GNTST_general_error);
	assert_int_equal(gnt_unmap(v, harness_ram(5, 0), h, 0), GNTST_general_error);
	assert_int_equal(gnt_maddr(d1, GNT_ADDR(0)), gnt_maddr(d2, harness_ram(10, 0)));
	assert_int_equal(gnt_unmap(v, GNT_ADDR(0), h, 0), GNTST_okay);
	assert_int_equal(gnttab_nr_pins(d2), 0);
}

static struct gnttab_freelist *first_list(struct domain *d)
{
#if GNTTAB_PERCPU_MAPTRACK
	return &d->vcpu[0].gnttab.maptrack_list;
#else
	return &d->gt.maptrack_list;
#endif
}

VERIFIES(REQ-GNT-007)
static void test_maptrack_audit_catches_corruption(void **state)
{
	struct gnttab_freelist *fl = first_list(d1);
	struct gnttab_maptrack *pool = d1->gt.maptrack;
	uint32_t head = fl->head;
	uint32_t next;
	bool ok = true;

	(void)state;
	assert_true(head != GNTTAB_INVALID_HANDLE);
	next = pool[head].next;
	assert_int_equal(gnttab_maptrack_nr_free(d1, &ok), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
	assert_true(ok);
	/* An entry on a free list that is marked in use. */
	pool[head].flags = 1U;
	ok = true;
	(void)gnttab_maptrack_nr_free(d1, &ok);
	assert_false(ok);
	pool[head].flags = 0U;
	/* A list whose count disagrees with its length. */
	fl->nr_free++;
	ok = true;
	(void)gnttab_maptrack_nr_free(d1, &ok);
	assert_false(ok);
	fl->nr_free--;
	/* A link out of the pool, and a cycle: the walk stops, the audit fails. */
	pool[head].next = CONFIG_GNTTAB_MAPTRACK_ENTRIES + 7U;
	ok = true;
	(void)gnttab_maptrack_nr_free(d1, &ok);
	assert_false(ok);
	pool[head].next = head;
	ok = true;
	(void)gnttab_maptrack_nr_free(d1, &ok);
	assert_false(ok);
	pool[head].next = next;
	ok = true;
	assert_int_equal(gnttab_maptrack_nr_free(d1, &ok), CONFIG_GNTTAB_MAPTRACK_ENTRIES);
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_argument_pointer_faults, setup),
		cmocka_unit_test_setup(test_read_only_argument_page_faults_on_write_back, setup),
		cmocka_unit_test_setup(test_unmap_status_write_back_faults, setup),
		cmocka_unit_test_setup(test_cache_flush_batch_preempts_then_faults, setup),
		cmocka_unit_test_setup(test_copy_own_frames_by_type, setup),
		cmocka_unit_test_setup(test_map_frame_types_and_reset_window, setup),
		cmocka_unit_test_setup(test_unmap_at_another_address, setup),
		cmocka_unit_test_setup(test_maptrack_audit_catches_corruption, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
