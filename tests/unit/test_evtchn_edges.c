/* SPDX-License-Identifier: MIT */
/*
 * Event-channel edge cases the main suites do not reach: argument pointers
 * that fault, an unknown command at the op layer, a poll that finds a masked
 * port already pending, and FIFO delivery before the event array exists or
 * to a vCPU that has no control block.
 */
#include "evtchn_test.h"
#include "../../common/evtchn/private.h"

#define CB_PAGE    20U
#define ARRAY_PAGE 21U
#define PORTS_PAGE 40U
#define W(bit)     (1U << (bit))
/* Past the partition's 1 MiB of RAM: nothing is mapped there. */
#define BAD_PTR (harness_ram(0, 0) + HARNESS_RAM_BYTES + (UL(16) << PAGE_SHIFT))

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
	memset(harness_gpa(d1, harness_ram(CB_PAGE, 0)), 0, 4096);
	memset(harness_gpa(d1, harness_ram(ARRAY_PAGE, 0)), 0, 4096);
	return 0;
}

static event_word_t *word_of(uint32_t port)
{
	return (event_word_t *)harness_gpa(d1, harness_ram(ARRAY_PAGE, 0)) + port;
}

static long poll1(struct vcpu *v, uint32_t port)
{
	paddr_t a = harness_ram(EV_ARG_PAGE, 0);
	paddr_t pl = harness_ram(PORTS_PAGE, 0);
	struct sched_poll sp = { .ports = pl, .nr_ports = 1, .timeout = 0 };

	memcpy(harness_gpa(v->domain, pl), &port, sizeof(port));
	memcpy(harness_gpa(v->domain, a), &sp, sizeof(sp));
	return harness_call(v, __HYPERVISOR_sched_op, SCHEDOP_poll, a, 0);
}

VERIFIES(REQ-EVT-012, REQ-EVT-019)
static void test_argument_pointer_faults(void **state)
{
	paddr_t arg = harness_ram(3, 0);
	struct evtchn_alloc_unbound *a = harness_gpa(d1, arg);
	mfn_t mfn;
	enum p2m_type t;

	(void)state;
	assert_int_equal(harness_call(v0, __HYPERVISOR_event_channel_op, EVTCHNOP_reset, BAD_PTR,
				      0), -XEN_EFAULT);
	/* The send and the unmask, read on their own fast path, fault alike. */
	assert_int_equal(harness_call(v0, __HYPERVISOR_event_channel_op, EVTCHNOP_send, BAD_PTR,
				      0), -XEN_EFAULT);
	assert_int_equal(harness_call(v0, __HYPERVISOR_event_channel_op, EVTCHNOP_unmask, BAD_PTR,
				      0), -XEN_EFAULT);
	/* A read-only argument page: the op is done, its result cannot be written back. */
	a->dom = DOMID_SELF;
	a->remote_dom = 2;
	a->port = 0;
	assert_int_equal(p2m_lookup(&d1->p2m, gaddr_to_gfn(arg), &mfn, &t), 0);
	assert_int_equal(p2m_set_entry(&d1->p2m, gaddr_to_gfn(arg), mfn, p2m_ram_ro, false), 0);
	assert_int_equal(harness_call(v0, __HYPERVISOR_event_channel_op, EVTCHNOP_alloc_unbound,
				      arg, 0), -XEN_EFAULT);
	assert_int_equal(a->port, 0);
}

VERIFIES(REQ-EVT-013)
static void test_unknown_command_at_the_op_layer(void **state)
{
	uint32_t buf[8] = { 0 };
	bool copy_back = true;

	(void)state;
	/* The hypercall refuses unknown commands by size first; the op layer agrees. */
	assert_int_equal(evtchn_do_op(d1, 99U, buf, &copy_back), -XEN_ENOSYS);
	assert_false(copy_back);
	assert_int_equal(harness_call(v0, __HYPERVISOR_event_channel_op, 99U,
				      harness_ram(EV_ARG_PAGE, 0), 0), -XEN_ENOSYS);
}

VERIFIES(REQ-EVT-022, REQ-EVT-011)
static void test_poll_finds_masked_port_pending(void **state)
{
	long a = ev_alloc(v0, DOMID_SELF, 2);
	long b = ev_bind(&d2->vcpu[0], 1, (uint32_t)a);

	(void)state;
	assert_true((a > 0) && (b > 0));
	ev_2l_set_mask(d1, (uint32_t)a, true);
	assert_int_equal(ev_send(&d2->vcpu[0], (uint32_t)b), 0);
	/* Pending but masked: no upcall, yet a poll on it returns at once. */
	assert_true(ev_2l_pending(d1, (uint32_t)a));
	assert_int_equal(d1->shared_info->vcpu_info[0].evtchn_upcall_pending, 0);
	assert_int_equal(poll1(v0, (uint32_t)a), 0);
	assert_false(v0->blocked);
}

VERIFIES(REQ-EVT-015, REQ-EVT-016, REQ-EVT-018, REQ-EVT-022)
static void test_fifo_before_array_and_without_control_block(void **state)
{
	long p = ev_ipi(v0, 0);
	long q = ev_ipi(v0, 1);
	uint64_t raised = v1->arch.irqs_raised;

	(void)state;
	assert_true((p > 0) && (q > 0));
	assert_int_equal(ev_fifo_init(v0, CB_PAGE, 0), 0);
	/* No event array yet: unmask does nothing, a poll finds nothing pending. */
	assert_int_equal(ev_unmask(v0, (uint32_t)p), 0);
	assert_int_equal(poll1(v0, (uint32_t)p), 0);
	assert_true(v0->blocked);
	/* As on Xen, an event with no word to set is kept aside, the poller sleeps on... */
	assert_int_equal(ev_send(v0, (uint32_t)p), 0);
	assert_true(v0->blocked);
	/* ...and is replayed into the array when it arrives, waking the poller. */
	assert_int_equal(ev_fifo_expand(v0, ARRAY_PAGE), 0);
	assert_true(*word_of((uint32_t)p) & W(EVTCHN_FIFO_PENDING));
	assert_false(v0->blocked);
	/* Masked and pending: a poll on it returns at once. */
	*word_of((uint32_t)p) |= W(EVTCHN_FIFO_MASKED);
	assert_int_equal(poll1(v0, (uint32_t)p), 0);
	assert_false(v0->blocked);
	/* vCPU 1 registered no control block: its event is neither set nor linked. */
	assert_int_equal(ev_send(v0, (uint32_t)q), 0);
	assert_int_equal(*word_of((uint32_t)q) & (W(EVTCHN_FIFO_PENDING) | W(EVTCHN_FIFO_LINKED)),
			 0);
	assert_int_equal(v1->arch.irqs_raised, raised);
}

VERIFIES(REQ-EVT-017, REQ-EVT-018)
static void test_fifo_tail_consumed_starts_a_new_queue(void **state)
{
	struct evtchn_fifo_control_block *cb = harness_gpa(d1, harness_ram(CB_PAGE, 0));
	long p1 = ev_ipi(v0, 0);
	long p2 = ev_ipi(v0, 0);

	(void)state;
	assert_true((p1 > 0) && (p2 > 0));
	assert_int_equal(ev_fifo_init(v0, CB_PAGE, 0), 0);
	assert_int_equal(ev_fifo_expand(v0, ARRAY_PAGE), 0);
	assert_int_equal(ev_send(v0, (uint32_t)p1), 0);
	assert_int_equal(cb->head[EVTCHN_FIFO_PRIORITY_DEFAULT], (uint32_t)p1);
	/* The guest consumes p1: unlinks it and clears its pending bit. */
	cb->head[EVTCHN_FIFO_PRIORITY_DEFAULT] = 0U;
	*word_of((uint32_t)p1) &= ~(W(EVTCHN_FIFO_LINKED) | W(EVTCHN_FIFO_PENDING));
	/* The old tail is no longer linked: p2 heads a new queue, p1 gets no link. */
	assert_int_equal(ev_send(v0, (uint32_t)p2), 0);
	assert_int_equal(cb->head[EVTCHN_FIFO_PRIORITY_DEFAULT], (uint32_t)p2);
	assert_int_equal(*word_of((uint32_t)p1) & EVTCHN_FIFO_LINK_MASK, 0);
	assert_true(*word_of((uint32_t)p2) & W(EVTCHN_FIFO_LINKED));
}

/* Resume a preempted reset until it is done. */
static long finish_reset(void)
{
	long rc = EVTCHN_RESTART;
	unsigned int i;

	for (i = 0U; (i < 8U) && (rc == EVTCHN_RESTART); i++) {
		rc = evtchn_reset_op(d1, true);
	}
	return rc;
}

VERIFIES(REQ-EVT-003, REQ-EVT-007)
static void test_close_loopback_channel(void **state)
{
	struct evtchn_status st;
	long a = ev_alloc(v0, DOMID_SELF, DOMID_SELF);
	long b;

	(void)state;
	assert_true(a > 0);
	b = ev_bind(v0, 1, (uint32_t)a);
	assert_true(b > 0);
	assert_int_equal(ev_send(v0, (uint32_t)b), 0);
	assert_true(ev_2l_pending(d1, (uint32_t)a));
	/* Both ends in one partition: one lock, and the other end is left unbound. */
	assert_int_equal(ev_close(v0, (uint32_t)b), 0);
	assert_int_equal(ev_status(v0, DOMID_SELF, (uint32_t)a, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_unbound);
	assert_int_equal(st.u.unbound.dom, 1);
	assert_int_equal(ev_status(v0, DOMID_SELF, (uint32_t)b, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_closed);
	assert_int_equal(ev_close(v0, (uint32_t)a), 0);
}

VERIFIES(REQ-EVT-019)
static void test_reset_refused_while_another_runs(void **state)
{
	struct evtchn_status st;
	long first = 0;
	unsigned int i;

	(void)state;
	for (i = 0U; i < CONFIG_HYPERCALL_BATCH + 4U; i++) {
		long p = ev_ipi(v0, 0);

		assert_true(p > 0);
		first = (first == 0) ? p : first;
	}
	/* A reset preempted after one batch, as another vCPU would leave it... */
	assert_int_equal(evtchn_reset_op(d1, false), EVTCHN_RESTART);
	/* ...makes a second, fresh reset -EBUSY; the continuation finishes the job. */
	assert_int_equal(evtchn_reset_op(d1, false), -XEN_EBUSY);
	assert_int_equal(ev_status(v0, DOMID_SELF, (uint32_t)first + CONFIG_HYPERCALL_BATCH + 2U,
				   &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_ipi);
	assert_int_equal(finish_reset(), 0);
	assert_int_equal(ev_status(v0, DOMID_SELF, (uint32_t)first + CONFIG_HYPERCALL_BATCH + 2U,
				   &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_closed);
	assert_int_equal(d1->ev.active, 0);
	/* A port bound (below the cursor) while the reset was preempted: -EAGAIN. */
	for (i = 0U; i < CONFIG_HYPERCALL_BATCH + 4U; i++) {
		assert_true(ev_ipi(v0, 0) > 0);
	}
	assert_int_equal(evtchn_reset_op(d1, false), EVTCHN_RESTART);
	first = ev_ipi(v0, 0);
	assert_true(first > 0);
	assert_int_equal(finish_reset(), -XEN_EAGAIN);
	assert_int_equal(ev_status(v0, DOMID_SELF, (uint32_t)first, &st), 0);
	assert_int_equal(st.status, EVTCHNSTAT_ipi);
	/* The guest retries and the reset completes. */
	assert_int_equal(ev_reset(v0, DOMID_SELF), 0);
	assert_int_equal(d1->ev.active, 0);
}

VERIFIES(REQ-EVT-020)
static void test_virq_dropped_when_channel_stays_locked(void **state)
{
	long p = ev_virq(v0, VIRQ_CONSOLE, 0);
	struct evtchn *chn;
	spinlock_t *l;

	(void)state;
	assert_true(p > 0);
	chn = evtchn_from_port(d1, (uint32_t)p);
#ifdef CONFIG_EVTCHN_LOCK_DOMAIN
	l = &d1->ev.lock;
#else
	l = &chn->lock;
#endif
	/* Raised from an interrupt: it never spins on a lock another CPU holds. */
	spin_lock(l);
	evtchn_send_virq(v0, VIRQ_CONSOLE);
	spin_unlock(l);
	assert_false(ev_2l_pending(d1, (uint32_t)p));
	evtchn_send_virq(v0, VIRQ_CONSOLE);
	assert_true(ev_2l_pending(d1, (uint32_t)p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_argument_pointer_faults, setup),
		cmocka_unit_test_setup(test_unknown_command_at_the_op_layer, setup),
		cmocka_unit_test_setup(test_poll_finds_masked_port_pending, setup),
		cmocka_unit_test_setup(test_fifo_before_array_and_without_control_block, setup),
		cmocka_unit_test_setup(test_fifo_tail_consumed_starts_a_new_queue, setup),
		cmocka_unit_test_setup(test_close_loopback_channel, setup),
		cmocka_unit_test_setup(test_reset_refused_while_another_runs, setup),
		cmocka_unit_test_setup(test_virq_dropped_when_channel_stays_locked, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
