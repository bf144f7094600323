/* SPDX-License-Identifier: MIT */
/* Event-channel operations and their errors, on the 2-level ABI. */
#include "evtchn_test.h"

static struct domain *d1;
static struct domain *d2;
static struct domain *d3;
static struct vcpu *v1;
static struct vcpu *v2;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 2);
	d2 = harness_domain(2, 2);
	d3 = harness_domain(3, 1);
	v1 = &d1->vcpu[0];
	v2 = &d2->vcpu[0];
	return 0;
}

/* A connected pair: d1's port *p1 <-> d2's port *p2 (d2 bound, so d2 pending). */
static void connect(uint32_t *p1, uint32_t *p2)
{
	long a = ev_alloc(v1, DOMID_SELF, 2);
	long b;

	assert_true(a > 0);
	b = ev_bind(v2, 1, (uint32_t)a);
	assert_true(b > 0);
	*p1 = (uint32_t)a;
	*p2 = (uint32_t)b;
}

VERIFIES(REQ-EVT-002, REQ-EVT-013)
static void test_alloc_unbound(void **state)
{
	struct evtchn_status st;

	(void)state;
	/* Port 0 is reserved: the first port is 1, then 2. */
	assert_int_equal(ev_alloc(v1, DOMID_SELF, 2), 1);
	assert_int_equal(ev_alloc(v1, 1, DOMID_SELF), 2);
	/* A remote that does not exist is accepted (Xen 4.17). */
	assert_int_equal(ev_alloc(v1, DOMID_SELF, 33), 3);
	assert_int_equal(ev_status(v1, DOMID_SELF, 2, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	assert_int_equal(st.u.unbound.dom, 1);
	assert_int_equal(ev_status(v1, DOMID_SELF, 0, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_closed);
	/* Someone else's table, and a partition that does not exist. */
	assert_int_equal(ev_alloc(v1, 2, 1), -XEN_EPERM);
	assert_int_equal(ev_alloc(v1, 9, 1), -XEN_ESRCH);
	/* The refused attempt consumed nothing in d2. */
	assert_int_equal(ev_alloc(v2, DOMID_SELF, 1), 1);
}

VERIFIES(REQ-EVT-012)
static void test_copy_back_only_on_success(void **state)
{
	struct evtchn_alloc_unbound a = { .dom = 2, .remote_dom = 1, .port = 0xdeadU };
	struct evtchn_bind_virq bv = { .virq = VIRQ_DEBUG, .vcpu = 7, .port = 0xbeefU };

	(void)state;
	assert_int_equal(ev_op(v1, EVTCHNOP_alloc_unbound, &a, sizeof(a)), -XEN_EPERM);
	assert_int_equal(a.port, 0xdeadU);
	assert_int_equal(ev_op(v1, EVTCHNOP_bind_virq, &bv, sizeof(bv)), -XEN_ENOENT);
	assert_int_equal(bv.port, 0xbeefU);
	/* Unreadable argument, unknown commands. */
	assert_int_equal(harness_call(v1, __HYPERVISOR_event_channel_op, EVTCHNOP_send, 0x1000, 0),
			 -XEN_EFAULT);
	assert_int_equal(harness_call(v1, __HYPERVISOR_event_channel_op, EVTCHNOP_alloc_unbound,
				      ~(regval_t)3, 0), -XEN_EFAULT);
	assert_int_equal(ev_port_op(v1, 15, 1), -XEN_ENOSYS);
	assert_int_equal(ev_port_op(v1, 99, 1), -XEN_ENOSYS);
}

VERIFIES(REQ-EVT-003, REQ-EVT-009)
static void test_bind_interdomain(void **state)
{
	uint32_t p1;
	uint32_t p2;
	struct evtchn_status st;

	(void)state;
	connect(&p1, &p2);
	/* The binder's new port is pending (Xen always sets it). */
	assert_true(ev_2l_pending(d2, p2));
	assert_false(ev_2l_pending(d1, p1));
	assert_int_equal(ev_status(v1, DOMID_SELF, p1, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_interdomain);
	assert_int_equal(st.u.interdomain.dom, 2);
	assert_int_equal(st.u.interdomain.port, p2);
	assert_int_equal(ev_status(v2, DOMID_SELF, p2, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_interdomain);
	assert_int_equal(st.u.interdomain.dom, 1);
	assert_int_equal(st.u.interdomain.port, p1);
	/* Binding twice: the remote port is no longer unbound. */
	assert_int_equal(ev_bind(v2, 1, p1), -XEN_EINVAL);
	/* Nonexistent partition, invalid remote port. */
	assert_int_equal(ev_bind(v2, 9, 1), -XEN_ESRCH);
	assert_int_equal(ev_bind(v2, 1, 4000), -XEN_EINVAL);
	/* A port reserved or free is not offered to anyone. */
	assert_int_equal(ev_bind(v2, 1, 0), -XEN_EINVAL);
	assert_int_equal(ev_bind(v2, 1, 40), -XEN_EINVAL);
}

VERIFIES(REQ-EVT-003)
static void test_bind_port_not_offered(void **state)
{
	long p = ev_alloc(v1, DOMID_SELF, 2);

	(void)state;
	assert_true(p > 0);
	/* Offered to d2, not d3. */
	assert_int_equal(ev_bind(&d3->vcpu[0], 1, (uint32_t)p), -XEN_EINVAL);
	/* Failed binds gave back their local port. */
	assert_int_equal(ev_alloc(&d3->vcpu[0], DOMID_SELF, 1), 1);
	/* Loopback: a port offered to itself. */
	p = ev_alloc(v1, DOMID_SELF, DOMID_SELF);
	assert_true(p > 0);
	assert_true(ev_bind(v1, DOMID_SELF, (uint32_t)p) > 0);
}

VERIFIES(REQ-EVT-008, REQ-EVT-014)
static void test_send_interdomain_2l(void **state)
{
	uint32_t p1;
	uint32_t p2;
	struct vcpu_info *vi = &d1->shared_info->vcpu_info[0];
	uint64_t irqs;

	(void)state;
	connect(&p1, &p2);
	irqs = v1->arch.irqs_raised;
	assert_int_equal(ev_send(v2, p2), 0);
	assert_true(ev_2l_pending(d1, p1));
	assert_true(vi->evtchn_pending_sel & (UL(1) << (p1 / 64U)));
	assert_int_equal(vi->evtchn_upcall_pending, 1);
	assert_int_equal(v1->arch.irqs_raised, irqs + 1U);
	assert_int_equal(v1->arch.last_irq, GUEST_EVTCHN_PPI);
	/* A second send before the guest clears it is the same event. */
	assert_int_equal(ev_send(v2, p2), 0);
	assert_int_equal(v1->arch.irqs_raised, irqs + 1U);
	/* Guest acks: a new send raises again. */
	ev_2l_clear(d1, p1);
	vi->evtchn_upcall_pending = 0;
	vi->evtchn_pending_sel = 0;
	assert_int_equal(ev_send(v2, p2), 0);
	assert_int_equal(v1->arch.irqs_raised, irqs + 2U);
	/* Upcall already pending: no second interrupt even for a new port. */
	ev_2l_clear(d1, p1);
	assert_int_equal(ev_send(v2, p2), 0);
	assert_int_equal(v1->arch.irqs_raised, irqs + 2U);
}

VERIFIES(REQ-EVT-008)
static void test_send_errors_and_unbound(void **state)
{
	long p = ev_alloc(v1, DOMID_SELF, 2);

	(void)state;
	/* Unbound: dropped silently. */
	assert_int_equal(ev_send(v1, (uint32_t)p), 0);
	assert_false(ev_2l_pending(d1, (uint32_t)p));
	assert_int_equal(ev_send(v1, 0), -XEN_EINVAL);
	assert_int_equal(ev_send(v1, 30), -XEN_EINVAL);
	assert_int_equal(ev_send(v1, 100000), -XEN_EINVAL);
	assert_int_equal(ev_send(v1, ~0U), -XEN_EINVAL);
	/* A VIRQ port cannot be sent on. */
	p = ev_virq(v1, VIRQ_DEBUG, 0);
	assert_true(p > 0);
	assert_int_equal(ev_send(v1, (uint32_t)p), -XEN_EINVAL);
}

VERIFIES(REQ-EVT-014, REQ-EVT-011)
static void test_masked_then_unmask(void **state)
{
	uint32_t p1;
	uint32_t p2;
	struct vcpu_info *vi = &d1->shared_info->vcpu_info[0];
	uint64_t irqs;

	(void)state;
	connect(&p1, &p2);
	ev_2l_set_mask(d1, p1, true);
	irqs = v1->arch.irqs_raised;
	assert_int_equal(ev_send(v2, p2), 0);
	assert_true(ev_2l_pending(d1, p1));
	assert_int_equal(vi->evtchn_upcall_pending, 0);
	assert_int_equal(v1->arch.irqs_raised, irqs);
	assert_int_equal(ev_unmask(v1, p1), 0);
	assert_int_equal(vi->evtchn_upcall_pending, 1);
	assert_true(vi->evtchn_pending_sel & (UL(1) << (p1 / 64U)));
	assert_int_equal(v1->arch.irqs_raised, irqs + 1U);
	assert_int_equal(ev_unmask(v1, 0x10000), -XEN_EINVAL);
	/* Unmasking a port that is not pending raises nothing. */
	ev_2l_clear(d1, p1);
	vi->evtchn_upcall_pending = 0;
	ev_2l_set_mask(d1, p1, true);
	assert_int_equal(ev_unmask(v1, p1), 0);
	assert_int_equal(vi->evtchn_upcall_pending, 0);
}

VERIFIES(REQ-EVT-007)
static void test_close(void **state)
{
	uint32_t p1;
	uint32_t p2;
	struct evtchn_status st;

	(void)state;
	connect(&p1, &p2);
	assert_true(ev_2l_pending(d2, p2));
	assert_int_equal(ev_close(v2, p2), 0);
	/* The closer's pending state is cleared; the peer waits for d2 again. */
	assert_false(ev_2l_pending(d2, p2));
	assert_int_equal(ev_status(v1, DOMID_SELF, p1, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	assert_int_equal(st.u.unbound.dom, 2);
	assert_int_equal(ev_status(v2, DOMID_SELF, p2, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_closed);
	/* The peer's sends are now dropped; the old port is free for reuse. */
	assert_int_equal(ev_send(v1, p1), 0);
	assert_int_equal(ev_send(v2, p2), -XEN_EINVAL);
	assert_int_equal(ev_bind(v2, 1, p1), (long)p2);
	/* Errors: twice, reserved, never valid. */
	assert_int_equal(ev_close(v1, p1), 0);
	assert_int_equal(ev_close(v1, p1), -XEN_EINVAL);
	assert_int_equal(ev_close(v1, 0), -XEN_EINVAL);
	assert_int_equal(ev_close(v1, 5000), -XEN_EINVAL);
	/* Closing from the side with the lower address and the higher one. */
	connect(&p1, &p2);
	assert_int_equal(ev_close(v1, p1), 0);
	assert_int_equal(ev_status(v2, DOMID_SELF, p2, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	assert_int_equal(st.u.unbound.dom, 1);
}

VERIFIES(REQ-EVT-004, REQ-EVT-009)
static void test_bind_virq(void **state)
{
	struct evtchn_status st;
	long p;

	(void)state;
	assert_int_equal(ev_virq(v1, NR_VIRQS, 0), -XEN_EINVAL);
	assert_int_equal(ev_virq(v1, ~0U, 0), -XEN_EINVAL);
	/* Global VIRQ only on vCPU 0. */
	assert_int_equal(ev_virq(v1, VIRQ_CONSOLE, 1), -XEN_EINVAL);
	assert_int_equal(ev_virq(v1, VIRQ_DEBUG, 2), -XEN_ENOENT);
	p = ev_virq(v1, VIRQ_DEBUG, 1);
	assert_true(p > 0);
	assert_int_equal(ev_virq(v1, VIRQ_DEBUG, 1), -XEN_EEXIST);
	/* Per vCPU: vCPU 0 may bind its own. */
	assert_true(ev_virq(v1, VIRQ_DEBUG, 0) > 0);
	assert_int_equal(ev_status(v1, DOMID_SELF, (uint32_t)p, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_virq);
	assert_int_equal(st.u.virq, VIRQ_DEBUG);
	assert_int_equal(st.vcpu, 1);
	/* After close it can be bound again. */
	assert_int_equal(ev_close(v1, (uint32_t)p), 0);
	assert_true(ev_virq(v1, VIRQ_DEBUG, 1) > 0);
}

VERIFIES(REQ-EVT-005, REQ-EVT-009)
static void test_bind_ipi(void **state)
{
	struct evtchn_status st;
	struct vcpu *w = &d1->vcpu[1];
	long p;

	(void)state;
	assert_int_equal(ev_ipi(v1, 2), -XEN_ENOENT);
	assert_int_equal(ev_ipi(v1, ~0U), -XEN_ENOENT);
	p = ev_ipi(v1, 1);
	assert_true(p > 0);
	assert_int_equal(ev_status(v1, DOMID_SELF, (uint32_t)p, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_ipi);
	assert_int_equal(st.vcpu, 1);
	/* vCPU 1 has no vcpu_info until it registers one: events are kept
	 * in the bitmaps and its upcall is raised all the same. */
	assert_int_equal(ev_send(v1, (uint32_t)p), 0);
	assert_true(ev_2l_pending(d1, (uint32_t)p));
	assert_int_equal(w->arch.irqs_raised, 1);
	assert_int_equal(v1->arch.irqs_raised, 0);
}

VERIFIES(REQ-EVT-006)
static void test_bind_pirq_as_xen_on_arm(void **state)
{
	struct evtchn_bind_pirq b = { .pirq = 1024, .flags = 0, .port = 0x77 };

	(void)state;
	assert_int_equal(ev_op(v1, EVTCHNOP_bind_pirq, &b, sizeof(b)), -XEN_EINVAL);
	b.pirq = 5;
	assert_int_equal(ev_op(v1, EVTCHNOP_bind_pirq, &b, sizeof(b)), -XEN_ENOMEM);
	b.flags = BIND_PIRQ__WILL_SHARE;
	assert_int_equal(ev_op(v1, EVTCHNOP_bind_pirq, &b, sizeof(b)), -XEN_ENOMEM);
	assert_int_equal(b.port, 0x77);
	/* No port was consumed. */
	assert_int_equal(ev_alloc(v1, DOMID_SELF, 2), 1);
}

VERIFIES(REQ-EVT-010)
static void test_bind_vcpu(void **state)
{
	uint32_t p1;
	uint32_t p2;
	long virq;
	long ipi;
	struct vcpu *w = &d1->vcpu[1];
	struct evtchn_status st;

	(void)state;
	connect(&p1, &p2);
	assert_int_equal(ev_bind_vcpu(v1, p1, 2), -XEN_ENOENT);
	assert_int_equal(ev_bind_vcpu(v1, 200, 1), -XEN_EINVAL);
	assert_int_equal(ev_bind_vcpu(v1, p1, 1), 0);
	assert_int_equal(ev_status(v1, DOMID_SELF, p1, &st), 0);
	assert_int_equal(st.vcpu, 1);
	assert_int_equal(ev_send(v2, p2), 0);
	assert_int_equal(w->arch.irqs_raised, 1);
	assert_int_equal(v1->arch.irqs_raised, 0);
	/* Per-vCPU VIRQ and IPI stay where they were bound. */
	virq = ev_virq(v1, VIRQ_DEBUG, 0);
	ipi = ev_ipi(v1, 0);
	assert_int_equal(ev_bind_vcpu(v1, (uint32_t)virq, 1), -XEN_EINVAL);
	assert_int_equal(ev_bind_vcpu(v1, (uint32_t)ipi, 1), -XEN_EINVAL);
	/* A global VIRQ may move. */
	virq = ev_virq(v1, VIRQ_CONSOLE, 0);
	assert_int_equal(ev_bind_vcpu(v1, (uint32_t)virq, 1), 0);
	/* Unbound ports may move too; free ones may not. */
	assert_int_equal(ev_bind_vcpu(v1, (uint32_t)ev_alloc(v1, DOMID_SELF, 3), 1), 0);
	assert_int_equal(ev_bind_vcpu(v1, 60, 1), -XEN_EINVAL);
}

VERIFIES(REQ-EVT-009)
static void test_status_errors(void **state)
{
	struct evtchn_status st;

	(void)state;
	assert_int_equal(ev_status(v1, 2, 1, &st), -XEN_EPERM);
	assert_int_equal(ev_status(v1, 9, 1, &st), -XEN_ESRCH);
	assert_int_equal(ev_status(v1, DOMID_SELF, 64, &st), -XEN_EINVAL);
	assert_int_equal(ev_status(v1, DOMID_SELF, 63, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_closed);
}

VERIFIES(REQ-EVT-013)
static void test_port_exhaustion(void **state)
{
	uint32_t i;
	long p;

	(void)state;
	for (i = 1U; i < CONFIG_EVTCHN_MAX_PORTS; i++) {
		p = ev_alloc(v1, DOMID_SELF, 2);
		assert_int_equal(p, (long)i);
	}
	assert_int_equal(ev_alloc(v1, DOMID_SELF, 2), -XEN_ENOSPC);
	assert_int_equal(ev_ipi(v1, 0), -XEN_ENOSPC);
	assert_int_equal(ev_virq(v1, VIRQ_DEBUG, 0), -XEN_ENOSPC);
	p = ev_alloc(v2, DOMID_SELF, 1);
	assert_int_equal(ev_bind(v1, 2, (uint32_t)p), -XEN_ENOSPC);
	/* One freed port is handed out again. */
	assert_int_equal(ev_close(v1, 77), 0);
	assert_int_equal(ev_bind(v1, 2, (uint32_t)p), 77);
}

VERIFIES(REQ-EVT-019)
static void test_reset(void **state)
{
	uint32_t p1;
	uint32_t p2;
	uint32_t i;
	struct evtchn_status st;

	(void)state;
	connect(&p1, &p2);
	/* Enough ports that the reset is preempted and continued. */
	for (i = 0U; i < 40U; i++) {
		assert_true(ev_ipi(v1, 0) > 0);
	}
	assert_int_equal(ev_reset(v1, 2), -XEN_EPERM);
	assert_int_equal(ev_reset(v1, 9), -XEN_ESRCH);
	assert_int_equal(ev_reset(v1, DOMID_SELF), 0);
	assert_true(v1->arch.continuations > 0U);
	for (i = 1U; i < 64U; i++) {
		assert_int_equal(ev_status(v1, DOMID_SELF, i, &st), 0);
		assert_int_equal(st.status, EVTCHNSTAT_closed);
	}
	assert_int_equal(ev_status(v2, DOMID_SELF, p2, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	assert_int_equal(st.u.unbound.dom, 1);
	/* A stray reset_cont with no reset in progress is refused. */
	assert_int_equal(ev_op(v1, EVTCHNOP_reset_cont, &(struct evtchn_reset){ .dom = DOMID_SELF },
			       sizeof(struct evtchn_reset)), -XEN_EBUSY);
	assert_int_equal(ev_alloc(v1, DOMID_SELF, 2), 1);
}

VERIFIES(REQ-EVT-017)
static void test_set_priority_2l_enosys(void **state)
{
	long p = ev_alloc(v1, DOMID_SELF, 2);

	(void)state;
	assert_int_equal(ev_set_prio(v1, (uint32_t)p, 3), -XEN_ENOSYS);
	assert_int_equal(ev_set_prio(v1, 999, 3), -XEN_EINVAL);
}

VERIFIES(REQ-EVT-001)
static void test_abi_layout_through_hypercall(void **state)
{
	uint32_t p1;
	uint32_t p2;
	paddr_t a = harness_ram(EV_ARG_PAGE, 0);
	uint8_t *raw;

	(void)state;
	connect(&p1, &p2);
	/* status as raw bytes: dom@0 port@4 status@8 vcpu@12 u.interdomain.dom@16 port@20. */
	raw = harness_gpa(d1, a);
	memset(raw, 0xee, 24);
	raw[0] = 0xf0;
	raw[1] = 0x7f; /* DOMID_SELF */
	memcpy(raw + 4, &p1, 4);
	assert_int_equal(harness_call(v1, __HYPERVISOR_event_channel_op, EVTCHNOP_status, a, 0), 0);
	assert_int_equal(*(uint32_t *)(raw + 8), EVTCHNSTAT_interdomain);
	assert_int_equal(*(uint32_t *)(raw + 12), 0);
	assert_int_equal(*(uint16_t *)(raw + 16), 2);
	assert_int_equal(*(uint32_t *)(raw + 20), p2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_alloc_unbound, setup),
		cmocka_unit_test_setup(test_copy_back_only_on_success, setup),
		cmocka_unit_test_setup(test_bind_interdomain, setup),
		cmocka_unit_test_setup(test_bind_port_not_offered, setup),
		cmocka_unit_test_setup(test_send_interdomain_2l, setup),
		cmocka_unit_test_setup(test_send_errors_and_unbound, setup),
		cmocka_unit_test_setup(test_masked_then_unmask, setup),
		cmocka_unit_test_setup(test_close, setup),
		cmocka_unit_test_setup(test_bind_virq, setup),
		cmocka_unit_test_setup(test_bind_ipi, setup),
		cmocka_unit_test_setup(test_bind_pirq_as_xen_on_arm, setup),
		cmocka_unit_test_setup(test_bind_vcpu, setup),
		cmocka_unit_test_setup(test_status_errors, setup),
		cmocka_unit_test_setup(test_port_exhaustion, setup),
		cmocka_unit_test_setup(test_reset, setup),
		cmocka_unit_test_setup(test_set_priority_2l_enosys, setup),
		cmocka_unit_test_setup(test_abi_layout_through_hypercall, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
