/* SPDX-License-Identifier: MIT */
/*
 * Calls into the partition's guest ABI (2-level or FIFO) and the upcall.
 * The ops pointer changes only under d->ev.lock with every channel closed
 * (init_control, reset), so a reader holding a channel lock of a usable
 * channel always sees the ABI that channel was initialised for.
 */
#include "private.h"

void evtchn_port_init(struct domain *d, struct evtchn *chn)
{
	const struct evtchn_port_ops *ops = evtchn_ops(d);

	if (ops->init != NULL) {
		ops->init(d, chn);
	}
}

void evtchn_port_set_pending(struct domain *d, uint32_t vcpu_id, struct evtchn *chn)
{
	if (evtchn_usable(chn) && (vcpu_id < d->nr_vcpus)) {
		evtchn_ops(d)->set_pending(&d->vcpu[vcpu_id], chn);
	}
}

void evtchn_port_clear_pending(struct domain *d, struct evtchn *chn)
{
	if (evtchn_usable(chn)) {
		evtchn_ops(d)->clear_pending(d, chn);
	}
}

void evtchn_port_unmask(struct domain *d, struct evtchn *chn)
{
	if (evtchn_usable(chn)) {
		evtchn_ops(d)->unmask(d, chn);
	}
}

bool evtchn_port_is_pending(struct domain *d, uint32_t port)
{
	return evtchn_ops(d)->is_pending(d, evtchn_from_port(d, port));
}

struct vcpu_info *evtchn_vcpu_info(struct vcpu *v)
{
	struct vcpu_info *vi = load_acquire(&v->vcpu_info);

	return (vi != NULL) ? vi : &v->evtchn.dummy_info;
}

void evtchn_vcpu_mark_pending(struct vcpu *v)
{
	struct vcpu_info *vi = evtchn_vcpu_info(v);

	/* Only the 0 -> 1 edge injects: the guest clears it before scanning. */
	if (atomic_xchg(&vi->evtchn_upcall_pending, (uint8_t)1U) == 0U) {
		arch_vcpu_raise_irq(v, GUEST_EVTCHN_PPI);
	}
}
