/* SPDX-License-Identifier: MIT */
/* VIRQ delivery and SCHEDOP_poll. */
#include "evtchn_test.h"

#define PORTS_PAGE 40U

static struct domain *d1;
static struct domain *d2;
static struct vcpu *v0;
static struct vcpu *v1;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 2);
	d2 = harness_domain(2, 1);
	v0 = &d1->vcpu[0];
	v1 = &d1->vcpu[1];
	return 0;
}

VERIFIES(REQ-EVT-020)
static void test_virq_console_global(void **state)
{
	long p;

	(void)state;
	/* Nothing bound: nothing happens. */
	evtchn_send_virq(v0, VIRQ_CONSOLE);
	assert_int_equal(v0->arch.irqs_raised, 0);
	p = ev_virq(v0, VIRQ_CONSOLE, 0);
	assert_true(p > 0);
	/* Global: raised from any vCPU, delivered where the port notifies. */
	evtchn_send_virq(v1, VIRQ_CONSOLE);
	assert_true(ev_2l_pending(d1, (uint32_t)p));
	assert_int_equal(v0->arch.irqs_raised, 1);
	ev_2l_clear(d1, (uint32_t)p);
	assert_int_equal(ev_bind_vcpu(v0, (uint32_t)p, 1), 0);
	evtchn_send_virq(v0, VIRQ_CONSOLE);
	assert_true(ev_2l_pending(d1, (uint32_t)p));
	assert_int_equal(v1->arch.irqs_raised, 1);
	/* Closed: no longer delivered, even if the port is reused. */
	ev_2l_clear(d1, (uint32_t)p);
	assert_int_equal(ev_close(v0, (uint32_t)p), 0);
	assert_int_equal(ev_ipi(v0, 0), p);
	evtchn_send_virq(v0, VIRQ_CONSOLE);
	assert_false(ev_2l_pending(d1, (uint32_t)p));
	/* Out of range and NULL are ignored. */
	evtchn_send_virq(v0, NR_VIRQS);
	evtchn_send_virq(NULL, VIRQ_CONSOLE);
}

VERIFIES(REQ-EVT-020, REQ-CON-002)
static void test_console_input_raises_virq_console(void **state)
{
	long p;
	char c;
	unsigned int i;

	(void)state;
	p = ev_virq(v0, VIRQ_CONSOLE, 0);
	assert_true(p > 0);
	/* Move the input focus (Ctrl-A three times) until d1 has it. */
	for (i = 0; i <= CONFIG_MAX_DOMAINS; i++) {
		console_input_byte('x');
		if (console_domain_read(d1, &c, 1) == 1) {
			break;
		}
		assert_false(ev_2l_pending(d1, (uint32_t)p));
		console_input_byte('\x01');
		console_input_byte('\x01');
		console_input_byte('\x01');
	}
	assert_true(i <= CONFIG_MAX_DOMAINS);
	assert_true(ev_2l_pending(d1, (uint32_t)p));
	ev_2l_clear(d1, (uint32_t)p);
	console_input_byte('y');
	assert_true(ev_2l_pending(d1, (uint32_t)p));
	assert_int_equal(console_domain_read(d1, &c, 1), 1);
	assert_int_equal(c, 'y');
	/* Once the focus moves on, d1 sees no more input or events. */
	ev_2l_clear(d1, (uint32_t)p);
	console_input_byte('\x01');
	console_input_byte('\x01');
	console_input_byte('\x01');
	console_input_byte('z');
	assert_false(ev_2l_pending(d1, (uint32_t)p));
	assert_int_equal(console_domain_read(d1, &c, 1), 0);
}

VERIFIES(REQ-EVT-020)
static void test_virq_debug_per_vcpu(void **state)
{
	long p;

	(void)state;
	p = ev_virq(v0, VIRQ_DEBUG, 1);
	assert_true(p > 0);
	evtchn_send_virq(v0, VIRQ_DEBUG);
	assert_false(ev_2l_pending(d1, (uint32_t)p));
	evtchn_send_virq(v1, VIRQ_DEBUG);
	assert_true(ev_2l_pending(d1, (uint32_t)p));
	assert_int_equal(v1->arch.irqs_raised, 1);
	assert_int_equal(v0->arch.irqs_raised, 0);
}

static long poll_until(struct vcpu *v, const uint32_t *ports, uint32_t n, uint64_t ports_gva,
		       uint64_t timeout)
{
	paddr_t a = harness_ram(EV_ARG_PAGE, 0);
	paddr_t pl = harness_ram(PORTS_PAGE, 0);
	struct sched_poll sp = { .ports = ports_gva ? ports_gva : pl, .nr_ports = n,
				 .timeout = timeout };

	if (n <= 1024U) {
		memcpy(harness_gpa(v->domain, pl), ports, (n < 8U ? n : 8U) * sizeof(uint32_t));
	}
	memcpy(harness_gpa(v->domain, a), &sp, sizeof(sp));
	return harness_call(v, __HYPERVISOR_sched_op, SCHEDOP_poll, a, 0);
}

static long poll(struct vcpu *v, const uint32_t *ports, uint32_t n, uint64_t ports_gva)
{
	return poll_until(v, ports, n, ports_gva, 0);
}

VERIFIES(REQ-EVT-022)
static void test_poll(void **state)
{
	uint32_t ports[2];
	long a = ev_alloc(v0, DOMID_SELF, 2);
	long b = ev_bind(&d2->vcpu[0], 1, (uint32_t)a);
	long c = ev_ipi(v0, 0);
	uint64_t kicks;

	(void)state;
	ports[0] = (uint32_t)a;
	ports[1] = (uint32_t)c;
	/* Nothing pending: blocked until an event on a listed port. */
	assert_int_equal(poll(v0, ports, 1, 0), 0);
	assert_true(v0->blocked);
	kicks = v0->arch.kicks;
	/* An event on another port does not wake a single-port poll. */
	assert_int_equal(ev_send(v0, (uint32_t)c), 0);
	assert_true(v0->blocked);
	assert_int_equal(ev_send(&d2->vcpu[0], (uint32_t)b), 0);
	assert_false(v0->blocked);
	assert_int_equal(v0->arch.kicks, kicks + 1U);
	/* Already pending: returns at once, not blocked. */
	assert_int_equal(poll(v0, ports, 2, 0), 0);
	assert_false(v0->blocked);
	/* Errors. */
	assert_int_equal(poll(v0, ports, 129, 0), -XEN_EINVAL);
	assert_false(v0->blocked);
	ev_2l_clear(d1, (uint32_t)a);
	ev_2l_clear(d1, (uint32_t)c);
	d1->shared_info->vcpu_info[0].evtchn_upcall_pending = 0;
	assert_int_equal(poll(v0, ports, 2, 0x1000), -XEN_EFAULT);
	assert_false(v0->blocked);
	ports[1] = 50;
	assert_int_equal(poll(v0, ports, 2, 0), -XEN_EINVAL);
	ports[1] = 5000;
	assert_int_equal(poll(v0, ports, 2, 0), -XEN_EINVAL);
	assert_false(v0->blocked);
	assert_int_equal(harness_call(v0, __HYPERVISOR_sched_op, SCHEDOP_poll, 0x1000, 0),
			 -XEN_EFAULT);
	/* Several ports: any event of the partition wakes the poller. */
	ports[1] = (uint32_t)c;
	assert_int_equal(poll(v0, ports, 2, 0), 0);
	assert_true(v0->blocked);
	assert_int_equal(ev_send(v0, (uint32_t)c), 0);
	assert_false(v0->blocked);
}

VERIFIES(REQ-EVT-022)
static void test_poll_upcall_mask(void **state)
{
	uint32_t port = (uint32_t)ev_ipi(v0, 0);
	struct vcpu_info *vi = &d1->shared_info->vcpu_info[0];

	(void)state;
	/* An unmasked pending upcall: the guest has work, return at once. */
	vi->evtchn_upcall_pending = 1;
	assert_int_equal(poll(v0, &port, 1, 0), 0);
	assert_false(v0->blocked);
	/* Masked (Xen 4.17 honours byte 1): the poller sleeps. */
	vi->evtchn_upcall_mask = 1;
	assert_int_equal(poll(v0, &port, 1, 0), 0);
	assert_true(v0->blocked);
	assert_int_equal(ev_send(v0, port), 0);
	assert_false(v0->blocked);
	/* Zero ports: block until any event. */
	vi->evtchn_upcall_mask = 0;
	vi->evtchn_upcall_pending = 0;
	ev_2l_clear(d1, port);
	assert_int_equal(poll(v0, &port, 0, 0), 0);
	assert_true(v0->blocked);
}

VERIFIES(REQ-EVT-029)
static void test_poll_timeout(void **state)
{
	uint32_t port = (uint32_t)ev_ipi(v0, 0);
	uint64_t now = arch_now_ns();
	uint64_t later = now + 5000000U;
	uint64_t kicks;

	(void)state;
	/* No timeout: only the caller's bound ends the wait. */
	assert_int_equal(poll(v0, &port, 1, 0), 0);
	assert_true(v0->blocked);
	assert_int_equal(evtchn_poll_wake_by(v0, now + 1000U), now + 1000U);
	evtchn_poll_end(v0);
	assert_false(v0->blocked);
	assert_int_equal(d1->ev.poll_mask, 0);

	/* A timeout sooner than the bound is the wake-up time; a later one is not. */
	assert_int_equal(poll_until(v0, &port, 1, 0, later), 0);
	assert_true(v0->blocked);
	assert_int_equal(evtchn_poll_wake_by(v0, later + 1U), later);
	assert_int_equal(evtchn_poll_wake_by(v0, later - 1U), later - 1U);
	/* Woken by its timeout: the poll is over, a later event kicks nobody. */
	evtchn_poll_end(v0);
	assert_int_equal(v0->evtchn.poll_deadline, 0);
	assert_int_equal(v0->evtchn.poll_port, 0);
	assert_int_equal(evtchn_poll_wake_by(v0, later + 1U), later + 1U);
	kicks = v0->arch.kicks;
	assert_int_equal(ev_send(v0, port), 0);
	assert_int_equal(v0->arch.kicks, kicks);
	ev_2l_clear(d1, port);

	/* An event before the timeout wakes it and disarms the timeout. */
	d1->shared_info->vcpu_info[0].evtchn_upcall_pending = 0;
	assert_int_equal(poll_until(v0, &port, 1, 0, later), 0);
	assert_true(v0->blocked);
	assert_int_equal(ev_send(v0, port), 0);
	assert_false(v0->blocked);
	evtchn_poll_end(v0);
	assert_int_equal(v0->evtchn.poll_deadline, 0);
	ev_2l_clear(d1, port);

	/* A timeout already past: returns at once, not blocked, nothing armed. */
	d1->shared_info->vcpu_info[0].evtchn_upcall_pending = 0;
	assert_int_equal(poll_until(v0, &port, 1, 0, 1U), 0);
	assert_false(v0->blocked);
	assert_int_equal(v0->evtchn.poll_deadline, 0);
	assert_int_equal(d1->ev.poll_mask, 0);
	/* Ports are still checked first: a bad port is -EINVAL, timeout or not. */
	port = 5000U;
	assert_int_equal(poll_until(v0, &port, 1, 0, 1U), -XEN_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_virq_console_global, setup),
		cmocka_unit_test_setup(test_console_input_raises_virq_console, setup),
		cmocka_unit_test_setup(test_virq_debug_per_vcpu, setup),
		cmocka_unit_test_setup(test_poll, setup),
		cmocka_unit_test_setup(test_poll_upcall_mask, setup),
		cmocka_unit_test_setup(test_poll_timeout, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
