/* SPDX-License-Identifier: MIT */
/*
 * Port table: allocation, release and the two-lock helpers. Ports become
 * valid in buckets of 64, as in Xen, so a never-used port far above the
 * highest bound one answers -EINVAL while a free port inside a bucket
 * reads as closed. Validity only grows: lock-free readers may trust it.
 */
#include "private.h"

#define EVTCHN_BUCKET U(64)

void evtchn_double_domain_lock(struct domain *a, struct domain *b)
{
	if (a == b) {
		spin_lock(&a->ev.lock);
	} else if ((uintptr_t)a < (uintptr_t)b) {
		spin_lock(&a->ev.lock);
		spin_lock(&b->ev.lock);
	} else {
		spin_lock(&b->ev.lock);
		spin_lock(&a->ev.lock);
	}
}

void evtchn_double_domain_unlock(struct domain *a, struct domain *b)
{
	spin_unlock(&a->ev.lock);
	if (a != b) {
		spin_unlock(&b->ev.lock);
	}
}

void evtchn_double_chn_lock(struct evtchn *a, struct evtchn *b)
{
	if ((uintptr_t)a < (uintptr_t)b) {
		evtchn_chn_lock(a);
		evtchn_chn_lock(b);
	} else {
		evtchn_chn_lock(b);
		evtchn_chn_lock(a);
	}
}

void evtchn_double_chn_unlock(struct evtchn *a, struct evtchn *b)
{
	evtchn_chn_unlock(a);
	evtchn_chn_unlock(b);
}

static bool evtchn_port_busy(struct domain *d, struct evtchn *chn)
{
	const struct evtchn_port_ops *ops = evtchn_ops(d);

	return (ops->is_busy != NULL) && ops->is_busy(d, chn);
}

int evtchn_allocate_port(struct domain *d, uint32_t port)
{
	uint32_t valid;

	if (port >= CONFIG_EVTCHN_MAX_PORTS) {
		return -XEN_ENOSPC;
	}
	if (evtchn_port_valid(d, port)) {
		struct evtchn *chn = evtchn_from_port(d, port);
		if ((evtchn_state(chn) != ECS_FREE) || evtchn_port_busy(d, chn)) {
			return -XEN_EBUSY;
		}
	} else {
		valid = ROUND_UP(port + 1U, EVTCHN_BUCKET);
		/* Publish after the entries (static, already initialised). */
		store_release(&d->ev.valid, MIN(valid, (uint32_t)CONFIG_EVTCHN_MAX_PORTS));
	}
	d->ev.active++;
	return 0;
}

int evtchn_get_free_port(struct domain *d)
{
	uint32_t port;

	/* Below CONFIG_EVTCHN_MAX_PORTS allocation fails only with -EBUSY. */
	for (port = 1U; port < CONFIG_EVTCHN_MAX_PORTS; port++) {
		if (evtchn_allocate_port(d, port) == 0) {
			return (int)port;
		}
	}
	return -XEN_ENOSPC;
}

int evtchn_get_port(struct domain *d, uint32_t port)
{
	int rc;

	if (port == 0U) {
		return evtchn_get_free_port(d);
	}
	rc = evtchn_allocate_port(d, port);
	return (rc != 0) ? rc : (int)port;
}

void evtchn_unreserve_port(struct domain *d, uint32_t port)
{
	if (evtchn_port_valid(d, port) && (evtchn_state(evtchn_from_port(d, port)) == ECS_FREE)) {
		d->ev.active--;
	}
}

void evtchn_free(struct domain *d, struct evtchn *chn)
{
	/* A re-bound port must not inherit an old event. */
	evtchn_port_clear_pending(d, chn);
	d->ev.active--;
	write_atomic(&chn->notify_vcpu, 0U);
	chn->remote_dom = NULL;
	chn->remote_port = 0U;
	chn->unbound_remote = 0U;
	store_release(&chn->state, (uint8_t)ECS_FREE);
}
