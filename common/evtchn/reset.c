/* SPDX-License-Identifier: MIT */
/*
 * Partition-wide event state: creation, EVTCHNOP_reset (a guest starting
 * over, e.g. kexec) and the reset a restart does. Both close every port,
 * which reverts interdomain peers to unbound, then return to the 2-level
 * ABI; only a restart also releases the registered vcpu_info pages.
 */
#include "private.h"
#include <bulkhead/hypercall.h>
#include <bulkhead/lib.h>

int evtchn_domain_init(struct domain *d)
{
	struct evtchn_domain *ev = &d->ev;
	uint32_t i;
	uint32_t q;

	(void)memset(ev, 0, sizeof(*ev));
	spin_lock_init(&ev->lock, LOCK_CLASS_EVTCHN_DOMAIN);
	for (i = 0U; i < CONFIG_EVTCHN_MAX_PORTS; i++) {
		spin_lock_init(&ev->chn[i].lock, LOCK_CLASS_EVTCHN);
		ev->chn[i].port = i;
	}
	ev->chn[0].state = (uint8_t)ECS_RESERVED;
	ev->valid = MIN(U(64), (uint32_t)CONFIG_EVTCHN_MAX_PORTS);
	ev->ops = &evtchn_ops_2l;
	for (i = 0U; i < d->nr_vcpus; i++) {
		struct evtchn_vcpu *e = &d->vcpu[i].evtchn;
		(void)memset(e, 0, sizeof(*e));
		for (q = 0U; q < EVTCHN_FIFO_MAX_QUEUES; q++) {
			spin_lock_init(&e->fifo_q[q].lock, LOCK_CLASS_EVTCHN_QUEUE);
			e->fifo_q[q].priority = (uint8_t)q;
		}
	}
	return 0;
}

uint32_t evtchn_close_all(struct domain *d, uint32_t from, bool preemptible)
{
	uint32_t port;
	unsigned int done = 0U;

	/* LOOP-BOUND: evtchn_port_valid() is false past the partition's highest port
	 * (CONFIG_EVTCHN_MAX_PORTS at most). */
	for (port = from; evtchn_port_valid(d, port); port++) {
		(void)evtchn_close_port(d, port);
		done++;
		if (preemptible && hypercall_preempt_check(done) &&
		    evtchn_port_valid(d, port + 1U)) {
			return port + 1U;
		}
	}
	return 0U;
}

long evtchn_reset_op(struct domain *d, bool resuming)
{
	uint32_t from;
	long rc = 0;

	spin_lock(&d->ev.lock);
	if (resuming) {
		from = d->ev.reset_next;
	} else {
		/* Another vCPU's reset is still running. */
		from = (d->ev.reset_next == 0U) ? (uint32_t)1U : 0U;
		if (from != 0U) {
			d->ev.reset_next = from;
		}
	}
	spin_unlock(&d->ev.lock);
	if (from == 0U) {
		return -XEN_EBUSY;
	}
	from = evtchn_close_all(d, from, true);
	spin_lock(&d->ev.lock);
	if (from != 0U) {
		d->ev.reset_next = from;
		spin_unlock(&d->ev.lock);
		return EVTCHN_RESTART;
	}
	d->ev.reset_next = 0U;
	if (d->ev.active != 0U) {
		/* Another vCPU bound a port meanwhile: the guest must retry. */
		rc = -XEN_EAGAIN;
	} else if (evtchn_ops(d) == &evtchn_ops_fifo) {
		evtchn_fifo_destroy(d);
	} else {
		/* 2-level ABI: its bitmaps live in shared_info, nothing to free. */
	}
	spin_unlock(&d->ev.lock);
	return rc;
}

static void evtchn_vcpu_reset(struct vcpu *v)
{
	struct evtchn_vcpu *e = &v->evtchn;

	if (e->vcpu_info_page != NULL) {
		evtchn_unmap_guest_page(e->vcpu_info_page);
		e->vcpu_info_page = NULL;
	}
	/* Back to the shared_info slot (vCPU 0) or none, as at creation. */
	store_release(&v->vcpu_info,
		      (v->vcpu_id == 0U) ? &v->domain->shared_info->vcpu_info[0] : NULL);
	v->vcpu_info_registered = false;
	(void)memset(&e->dummy_info, 0, sizeof(e->dummy_info));
	(void)memset(e->virq_to_port, 0, sizeof(e->virq_to_port));
	e->runstate_gva = 0U;
	e->runstate_registered = false;
	write_atomic(&e->poll_port, 0);
	write_atomic(&e->poll_deadline, 0U);
}

void evtchn_domain_reset(struct domain *d)
{
	uint32_t i;

	(void)evtchn_close_all(d, 1U, false);
	spin_lock(&d->ev.lock);
	if (evtchn_ops(d) == &evtchn_ops_fifo) {
		evtchn_fifo_destroy(d);
	}
	d->ev.reset_next = 0U;
	write_atomic(&d->ev.poll_mask, 0U);
	for (i = 0U; i < d->nr_vcpus; i++) {
		evtchn_vcpu_reset(&d->vcpu[i]);
	}
	spin_unlock(&d->ev.lock);
}
