/* SPDX-License-Identifier: MIT */
/*
 * event_channel_op hypercall (32): the Xen event-channel ABI, arm64 layout.
 * Written from the documented interface; every layout is checked at build
 * time so an ABI break cannot compile.
 */
#ifndef PUBLIC_EVENT_CHANNEL_H
#define PUBLIC_EVENT_CHANNEL_H

#include "xen.h"

#define EVTCHNOP_bind_interdomain 0U
#define EVTCHNOP_bind_virq        1U
#define EVTCHNOP_bind_pirq        2U
#define EVTCHNOP_close            3U
#define EVTCHNOP_send             4U
#define EVTCHNOP_status           5U
#define EVTCHNOP_alloc_unbound    6U
#define EVTCHNOP_bind_ipi         7U
#define EVTCHNOP_bind_vcpu        8U
#define EVTCHNOP_unmask           9U
#define EVTCHNOP_reset            10U
#define EVTCHNOP_init_control     11U
#define EVTCHNOP_expand_array     12U
#define EVTCHNOP_set_priority     13U
/* Hypervisor-internal: a preempted reset re-issues itself with this. */
#define EVTCHNOP_reset_cont       14U

typedef uint32_t evtchn_port_t;

struct evtchn_alloc_unbound {
	domid_t dom;
	domid_t remote_dom;
	evtchn_port_t port;           /* out */
};
XEN_ABI_ASSERT(sizeof(struct evtchn_alloc_unbound) == 8U);
XEN_ABI_ASSERT(offsetof(struct evtchn_alloc_unbound, port) == 4U);

struct evtchn_bind_interdomain {
	domid_t remote_dom;
	evtchn_port_t remote_port;
	evtchn_port_t local_port;     /* out */
};
XEN_ABI_ASSERT(sizeof(struct evtchn_bind_interdomain) == 12U);
XEN_ABI_ASSERT(offsetof(struct evtchn_bind_interdomain, remote_port) == 4U);
XEN_ABI_ASSERT(offsetof(struct evtchn_bind_interdomain, local_port) == 8U);

struct evtchn_bind_virq {
	uint32_t virq;
	uint32_t vcpu;
	evtchn_port_t port;           /* out */
};
XEN_ABI_ASSERT(sizeof(struct evtchn_bind_virq) == 12U);
XEN_ABI_ASSERT(offsetof(struct evtchn_bind_virq, port) == 8U);

#define BIND_PIRQ__WILL_SHARE 1U
struct evtchn_bind_pirq {
	uint32_t pirq;
	uint32_t flags;
	evtchn_port_t port;           /* out */
};
XEN_ABI_ASSERT(sizeof(struct evtchn_bind_pirq) == 12U);
XEN_ABI_ASSERT(offsetof(struct evtchn_bind_pirq, port) == 8U);

struct evtchn_bind_ipi {
	uint32_t vcpu;
	evtchn_port_t port;           /* out */
};
XEN_ABI_ASSERT(sizeof(struct evtchn_bind_ipi) == 8U);

struct evtchn_close {
	evtchn_port_t port;
};
XEN_ABI_ASSERT(sizeof(struct evtchn_close) == 4U);

struct evtchn_send {
	evtchn_port_t port;
};
XEN_ABI_ASSERT(sizeof(struct evtchn_send) == 4U);

#define EVTCHNSTAT_closed      0U
#define EVTCHNSTAT_unbound     1U
#define EVTCHNSTAT_interdomain 2U
#define EVTCHNSTAT_pirq        3U
#define EVTCHNSTAT_virq        4U
#define EVTCHNSTAT_ipi         5U

struct evtchn_status {
	domid_t dom;
	evtchn_port_t port;
	uint32_t status;              /* out */
	uint32_t vcpu;                /* out */
	union {
		struct {
			domid_t dom;
		} unbound;
		struct {
			domid_t dom;
			evtchn_port_t port;
		} interdomain;
		uint32_t pirq;
		uint32_t virq;
	} u;                          /* out */
};
XEN_ABI_ASSERT(sizeof(struct evtchn_status) == 24U);
XEN_ABI_ASSERT(offsetof(struct evtchn_status, port) == 4U);
XEN_ABI_ASSERT(offsetof(struct evtchn_status, status) == 8U);
XEN_ABI_ASSERT(offsetof(struct evtchn_status, vcpu) == 12U);
XEN_ABI_ASSERT(offsetof(struct evtchn_status, u) == 16U);
XEN_ABI_ASSERT(offsetof(struct evtchn_status, u.interdomain.port) == 20U);

struct evtchn_bind_vcpu {
	evtchn_port_t port;
	uint32_t vcpu;
};
XEN_ABI_ASSERT(sizeof(struct evtchn_bind_vcpu) == 8U);

struct evtchn_unmask {
	evtchn_port_t port;
};
XEN_ABI_ASSERT(sizeof(struct evtchn_unmask) == 4U);

struct evtchn_reset {
	domid_t dom;
};
XEN_ABI_ASSERT(sizeof(struct evtchn_reset) == 2U);

struct evtchn_init_control {
	uint64_t control_gfn;
	uint32_t offset;
	uint32_t vcpu;
	uint8_t link_bits;            /* out */
	uint8_t _pad[7];
};
XEN_ABI_ASSERT(sizeof(struct evtchn_init_control) == 24U);
XEN_ABI_ASSERT(offsetof(struct evtchn_init_control, offset) == 8U);
XEN_ABI_ASSERT(offsetof(struct evtchn_init_control, vcpu) == 12U);
XEN_ABI_ASSERT(offsetof(struct evtchn_init_control, link_bits) == 16U);

struct evtchn_expand_array {
	uint64_t array_gfn;
};
XEN_ABI_ASSERT(sizeof(struct evtchn_expand_array) == 8U);

struct evtchn_set_priority {
	evtchn_port_t port;
	uint32_t priority;
};
XEN_ABI_ASSERT(sizeof(struct evtchn_set_priority) == 8U);

/* FIFO ABI: one 32-bit event word per port in guest-supplied array pages. */
typedef uint32_t event_word_t;

#define EVTCHN_FIFO_PENDING 31U
#define EVTCHN_FIFO_MASKED  30U
#define EVTCHN_FIFO_LINKED  29U
#define EVTCHN_FIFO_BUSY    28U

#define EVTCHN_FIFO_LINK_BITS 17U
#define EVTCHN_FIFO_LINK_MASK (((uint32_t)1U << EVTCHN_FIFO_LINK_BITS) - 1U)
#define EVTCHN_FIFO_NR_CHANNELS ((uint32_t)1U << EVTCHN_FIFO_LINK_BITS)

#define EVTCHN_FIFO_PRIORITY_MAX     0U
#define EVTCHN_FIFO_PRIORITY_DEFAULT 7U
#define EVTCHN_FIFO_PRIORITY_MIN     15U
#define EVTCHN_FIFO_MAX_QUEUES       (EVTCHN_FIFO_PRIORITY_MIN + 1U)

struct evtchn_fifo_control_block {
	uint32_t ready;
	uint32_t _rsvd;
	uint32_t head[EVTCHN_FIFO_MAX_QUEUES];
};
XEN_ABI_ASSERT(sizeof(struct evtchn_fifo_control_block) == 72U);
XEN_ABI_ASSERT(offsetof(struct evtchn_fifo_control_block, head) == 8U);

#endif
