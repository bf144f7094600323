/* SPDX-License-Identifier: MIT */
/*
 * event_channel_op (32): copy the argument in, run the op, copy results
 * back only on success (as Xen does), and continue a long reset. The event
 * path is here too (send and unmask); the set-up operations are in ops.c.
 */
#include "private.h"
#include <bulkhead/xpfo.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>

static size_t evtchn_arg_size(unsigned int cmd)
{
	switch (cmd) {
	case EVTCHNOP_bind_interdomain:
		return sizeof(struct evtchn_bind_interdomain);
	case EVTCHNOP_bind_virq:
		return sizeof(struct evtchn_bind_virq);
	case EVTCHNOP_bind_pirq:
		return sizeof(struct evtchn_bind_pirq);
	case EVTCHNOP_close:
		return sizeof(struct evtchn_close);
	case EVTCHNOP_status:
		return sizeof(struct evtchn_status);
	case EVTCHNOP_alloc_unbound:
		return sizeof(struct evtchn_alloc_unbound);
	case EVTCHNOP_bind_ipi:
		return sizeof(struct evtchn_bind_ipi);
	case EVTCHNOP_bind_vcpu:
		return sizeof(struct evtchn_bind_vcpu);
	case EVTCHNOP_init_control:
		return sizeof(struct evtchn_init_control);
	case EVTCHNOP_expand_array:
		return sizeof(struct evtchn_expand_array);
	case EVTCHNOP_set_priority:
		return sizeof(struct evtchn_set_priority);
	default:
		return 0U;
	}
}

static long evtchn_hc_reset(unsigned int cmd, xen_guest_handle_t arg)
{
	struct evtchn_reset r;
	struct domain *d;
	long rc;

	if (copy_from_guest(&r, arg, sizeof(r)) != 0) {
		return -XEN_EFAULT;
	}
	d = domain_resolve(r.dom);
	if (d == NULL) {
		return -XEN_ESRCH;
	}
	if (d != current->domain) {
		return -XEN_EPERM;
	}
	rc = evtchn_reset_op(d, cmd == EVTCHNOP_reset_cont);
	if (rc == EVTCHN_RESTART) {
		/* Preempted: re-issue as reset_cont with the same argument. */
		regval_t a[HYPERCALL_NR_ARGS] = { EVTCHNOP_reset_cont, arg, 0U, 0U, 0U };
		return hypercall_continue(2U, a);
	}
	if (rc == 0) {
		/* The FIFO pages were just released: none may stay mapped. */
		xpfo_check("evtchn reset", d->domain_id);
	}
	return rc;
}

/* Inline into the hypercall's own function (evtchn_hc_send): no call between. */
static inline __attribute__((always_inline)) int evtchn_send_port(struct domain *ld,
								 uint32_t lport)
{
	struct evtchn *lchn;
	struct evtchn *rchn;
	int rc = 0;

	if (!evtchn_port_valid(ld, lport)) {
		return -XEN_EINVAL;
	}
	lchn = evtchn_from_port(ld, lport);
	evtchn_op_lock(ld, lchn);
	switch (evtchn_state(lchn)) {
	case ECS_INTERDOMAIN:
		/* The peer cannot close without our lock: its channel is stable. */
		rchn = evtchn_from_port(lchn->remote_dom, lchn->remote_port);
		evtchn_port_set_pending(lchn->remote_dom, read_atomic(&rchn->notify_vcpu), rchn);
		break;
	case ECS_IPI:
		evtchn_port_set_pending(ld, read_atomic(&lchn->notify_vcpu), lchn);
		break;
	case ECS_UNBOUND:
		/* Dropped; bind_interdomain raises one event for it. */
		break;
	default:
		rc = -XEN_EINVAL;
		break;
	}
	evtchn_op_unlock(ld, lchn);
	return rc;
}

/* Inline into the hypercall's own function (evtchn_hc_unmask). */
static inline __attribute__((always_inline)) int evtchn_unmask_port(struct domain *d,
								   uint32_t port)
{
	struct evtchn *chn;

	if (!evtchn_port_valid(d, port)) {
		return -XEN_EINVAL;
	}
	chn = evtchn_from_port(d, port);
#ifdef CONFIG_EVTCHN_LOCK_CHANNEL_LOCKLESS_UNMASK
	{
		/*
		 * Only a reset can take the ABI pages away: it raises teardown and
		 * waits for each vCPU's flag to drop (both flags are private to d).
		 */
		struct vcpu *v = current;
		uint32_t *active = (v != NULL) ? &v->evtchn.unmask_active : NULL;

		if (active != NULL) {
			atomic_xchg(active, 1U);
		}
		evtchn_mb();
		if (read_atomic(&d->ev.teardown) == 0U) {
			evtchn_port_unmask(d, chn);
		}
		if (active != NULL) {
			store_release(active, 0U);
		}
	}
#else
	evtchn_op_lock(d, chn);
	evtchn_port_unmask(d, chn);
	evtchn_op_unlock(d, chn);
#endif
	return 0;
}

/*
 * copy_from_guest_vcpu of the 4-byte port argument of send and unmask for
 * v, the vCPU whose trap this CPU handles. The usual case inline, so the
 * event hypercalls make no call for it: an aligned word (so within one page)
 * of the partition's own RAM, translated with the read permission as any
 * copy is, read once through the argument slot. Anything else, every error
 * included, goes through copy_from_guest_vcpu, which answers as for any copy.
 */
static inline __attribute__((always_inline)) int evtchn_read_port(const struct vcpu *v,
								 uint32_t *port, vaddr_t gva)
{
	paddr_t ma;
	uint32_t *p;
	int rc;

	if (((gva & 3U) == 0U) && (arch_gva_to_maddr(v, gva, false, &ma) == 0) &&
	    domain_ram_owns(v->domain, ma)) {
		p = arch_map_scratch(ARCH_SCRATCH_ARG, ma);
		*port = read_atomic(p);
		arch_unmap_scratch(ARCH_SCRATCH_ARG, p);
		rc = 0;
	} else {
		rc = copy_from_guest_vcpu(v, port, gva, sizeof(*port));
	}
	return rc;
}

/*
 * The hot ops: four bytes in (evtchn_read_port, inline), nothing back, so
 * no union and no op table; functions of their own so that
 * do_event_channel_op builds no frame for them.
 */
static __attribute__((noinline)) long evtchn_hc_unmask(xen_guest_handle_t arg)
{
	struct vcpu *v = current;
	uint32_t port;

	BUILD_ASSERT(sizeof(struct evtchn_unmask) == sizeof(port));
	if (evtchn_read_port(v, &port, arg) != 0) {
		return -XEN_EFAULT;
	}
	return evtchn_unmask_port(v->domain, port);
}

static __attribute__((noinline)) long evtchn_hc_send(xen_guest_handle_t arg)
{
	struct vcpu *v = current;
	uint32_t port;
	long rc;

	BUILD_ASSERT(sizeof(struct evtchn_send) == sizeof(port));
	if (evtchn_read_port(v, &port, arg) != 0) {
		return -XEN_EFAULT;
	}
	rc = evtchn_send_port(v->domain, port);
	if (rc == 0) {
		stat_inc(&v->stats.evtchn_sends);
	}
	return rc;
}

/* Every EVTCHNOP but send and unmask: the argument through a union, the op table. */
static __attribute__((noinline)) long evtchn_hc_other(unsigned int cmd, xen_guest_handle_t arg)
{
	/* Large enough for every EVTCHNOP argument (status: 24 bytes). */
	union {
		struct evtchn_status status;
		struct evtchn_init_control init_control;
		uint64_t align;
	} buf;
	size_t size;
	bool copy_back;
	long rc;

	if ((cmd == EVTCHNOP_reset) || (cmd == EVTCHNOP_reset_cont)) {
		return evtchn_hc_reset(cmd, arg);
	}
	size = evtchn_arg_size(cmd);
	if (size == 0U) {
		return -XEN_ENOSYS;
	}
	if (copy_from_guest(&buf, arg, size) != 0) {
		return -XEN_EFAULT;
	}
	rc = evtchn_do_op(current->domain, cmd, &buf, &copy_back);
	if ((rc == 0) && copy_back && (copy_to_guest(arg, &buf, size) != 0)) {
		rc = -XEN_EFAULT;
	}
	return rc;
}

long do_event_channel_op(unsigned int cmd, xen_guest_handle_t arg)
{
	if (cmd == EVTCHNOP_send) {
		return evtchn_hc_send(arg);
	}
	if (cmd == EVTCHNOP_unmask) {
		return evtchn_hc_unmask(arg);
	}
	return evtchn_hc_other(cmd, arg);
}
