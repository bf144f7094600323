/* SPDX-License-Identifier: MIT */
/* Event channels: per-partition state embedded in struct domain. */
#ifndef BULKHEAD_EVTCHN_H
#define BULKHEAD_EVTCHN_H

#include <bulkhead/config.h>
#include <bulkhead/spinlock.h>
#include <public/xen.h>

struct domain;
struct vcpu;

struct evtchn_domain {
	spinlock_t lock;
};

struct evtchn_vcpu {
	uint32_t unused;
};

int evtchn_domain_init(struct domain *d);
void evtchn_domain_reset(struct domain *d);
long do_event_channel_op(unsigned int cmd, xen_guest_handle_t arg);
/* Deliver a virtual IRQ (VIRQ_*) to vCPU v if the partition bound it. */
void evtchn_send_virq(struct vcpu *v, unsigned int virq);
/* SCHEDOP_poll: wait until one of the listed local ports is pending. */
long sched_poll(struct vcpu *v, xen_guest_handle_t arg);

#endif
