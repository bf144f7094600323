/* SPDX-License-Identifier: MIT */
/* FIFO ABI: control blocks, event array, queues, priorities, LINKED/BUSY. */
#include "evtchn_test.h"
#include <pthread.h>
#include <sched.h>

#define CB_PAGE    20U
#define ARRAY_PAGE 21U
#define W(bit)     (1U << (bit))

static struct domain *d1;
static struct domain *d2;
static struct vcpu *v1;
static struct vcpu *v2;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 2);
	d2 = harness_domain(2, 1);
	v1 = &d1->vcpu[0];
	v2 = &d2->vcpu[0];
	/* Partition RAM is reused between tests: start from zeroed pages. */
	memset(harness_gpa(d1, harness_ram(CB_PAGE, 0)), 0, 4096);
	memset(harness_gpa(d1, harness_ram(ARRAY_PAGE, 0)), 0, 4096);
	return 0;
}

static struct evtchn_fifo_control_block *cb_of(unsigned int page, uint32_t off)
{
	return (struct evtchn_fifo_control_block *)((uint8_t *)harness_gpa(d1, harness_ram(page, 0)) +
						    off);
}

static event_word_t *word_of(uint32_t port)
{
	return (event_word_t *)harness_gpa(d1, harness_ram(ARRAY_PAGE, 0)) + port;
}

static void fifo_on(void)
{
	assert_int_equal(ev_fifo_init(v1, CB_PAGE, 0), 0);
	assert_int_equal(ev_fifo_expand(v1, ARRAY_PAGE), 0);
}

/* d1 port <- d2 port; the bind leaves d2's end pending, not d1's. */
static uint32_t connect_from_d2(uint32_t *d2_port)
{
	long a = ev_alloc(v1, DOMID_SELF, 2);
	long b = ev_bind(v2, 1, (uint32_t)a);

	assert_true(a > 0);
	assert_true(b > 0);
	if (d2_port != NULL) {
		*d2_port = (uint32_t)b;
	}
	return (uint32_t)a;
}

/* Guest consumer: walk queue q from its head, unlinking; returns count. */
static unsigned int drain(struct evtchn_fifo_control_block *cb, unsigned int q, uint32_t *out,
			  unsigned int max)
{
	unsigned int n = 0U;
	uint32_t port = cb->head[q];

	cb->head[q] = 0U;
	while ((port != 0U) && (n < max)) {
		event_word_t *w = word_of(port);
		event_word_t old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
		event_word_t new;
		do {
			new = old & ~(W(EVTCHN_FIFO_LINKED) | EVTCHN_FIFO_LINK_MASK);
		} while (!__atomic_compare_exchange_n(w, &old, new, false, __ATOMIC_ACQ_REL,
						      __ATOMIC_ACQUIRE));
		if ((old & W(EVTCHN_FIFO_PENDING)) && !(old & W(EVTCHN_FIFO_MASKED))) {
			out[n++] = port;
			__atomic_fetch_and(w, ~W(EVTCHN_FIFO_PENDING), __ATOMIC_ACQ_REL);
		}
		port = old & EVTCHN_FIFO_LINK_MASK;
	}
	return n;
}

VERIFIES(REQ-EVT-015)
static void test_init_control_errors(void **state)
{
	struct evtchn_init_control ic = { .control_gfn = gaddr_to_gfn(harness_ram(CB_PAGE, 0)),
					  .offset = 0, .vcpu = 2, .link_bits = 0 };
	uint32_t p;

	(void)state;
	assert_int_equal(ev_op(v1, EVTCHNOP_init_control, &ic, sizeof(ic)), -XEN_ENOENT);
	assert_int_equal(ic.link_bits, 0);
	ic.vcpu = 0;
	ic.offset = 4096 - 72 + 8;
	assert_int_equal(ev_op(v1, EVTCHNOP_init_control, &ic, sizeof(ic)), -XEN_EINVAL);
	ic.offset = 4;
	assert_int_equal(ev_op(v1, EVTCHNOP_init_control, &ic, sizeof(ic)), -XEN_EINVAL);
	/* Not the partition's RAM (the grant window, MMIO): refused, still 2-level. */
	ic.offset = 0;
	ic.control_gfn = gaddr_to_gfn(GUEST_GNTTAB_BASE);
	assert_int_equal(ev_op(v1, EVTCHNOP_init_control, &ic, sizeof(ic)), -XEN_EINVAL);
	ic.control_gfn = 0x10;
	assert_int_equal(ev_op(v1, EVTCHNOP_init_control, &ic, sizeof(ic)), -XEN_EINVAL);
	p = connect_from_d2(NULL);
	assert_int_equal(ev_send(v2, 1), 0);
	assert_true(ev_2l_pending(d1, p));
	assert_int_equal(ev_fifo_expand(v1, ARRAY_PAGE), -XEN_EOPNOTSUPP);
	/* Success: link_bits 17; the last legal offset; once per vCPU. */
	ic.control_gfn = gaddr_to_gfn(harness_ram(CB_PAGE, 0));
	ic.offset = 4096 - 72;
	assert_int_equal(ev_op(v1, EVTCHNOP_init_control, &ic, sizeof(ic)), 0);
	assert_int_equal(ic.link_bits, 17);
	assert_int_equal(ev_op(v1, EVTCHNOP_init_control, &ic, sizeof(ic)), -XEN_EINVAL);
	/* vCPU 1 registers its own block. */
	ic.vcpu = 1;
	ic.offset = 0;
	assert_int_equal(ev_op(&d1->vcpu[1], EVTCHNOP_init_control, &ic, sizeof(ic)), 0);
}

VERIFIES(REQ-EVT-016)
static void test_expand_array(void **state)
{
	int64_t maps = host_global_maps;
	uint32_t p;

	(void)state;
	assert_int_equal(ev_fifo_init(v1, CB_PAGE, 0), 0);
	/* A port bound before its page exists: its event waits for the page. */
	assert_int_equal(ev_alloc(v2, DOMID_SELF, 1), 1);
	p = (uint32_t)ev_bind(v1, 2, 1);
	assert_int_equal(v1->arch.irqs_raised, 0);
	{
		struct evtchn_expand_array ea = { .array_gfn = 0x10 };
		assert_int_equal(ev_op(v1, EVTCHNOP_expand_array, &ea, sizeof(ea)), -XEN_EINVAL);
	}
	assert_int_equal(ev_fifo_expand(v1, ARRAY_PAGE), 0);
	assert_true(*word_of(p) & W(EVTCHN_FIFO_PENDING));
	assert_true(*word_of(p) & W(EVTCHN_FIFO_LINKED));
	assert_int_equal(cb_of(CB_PAGE, 0)->head[EVTCHN_FIFO_PRIORITY_DEFAULT], p);
	assert_int_equal(v1->arch.irqs_raised, 1);
	/* CONFIG_EVTCHN_MAX_PORTS fit in the pages given so far. */
	if (CONFIG_EVTCHN_MAX_PORTS <= 1024) {
		assert_int_equal(ev_fifo_expand(v1, ARRAY_PAGE + 1U), -XEN_ENOSPC);
	}
	assert_int_equal(host_global_maps, maps + 2);
}

VERIFIES(REQ-EVT-017, REQ-EVT-014)
static void test_queue_order_and_ready(void **state)
{
	struct evtchn_fifo_control_block *cb = cb_of(CB_PAGE, 0);
	uint32_t a, b, c, ra, rb, rc;
	uint32_t got[8];
	const unsigned int q = EVTCHN_FIFO_PRIORITY_DEFAULT;

	(void)state;
	fifo_on();
	a = connect_from_d2(&ra);
	b = connect_from_d2(&rb);
	c = connect_from_d2(&rc);
	assert_int_equal(ev_send(v2, rb), 0);
	assert_int_equal(ev_send(v2, ra), 0);
	assert_int_equal(ev_send(v2, rc), 0);
	/* Two sends before the guest looks: one event. */
	assert_int_equal(ev_send(v2, ra), 0);
	assert_int_equal(cb->ready, 1U << q);
	assert_int_equal(cb->head[q], b);
	assert_int_equal(*word_of(b) & EVTCHN_FIFO_LINK_MASK, a);
	assert_int_equal(*word_of(a) & EVTCHN_FIFO_LINK_MASK, c);
	assert_int_equal(v1->arch.irqs_raised, 1);
	assert_int_equal(d1->shared_info->vcpu_info[0].evtchn_upcall_pending, 1);
	assert_int_equal(drain(cb, q, got, 8), 3);
	assert_int_equal(got[0], b);
	assert_int_equal(got[1], a);
	assert_int_equal(got[2], c);
	/* The queue is empty (tail unlinked): the next event is a new head. */
	cb->ready = 0;
	d1->shared_info->vcpu_info[0].evtchn_upcall_pending = 0;
	assert_int_equal(ev_send(v2, rc), 0);
	assert_int_equal(cb->head[q], c);
	assert_int_equal(cb->ready, 1U << q);
	assert_int_equal(v1->arch.irqs_raised, 2);
}

VERIFIES(REQ-EVT-017)
static void test_priorities(void **state)
{
	struct evtchn_fifo_control_block *cb = cb_of(CB_PAGE, 0);
	uint32_t hi, lo, rhi, rlo;
	uint32_t got[4];

	(void)state;
	fifo_on();
	lo = connect_from_d2(&rlo);
	hi = connect_from_d2(&rhi);
	assert_int_equal(ev_set_prio(v1, hi, 16), -XEN_EINVAL);
	assert_int_equal(ev_set_prio(v1, hi, 2), 0);
	assert_int_equal(ev_set_prio(v1, lo, 15), 0);
	assert_int_equal(ev_set_prio(v1, 40, 3), -XEN_EACCES);
	assert_int_equal(ev_set_prio(v1, 400, 3), -XEN_EINVAL);
	assert_int_equal(ev_send(v2, rlo), 0);
	assert_int_equal(ev_send(v2, rhi), 0);
	assert_int_equal(cb->ready, (1U << 2) | (1U << 15));
	assert_int_equal(cb->head[2], hi);
	assert_int_equal(cb->head[15], lo);
	/* A guest serves the lowest-numbered ready queue first. */
	assert_int_equal(drain(cb, __builtin_ctz(cb->ready), got, 4), 1);
	assert_int_equal(got[0], hi);
	/* Moved to another queue while linked on the old one: the tail moves
	 * correctly (no merged lists) once the guest consumed it. */
	assert_int_equal(drain(cb, 15, got, 4), 1);
	assert_int_equal(ev_set_prio(v1, lo, 0), 0);
	assert_int_equal(ev_send(v2, rlo), 0);
	assert_int_equal(cb->head[0], lo);
}

VERIFIES(REQ-EVT-018, REQ-EVT-011)
static void test_masked_not_linked(void **state)
{
	struct evtchn_fifo_control_block *cb = cb_of(CB_PAGE, 0);
	uint32_t p, r;

	(void)state;
	fifo_on();
	p = connect_from_d2(&r);
	*word_of(p) |= W(EVTCHN_FIFO_MASKED);
	assert_int_equal(ev_send(v2, r), 0);
	assert_true(*word_of(p) & W(EVTCHN_FIFO_PENDING));
	assert_false(*word_of(p) & W(EVTCHN_FIFO_LINKED));
	assert_int_equal(cb->ready, 0);
	assert_int_equal(ev_unmask(v1, p), 0);
	assert_false(*word_of(p) & W(EVTCHN_FIFO_MASKED));
	assert_true(*word_of(p) & W(EVTCHN_FIFO_LINKED));
	assert_int_equal(cb->head[EVTCHN_FIFO_PRIORITY_DEFAULT], p);
}

VERIFIES(REQ-EVT-018, REQ-EVT-007)
static void test_linked_port_not_reused(void **state)
{
	uint32_t p, r;

	(void)state;
	fifo_on();
	p = connect_from_d2(&r);
	assert_int_equal(ev_send(v2, r), 0);
	assert_true(*word_of(p) & W(EVTCHN_FIFO_LINKED));
	assert_int_equal(ev_close(v1, p), 0);
	assert_false(*word_of(p) & W(EVTCHN_FIFO_PENDING));
	/* Still on the guest's queue: allocation skips it. */
	assert_int_not_equal(ev_alloc(v1, DOMID_SELF, 2), (long)p);
	*word_of(p) &= ~W(EVTCHN_FIFO_LINKED);
	assert_int_equal(ev_alloc(v1, DOMID_SELF, 2), (long)p);
}

VERIFIES(REQ-EVT-010, REQ-EVT-017)
static void test_bind_vcpu_moves_queue(void **state)
{
	struct evtchn_fifo_control_block *cb1 = cb_of(CB_PAGE, 128);
	uint32_t p, r;

	(void)state;
	fifo_on();
	assert_int_equal(ev_fifo_init(&d1->vcpu[1], CB_PAGE, 128), 0);
	p = connect_from_d2(&r);
	assert_int_equal(ev_bind_vcpu(v1, p, 1), 0);
	assert_int_equal(ev_send(v2, r), 0);
	assert_int_equal(cb1->head[EVTCHN_FIFO_PRIORITY_DEFAULT], p);
	assert_int_equal(cb_of(CB_PAGE, 0)->ready, 0);
	assert_int_equal(d1->vcpu[1].arch.irqs_raised, 1);
}

VERIFIES(REQ-EVT-019, REQ-EVT-014, REQ-EVT-015)
static void test_2l_fifo_2l_fifo_after_reset(void **state)
{
	int64_t maps = host_global_maps;
	uint32_t p, r;

	(void)state;
	/* 2-level first. */
	p = connect_from_d2(&r);
	assert_int_equal(ev_send(v2, r), 0);
	assert_true(ev_2l_pending(d1, p));
	/* FIFO keeps the 2-level pending state of bound ports. */
	fifo_on();
	assert_true(*word_of(p) & W(EVTCHN_FIFO_PENDING));
	assert_int_equal(host_global_maps, maps + 2);
	/* Reset: closed, back to 2-level, pages released. */
	assert_int_equal(ev_reset(v1, DOMID_SELF), 0);
	assert_int_equal(host_global_maps, maps);
	assert_int_equal(ev_fifo_expand(v1, ARRAY_PAGE), -XEN_EOPNOTSUPP);
	assert_int_equal(ev_set_prio(v1, 1, 3), -XEN_ENOSYS);
	memset(harness_gpa(d1, harness_ram(ARRAY_PAGE, 0)), 0, 4096);
	memset(d1->shared_info->evtchn_pending, 0, sizeof(d1->shared_info->evtchn_pending));
	p = connect_from_d2(&r);
	assert_int_equal(ev_send(v2, r), 0);
	assert_true(ev_2l_pending(d1, p));
	assert_int_equal(*word_of(p), 0);
	/* And FIFO again. */
	fifo_on();
	ev_2l_clear(d1, p);
	assert_int_equal(ev_send(v2, r), 0);
	assert_true(*word_of(p) & W(EVTCHN_FIFO_LINKED));
	assert_false(ev_2l_pending(d1, p));
}

/* A guest thread flipping MASKED on the queue's tail word while we link. */
struct flipper {
	event_word_t *w;
	volatile int stop;
	unsigned long flips;
};

static void *flip_mask(void *arg)
{
	struct flipper *f = arg;

	host_set_cpu(1);
	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
		event_word_t old = __atomic_load_n(f->w, __ATOMIC_ACQUIRE);
		/* The guest may change MASKED only while BUSY is clear. */
		if ((old & W(EVTCHN_FIFO_BUSY)) == 0U) {
			__atomic_compare_exchange_n(f->w, &old, old ^ W(EVTCHN_FIFO_MASKED), false,
						    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		}
		__atomic_fetch_add(&f->flips, 1UL, __ATOMIC_RELAXED);
	}
	return NULL;
}

VERIFIES(REQ-EVT-018)
static void test_link_races_guest_unmask(void **state)
{
	struct evtchn_fifo_control_block *cb = cb_of(CB_PAGE, 0);
	uint32_t tail, rtail, p, r;
	struct flipper f;
	pthread_t t;
	unsigned int i;
	uint32_t got[4];

	(void)state;
	fifo_on();
	tail = connect_from_d2(&rtail);
	p = connect_from_d2(&r);
	assert_int_equal(ev_send(v2, rtail), 0);
	assert_int_equal(cb->head[EVTCHN_FIFO_PRIORITY_DEFAULT], tail);
	f.w = word_of(tail);
	f.stop = 0;
	f.flips = 0;
	assert_int_equal(pthread_create(&t, NULL, flip_mask, &f), 0);
	while (__atomic_load_n(&f.flips, __ATOMIC_RELAXED) == 0UL) {
		sched_yield();
	}
	for (i = 0U; i < 2000U; i++) {
		assert_int_equal(ev_send(v2, r), 0);
		/* Linked behind the tail (or given up): never left BUSY. */
		assert_true(*word_of(p) & W(EVTCHN_FIFO_LINKED));
		__atomic_fetch_and(word_of(p), ~(W(EVTCHN_FIFO_LINKED) | W(EVTCHN_FIFO_PENDING)),
				   __ATOMIC_ACQ_REL);
		__atomic_fetch_and(word_of(tail), ~EVTCHN_FIFO_LINK_MASK, __ATOMIC_ACQ_REL);
	}
	__atomic_store_n(&f.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	assert_false(*word_of(tail) & W(EVTCHN_FIFO_BUSY));
	assert_true(f.flips > 0U);
	/* The queue still works: consume, then a fresh event heads it. */
	*word_of(tail) &= ~W(EVTCHN_FIFO_MASKED);
	(void)drain(cb, EVTCHN_FIFO_PRIORITY_DEFAULT, got, 4);
	assert_int_equal(ev_send(v2, r), 0);
	assert_true(*word_of(p) & W(EVTCHN_FIFO_PENDING));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_init_control_errors, setup),
		cmocka_unit_test_setup(test_expand_array, setup),
		cmocka_unit_test_setup(test_queue_order_and_ready, setup),
		cmocka_unit_test_setup(test_priorities, setup),
		cmocka_unit_test_setup(test_masked_not_linked, setup),
		cmocka_unit_test_setup(test_linked_port_not_reused, setup),
		cmocka_unit_test_setup(test_bind_vcpu_moves_queue, setup),
		cmocka_unit_test_setup(test_2l_fifo_2l_fifo_after_reset, setup),
		cmocka_unit_test_setup(test_link_races_guest_unmask, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
