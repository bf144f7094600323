/* SPDX-License-Identifier: MIT */
/*
 * Event channels: per-partition state embedded in struct domain, and the
 * entry points the rest of the hypervisor calls. The channel table is a
 * fixed array sized by CONFIG_EVTCHN_MAX_PORTS: nothing is allocated after
 * boot and a channel's address never changes, which is what lets send,
 * unmask and port validation run without the per-partition lock.
 */
#ifndef BULKHEAD_EVTCHN_H
#define BULKHEAD_EVTCHN_H

#include <bulkhead/config.h>
#include <bulkhead/spinlock.h>
#include <public/xen.h>
#include <public/event_channel.h>

struct domain;
struct vcpu;
struct static_evtchn;
struct evtchn_port_ops;

/* Channel states (Xen's ECS_*): FREE and RESERVED are not usable. */
enum evtchn_state {
	ECS_FREE = 0,
	ECS_RESERVED,      /* port 0 */
	ECS_UNBOUND,       /* waiting for u.unbound_remote to bind */
	ECS_INTERDOMAIN,
	ECS_PIRQ,          /* never on Arm (bind_pirq is refused); keeps Xen's numbering */
	ECS_VIRQ,
	ECS_IPI,
};

#define EVTCHN_FIFO_WORDS_PER_PAGE (PAGE_SIZE / sizeof(event_word_t))
#define EVTCHN_FIFO_MAX_PAGES \
	((CONFIG_EVTCHN_MAX_PORTS + EVTCHN_FIFO_WORDS_PER_PAGE - 1U) / EVTCHN_FIFO_WORDS_PER_PAGE)

/*
 * One channel, one cache line: senders on different channels of the same
 * partition never write a shared line. Fields read without the channel
 * lock (state, notify_vcpu, priority, fifo_lastq, pending) are accessed
 * with read_atomic/write_atomic.
 */
struct evtchn {
	spinlock_t lock;            /* LOCK_CLASS_EVTCHN */
	uint8_t state;              /* enum evtchn_state */
	uint8_t priority;           /* FIFO queue of future events */
	uint8_t pending;            /* FIFO: raised while its array page was missing */
	uint8_t virq;               /* ECS_VIRQ */
	uint32_t port;
	uint32_t notify_vcpu;
	uint32_t fifo_lastq;        /* (vcpu << 8) | priority of the last queue used */
	domid_t unbound_remote;     /* ECS_UNBOUND: who may bind */
	uint32_t remote_port;       /* ECS_INTERDOMAIN */
	struct domain *remote_dom;  /* ECS_INTERDOMAIN */
} __cacheline_aligned;
BUILD_ASSERT(sizeof(struct evtchn) == CACHE_LINE_SIZE);

struct evtchn_fifo_queue {
	uint32_t *head;             /* in the guest's control block */
	uint32_t tail;
	uint8_t priority;
	spinlock_t lock;            /* LOCK_CLASS_EVTCHN_QUEUE */
};

struct evtchn_vcpu {
	/* Ports bound to each VIRQ on this vCPU (global VIRQs: vCPU 0's). */
	uint32_t virq_to_port[NR_VIRQS];
	/* SCHEDOP_poll: -1 any port, >0 that port, 0 not polling. */
	int32_t poll_port;
	/* SCHEDOP_poll's timeout (arch_now_ns() time), 0 for none. */
	uint64_t poll_deadline;
	/* While no vcpu_info is registered and none is in shared_info. */
	struct vcpu_info dummy_info;
	/* Page holding the registered vcpu_info (global mapping), or NULL. */
	void *vcpu_info_page;
	vaddr_t runstate_gva;
	bool runstate_registered;
	/* Lock-free unmask in progress on this vCPU (reset waits for it). */
	uint32_t unmask_active;
	struct evtchn_fifo_control_block *fifo_cb;
	struct evtchn_fifo_queue fifo_q[EVTCHN_FIFO_MAX_QUEUES];
} __cacheline_aligned;

struct evtchn_domain {
	/* Read-mostly, shared by all senders: never written on the send path. */
	const struct evtchn_port_ops *ops;
	uint32_t valid;             /* ports below are valid; only grows */
	uint32_t teardown;          /* ABI pages being released (reset) */
	uint64_t poll_mask;         /* vCPUs in SCHEDOP_poll */
	/* Serialises allocation, bind, close, reset, init_control, expand. */
	spinlock_t lock __cacheline_aligned;
	uint32_t active;            /* ports in use besides port 0 */
	uint32_t reset_next;        /* EVTCHNOP_reset continuation point; 0 idle */
	uint32_t fifo_nr_words;     /* ports covered by event array pages */
	event_word_t *fifo_array[EVTCHN_FIFO_MAX_PAGES];
	struct evtchn chn[CONFIG_EVTCHN_MAX_PORTS];
};

int evtchn_domain_init(struct domain *d);
/*
 * Restart of d: close all its channels (interdomain peers go back to
 * unbound, waiting for d), return to the 2-level ABI and release every
 * guest page registered for events (FIFO pages, vcpu_info).
 */
void evtchn_domain_reset(struct domain *d);
long do_event_channel_op(unsigned int cmd, xen_guest_handle_t arg);
/* Deliver a virtual IRQ (VIRQ_*) to vCPU v if the partition bound it. */
void evtchn_send_virq(struct vcpu *v, unsigned int virq);
/* SCHEDOP_poll: wait until one of the listed local ports is pending. */
long sched_poll(struct vcpu *v, xen_guest_handle_t arg);
/* When a blocked v must wake: bound, or its poll's timeout if that is sooner. */
uint64_t evtchn_poll_wake_by(const struct vcpu *v, uint64_t bound);
/* v is resumed: its poll, if any, has returned (no more kicks, no timeout). */
void evtchn_poll_end(struct vcpu *v);
/*
 * Static event channel of d from the device tree (xen,evtchn): both ends
 * are bound at boot, d's port unbound first and the peer's bound to it,
 * so the peer's port starts pending as in Xen. Called once every
 * partition exists; a pair already made from the other side is accepted.
 */
int evtchn_bind_static(struct domain *d, const struct static_evtchn *sc);
/* A port of d unbound for remote, made by the hypervisor (xenstore set-up). */
int evtchn_alloc_unbound_port(struct domain *d, uint32_t port, domid_t remote);
/* After a restart of d: bind again its static channels whose peer waits. */
void evtchn_restore_static(struct domain *d);

/*
 * Guest pages the ABI shares with the hypervisor (vcpu_info, FIFO control
 * block and event array): the partition's own writable RAM only, mapped
 * with map_domain_page_global() while registered (XPFO: no direct map).
 * Returns the page's mapping or NULL (Xen answers -EINVAL then).
 */
void *evtchn_map_guest_page(struct domain *d, gfn_t gfn);
void evtchn_unmap_guest_page(void *va);
/*
 * The mappings (page-aligned) of every page d has registered: each vCPU's
 * vcpu_info page and FIFO control block, the event array pages. At most
 * EVTCHN_SHARED_PAGES_MAX; d->ev.lock held (the XPFO check, common/xpfo_check.c).
 */
#define EVTCHN_SHARED_PAGES_MAX ((U(2) * (unsigned int)CONFIG_MAX_VCPUS) + EVTCHN_FIFO_MAX_PAGES)
unsigned int evtchn_shared_pages(const struct domain *d, const void **pages, unsigned int max);

/* Is port of d pending? The caller (poll) has checked it is valid and usable. */
bool evtchn_port_is_pending(struct domain *d, uint32_t port);

#endif
