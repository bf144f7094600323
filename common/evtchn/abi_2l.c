/* SPDX-License-Identifier: MIT */
/*
 * 2-level ABI: pending and mask bitmaps in shared_info, a selector word and
 * the upcall flag in each vCPU's vcpu_info. The order of the bit operations
 * is the protocol the guest relies on (pending, then selector, then upcall),
 * so an event is never visible as delivered before it is pending.
 */
#include "private.h"

#define EVTCHN_2L_WORD_BITS U(64)

static uint64_t *evtchn_2l_pending(const struct domain *d)
{
	return d->shared_info->evtchn_pending;
}

static uint64_t *evtchn_2l_mask(const struct domain *d)
{
	return d->shared_info->evtchn_mask;
}

static void evtchn_2l_set_pending(struct vcpu *v, struct evtchn *chn)
{
	struct domain *d = v->domain;
	uint32_t port = chn->port;

	if (test_and_set_bit(port, evtchn_2l_pending(d))) {
		return;
	}
	if (!test_bit(port, evtchn_2l_mask(d)) &&
	    !test_and_set_bit(port / EVTCHN_2L_WORD_BITS,
			      &evtchn_vcpu_info(v)->evtchn_pending_sel)) {
		evtchn_vcpu_mark_pending(v);
	}
	evtchn_check_pollers(d, port);
}

static void evtchn_2l_clear_pending(struct domain *d, struct evtchn *chn)
{
	(void)test_and_clear_bit(chn->port, evtchn_2l_pending(d));
}

static void evtchn_2l_unmask(struct domain *d, struct evtchn *chn)
{
	struct vcpu *v = &d->vcpu[read_atomic(&chn->notify_vcpu)];
	uint32_t port = chn->port;

	if (test_and_clear_bit(port, evtchn_2l_mask(d)) &&
	    test_bit(port, evtchn_2l_pending(d)) &&
	    !test_and_set_bit(port / EVTCHN_2L_WORD_BITS,
			      &evtchn_vcpu_info(v)->evtchn_pending_sel)) {
		evtchn_vcpu_mark_pending(v);
	}
}

static bool evtchn_2l_is_pending(const struct domain *d, const struct evtchn *chn)
{
	return test_bit(chn->port, evtchn_2l_pending(d));
}

/* set_priority is absent: Xen answers -ENOSYS for the 2-level ABI. */
const struct evtchn_port_ops evtchn_ops_2l = {
	.set_pending = evtchn_2l_set_pending,
	.clear_pending = evtchn_2l_clear_pending,
	.unmask = evtchn_2l_unmask,
	.is_pending = evtchn_2l_is_pending,
};
