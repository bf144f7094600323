/* SPDX-License-Identifier: MIT */
/*
 * Event channels, internal: the ABI ops table, the lock helpers that
 * implement the Kconfig locking choice, and the calls between the files of
 * common/evtchn/.
 *
 * Lock rules (docs/locking.md, "Event channels"):
 *  - d->ev.lock (evtchn_domain) serialises allocation, bind, close, reset,
 *    init_control and expand_array; two are taken in address order.
 *  - chn->lock (evtchn) guards one channel's state; bind and close take both
 *    ends in address order; send takes only the sender's channel.
 *  - FIFO queue locks (evtchn_queue) are innermost.
 * With CONFIG_EVTCHN_LOCK_DOMAIN every operation takes d->ev.lock instead
 * and the channel-lock helpers do nothing.
 */
#ifndef COMMON_EVTCHN_PRIVATE_H
#define COMMON_EVTCHN_PRIVATE_H

#include <bulkhead/evtchn.h>
#include <bulkhead/domain.h>
#include <bulkhead/atomic.h>
#include <public/errno.h>

/*
 * Full barrier for the two store-then-load handshakes (poll announce vs
 * set_pending, unmask flag vs reset teardown). ThreadSanitizer refuses
 * fences; it checks races, not ordering, and both sides are atomics.
 */
#if defined(__SANITIZE_THREAD__)
#define evtchn_mb() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#else
#define evtchn_mb() smp_mb()
#endif

/* The guest ABI a partition uses (2-level or FIFO), as in Xen. */
struct evtchn_port_ops {
	void (*init)(struct domain *d, struct evtchn *chn);
	void (*set_pending)(struct vcpu *v, struct evtchn *chn);
	void (*clear_pending)(struct domain *d, struct evtchn *chn);
	void (*unmask)(struct domain *d, struct evtchn *chn);
	bool (*is_pending)(const struct domain *d, const struct evtchn *chn);
	/* Still linked in a FIFO queue after close: not reusable yet. */
	bool (*is_busy)(const struct domain *d, const struct evtchn *chn);
	int (*set_priority)(struct domain *d, struct evtchn *chn, unsigned int prio);
};

extern const struct evtchn_port_ops evtchn_ops_2l;
extern const struct evtchn_port_ops evtchn_ops_fifo;

#define EVTCHN_2L_MAX_PORTS (EVTCHN_2L_NR_WORDS * 64U)
BUILD_ASSERT(CONFIG_EVTCHN_MAX_PORTS <= EVTCHN_2L_MAX_PORTS);

static inline const struct evtchn_port_ops *evtchn_ops(const struct domain *d)
{
	return load_acquire(&d->ev.ops);
}

/* Lock-free: the table is static and valid only grows. */
static inline bool evtchn_port_valid(const struct domain *d, uint32_t port)
{
	return port < load_acquire(&d->ev.valid);
}

static inline struct evtchn *evtchn_from_port(struct domain *d, uint32_t port)
{
	return &d->ev.chn[port];
}

static inline enum evtchn_state evtchn_state(const struct evtchn *chn)
{
	return (enum evtchn_state)read_atomic(&chn->state);
}

static inline bool evtchn_usable(const struct evtchn *chn)
{
	return evtchn_state(chn) > ECS_RESERVED;
}

/* Per-channel lock of the locking choice. */
static inline void evtchn_chn_lock(struct evtchn *chn)
{
#ifndef CONFIG_EVTCHN_LOCK_DOMAIN
	spin_lock(&chn->lock);
#else
	(void)chn;
#endif
}

static inline void evtchn_chn_unlock(struct evtchn *chn)
{
#ifndef CONFIG_EVTCHN_LOCK_DOMAIN
	spin_unlock(&chn->lock);
#else
	(void)chn;
#endif
}

/* The lock a single-channel operation (send, unmask...) runs under. */
static inline void evtchn_op_lock(struct domain *d, struct evtchn *chn)
{
#ifdef CONFIG_EVTCHN_LOCK_DOMAIN
	(void)chn;
	spin_lock(&d->ev.lock);
#else
	(void)d;
	spin_lock(&chn->lock);
#endif
}

static inline void evtchn_op_unlock(struct domain *d, struct evtchn *chn)
{
#ifdef CONFIG_EVTCHN_LOCK_DOMAIN
	(void)chn;
	spin_unlock(&d->ev.lock);
#else
	(void)d;
	spin_unlock(&chn->lock);
#endif
}

void evtchn_double_domain_lock(struct domain *a, struct domain *b);
void evtchn_double_domain_unlock(struct domain *a, struct domain *b);
void evtchn_double_chn_lock(struct evtchn *a, struct evtchn *b);
void evtchn_double_chn_unlock(struct evtchn *a, struct evtchn *b);

/* Port table (port.c); callers hold d->ev.lock. */
int evtchn_allocate_port(struct domain *d, uint32_t port);
int evtchn_get_free_port(struct domain *d);
/* Request port (0: the lowest free one); returns it or a negative errno. */
int evtchn_get_port(struct domain *d, uint32_t port);
/* Undo a reservation the caller did not go on to bind. */
void evtchn_unreserve_port(struct domain *d, uint32_t port);
/* Return chn to FREE (caller holds its lock and d->ev.lock). */
void evtchn_free(struct domain *d, struct evtchn *chn);

/* Ops-table wrappers (port_ops.c). */
void evtchn_port_init(struct domain *d, struct evtchn *chn);
void evtchn_port_clear_pending(struct domain *d, struct evtchn *chn);
void evtchn_port_unmask(struct domain *d, struct evtchn *chn);

/*
 * The three below are inline: every send runs them once, and each was a call
 * of a few instructions.
 */
static inline void evtchn_port_set_pending(struct domain *d, uint32_t vcpu_id,
					   struct evtchn *chn)
{
	if (evtchn_usable(chn) && (vcpu_id < d->nr_vcpus)) {
		evtchn_ops(d)->set_pending(&d->vcpu[vcpu_id], chn);
	}
}

/* The vcpu_info events are delivered through (registered, slot or dummy). */
static inline struct vcpu_info *evtchn_vcpu_info(struct vcpu *v)
{
	struct vcpu_info *vi = load_acquire(&v->vcpu_info);

	return (vi != NULL) ? vi : &v->evtchn.dummy_info;
}

/* evtchn_upcall_pending 0 -> 1 raises the event PPI. */
static inline void evtchn_vcpu_mark_pending(struct vcpu *v)
{
	struct vcpu_info *vi = evtchn_vcpu_info(v);

	/* Only the 0 -> 1 edge injects: the guest clears it before scanning. */
	if (atomic_xchg(&vi->evtchn_upcall_pending, (uint8_t)1U) == 0U) {
		arch_vcpu_raise_irq(v, GUEST_EVTCHN_PPI);
	}
}
/* Wake vCPUs of d polling for port (poll.c); mask: d's poll mask, read non-empty. */
void evtchn_wake_pollers(struct domain *d, uint32_t port, uint64_t mask);

/* Inline: nobody polls, the mask is empty, on almost every send. */
static inline void evtchn_check_pollers(struct domain *d, uint32_t port)
{
	uint64_t mask = read_atomic(&d->ev.poll_mask);

	if (mask != 0U) {
		evtchn_wake_pollers(d, port, mask);
	}
}

/* Operations on explicit partitions (ops.c), shared with static.c. */
int evtchn_alloc_unbound_in(struct domain *d, uint32_t port, domid_t remote, uint32_t *out);
int evtchn_bind_interdomain_in(struct domain *ld, uint32_t lport, struct domain *rd,
			       uint32_t rport, uint32_t *out);
int evtchn_close_port(struct domain *d, uint32_t port);

/*
 * One EVTCHNOP on its argument, already copied in; copy_back: write it out.
 * EVTCHNOP_send and EVTCHNOP_unmask do not come here (do_event_channel_op
 * runs them directly).
 */
long evtchn_do_op(struct domain *d, unsigned int cmd, void *arg, bool *copy_back);

/* Internal only, never returned to a guest: continue the hypercall. */
#define EVTCHN_RESTART (-1000L)

/* Guest ABI switching (fifo.c, reset.c). */
long evtchn_fifo_init_control(struct domain *d, struct evtchn_init_control *ic);
long evtchn_fifo_expand_array(struct domain *d, const struct evtchn_expand_array *ea);
/* Drop FIFO state and pages, back to 2-level; caller holds d->ev.lock. */
void evtchn_fifo_destroy(struct domain *d);
/* Close every port of d from `from`; returns the next port or 0 when done. */
uint32_t evtchn_close_all(struct domain *d, uint32_t from, bool preemptible);
long evtchn_reset_op(struct domain *d, bool resuming);

/* VIRQ binding (virq.c). */
long evtchn_bind_virq(struct domain *d, struct evtchn_bind_virq *bind);
bool evtchn_virq_is_global(uint32_t virq);

#endif
