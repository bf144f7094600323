/* SPDX-License-Identifier: MIT */
/* Event channels: placeholder until the event-channel issue lands. */
#include <bulkhead/evtchn.h>
#include <bulkhead/domain.h>
#include <public/errno.h>

int evtchn_domain_init(struct domain *d)
{
	spin_lock_init(&d->ev.lock, LOCK_CLASS_EVTCHN_DOMAIN);
	return 0;
}

void evtchn_domain_reset(struct domain *d)
{
	(void)d;
}

long do_event_channel_op(unsigned int cmd, xen_guest_handle_t arg)
{
	(void)cmd;
	(void)arg;
	return -XEN_ENOSYS;
}

void evtchn_send_virq(struct vcpu *v, unsigned int virq)
{
	(void)v;
	(void)virq;
}

long sched_poll(struct vcpu *v, xen_guest_handle_t arg)
{
	(void)v;
	(void)arg;
	return -XEN_ENOSYS;
}

long do_vcpu_op(unsigned int cmd, unsigned int vcpuid, xen_guest_handle_t arg)
{
	(void)cmd;
	(void)vcpuid;
	(void)arg;
	return -XEN_EINVAL;
}
