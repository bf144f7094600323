/* SPDX-License-Identifier: MIT */
/* Event-channel test helpers: issue EVTCHNOPs as a guest would. */
#ifndef TESTS_EVTCHN_TEST_H
#define TESTS_EVTCHN_TEST_H

#include "harness.h"
#include <string.h>
#include <public/event_channel.h>
#include <public/sched.h>
#include <public/vcpu.h>

/* Guest page used for hypercall arguments. */
#define EV_ARG_PAGE 10U

static inline long ev_op(struct vcpu *v, unsigned int cmd, void *arg, size_t size)
{
	paddr_t p = harness_ram(EV_ARG_PAGE, 0);
	long rc;

	memcpy(harness_gpa(v->domain, p), arg, size);
	rc = harness_call(v, __HYPERVISOR_event_channel_op, cmd, p, 0);
	memcpy(arg, harness_gpa(v->domain, p), size);
	return rc;
}

static inline long ev_alloc(struct vcpu *v, domid_t dom, domid_t remote)
{
	struct evtchn_alloc_unbound a = { .dom = dom, .remote_dom = remote, .port = 0 };
	long rc = ev_op(v, EVTCHNOP_alloc_unbound, &a, sizeof(a));

	return (rc == 0) ? (long)a.port : rc;
}

static inline long ev_bind(struct vcpu *v, domid_t rdom, uint32_t rport)
{
	struct evtchn_bind_interdomain b = { .remote_dom = rdom, .remote_port = rport };
	long rc = ev_op(v, EVTCHNOP_bind_interdomain, &b, sizeof(b));

	return (rc == 0) ? (long)b.local_port : rc;
}

static inline long ev_port_op(struct vcpu *v, unsigned int cmd, uint32_t port)
{
	uint32_t p = port;

	return ev_op(v, cmd, &p, sizeof(p));
}

#define ev_send(v, p)   ev_port_op((v), EVTCHNOP_send, (p))
#define ev_close(v, p)  ev_port_op((v), EVTCHNOP_close, (p))
#define ev_unmask(v, p) ev_port_op((v), EVTCHNOP_unmask, (p))

static inline long ev_virq(struct vcpu *v, uint32_t virq, uint32_t vcpu)
{
	struct evtchn_bind_virq b = { .virq = virq, .vcpu = vcpu };
	long rc = ev_op(v, EVTCHNOP_bind_virq, &b, sizeof(b));

	return (rc == 0) ? (long)b.port : rc;
}

static inline long ev_ipi(struct vcpu *v, uint32_t vcpu)
{
	struct evtchn_bind_ipi b = { .vcpu = vcpu };
	long rc = ev_op(v, EVTCHNOP_bind_ipi, &b, sizeof(b));

	return (rc == 0) ? (long)b.port : rc;
}

static inline long ev_status(struct vcpu *v, domid_t dom, uint32_t port, struct evtchn_status *st)
{
	memset(st, 0, sizeof(*st));
	st->dom = dom;
	st->port = port;
	return ev_op(v, EVTCHNOP_status, st, sizeof(*st));
}

static inline long ev_bind_vcpu(struct vcpu *v, uint32_t port, uint32_t vcpu)
{
	struct evtchn_bind_vcpu b = { .port = port, .vcpu = vcpu };

	return ev_op(v, EVTCHNOP_bind_vcpu, &b, sizeof(b));
}

static inline long ev_reset(struct vcpu *v, domid_t dom)
{
	struct evtchn_reset r = { .dom = dom };

	return ev_op(v, EVTCHNOP_reset, &r, sizeof(r));
}

static inline long ev_set_prio(struct vcpu *v, uint32_t port, uint32_t prio)
{
	struct evtchn_set_priority s = { .port = port, .priority = prio };

	return ev_op(v, EVTCHNOP_set_priority, &s, sizeof(s));
}

/* 2-level view of the partition's shared_info. */
static inline bool ev_2l_pending(struct domain *d, uint32_t port)
{
	return (d->shared_info->evtchn_pending[port / 64U] >> (port % 64U)) & 1U;
}

static inline void ev_2l_clear(struct domain *d, uint32_t port)
{
	d->shared_info->evtchn_pending[port / 64U] &= ~(UL(1) << (port % 64U));
}

static inline void ev_2l_set_mask(struct domain *d, uint32_t port, bool on)
{
	if (on) {
		d->shared_info->evtchn_mask[port / 64U] |= UL(1) << (port % 64U);
	} else {
		d->shared_info->evtchn_mask[port / 64U] &= ~(UL(1) << (port % 64U));
	}
}

/* FIFO: register vCPU v's control block at page cb_page and one array page. */
static inline long ev_fifo_init(struct vcpu *v, unsigned int cb_page, uint32_t offset)
{
	struct evtchn_init_control ic = {
		.control_gfn = gaddr_to_gfn(harness_ram(cb_page, 0)),
		.offset = offset,
		.vcpu = v->vcpu_id,
	};

	return ev_op(v, EVTCHNOP_init_control, &ic, sizeof(ic));
}

static inline long ev_fifo_expand(struct vcpu *v, unsigned int page)
{
	struct evtchn_expand_array ea = { .array_gfn = gaddr_to_gfn(harness_ram(page, 0)) };

	return ev_op(v, EVTCHNOP_expand_array, &ea, sizeof(ea));
}

#endif
