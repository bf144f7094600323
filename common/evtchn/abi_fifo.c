/* SPDX-License-Identifier: MIT */
/*
 * FIFO ABI: one event word per port in guest pages (expand_array), one
 * control block per vCPU (init_control) whose head[] starts 16 priority
 * queues. The hypervisor keeps each queue's tail privately and links a new
 * event behind it with a cmpxchg on the tail's LINK field, valid only while
 * the tail is still LINKED; BUSY stops the guest unmasking the tail in the
 * middle, so at most CONFIG_EVTCHN_FIFO_LINK_TRIES attempts are needed.
 * A guest that keeps changing the word only costs it its own event.
 */
#include "private.h"
#include <bulkhead/console.h>

#define FIFO_LASTQ(vcpu, prio) (((uint32_t)(vcpu) << 8) | (uint32_t)(prio))
#define FIFO_LASTQ_VCPU(l)     ((l) >> 8)
#define FIFO_LASTQ_PRIO(l)     ((l) & 0xffU)
#define FIFO_QUEUE_TRIES       U(3)

static inline bool word_test(const event_word_t *w, unsigned int bit)
{
	return ((load_acquire(w) >> bit) & 1U) != 0U;
}

static inline bool word_test_and_set(event_word_t *w, unsigned int bit)
{
	event_word_t m = (event_word_t)1U << bit;

	return (atomic_fetch_or(w, m) & m) != 0U;
}

static inline void word_clear(event_word_t *w, unsigned int bit)
{
	(void)atomic_fetch_and(w, ~((event_word_t)1U << bit));
}

static event_word_t *fifo_word(const struct domain *d, uint32_t port)
{
	/* Pairs with the release in evtchn_fifo_expand_array(). */
	if (port >= load_acquire(&d->ev.fifo_nr_words)) {
		return NULL;
	}
	return &d->ev.fifo_array[port / EVTCHN_FIFO_WORDS_PER_PAGE][port % EVTCHN_FIFO_WORDS_PER_PAGE];
}

static void fifo_init(struct domain *d, struct evtchn *chn)
{
	(void)d;
	write_atomic(&chn->priority, (uint8_t)EVTCHN_FIFO_PRIORITY_DEFAULT);
}

/* 1: linked, 0: tail no longer LINKED (queue empty), -1: word changed. */
static int fifo_try_set_link(event_word_t *word, event_word_t *w, uint32_t link)
{
	event_word_t old = *w;
	event_word_t new;

	if ((old & ((event_word_t)1U << EVTCHN_FIFO_LINKED)) == 0U) {
		return 0;
	}
	new = (old & ~(((event_word_t)1U << EVTCHN_FIFO_BUSY) | EVTCHN_FIFO_LINK_MASK)) | link;
	if (atomic_cmpxchg(word, w, new)) {
		return 1;
	}
	/* GCOVR_EXCL_START COV-007 */
	return -1;
	/* GCOVR_EXCL_STOP */
}

static bool fifo_set_link(event_word_t *word, uint32_t link)
{
	event_word_t w = load_acquire(word);
	unsigned int try;
	int rc = fifo_try_set_link(word, &w, link);

	if (rc >= 0) {
		return rc == 1;
	}
	/* GCOVR_EXCL_START COV-007 */
	/* Hold off guest unmasks of the tail while we retry. */
	(void)word_test_and_set(word, EVTCHN_FIFO_BUSY);
	w = load_acquire(word);
	for (try = 0U; try < CONFIG_EVTCHN_FIFO_LINK_TRIES; try++) {
		rc = fifo_try_set_link(word, &w, link);
		if (rc >= 0) {
			if (rc == 0) {
				word_clear(word, EVTCHN_FIFO_BUSY);
			}
			return rc == 1;
		}
	}
	/* The guest keeps rewriting its own word: report linked, drop the link. */
	word_clear(word, EVTCHN_FIFO_BUSY);
	return true;
	/* GCOVR_EXCL_STOP */
}

static void fifo_queue_lock(struct evtchn_fifo_queue *a, struct evtchn_fifo_queue *b)
{
	if (a == b) {
		spin_lock(&a->lock);
	} else if ((uintptr_t)a < (uintptr_t)b) {
		spin_lock(&a->lock);
		spin_lock(&b->lock);
	} else {
		spin_lock(&b->lock);
		spin_lock(&a->lock);
	}
}

static void fifo_queue_unlock(struct evtchn_fifo_queue *a, struct evtchn_fifo_queue *b)
{
	if (a != b) {
		spin_unlock(&b->lock);
	}
	spin_unlock(&a->lock);
}

static struct evtchn_fifo_queue *fifo_lastq_queue(struct domain *d, uint32_t lastq)
{
	uint32_t vid = FIFO_LASTQ_VCPU(lastq);

	return &d->vcpu[(vid < d->nr_vcpus) ? vid : 0U].evtchn.fifo_q[FIFO_LASTQ_PRIO(lastq) & 0xfU];
}

/*
 * Lock the queue the event goes to and the one it was last on (they differ
 * after set_priority or bind_vcpu); the event must leave the old queue's
 * tail before it joins the new one or the two lists would merge.
 */
static bool fifo_lock_queues(struct vcpu *v, struct evtchn *chn, struct evtchn_fifo_queue **q,
			     struct evtchn_fifo_queue **old_q)
{
	struct domain *d = v->domain;
	unsigned int try;

	for (try = 0U; try < FIFO_QUEUE_TRIES; try++) {
		uint32_t lastq = read_atomic(&chn->fifo_lastq);
		uint8_t prio = read_atomic(&chn->priority);

		*q = &v->evtchn.fifo_q[prio & 0xfU];
		*old_q = fifo_lastq_queue(d, lastq);
		fifo_queue_lock(*q, *old_q);
		if ((read_atomic(&chn->fifo_lastq) == lastq) && (read_atomic(&chn->priority) == prio)) {
			return true;
		}
		/* GCOVR_EXCL_START COV-007 */
		fifo_queue_unlock(*q, *old_q);
	}
	return false;
		/* GCOVR_EXCL_STOP */
}

static void fifo_set_pending(struct vcpu *v, struct evtchn *chn)
{
	struct domain *d = v->domain;
	uint32_t port = chn->port;
	event_word_t *word = fifo_word(d, port);
	struct evtchn_fifo_queue *q;
	struct evtchn_fifo_queue *old_q;
	struct evtchn_fifo_control_block *cb;
	bool linked = true;
	bool check_pollers = false;

	if (word == NULL) {
		/* Replayed when the guest adds the array page. */
		write_atomic(&chn->pending, (uint8_t)1U);
		return;
	}
	/* GCOVR_EXCL_START COV-007 */
	if (!fifo_lock_queues(v, chn, &q, &old_q)) {
		printk("evtchn: d%u port %u lost event (queue changes)\n", d->domain_id, port);
		return;
	}
	/* GCOVR_EXCL_STOP */
	cb = load_acquire(&v->evtchn.fifo_cb);
	if (cb == NULL) {
		/* The guest may not unmask before it registers a control block. */
		fifo_queue_unlock(q, old_q);
		return;
	}
	check_pollers = !word_test_and_set(word, EVTCHN_FIFO_PENDING);
	if (!word_test(word, EVTCHN_FIFO_MASKED) && !word_test_and_set(word, EVTCHN_FIFO_LINKED)) {
		if (old_q->tail == port) {
			old_q->tail = 0U;
		}
		if (old_q != q) {
			write_atomic(&chn->fifo_lastq, FIFO_LASTQ(v->vcpu_id, q->priority));
			spin_unlock(&old_q->lock);
			old_q = q;
		}
		linked = false;
		if (q->tail != 0U) {
			event_word_t *tail_word = fifo_word(d, q->tail);
			linked = (tail_word != NULL) && fifo_set_link(tail_word, port);
		}
		if (!linked) {
			write_atomic(q->head, port);
		}
		q->tail = port;
	}
	fifo_queue_unlock(q, old_q);
	if (!linked && !word_test_and_set(&cb->ready, q->priority)) {
		evtchn_vcpu_mark_pending(v);
	}
	if (check_pollers) {
		evtchn_check_pollers(d, port);
	}
}

static void fifo_clear_pending(struct domain *d, struct evtchn *chn)
{
	event_word_t *word = fifo_word(d, chn->port);

	/* The guest unlinks (and skips) events that are no longer pending. */
	if (word != NULL) {
		word_clear(word, EVTCHN_FIFO_PENDING);
	}
}

static void fifo_unmask(struct domain *d, struct evtchn *chn)
{
	event_word_t *word = fifo_word(d, chn->port);

	if (word == NULL) {
		return;
	}
	word_clear(word, EVTCHN_FIFO_MASKED);
	if (word_test(word, EVTCHN_FIFO_PENDING)) {
		fifo_set_pending(&d->vcpu[read_atomic(&chn->notify_vcpu)], chn);
	}
}

static bool fifo_is_pending(const struct domain *d, const struct evtchn *chn)
{
	const event_word_t *word = fifo_word(d, chn->port);

	return (word != NULL) && word_test(word, EVTCHN_FIFO_PENDING);
}

static bool fifo_is_busy(const struct domain *d, const struct evtchn *chn)
{
	const event_word_t *word = fifo_word(d, chn->port);

	return (word != NULL) && word_test(word, EVTCHN_FIFO_LINKED);
}

static int fifo_set_priority(struct domain *d, struct evtchn *chn, unsigned int prio)
{
	(void)d;
	if (prio > EVTCHN_FIFO_PRIORITY_MIN) {
		return -XEN_EINVAL;
	}
	/* Future events only: one already queued stays where it is. */
	write_atomic(&chn->priority, (uint8_t)prio);
	return 0;
}

const struct evtchn_port_ops evtchn_ops_fifo = {
	.init = fifo_init,
	.set_pending = fifo_set_pending,
	.clear_pending = fifo_clear_pending,
	.unmask = fifo_unmask,
	.is_pending = fifo_is_pending,
	.is_busy = fifo_is_busy,
	.set_priority = fifo_set_priority,
};

static int fifo_map_control_block(struct vcpu *v, gfn_t gfn, uint32_t offset)
{
	uint8_t *page;
	struct evtchn_fifo_control_block *cb;
	unsigned int i;

	if (v->evtchn.fifo_cb != NULL) {
		return -XEN_EINVAL;
	}
	page = evtchn_map_guest_page(v->domain, gfn);
	if (page == NULL) {
		return -XEN_EINVAL;
	}
	cb = (struct evtchn_fifo_control_block *)(void *)(page + offset);
	for (i = 0U; i < EVTCHN_FIFO_MAX_QUEUES; i++) {
		v->evtchn.fifo_q[i].head = &cb->head[i];
	}
	/* Heads first: a sender that sees the block sees its queues. */
	store_release(&v->evtchn.fifo_cb, cb);
	return 0;
}

/* Bound ports keep their 2-level pending state across the switch. */
static void fifo_setup_ports(struct domain *d)
{
	uint32_t port;
	uint32_t valid = load_acquire(&d->ev.valid);

	for (port = 1U; port < valid; port++) {
		struct evtchn *chn = evtchn_from_port(d, port);
		if (test_bit(port, (const uint64_t *)d->shared_info->evtchn_pending)) {
			write_atomic(&chn->pending, (uint8_t)1U);
		}
		write_atomic(&chn->priority, (uint8_t)EVTCHN_FIFO_PRIORITY_DEFAULT);
	}
}

long evtchn_fifo_init_control(struct domain *d, struct evtchn_init_control *ic)
{
	struct vcpu *v;
	long rc;

	ic->link_bits = (uint8_t)EVTCHN_FIFO_LINK_BITS;
	if (ic->vcpu >= d->nr_vcpus) {
		return -XEN_ENOENT;
	}
	/* Within one page and 8-byte aligned. */
	if ((ic->offset > (PAGE_SIZE - sizeof(struct evtchn_fifo_control_block))) ||
	    ((ic->offset & 7U) != 0U)) {
		return -XEN_EINVAL;
	}
	v = &d->vcpu[ic->vcpu];
	spin_lock(&d->ev.lock);
	if (evtchn_ops(d) != &evtchn_ops_fifo) {
		rc = fifo_map_control_block(v, ic->control_gfn, ic->offset);
		if (rc == 0) {
			store_release(&d->ev.ops, &evtchn_ops_fifo);
			fifo_setup_ports(d);
		}
		/* On failure the partition stays on the 2-level ABI. */
	} else {
		rc = fifo_map_control_block(v, ic->control_gfn, ic->offset);
	}
	spin_unlock(&d->ev.lock);
	return rc;
}

long evtchn_fifo_expand_array(struct domain *d, const struct evtchn_expand_array *ea)
{
	uint32_t first;
	uint32_t last;
	uint32_t port;
	uint32_t slot;
	event_word_t *page;
	long rc = 0;

	if (evtchn_ops(d) != &evtchn_ops_fifo) {
		return -XEN_EOPNOTSUPP;
	}
	spin_lock(&d->ev.lock);
	first = d->ev.fifo_nr_words;
	slot = first / EVTCHN_FIFO_WORDS_PER_PAGE;
	if (slot >= EVTCHN_FIFO_MAX_PAGES) {
		rc = -XEN_ENOSPC;
	} else {
		page = evtchn_map_guest_page(d, ea->array_gfn);
		if (page == NULL) {
			rc = -XEN_EINVAL;
		} else {
			d->ev.fifo_array[slot] = page;
			last = first + EVTCHN_FIFO_WORDS_PER_PAGE;
			store_release(&d->ev.fifo_nr_words, last);
			/* Raise what arrived while the page was missing. */
			for (port = first; (port < last) && evtchn_port_valid(d, port); port++) {
				struct evtchn *chn = evtchn_from_port(d, port);
				evtchn_chn_lock(chn);
				if (atomic_xchg(&chn->pending, (uint8_t)0U) != 0U) {
					evtchn_port_set_pending(d, read_atomic(&chn->notify_vcpu), chn);
				}
				evtchn_chn_unlock(chn);
			}
		}
	}
	spin_unlock(&d->ev.lock);
	return rc;
}

/* Wait for lock-free unmasks of d that may still read the FIFO pages. */
static void fifo_quiesce_unmask(struct domain *d)
{
	uint32_t i;

	write_atomic(&d->ev.teardown, 1U);
	evtchn_mb();
	for (i = 0U; i < d->nr_vcpus; i++) {
		/* LOOP-BOUND: waits out an unmask already inside its bounded critical section;
		 * teardown set above stops new ones from starting. */
		while (load_acquire(&d->vcpu[i].evtchn.unmask_active) != 0U) {
			/* GCOVR_EXCL_START COV-004 */
			cpu_relax();
			/* GCOVR_EXCL_STOP */
		}
	}
}

void evtchn_fifo_destroy(struct domain *d)
{
	uint32_t i;
	uint32_t q;

	fifo_quiesce_unmask(d);
	store_release(&d->ev.ops, &evtchn_ops_2l);
	for (i = 0U; i < d->nr_vcpus; i++) {
		struct evtchn_vcpu *ev = &d->vcpu[i].evtchn;
		evtchn_unmap_guest_page(ev->fifo_cb);
		store_release(&ev->fifo_cb, NULL);
		for (q = 0U; q < EVTCHN_FIFO_MAX_QUEUES; q++) {
			ev->fifo_q[q].head = NULL;
			ev->fifo_q[q].tail = 0U;
		}
	}
	store_release(&d->ev.fifo_nr_words, 0U);
	for (i = 0U; i < EVTCHN_FIFO_MAX_PAGES; i++) {
		evtchn_unmap_guest_page(d->ev.fifo_array[i]);
		d->ev.fifo_array[i] = NULL;
	}
	for (i = 0U; i < CONFIG_EVTCHN_MAX_PORTS; i++) {
		d->ev.chn[i].pending = 0U;
		d->ev.chn[i].fifo_lastq = 0U;
	}
	store_release(&d->ev.teardown, 0U);
}
