/* SPDX-License-Identifier: MIT */
/*
 * SCHEDOP_poll: block until one of a few local ports is pending. The vCPU
 * announces itself in d->ev.poll_mask before it checks the ports, and
 * set_pending checks the mask after it sets the pending bit, so one of the
 * two always sees the other: no wake-up is lost. The mask is read-mostly
 * (empty unless someone polls), so senders share it without contention.
 */
#include "private.h"
#include <bulkhead/guest_access.h>
#include <public/sched.h>

void evtchn_wake_pollers(struct domain *d, uint32_t port, uint64_t mask)
{
	uint32_t i;

	for (i = 0U; i < d->nr_vcpus; i++) {
		struct vcpu *v = &d->vcpu[i];
		int32_t want;
		uint64_t bit = UL(1) << i;

		if ((mask & bit) == 0U) {
			continue;
		}
		want = read_atomic(&v->evtchn.poll_port);
		if (((want <= 0) || ((uint32_t)want == port)) &&
		    ((atomic_fetch_and(&d->ev.poll_mask, ~bit) & bit) != 0U)) {
			write_atomic(&v->evtchn.poll_port, 0);
			write_atomic(&v->blocked, false);
			arch_vcpu_kick(v);
		}
	}
}

static void evtchn_poll_cancel(struct vcpu *v)
{
	write_atomic(&v->evtchn.poll_port, 0);
	write_atomic(&v->evtchn.poll_deadline, 0U);
	(void)atomic_fetch_and(&v->domain->ev.poll_mask, ~(UL(1) << v->vcpu_id));
	write_atomic(&v->blocked, false);
}

uint64_t evtchn_poll_wake_by(const struct vcpu *v, uint64_t bound)
{
	uint64_t deadline = read_atomic(&v->evtchn.poll_deadline);

	return ((deadline != 0U) && (deadline < bound)) ? deadline : bound;
}

void evtchn_poll_end(struct vcpu *v)
{
	/* A sender that woke us already left the mask: skip the shared write. */
	if ((read_atomic(&v->evtchn.poll_port) != 0) ||
	    (read_atomic(&v->evtchn.poll_deadline) != 0U)) {
		evtchn_poll_cancel(v);
	}
}

/* Events the guest would take now; with upcalls masked it wants to sleep. */
static bool evtchn_events_need_delivery(struct vcpu *v)
{
	const struct vcpu_info *vi = evtchn_vcpu_info(v);

	return (read_atomic(&vi->evtchn_upcall_pending) != 0U) &&
	       (read_atomic(&vi->evtchn_upcall_mask) == 0U);
}

long sched_poll(struct vcpu *v, xen_guest_handle_t arg)
{
	struct domain *d = v->domain;
	struct sched_poll sp;
	uint32_t port = 0U;
	uint32_t i;
	long rc;

	if (copy_from_guest(&sp, arg, sizeof(sp)) != 0) {
		return -XEN_EFAULT;
	}
	if (sp.nr_ports > CONFIG_EVTCHN_POLL_MAX_PORTS) {
		return -XEN_EINVAL;
	}
	write_atomic(&v->blocked, true);
	write_atomic(&v->evtchn.poll_port, -1);
	(void)atomic_fetch_or(&d->ev.poll_mask, UL(1) << v->vcpu_id);
	/* Announce first, then look: pairs with set_pending's check. */
	evtchn_mb();
	rc = 0;
	if (evtchn_events_need_delivery(v)) {
		goto out;
	}
	for (i = 0U; i < sp.nr_ports; i++) {
		if (copy_from_guest(&port, sp.ports + ((xen_guest_handle_t)i * sizeof(port)),
				    sizeof(port)) != 0) {
			rc = -XEN_EFAULT;
			goto out;
		}
		if (!evtchn_port_valid(d, port) || !evtchn_usable(evtchn_from_port(d, port))) {
			rc = -XEN_EINVAL;
			goto out;
		}
		if (evtchn_port_is_pending(d, port)) {
			goto out;
		}
	}
	/*
	 * Xen's timeout: absolute system time in ns (here arch_now_ns(), the
	 * physical counter in ns). One already past returns at once, as Xen's
	 * timer firing on arming would; a later one bounds the idle wait.
	 */
	if ((sp.timeout != 0U) && (sp.timeout <= arch_now_ns())) {
		goto out;
	}
	write_atomic(&v->evtchn.poll_deadline, sp.timeout);
	if (sp.nr_ports == 1U) {
		write_atomic(&v->evtchn.poll_port, (int32_t)port);
	}
	/* Woken by a matching event or any interrupt (the guest's timer). */
	/* GCOVR_EXCL_START COV-009 */
	if (read_atomic(&v->evtchn.poll_port) == 0) {
		/* A sender already woke us between the checks. */
		evtchn_poll_cancel(v);
	}
	/* GCOVR_EXCL_STOP */
	return 0;
out:
	evtchn_poll_cancel(v);
	return rc;
}
