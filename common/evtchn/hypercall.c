/* SPDX-License-Identifier: MIT */
/*
 * event_channel_op (32): copy the argument in, run the op, copy results
 * back only on success (as Xen does), and continue a long reset.
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
	case EVTCHNOP_unmask:
		return sizeof(struct evtchn_unmask);
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

/*
 * The hot op: four bytes in, nothing back, so no union and no op table; a
 * function of its own so that do_event_channel_op builds no frame for it.
 */
static __attribute__((noinline)) long evtchn_hc_send(xen_guest_handle_t arg)
{
	struct evtchn_send s;
	struct vcpu *v = current;
	long rc;

	if (copy_from_guest(&s, arg, sizeof(s)) != 0) {
		return -XEN_EFAULT;
	}
	rc = evtchn_send_port(v->domain, s.port);
	if (rc == 0) {
		stat_inc(&v->stats.evtchn_sends);
	}
	return rc;
}

long do_event_channel_op(unsigned int cmd, xen_guest_handle_t arg)
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

	if (cmd == EVTCHNOP_send) {
		return evtchn_hc_send(arg);
	}
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
