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
