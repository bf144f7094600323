/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's part of xenstore (common/xenstore.c): the client's ring
 * page, store channel, grant ref 1 and STORE params as Xen's dom0less
 * set-up makes them; what the store may ask and set; the fresh connection
 * after a client's restart; the store's /xenstore node.
 */
#include "evtchn_test.h"
#include <stdio.h>
#include <bulkhead/xenstore.h>
#include <bulkhead/dom0less.h>
#include <bulkhead/domain_build.h>
#include <bulkhead/fdt.h>
#include <public/io/xs_wire.h>
#include <public/hvm/params.h>

static struct dom0less_config conf;
static struct domain *xs;     /* d1: the store */
static struct domain *cl;     /* d2: a client with a static channel on port 1 */
static struct domain *plain;  /* d3: no xenstore */

static void make(domid_t id, bool server, bool client)
{
	struct domain_config *cfg = &conf.dom[id - 1U];

	(void)memset(cfg, 0, sizeof(*cfg));
	(void)snprintf(cfg->name, sizeof(cfg->name), "part%u", id);
	cfg->nr_vcpus = 1U;
	cfg->pcpus[0] = id - 1U;
	cfg->mem_bytes = HARNESS_RAM_BYTES;
	cfg->enhanced = true;
	cfg->xs_server = server;
	cfg->xs_client = client;
}

static int setup(void **state)
{
	domid_t id;

	(void)state;
	harness_reset();
	(void)memset(&conf, 0, sizeof(conf));
	conf.nr_domains = 3U;
	make(1, true, false);
	make(2, false, true);
	make(3, false, false);
	/* The client's port 1 is a static channel's: its store port is 2. */
	conf.dom[1].nr_static_evtchn = 1U;
	conf.dom[1].static_evtchn[0] = (struct static_evtchn){ .local_port = 1, .remote_domid = 3,
								.remote_port = 5 };
	xenstore_configure(&conf);
	for (id = 1U; id <= 3U; id++) {
		struct domain *d;
		assert_int_equal(domain_create(id, &conf.dom[id - 1U]), 0);
		d = domain_by_id(id);
		d->state = DOMAIN_RUNNING;
		d->vcpu[0].online = true;
	}
	xs = domain_by_id(1);
	cl = domain_by_id(2);
	plain = domain_by_id(3);
	assert_int_equal(evtchn_bind_static(cl, &conf.dom[1].static_evtchn[0]), 0);
	assert_int_equal(xenstore_setup_all(), 0);
	return 0;
}

static long hvm(struct vcpu *v, unsigned int cmd, domid_t dom, uint32_t index, uint64_t *value)
{
	paddr_t p = harness_ram(EV_ARG_PAGE, 0);
	struct xen_hvm_param a = { .domid = dom, .index = index, .value = *value };
	long rc;

	memcpy(harness_gpa(v->domain, p), &a, sizeof(a));
	rc = harness_call(v, __HYPERVISOR_hvm_op, cmd, p, 0);
	memcpy(&a, harness_gpa(v->domain, p), sizeof(a));
	*value = a.value;
	return rc;
}

static uint64_t get(struct domain *as, domid_t dom, uint32_t index)
{
	uint64_t v = 0x5555U;

	assert_int_equal(hvm(&as->vcpu[0], HVMOP_get_param, dom, index, &v), 0);
	return v;
}

static struct xenstore_domain_interface *ring(struct domain *d)
{
	return harness_gpa(d, gfn_to_gaddr(XENSTORE_RING_GFN));
}

VERIFIES(REQ-XS-020)
static void test_client_setup(void **state)
{
	struct grant_entry_v1 *e;
	struct evtchn_status st;
	mfn_t mfn;
	enum p2m_type t;

	(void)state;
	assert_int_equal(xenstore_server(), 1U);
	assert_int_equal(XENSTORE_RING_GFN, 0x39001U);
	/* The ring is the client's last RAM page, moved to the magic gfn. */
	assert_int_equal(p2m_lookup(&cl->p2m, XENSTORE_RING_GFN, &mfn, &t), 0);
	assert_int_equal(t, p2m_ram_rw);
	assert_int_equal(mfn_to_maddr(mfn), cl->ram_maddr + cl->ram_bytes - PAGE_SIZE);
	assert_int_equal(domain_guest_ram(cl), HARNESS_RAM_BYTES - PAGE_SIZE);
	assert_int_not_equal(p2m_lookup(&cl->p2m, gaddr_to_gfn(GUEST_RAM0_BASE + cl->ram_bytes -
							      PAGE_SIZE), &mfn, &t), 0);
	assert_int_not_equal(p2m_lookup(&plain->p2m, XENSTORE_RING_GFN, &mfn, &t), 0);
	assert_int_equal(domain_guest_ram(plain), HARNESS_RAM_BYTES);
	/* Waiting for the store, with its port in the page. */
	assert_int_equal(ring(cl)->connection, XENSTORE_RECONNECT);
	assert_int_equal(ring(cl)->evtchn_port, 2U);
	assert_int_equal(ring(cl)->req_prod, 0U);
	/* Grant ref 1: the ring page, for the store. */
	e = harness_gnt_entry(cl, GNTTAB_RESERVED_XENSTORE);
	assert_int_equal(e->flags, GTF_permit_access);
	assert_int_equal(e->domid, 1U);
	assert_int_equal(e->frame, 0x39001U);
	assert_int_equal(harness_gnt_entry(plain, 1)->flags, 0U);
	/* Port 2 (the lowest the static channel leaves), unbound for the store. */
	assert_int_equal(ev_status(&cl->vcpu[0], DOMID_SELF, 2, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	assert_int_equal(st.u.unbound.dom, 1U);
	/* The params the client reads: late init. */
	assert_int_equal(get(cl, DOMID_SELF, HVM_PARAM_STORE_PFN), ~(uint64_t)0U);
	assert_int_equal(get(cl, DOMID_SELF, HVM_PARAM_STORE_EVTCHN), 2U);
	/* No xenstore: 0, 0 (Linux skips xenbus); the store itself has none either. */
	assert_int_equal(get(plain, DOMID_SELF, HVM_PARAM_STORE_PFN), 0U);
	assert_int_equal(get(plain, DOMID_SELF, HVM_PARAM_STORE_EVTCHN), 0U);
	assert_int_equal(get(xs, DOMID_SELF, HVM_PARAM_STORE_PFN), 0U);
}

VERIFIES(REQ-XS-021)
static void test_store_introduces(void **state)
{
	uint64_t v;
	struct evtchn_status st;
	long lport;

	(void)state;
	/* The store reads the client's port and binds it. */
	assert_int_equal(get(xs, 2, HVM_PARAM_STORE_EVTCHN), 2U);
	assert_int_equal(get(xs, 2, HVM_PARAM_STORE_PFN), ~(uint64_t)0U);
	lport = ev_bind(&xs->vcpu[0], 2, 2);
	assert_true(lport > 0);
	assert_int_equal(ev_status(&cl->vcpu[0], DOMID_SELF, 2, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_interdomain);
	/* Only the ring's gfn, only STORE_PFN, only by the store. */
	v = 0x39002U;
	assert_int_equal(hvm(&xs->vcpu[0], HVMOP_set_param, 2, HVM_PARAM_STORE_PFN, &v), -XEN_EINVAL);
	v = 7U;
	assert_int_equal(hvm(&xs->vcpu[0], HVMOP_set_param, 2, HVM_PARAM_STORE_EVTCHN, &v),
			 -XEN_EPERM);
	v = 0x39001U;
	assert_int_equal(hvm(&plain->vcpu[0], HVMOP_set_param, 2, HVM_PARAM_STORE_PFN, &v),
			 -XEN_EPERM);
	assert_int_equal(hvm(&cl->vcpu[0], HVMOP_set_param, DOMID_SELF, HVM_PARAM_STORE_PFN, &v),
			 -XEN_EPERM);
	assert_int_equal(hvm(&xs->vcpu[0], HVMOP_set_param, 3, HVM_PARAM_STORE_PFN, &v),
			 -XEN_EPERM);
	assert_int_equal(hvm(&plain->vcpu[0], HVMOP_get_param, 2, HVM_PARAM_STORE_EVTCHN, &v),
			 -XEN_EPERM);
	assert_int_equal(hvm(&xs->vcpu[0], HVMOP_get_param, 2, HVM_PARAM_CALLBACK_IRQ, &v),
			 -XEN_EPERM);
	assert_int_equal(hvm(&xs->vcpu[0], HVMOP_get_param, 9, HVM_PARAM_STORE_PFN, &v),
			 -XEN_ESRCH);
	v = 0x39001U;
	assert_int_equal(hvm(&xs->vcpu[0], HVMOP_set_param, 2, HVM_PARAM_STORE_PFN, &v), 0);
	/* Linux's late-init handler now reads the gfn. */
	assert_int_equal(get(cl, DOMID_SELF, HVM_PARAM_STORE_PFN), 0x39001U);
	assert_int_equal(get(plain, DOMID_SELF, HVM_PARAM_STORE_PFN), 0U);
}

VERIFIES(REQ-XS-021)
static void test_store_copies_ring(void **state)
{
	paddr_t dst = harness_ram(12, 0);
	struct gnttab_copy op = { 0 };
	paddr_t p = harness_ram(EV_ARG_PAGE, 0);

	(void)state;
	ring(cl)->req_prod = 0x1234U;
	op.source.u.ref = GNTTAB_RESERVED_XENSTORE;
	op.source.domid = 2;
	op.source.offset = 2048;
	op.dest.u.gmfn = gaddr_to_gfn(dst);
	op.dest.domid = DOMID_SELF;
	op.len = 32;
	op.flags = GNTCOPY_source_gref;
	memcpy(harness_gpa(xs, p), &op, sizeof(op));
	assert_int_equal(harness_call(&xs->vcpu[0], __HYPERVISOR_grant_table_op, GNTTABOP_copy, p, 1),
			 0);
	memcpy(&op, harness_gpa(xs, p), sizeof(op));
	assert_int_equal(op.status, GNTST_okay);
	assert_int_equal(((uint32_t *)harness_gpa(xs, dst))[1], 0x1234U);
	/* Nobody else may. */
	memcpy(harness_gpa(plain, p), &op, sizeof(op));
	assert_int_equal(harness_call(&plain->vcpu[0], __HYPERVISOR_grant_table_op, GNTTABOP_copy, p,
				      1), 0);
	memcpy(&op, harness_gpa(plain, p), sizeof(op));
	assert_int_not_equal(op.status, GNTST_okay);
}

VERIFIES(REQ-XS-022)
static void test_client_reset(void **state)
{
	struct evtchn_status st;
	uint64_t v = 0x39001U;
	long lport;
	long vport;

	(void)state;
	vport = ev_virq(&xs->vcpu[0], VIRQ_DOM_EXC, 0);
	assert_true(vport > 0);
	ev_2l_clear(xs, (uint32_t)vport);
	lport = ev_bind(&xs->vcpu[0], 2, 2);
	assert_int_equal(hvm(&xs->vcpu[0], HVMOP_set_param, 2, HVM_PARAM_STORE_PFN, &v), 0);
	ring(cl)->connection = XENSTORE_CONNECTED;
	ring(cl)->req_prod = 77U;
	/* What a restart does first, then the xenstore part of it, on the client's CPU. */
	host_set_cpu(cl->vcpu[0].pcpu);
	host_set_current(&cl->vcpu[0]);
	evtchn_domain_reset(cl);
	gnttab_domain_reset(cl);
	assert_int_equal(ev_status(&xs->vcpu[0], DOMID_SELF, (uint32_t)lport, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_unbound); /* the store sees the client went */
	host_set_cpu(cl->vcpu[0].pcpu);
	host_set_current(&cl->vcpu[0]);
	assert_int_equal(xenstore_domain_setup(cl), 0);
	assert_true(ev_2l_pending(xs, (uint32_t)vport));   /* VIRQ_DOM_EXC told it */
	assert_int_equal(get(cl, DOMID_SELF, HVM_PARAM_STORE_PFN), ~(uint64_t)0U);
	assert_int_equal(ring(cl)->connection, XENSTORE_RECONNECT);
	assert_int_equal(ring(cl)->req_prod, 0U);
	assert_int_equal(harness_gnt_entry(cl, 1)->domid, 1U);
	assert_int_equal(ev_status(&cl->vcpu[0], DOMID_SELF, 2, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	/* The store closes its old end and introduces the new incarnation. */
	assert_int_equal(ev_close(&xs->vcpu[0], (uint32_t)lport), 0);
	assert_true(ev_bind(&xs->vcpu[0], 2, 2) > 0);
	/* A partition that stops tells the store too. */
	ev_2l_clear(xs, (uint32_t)vport);
	xenstore_domain_stopped(plain);
	assert_true(ev_2l_pending(xs, (uint32_t)vport));
}

VERIFIES(REQ-XS-020, REQ-XS-023, REQ-BLK-022)
static void test_store_tree(void **state)
{
	static uint8_t buf[DOMAIN_DT_MAX] __attribute__((aligned(8)));
	struct fdt f;
	int n;
	uint32_t v;
	uint64_t g;

	(void)state;
	/* d3 serves two disks to d2 (the second read-only): the store writes their nodes. */
	conf.dom[2].nr_vbds = 2U;
	conf.dom[2].vbd[0] = (struct vbd_config){ .fe = 2U, .devid = 51712U };
	conf.dom[2].vbd[1] = (struct vbd_config){ .fe = 2U, .devid = 51728U, .readonly = true };
	assert_true(domain_build_dt(xs, buf, sizeof(buf), 0U) > 0);
	assert_int_equal(fdt_open(&f, buf, sizeof(buf)), 0);
	n = fdt_path(&f, "/xenstore");
	assert_true(n >= 0);
	assert_true(fdt_node_compatible(&f, n, "bulkhead,xenstore"));
	assert_int_equal(fdt_prop_u32(&f, n, "version", &v), 0);
	assert_int_equal(v, XENSTORE_DT_VERSION);
	assert_int_equal(fdt_prop_u32(&f, n, "self", &v), 0);
	assert_int_equal(v, 1U);
	n = fdt_path(&f, "/xenstore/domain@2");
	assert_true(n >= 0);
	assert_true(fdt_has_prop(&f, n, "xenstore-client"));
	assert_int_equal(fdt_prop_u32(&f, n, "event-channel", &v), 0);
	assert_int_equal(v, 2U);
	assert_int_equal(fdt_prop_u64(&f, n, "ring-gfn", &g), 0);
	assert_int_equal(g, 0x39001U);
	assert_int_equal(fdt_prop_u64(&f, n, "memory", &g), 0);
	assert_int_equal(g, (HARNESS_RAM_BYTES - PAGE_SIZE) >> 10);
	assert_false(fdt_has_prop(&f, n, "vbds"));
	n = fdt_path(&f, "/xenstore/domain@3");
	assert_true(n >= 0);
	assert_false(fdt_has_prop(&f, n, "xenstore-client"));
	{
		static const uint8_t want[24] = { 0, 0, 0, 2, 0, 0, 0xca, 0, 0, 0, 0, 0,
						  0, 0, 0, 2, 0, 0, 0xca, 0x10, 0, 0, 0, 1 };
		int len = 0;
		const void *p = fdt_getprop(&f, n, "vbds", &len);
		assert_non_null(p);
		assert_int_equal(len, 24);
		assert_memory_equal(p, want, sizeof(want));
	}
	/* Only the store has the node; a client's memory node is one page short. */
	assert_true(domain_build_dt(cl, buf, sizeof(buf), 0U) > 0);
	assert_int_equal(fdt_open(&f, buf, sizeof(buf)), 0);
	assert_true(fdt_path(&f, "/xenstore") < 0);
	n = fdt_path(&f, "/memory@40000000");
	assert_true(n >= 0);
	{
		uint64_t a;
		uint64_t s;
		assert_int_equal(fdt_reg(&f, 0, n, 0U, &a, &s), 0);
		assert_int_equal(s, HARNESS_RAM_BYTES - PAGE_SIZE);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_client_setup, setup),
		cmocka_unit_test_setup(test_store_introduces, setup),
		cmocka_unit_test_setup(test_store_copies_ring, setup),
		cmocka_unit_test_setup(test_client_reset, setup),
		cmocka_unit_test_setup(test_store_tree, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
