/* SPDX-License-Identifier: MIT */
/*
 * Virtual IRQs delivered as events (bind_virq). Per-vCPU VIRQs (TIMER,
 * DEBUG, XENOPROF, XENPMU) live in each vCPU's table; the others are global:
 * bound on vCPU 0 and delivered to whichever vCPU the port notifies.
 * The hypervisor's own sends look the port up without a lock and confirm
 * the binding under the channel lock, so a concurrent close is harmless.
 */
#include "private.h"

#define VIRQ_XENOPROF_NR U(7)
#define VIRQ_XENPMU_NR   U(13)
/* A hypervisor sender gives up instead of waiting behind a guest. */
#define EVTCHN_VIRQ_TRIES U(64)

bool evtchn_virq_is_global(uint32_t virq)
{
	switch (virq) {
	case VIRQ_TIMER:
	case VIRQ_DEBUG:
	case VIRQ_XENOPROF_NR:
	case VIRQ_XENPMU_NR:
		return false;
	default:
		return true;
	}
}

long evtchn_bind_virq(struct domain *d, struct evtchn_bind_virq *bind)
{
	struct evtchn *chn;
	struct vcpu *v;
	int port;
	long rc = 0;

	if (bind->virq >= NR_VIRQS) {
		return -XEN_EINVAL;
	}
	if (evtchn_virq_is_global(bind->virq) && (bind->vcpu != 0U)) {
		return -XEN_EINVAL;
	}
	if (bind->vcpu >= d->nr_vcpus) {
		return -XEN_ENOENT;
	}
	v = &d->vcpu[bind->vcpu];
	spin_lock(&d->ev.lock);
	if (read_atomic(&v->evtchn.virq_to_port[bind->virq]) != 0U) {
		rc = -XEN_EEXIST;
		goto out;
	}
	port = evtchn_get_free_port(d);
	if (port < 0) {
		rc = port;
		goto out;
	}
	chn = evtchn_from_port(d, (uint32_t)port);
	evtchn_chn_lock(chn);
	chn->virq = (uint8_t)bind->virq;
	write_atomic(&chn->notify_vcpu, bind->vcpu);
	store_release(&chn->state, (uint8_t)ECS_VIRQ);
	evtchn_port_init(d, chn);
	evtchn_chn_unlock(chn);
	bind->port = (uint32_t)port;
	store_release(&v->evtchn.virq_to_port[bind->virq], (uint32_t)port);
out:
	spin_unlock(&d->ev.lock);
	return rc;
}

static bool evtchn_virq_trylock(struct domain *d, struct evtchn *chn)
{
	unsigned int i;

	for (i = 0U; i < EVTCHN_VIRQ_TRIES; i++) {
#ifdef CONFIG_EVTCHN_LOCK_DOMAIN
		(void)chn;
		if (spin_trylock(&d->ev.lock)) {
			return true;
		}
#else
		(void)d;
		if (spin_trylock(&chn->lock)) {
			return true;
		}
#endif
		cpu_relax();
	}
	return false;
}

void evtchn_send_virq(struct vcpu *v, unsigned int virq)
{
	struct domain *d;
	struct vcpu *owner;
	struct evtchn *chn;
	uint32_t port;

	if ((v == NULL) || (virq >= NR_VIRQS)) {
		return;
	}
	d = v->domain;
	owner = evtchn_virq_is_global(virq) ? &d->vcpu[0] : v;
	port = load_acquire(&owner->evtchn.virq_to_port[virq]);
	if ((port == 0U) || !evtchn_port_valid(d, port)) {
		return;
	}
	chn = evtchn_from_port(d, port);
	if (!evtchn_virq_trylock(d, chn)) {
		return;
	}
	/* Still this VIRQ's port (not closed and re-used meanwhile)? */
	if ((evtchn_state(chn) == ECS_VIRQ) && (chn->virq == virq) &&
	    (evtchn_virq_is_global(virq) || (read_atomic(&chn->notify_vcpu) == v->vcpu_id))) {
		evtchn_port_set_pending(d, read_atomic(&chn->notify_vcpu), chn);
	}
	evtchn_op_unlock(d, chn);
}
