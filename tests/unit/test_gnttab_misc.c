/* SPDX-License-Identifier: MIT */
/*
 * setup_table, query_size, versions, status frames, swap, cache_flush,
 * the refused sub-ops, the dispatcher's argument checks and frame mapping.
 */
#include "gnttab_helpers.h"

static struct domain *d1, *d2;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1);
	d2 = harness_domain(2, 1);
	return 0;
}

static void *args(struct domain *d)
{
	void *p = harness_gpa(d, GNT_ARGS);

	memset(p, 0, 64);
	return p;
}

static long add_frame(struct domain *d, uint64_t idx, gfn_t gfn)
{
	struct xen_add_to_physmap *x = harness_gpa(d, harness_ram(1, 0));

	x->domid = DOMID_SELF;
	x->space = XENMAPSPACE_grant_table;
	x->idx = idx;
	x->gpfn = gfn;
	return harness_call(&d->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
			    harness_ram(1, 0), 0);
}

VERIFIES(REQ-GNT-015)
static void test_grant_frame_mapping(void **state)
{
	gfn_t base = gaddr_to_gfn(GUEST_GNTTAB_BASE);
	struct grant_entry_v1 *guest_view;
	mfn_t mfn;
	enum p2m_type t;
	uint32_t h;

	(void)state;
	assert_int_equal(add_frame(d1, 0, base), 0);
	assert_int_equal(p2m_lookup(&d1->p2m, base, &mfn, &t), 0);
	assert_int_equal(t, p2m_hyp_page);
	/* The guest writes its grant through the mapped frame; the map sees it. */
	guest_view = harness_gpa(d1, GUEST_GNTTAB_BASE);
	guest_view[8].domid = 2;
	guest_view[8].frame = (uint32_t)gnt_page_gfn(10);
	__atomic_store_n(&guest_view[8].flags, GTF_permit_access, __ATOMIC_RELEASE);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	assert_int_equal(guest_view[8].flags, GTF_permit_access | GTF_reading | GTF_writing);
	/* Observed on Xen 4.17: mapped already is -EBUSY, even at the same gfn. */
	assert_int_equal(add_frame(d1, 0, base), -XEN_EBUSY);
	assert_int_equal(add_frame(d1, 0, base + 7), -XEN_EBUSY);
	/* Beyond the maximum, and v2 status frames (v1 only): -EINVAL. */
	assert_int_equal(add_frame(d1, CONFIG_GNTTAB_MAX_FRAMES, base + 1), -XEN_EINVAL);
	assert_int_equal(add_frame(d1, XENMAPIDX_grant_table_status, base + 1), -XEN_EINVAL);
	/* Never over a grant mapping or another hypervisor page. */
	assert_int_equal(add_frame(d2, 0, gaddr_to_gfn(GNT_ADDR(0))), -XEN_EBUSY);
	assert_int_equal(add_frame(d1, 1, base), -XEN_EBUSY);
	assert_int_equal(gnt_maddr(d2, GNT_ADDR(0)), gnt_maddr(d1, harness_ram(10, 0)));
	/* Mapping a higher frame grows the table. */
	assert_int_equal(d1->gt.nr_frames, 1);
	assert_int_equal(add_frame(d1, 2, base + 2), 0);
	assert_int_equal(d1->gt.nr_frames, 3);
}

/* A partition whose node set max_grant_frames = <2> and max_maptrack_frames = <0>. */
static struct domain *sized_domain(domid_t id)
{
	struct domain_config cfg;
	struct domain *d;

	memset(&cfg, 0, sizeof(cfg));
	cfg.name[0] = (char)('d'); cfg.name[1] = (char)('0' + id); cfg.name[2] = 0;
	cfg.nr_vcpus = 1;
	cfg.mem_bytes = HARNESS_RAM_BYTES;
	cfg.pcpus[0] = 3;
	cfg.max_grant_frames = 2;
	cfg.max_maptrack_frames = 0;
	assert_int_equal(domain_create(id, &cfg), 0);
	d = domain_by_id(id);
	d->state = DOMAIN_RUNNING;
	d->vcpu[0].online = true;
	return d;
}

VERIFIES(REQ-GNT-022, REQ-GNT-023)
static void test_sizes_from_the_device_tree(void **state)
{
	struct domain *d3 = sized_domain(3);
	struct gnttab_query_size *q = args(d3);
	struct gnttab_setup_table *st;
	gfn_t base = gaddr_to_gfn(GUEST_GNTTAB_BASE);
	uint32_t h;
	bool ok = true;

	(void)state;
	q->dom = DOMID_SELF;
	assert_int_equal(gnt_op(&d3->vcpu[0], GNTTABOP_query_size, GNT_ARGS, 1), 0);
	assert_int_equal(q->max_nr_frames, 2);
	assert_int_equal(add_frame(d3, 2, base + 2), -XEN_EINVAL);
	assert_int_equal(add_frame(d3, 1, base + 1), 0);
	assert_int_equal(d3->gt.nr_frames, 2);
	st = args(d3);
	st->dom = DOMID_SELF;
	st->nr_frames = 3;
	assert_int_equal(gnt_op(&d3->vcpu[0], GNTTABOP_setup_table, GNT_ARGS, 1), 0);
	assert_int_equal(st->status, GNTST_general_error);
	/* No maptrack frames: it may grant, never map. */
	harness_gnt_grant(d1, 9, 3, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d3->vcpu[0], 1, 9, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_no_space);
	assert_int_equal(gnttab_maptrack_nr_free(d3, &ok), 0);
	assert_true(ok);
	/* The others keep Xen's sizes (here all the host pool holds). */
	q = args(d2);
	q->dom = DOMID_SELF;
	assert_int_equal(gnt_op(&d2->vcpu[0], GNTTABOP_query_size, GNT_ARGS, 1), 0);
	assert_int_equal(q->max_nr_frames, CONFIG_GNTTAB_MAX_FRAMES);
}

VERIFIES(REQ-GNT-009)
static void test_query_size(void **state)
{
	struct gnttab_query_size *q = args(d1);

	(void)state;
	q->dom = DOMID_SELF;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_query_size, GNT_ARGS, 2), -XEN_EINVAL);
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_query_size, GNT_ARGS, 1), 0);
	assert_int_equal(q->status, GNTST_okay);
	assert_int_equal(q->nr_frames, 1);
	assert_int_equal(q->max_nr_frames, CONFIG_GNTTAB_MAX_FRAMES);
	assert_int_equal(gnttab_map_frame(d1, 3, 0x38003), 0);
	q->dom = 1;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_query_size, GNT_ARGS, 1), 0);
	assert_int_equal(q->nr_frames, 4);
	q->dom = 2;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_query_size, GNT_ARGS, 1), 0);
	assert_int_equal(q->status, GNTST_permission_denied);
	q->dom = 7;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_query_size, GNT_ARGS, 1), 0);
	assert_int_equal(q->status, GNTST_bad_domain);
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_query_size, 0x1000, 1), -XEN_EFAULT);
}

VERIFIES(REQ-GNT-009)
static void test_setup_table(void **state)
{
	struct gnttab_setup_table *s = args(d1);
	uint64_t *list = harness_gpa(d1, harness_ram(2, 0));

	(void)state;
	assert_int_equal(gnttab_map_frame(d1, 0, 0x38000), 0);
	s->dom = DOMID_SELF;
	s->nr_frames = 2;
	s->frame_list = harness_ram(2, 0);
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_setup_table, GNT_ARGS, 0), -XEN_EINVAL);
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_setup_table, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_okay);
	assert_int_equal(list[0], 0x38000);
	assert_int_equal(list[1], ~(uint64_t)0);
	assert_int_equal(d1->gt.nr_frames, 2);
	s->nr_frames = CONFIG_GNTTAB_MAX_FRAMES + 1;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_setup_table, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_general_error);
	s->nr_frames = 1;
	s->frame_list = 0x2000;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_setup_table, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_bad_virt_addr);
	s->dom = 2;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_setup_table, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_permission_denied);
	s->dom = 30;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_setup_table, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_bad_domain);
}

VERIFIES(REQ-GNT-010)
static void test_versions(void **state)
{
	struct gnttab_set_version *sv = args(d1);
	struct gnttab_get_version *gv;

	(void)state;
	sv->version = 1;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_set_version, GNT_ARGS, 1), 0);
	assert_int_equal(sv->version, 1);
	sv->version = 2;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_set_version, GNT_ARGS, 1), -XEN_ENOSYS);
	assert_int_equal(sv->version, 1);
	sv->version = 3;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_set_version, GNT_ARGS, 1), -XEN_EINVAL);
	assert_int_equal(sv->version, 1);
	sv->version = 0;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_set_version, GNT_ARGS, 1), -XEN_EINVAL);
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_set_version, 0x1000, 1), -XEN_EFAULT);

	gv = args(d1);
	gv->dom = DOMID_SELF;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_get_version, GNT_ARGS, 1), 0);
	assert_int_equal(gv->version, 1);
	gv->dom = 2;
	gv->version = 0;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_get_version, GNT_ARGS, 1), -XEN_EPERM);
	assert_int_equal(gv->version, 0);
	gv->dom = 9;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_get_version, GNT_ARGS, 1), -XEN_ESRCH);
}

VERIFIES(REQ-GNT-013)
static void test_refused_subops(void **state)
{
	struct gnttab_get_status_frames *g = args(d1);

	(void)state;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_dump_table, GNT_ARGS, 1), -XEN_ENOSYS);
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_transfer, GNT_ARGS, 1), -XEN_EOPNOTSUPP);
	assert_int_equal(gnt_op(&d1->vcpu[0], 13, GNT_ARGS, 1), -XEN_ENOSYS);
	assert_int_equal(gnt_op(&d1->vcpu[0], 0xfff, GNT_ARGS, 1), -XEN_ENOSYS);
	g->dom = DOMID_SELF;
	g->nr_frames = 0;
	g->frame_list = harness_ram(2, 0);
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_get_status_frames, GNT_ARGS, 2),
			 -XEN_EINVAL);
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_get_status_frames, GNT_ARGS, 1), 0);
	assert_int_equal(g->status, GNTST_okay);
	g->nr_frames = 1;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_get_status_frames, GNT_ARGS, 1), 0);
	assert_int_equal(g->status, GNTST_general_error);
	g->dom = 2;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_get_status_frames, GNT_ARGS, 1), 0);
	assert_int_equal(g->status, GNTST_permission_denied);
	g->dom = 11;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_get_status_frames, GNT_ARGS, 1), 0);
	assert_int_equal(g->status, GNTST_bad_domain);
}

VERIFIES(REQ-GNT-011)
static void test_swap_grant_ref(void **state)
{
	struct gnttab_swap_grant_ref *s;
	uint32_t h;

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	harness_gnt_grant(d1, 9, 2, gnt_page_gfn(11), GTF_permit_access | GTF_readonly);
	s = args(d1);
	s->ref_a = 8;
	s->ref_b = 9;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_swap_grant_ref, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_okay);
	assert_int_equal(harness_gnt_entry(d1, 8)->frame, gnt_page_gfn(11));
	assert_int_equal(gnt_flags(d1, 8), GTF_permit_access | GTF_readonly);
	assert_int_equal(harness_gnt_entry(d1, 9)->frame, gnt_page_gfn(10));
	s->ref_b = 8;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_swap_grant_ref, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_okay);
	assert_int_equal(harness_gnt_entry(d1, 8)->frame, gnt_page_gfn(11));
	s->ref_b = 512;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_swap_grant_ref, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_bad_gntref);
	/* A pinned entry cannot move. */
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 9, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	s = args(d1);
	s->ref_a = 8;
	s->ref_b = 9;
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_swap_grant_ref, GNT_ARGS, 1), 0);
	assert_int_equal(s->status, GNTST_eagain);
	assert_int_equal(harness_gnt_entry(d1, 9)->frame, gnt_page_gfn(10));
	/* 4-byte aligned is enough for this struct; 2 is not. */
	assert_int_equal(gnt_op(&d1->vcpu[0], GNTTABOP_swap_grant_ref, GNT_ARGS + 2, 1),
			 -XEN_EFAULT);
}

static long flush(struct domain *d, unsigned int cmd, uint64_t addr, uint16_t off,
		  uint16_t len, uint32_t op)
{
	struct gnttab_cache_flush *c = args(d);

	c->a.dev_bus_addr = addr;
	c->offset = off;
	c->length = len;
	c->op = op;
	return gnt_op(&d->vcpu[0], cmd, GNT_ARGS, 1);
}

VERIFIES(REQ-GNT-012)
static void test_cache_flush(void **state)
{
	uint64_t own = gnt_maddr(d2, harness_ram(40, 0));
	uint64_t foreign = gnt_maddr(d1, harness_ram(10, 0));
	uint64_t ops = host_dcache_ops;
	unsigned int cf = GNTTABOP_cache_flush;
	uint32_t h;

	(void)state;
	assert_int_equal(flush(d2, cf, own, 4096, 1, GNTTAB_CACHE_CLEAN), -XEN_EINVAL);
	assert_int_equal(flush(d2, cf, own, 0, 4097, GNTTAB_CACHE_CLEAN), -XEN_EINVAL);
	assert_int_equal(flush(d2, cf, own, 100, 4000, GNTTAB_CACHE_CLEAN), -XEN_EINVAL);
	assert_int_equal(flush(d2, cf, own, 0, 64, 4), -XEN_EINVAL);
	assert_int_equal(flush(d2, cf, own, 0, 64, GNTTAB_CACHE_SOURCE_GREF | 1), -XEN_EINVAL);
	assert_int_equal(host_dcache_ops, ops);
	/* Length or op 0: nothing to do. */
	assert_int_equal(flush(d2, cf, own, 0, 0, GNTTAB_CACHE_CLEAN), 0);
	assert_int_equal(flush(d2, cf, own, 0, 64, 0), 0);
	assert_int_equal(host_dcache_ops, ops);
	assert_int_equal(flush(d2, cf, own, 0, 64, GNTTAB_CACHE_CLEAN | GNTTAB_CACHE_INVAL), 0);
	assert_int_equal(host_dcache_ops, ops + 1);
	/* Another partition's page: only through a grant the caller holds. */
	assert_int_equal(flush(d2, cf, foreign, 0, 64, GNTTAB_CACHE_INVAL), -XEN_EINVAL);
	assert_int_equal(flush(d2, cf, 0x1000, 0, 64, GNTTAB_CACHE_INVAL), -XEN_EINVAL);
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_map(&d2->vcpu[0], 1, 8, GNTMAP_host_map, GNT_ADDR(0), &h, NULL),
			 GNTST_okay);
	assert_int_equal(flush(d2, cf, foreign, 0, 64, GNTTAB_CACHE_INVAL), 0);
	assert_int_equal(host_dcache_ops, ops + 2);
	/* The continuation argument rides in cmd's upper bits, for this op only. */
	assert_int_equal(flush(d2, cf | (1U << 12), own, 0, 0, GNTTAB_CACHE_CLEAN), -XEN_EILSEQ);
	assert_int_equal(flush(d2, GNTTABOP_query_size | (1U << 12), own, 0, 0, 0), -XEN_EINVAL);
}

VERIFIES(REQ-GNT-014)
static void test_dispatcher_argument_checks(void **state)
{
	struct vcpu *v = &d2->vcpu[0];

	(void)state;
	harness_gnt_grant(d1, 8, 2, gnt_page_gfn(10), GTF_permit_access);
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, GNT_ARGS, 0x80000000U), -XEN_EINVAL);
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, GNT_ARGS, 0xffffffffU), -XEN_EINVAL);
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref | (1U << 12), GNT_ARGS, 1),
			 -XEN_EINVAL);
	assert_int_equal(gnt_op(v, GNTTABOP_copy | 0x80000000U, GNT_ARGS, 1), -XEN_EINVAL);
	/* Count 0 does nothing. */
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, 0x1000, 0), 0);
	/* Misaligned, unmapped, outside RAM, straddling the end of RAM. */
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, GNT_ARGS + 4, 1), -XEN_EFAULT);
	assert_int_equal(gnt_op(v, GNTTABOP_unmap_grant_ref, GNT_ARGS + 1, 1), -XEN_EFAULT);
	assert_int_equal(gnt_op(v, GNTTABOP_copy, GNT_ARGS + 2, 1), -XEN_EFAULT);
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, 0x1000, 1), -XEN_EFAULT);
	assert_int_equal(gnt_op(v, GNTTABOP_unmap_grant_ref, ~(uint64_t)7, 1), -XEN_EFAULT);
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref,
				GUEST_RAM0_BASE + HARNESS_RAM_BYTES - 16, 1),
			 -XEN_EFAULT);
	/* A hypervisor page mapped in the guest is not an argument buffer. */
	assert_int_equal(gnttab_map_frame(d2, 0, gaddr_to_gfn(GUEST_GNTTAB_BASE)), 0);
	assert_int_equal(gnt_op(v, GNTTABOP_query_size, GUEST_GNTTAB_BASE, 1), -XEN_EFAULT);
	/* A fault part-way: earlier elements are done, the call says -EFAULT. */
	{
		struct gnttab_map_grant_ref *ops =
			harness_gpa(d2, GUEST_RAM0_BASE + HARNESS_RAM_BYTES - 32);
		memset(ops, 0, sizeof(*ops));
		ops->host_addr = GNT_ADDR(0);
		ops->flags = GNTMAP_host_map;
		ops->ref = 8;
		ops->dom = 1;
		assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref,
					GUEST_RAM0_BASE + HARNESS_RAM_BYTES - 32, 2),
				 -XEN_EFAULT);
		assert_int_equal(ops->status, GNTST_okay);
		assert_int_equal(gnttab_nr_pins(d1), 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_grant_frame_mapping, setup),
		cmocka_unit_test_setup(test_query_size, setup),
		cmocka_unit_test_setup(test_sizes_from_the_device_tree, setup),
		cmocka_unit_test_setup(test_setup_table, setup),
		cmocka_unit_test_setup(test_versions, setup),
		cmocka_unit_test_setup(test_refused_subops, setup),
		cmocka_unit_test_setup(test_swap_grant_ref, setup),
		cmocka_unit_test_setup(test_cache_flush, setup),
		cmocka_unit_test_setup(test_dispatcher_argument_checks, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
