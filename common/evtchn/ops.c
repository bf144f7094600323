/* SPDX-License-Identifier: MIT */
/*
 * Event-channel operations. Allocation, bind and close change state under
 * the partition lock(s) and both channels' locks; set_priority touches one
 * channel only, as send and unmask do (hypercall.c, the event path;
 * docs/locking.md). State is stored
 * last (release) so a lock-free reader that sees a usable state sees the
 * fields that go with it.
 */
#include "private.h"

/* A domU may only act on its own table (Xen's XSM_TARGET with xsm=dummy). */
static bool evtchn_may_target(const struct domain *d)
{
	struct vcpu *v = current;

	return (v == NULL) || (v->domain == d);
}

int evtchn_alloc_unbound_in(struct domain *d, uint32_t port, domid_t remote, uint32_t *out)
{
	struct evtchn *chn;
	int rc;

	spin_lock(&d->ev.lock);
	rc = evtchn_get_port(d, port);
	if (rc < 0) {
		spin_unlock(&d->ev.lock);
		return rc;
	}
	port = (uint32_t)rc;
	if (!evtchn_may_target(d)) {
		evtchn_unreserve_port(d, port);
		spin_unlock(&d->ev.lock);
		return -XEN_EPERM;
	}
	chn = evtchn_from_port(d, port);
	evtchn_chn_lock(chn);
	/* The remote need not exist yet (observed on Xen 4.17). */
	chn->unbound_remote = ((remote == DOMID_SELF) && (current != NULL)) ?
				      current->domain->domain_id : remote;
	store_release(&chn->state, (uint8_t)ECS_UNBOUND);
	evtchn_port_init(d, chn);
	evtchn_chn_unlock(chn);
	spin_unlock(&d->ev.lock);
	*out = port;
	return 0;
}

int evtchn_bind_interdomain_in(struct domain *ld, uint32_t lport, struct domain *rd,
			       uint32_t rport, uint32_t *out)
{
	struct evtchn *lchn;
	struct evtchn *rchn;
	int rc;

	evtchn_double_domain_lock(ld, rd);
	rc = evtchn_get_port(ld, lport);
	if (rc < 0) {
		goto out;
	}
	lport = (uint32_t)rc;
	rc = -XEN_EINVAL;
	if (!evtchn_port_valid(rd, rport)) {
		goto out_unreserve;
	}
	rchn = evtchn_from_port(rd, rport);
	/* Only the partition the port was offered to may bind it. */
	if ((evtchn_state(rchn) != ECS_UNBOUND) || (rchn->unbound_remote != ld->domain_id)) {
		goto out_unreserve;
	}
	lchn = evtchn_from_port(ld, lport);
	evtchn_double_chn_lock(lchn, rchn);
	lchn->remote_dom = rd;
	lchn->remote_port = rport;
	store_release(&lchn->state, (uint8_t)ECS_INTERDOMAIN);
	evtchn_port_init(ld, lchn);
	rchn->remote_dom = ld;
	rchn->remote_port = lport;
	store_release(&rchn->state, (uint8_t)ECS_INTERDOMAIN);
	/* Sends to the unbound remote were dropped: raise one conservatively. */
	evtchn_port_set_pending(ld, read_atomic(&lchn->notify_vcpu), lchn);
	evtchn_double_chn_unlock(lchn, rchn);
	*out = lport;
	rc = 0;
	goto out;
out_unreserve:
	evtchn_unreserve_port(ld, lport);
out:
	evtchn_double_domain_unlock(ld, rd);
	return rc;
}

static long evtchn_bind_ipi(struct domain *d, struct evtchn_bind_ipi *bind)
{
	struct evtchn *chn;
	int port;

	if (bind->vcpu >= d->nr_vcpus) {
		return -XEN_ENOENT;
	}
	spin_lock(&d->ev.lock);
	port = evtchn_get_free_port(d);
	if (port < 0) {
		spin_unlock(&d->ev.lock);
		return port;
	}
	chn = evtchn_from_port(d, (uint32_t)port);
	evtchn_chn_lock(chn);
	write_atomic(&chn->notify_vcpu, bind->vcpu);
	store_release(&chn->state, (uint8_t)ECS_IPI);
	evtchn_port_init(d, chn);
	evtchn_chn_unlock(chn);
	spin_unlock(&d->ev.lock);
	bind->port = (uint32_t)port;
	return 0;
}

/*
 * Xen on Arm has no PIRQs: pirq < 1024 passes the range check, takes a
 * port and fails to find the pirq (-ENOMEM), giving the port back.
 */
#define EVTCHN_ARM_NR_PIRQS U(1024)
static long evtchn_bind_pirq(struct domain *d, const struct evtchn_bind_pirq *bind)
{
	int port;

	if (bind->pirq >= EVTCHN_ARM_NR_PIRQS) {
		return -XEN_EINVAL;
	}
	spin_lock(&d->ev.lock);
	port = evtchn_get_free_port(d);
	if (port >= 0) {
		evtchn_unreserve_port(d, (uint32_t)port);
		port = -XEN_ENOMEM;
	}
	spin_unlock(&d->ev.lock);
	return port;
}

static void evtchn_close_local(struct domain *d, struct evtchn *chn)
{
	if (evtchn_state(chn) == ECS_VIRQ) {
		uint32_t vid = evtchn_virq_is_global(chn->virq) ? 0U : read_atomic(&chn->notify_vcpu);
		write_atomic(&d->vcpu[vid].evtchn.virq_to_port[chn->virq], 0U);
	}
	evtchn_chn_lock(chn);
	evtchn_free(d, chn);
	evtchn_chn_unlock(chn);
}

/* Caller holds d1 and (if not d1) d2; the peer reverts to unbound, as in Xen. */
static void evtchn_close_interdomain(struct domain *d1, struct evtchn *chn1, struct domain *d2)
{
	struct evtchn *chn2 = evtchn_from_port(d2, chn1->remote_port);

	evtchn_double_chn_lock(chn1, chn2);
	evtchn_free(d1, chn1);
	chn2->remote_dom = NULL;
	chn2->remote_port = 0U;
	chn2->unbound_remote = d1->domain_id;
	store_release(&chn2->state, (uint8_t)ECS_UNBOUND);
	evtchn_double_chn_unlock(chn1, chn2);
}

int evtchn_close_port(struct domain *d1, uint32_t port)
{
	struct domain *d2 = NULL;
	struct evtchn *chn1;
	unsigned int round;
	int rc = -XEN_EINVAL;

	if (!evtchn_port_valid(d1, port)) {
		return -XEN_EINVAL;
	}
	chn1 = evtchn_from_port(d1, port);
	spin_lock(&d1->ev.lock);
	/* At most one re-lock to take the peer's lock in address order. */
	for (round = 0U; round < 2U; round++) {
		enum evtchn_state s = evtchn_state(chn1);

		if ((s == ECS_FREE) || (s == ECS_RESERVED)) {
			rc = -XEN_EINVAL;
			break;
		}
		if (s != ECS_INTERDOMAIN) {
			evtchn_close_local(d1, chn1);
			rc = 0;
			break;
		}
		if (d2 == NULL) {
			d2 = chn1->remote_dom;
			if ((uintptr_t)d2 > (uintptr_t)d1) {
				spin_lock(&d2->ev.lock);
			} else if (d2 != d1) {
				spin_unlock(&d1->ev.lock);
				spin_lock(&d2->ev.lock);
				spin_lock(&d1->ev.lock);
				continue;
			} else {
				/* Loopback: d1's lock covers both ends. */
			}
		/* GCOVR_EXCL_START COV-008 */
		} else if (d2 != chn1->remote_dom) {
			/* Closed and re-bound meanwhile: as if we had seen it closed. */
			rc = -XEN_EINVAL;
			break;
		} else {
			/* Second round, same peer: both locks are held. */
		}
		/* GCOVR_EXCL_STOP */
		evtchn_close_interdomain(d1, chn1, d2);
		rc = 0;
		break;
	}
	if ((d2 != NULL) && (d2 != d1)) {
		spin_unlock(&d2->ev.lock);
	}
	spin_unlock(&d1->ev.lock);
	return rc;
}

static long evtchn_status(struct evtchn_status *st)
{
	struct domain *d = domain_resolve(st->dom);
	struct evtchn *chn;
	long rc = 0;

	if (d == NULL) {
		return -XEN_ESRCH;
	}
	if (!evtchn_port_valid(d, st->port)) {
		return -XEN_EINVAL;
	}
	if (!evtchn_may_target(d)) {
		return -XEN_EPERM;
	}
	chn = evtchn_from_port(d, st->port);
	evtchn_op_lock(d, chn);
	switch (evtchn_state(chn)) {
	case ECS_UNBOUND:
		st->status = EVTCHNSTAT_unbound;
		st->u.unbound.dom = chn->unbound_remote;
		break;
	case ECS_INTERDOMAIN:
		st->status = EVTCHNSTAT_interdomain;
		st->u.interdomain.dom = chn->remote_dom->domain_id;
		st->u.interdomain.port = chn->remote_port;
		break;
	case ECS_VIRQ:
		st->status = EVTCHNSTAT_virq;
		st->u.virq = chn->virq;
		break;
	case ECS_IPI:
		st->status = EVTCHNSTAT_ipi;
		break;
	default:
		st->status = EVTCHNSTAT_closed;
		break;
	}
	st->vcpu = read_atomic(&chn->notify_vcpu);
	evtchn_op_unlock(d, chn);
	return rc;
}

static long evtchn_bind_vcpu(struct domain *d, const struct evtchn_bind_vcpu *b)
{
	struct evtchn *chn;
	long rc = 0;

	if (b->vcpu >= d->nr_vcpus) {
		return -XEN_ENOENT;
	}
	if (!evtchn_port_valid(d, b->port)) {
		return -XEN_EINVAL;
	}
	chn = evtchn_from_port(d, b->port);
	spin_lock(&d->ev.lock);
	switch (evtchn_state(chn)) {
	case ECS_VIRQ:
		if (evtchn_virq_is_global(chn->virq)) {
			write_atomic(&chn->notify_vcpu, b->vcpu);
		} else {
			rc = -XEN_EINVAL;
		}
		break;
	case ECS_UNBOUND:
	case ECS_INTERDOMAIN:
		write_atomic(&chn->notify_vcpu, b->vcpu);
		break;
	default:
		rc = -XEN_EINVAL;
		break;
	}
	spin_unlock(&d->ev.lock);
	return rc;
}

static long evtchn_set_priority(struct domain *d, const struct evtchn_set_priority *sp)
{
	const struct evtchn_port_ops *ops;
	struct evtchn *chn;
	long rc;

	if (!evtchn_port_valid(d, sp->port)) {
		return -XEN_EINVAL;
	}
	chn = evtchn_from_port(d, sp->port);
	evtchn_op_lock(d, chn);
	ops = evtchn_ops(d);
	if (ops->set_priority == NULL) {
		rc = -XEN_ENOSYS;
	} else if (!evtchn_usable(chn)) {
		rc = -XEN_EACCES;
	} else {
		rc = ops->set_priority(d, chn, sp->priority);
	}
	evtchn_op_unlock(d, chn);
	return rc;
}

long evtchn_do_op(struct domain *d, unsigned int cmd, void *arg, bool *copy_back)
{
	*copy_back = false;
	switch (cmd) {
	case EVTCHNOP_alloc_unbound: {
		struct evtchn_alloc_unbound *a = arg;
		struct domain *t = domain_resolve(a->dom);
		if (t == NULL) {
			return -XEN_ESRCH;
		}
		*copy_back = true;
		return evtchn_alloc_unbound_in(t, 0U, a->remote_dom, &a->port);
	}
	case EVTCHNOP_bind_interdomain: {
		struct evtchn_bind_interdomain *b = arg;
		struct domain *rd = domain_resolve(b->remote_dom);
		if (rd == NULL) {
			return -XEN_ESRCH;
		}
		*copy_back = true;
		return evtchn_bind_interdomain_in(d, 0U, rd, b->remote_port, &b->local_port);
	}
	case EVTCHNOP_bind_virq:
		*copy_back = true;
		return evtchn_bind_virq(d, arg);
	case EVTCHNOP_bind_ipi:
		*copy_back = true;
		return evtchn_bind_ipi(d, arg);
	case EVTCHNOP_bind_pirq:
		*copy_back = true;
		return evtchn_bind_pirq(d, arg);
	case EVTCHNOP_close:
		return evtchn_close_port(d, ((struct evtchn_close *)arg)->port);
	case EVTCHNOP_status:
		*copy_back = true;
		return evtchn_status(arg);
	case EVTCHNOP_bind_vcpu:
		return evtchn_bind_vcpu(d, arg);
	case EVTCHNOP_init_control:
		*copy_back = true;
		return evtchn_fifo_init_control(d, arg);
	case EVTCHNOP_expand_array:
		return evtchn_fifo_expand_array(d, arg);
	case EVTCHNOP_set_priority:
		return evtchn_set_priority(d, arg);
	default:
		return -XEN_ENOSYS;
	}
}
