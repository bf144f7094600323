/* SPDX-License-Identifier: MIT */
/* Static event channels, partition restart, and the locking the ops use. */
#include "evtchn_test.h"

static struct domain *d1;
static struct domain *d2;
static struct domain *d3;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 2);
	d2 = harness_domain(2, 1);
	d3 = harness_domain(3, 1);
	memset(harness_gpa(d1, harness_ram(20, 0)), 0, 2 * 4096);
	return 0;
}

static void status_of(struct domain *d, uint32_t port, struct evtchn_status *st)
{
	assert_int_equal(ev_status(&d->vcpu[0], DOMID_SELF, port, st), 0);
}

VERIFIES(REQ-EVT-021)
static void test_static_channel(void **state)
{
	struct static_evtchn a = { .local_port = 10, .remote_domid = 2, .remote_port = 20 };
	struct static_evtchn b = { .local_port = 20, .remote_domid = 1, .remote_port = 10 };
	struct evtchn_status st;

	(void)state;
	assert_int_equal(evtchn_bind_static(d1, &a), 0);
	status_of(d1, 10, &st);
	assert_int_equal(st.status, EVTCHNSTAT_interdomain);
	assert_int_equal(st.u.interdomain.dom, 2);
	assert_int_equal(st.u.interdomain.port, 20);
	/* Xen leaves the second side's port pending. */
	assert_true(ev_2l_pending(d2, 20));
	assert_false(ev_2l_pending(d1, 10));
	/* The other partition lists the same pair: made once. */
	assert_int_equal(evtchn_bind_static(d2, &b), 0);
	status_of(d2, 20, &st);
	assert_int_equal(st.u.interdomain.port, 10);
	/* It works both ways. */
	ev_2l_clear(d2, 20);
	assert_int_equal(ev_send(&d1->vcpu[0], 10), 0);
	assert_true(ev_2l_pending(d2, 20));
	assert_int_equal(ev_send(&d2->vcpu[0], 20), 0);
	assert_true(ev_2l_pending(d1, 10));
	/* Dynamic allocation skips the static ports. */
	assert_int_equal(ev_alloc(&d1->vcpu[0], DOMID_SELF, 2), 1);
}

VERIFIES(REQ-EVT-021)
static void test_static_errors(void **state)
{
	struct static_evtchn a = { .local_port = 10, .remote_domid = 2, .remote_port = 20 };
	struct static_evtchn busy = { .local_port = 10, .remote_domid = 3, .remote_port = 30 };
	struct static_evtchn remote_busy = { .local_port = 11, .remote_domid = 2, .remote_port = 20 };
	struct static_evtchn range = { .local_port = CONFIG_EVTCHN_MAX_PORTS, .remote_domid = 2,
				       .remote_port = 21 };
	struct static_evtchn nodom = { .local_port = 12, .remote_domid = 9, .remote_port = 1 };
	struct evtchn_status st;

	(void)state;
	assert_int_equal(evtchn_bind_static(d1, &a), 0);
	assert_int_equal(evtchn_bind_static(d1, &busy), -XEN_EBUSY);
	assert_int_equal(evtchn_bind_static(d3, &remote_busy), -XEN_EBUSY);
	/* The half-made local end was given back. */
	status_of(d3, 11, &st);
	assert_int_equal(st.status, EVTCHNSTAT_closed);
	assert_int_equal(evtchn_bind_static(d1, &range), -XEN_ENOSPC);
	assert_int_equal(evtchn_bind_static(d1, &nodom), -XEN_EINVAL);
}

VERIFIES(REQ-EVT-025, REQ-EVT-021)
static void test_restart_closes_and_releases(void **state)
{
	struct static_evtchn a = { .local_port = 10, .remote_domid = 2, .remote_port = 20 };
	struct vcpu *v = &d1->vcpu[0];
	struct evtchn_status st;
	int64_t maps = host_global_maps;
	long p;
	long q;

	(void)state;
	d1->cfg.static_evtchn[0] = a;
	d1->cfg.nr_static_evtchn = 1;
	assert_int_equal(evtchn_bind_static(d1, &a), 0);
	p = ev_alloc(&d3->vcpu[0], DOMID_SELF, 1);
	q = ev_bind(v, 3, (uint32_t)p);
	assert_true(q > 0);
	assert_true(ev_virq(v, VIRQ_CONSOLE, 0) > 0);
	assert_int_equal(ev_fifo_init(v, 20, 0), 0);
	assert_int_equal(ev_fifo_expand(v, 21), 0);
	assert_int_equal(host_global_maps, maps + 2);

	evtchn_domain_reset(d1);
	assert_int_equal(host_global_maps, maps);
	status_of(d1, 10, &st);
	assert_int_equal(st.status, EVTCHNSTAT_closed);
	status_of(d1, (uint32_t)q, &st);
	assert_int_equal(st.status, EVTCHNSTAT_closed);
	/* Peers see the channels closed: unbound, waiting for d1. */
	status_of(d2, 20, &st);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	assert_int_equal(st.u.unbound.dom, 1);
	status_of(d3, (uint32_t)p, &st);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	assert_int_equal(st.u.unbound.dom, 1);
	/* Back on 2-level; VIRQs unbound. */
	assert_int_equal(ev_fifo_expand(v, 21), -XEN_EOPNOTSUPP);
	evtchn_send_virq(v, VIRQ_CONSOLE);
	assert_int_equal(v->arch.irqs_raised, 1); /* only the earlier bind's event */
	/* The restarted partition's static channel comes back. */
	evtchn_restore_static(d1);
	status_of(d1, 10, &st);
	assert_int_equal(st.status, EVTCHNSTAT_interdomain);
	assert_int_equal(st.u.interdomain.port, 20);
	ev_2l_clear(d2, 20);
	assert_int_equal(ev_send(v, 10), 0);
	assert_true(ev_2l_pending(d2, 20));
}

VERIFIES(REQ-EVT-026)
static void test_send_and_unmask_locks(void **state)
{
	struct lock_profile dom0;
	struct lock_profile dom1;
	struct lock_profile ch0;
	struct lock_profile ch1;
	long a = ev_alloc(&d1->vcpu[0], DOMID_SELF, 2);
	long b = ev_bind(&d2->vcpu[0], 1, (uint32_t)a);
	unsigned int i;

	(void)state;
	lock_profile_reset();
	lock_profile_sum(LOCK_CLASS_EVTCHN_DOMAIN, &dom0);
	lock_profile_sum(LOCK_CLASS_EVTCHN, &ch0);
	for (i = 0U; i < 100U; i++) {
		assert_int_equal(ev_send(&d2->vcpu[0], (uint32_t)b), 0);
		assert_int_equal(ev_unmask(&d1->vcpu[0], (uint32_t)a), 0);
	}
	lock_profile_sum(LOCK_CLASS_EVTCHN_DOMAIN, &dom1);
	lock_profile_sum(LOCK_CLASS_EVTCHN, &ch1);
#if defined(CONFIG_EVTCHN_LOCK_DOMAIN)
	assert_int_equal(dom1.acquisitions - dom0.acquisitions, 200);
	assert_int_equal(ch1.acquisitions - ch0.acquisitions, 0);
#elif defined(CONFIG_EVTCHN_LOCK_CHANNEL)
	assert_int_equal(dom1.acquisitions - dom0.acquisitions, 0);
	assert_int_equal(ch1.acquisitions - ch0.acquisitions, 200);
#else
	/* Send: the sender's channel only; unmask: nothing. */
	assert_int_equal(dom1.acquisitions - dom0.acquisitions, 0);
	assert_int_equal(ch1.acquisitions - ch0.acquisitions, 100);
#endif
}

VERIFIES(REQ-EVT-026)
static void test_lock_order_bind_close_both_directions(void **state)
{
	struct evtchn_status st;
	unsigned int i;

	(void)state;
	/* Lock checking is on: any order violation would panic (abort). */
	for (i = 0U; i < 4U; i++) {
		struct domain *x = (i & 1U) ? d3 : d1;
		struct domain *y = (i & 1U) ? d1 : d3;
		long p = ev_alloc(&x->vcpu[0], DOMID_SELF, y->domain_id);
		long q = ev_bind(&y->vcpu[0], x->domain_id, (uint32_t)p);
		assert_true(q > 0);
		assert_int_equal(ev_send(&x->vcpu[0], (uint32_t)p), 0);
		assert_int_equal(ev_close((i & 2U) ? &x->vcpu[0] : &y->vcpu[0],
					  (i & 2U) ? (uint32_t)p : (uint32_t)q), 0);
	}
	assert_int_equal(lock_check_depth(), 0);
	status_of(d1, 1, &st);
	assert_int_not_equal(st.status, EVTCHNSTAT_interdomain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_static_channel, setup),
		cmocka_unit_test_setup(test_static_errors, setup),
		cmocka_unit_test_setup(test_restart_closes_and_releases, setup),
		cmocka_unit_test_setup(test_send_and_unmask_locks, setup),
		cmocka_unit_test_setup(test_lock_order_bind_close_both_directions, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
