/* SPDX-License-Identifier: MIT */
/*
 * vcpu_op (24). Xen on Arm offers a domU two sub-ops; every other one, and
 * a bad vCPU id, is refused with Xen's codes (-EINVAL, -ENOENT).
 *
 * register_vcpu_info moves a vCPU's vcpu_info into a guest page of its
 * choice (the only place vCPUs other than 0 have one). The page stays
 * mapped at EL2 with map_domain_page_global() until the partition restarts:
 * with XPFO there is no direct map to reach it through.
 */
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/domain.h>
#include <bulkhead/evtchn.h>
#include <bulkhead/lib.h>
#include <public/vcpu.h>
#include <public/errno.h>

static long vcpu_register_vcpu_info(struct vcpu *v, const struct vcpu_register_vcpu_info *r)
{
	struct domain *d = v->domain;
	struct vcpu_info *old;
	struct vcpu_info *new;
	uint8_t *page;

	/* Inside one page, naturally aligned (Xen answers -ENXIO). */
	if ((r->offset > (PAGE_SIZE - sizeof(struct vcpu_info))) ||
	    ((r->offset & (uint32_t)(_Alignof(struct vcpu_info) - 1U)) != 0U)) {
		return -XEN_ENXIO;
	}
	/* Once only; and only for itself or a vCPU that is not running. */
	if (v->vcpu_info_registered || ((v != current) && read_atomic(&v->online))) {
		return -XEN_EINVAL;
	}
	page = evtchn_map_guest_page(d, r->mfn);
	if (page == NULL) {
		return -XEN_EINVAL;
	}
	new = (struct vcpu_info *)(void *)(page + r->offset);
	old = load_acquire(&v->vcpu_info);
	if (old == NULL) {
		(void)memset(new, 0, sizeof(*new));
	} else {
		(void)memcpy(new, old, sizeof(*new));
	}
	v->evtchn.vcpu_info_page = page;
	v->vcpu_info_registered = true;
	/*
	 * Events raised into the old copy meanwhile would be lost: say every
	 * selector bit is set and raise the upcall; the guest copes with the
	 * spurious scan. (Pending bits live in shared_info, so none is lost.)
	 */
	(void)__atomic_exchange_n(&v->vcpu_info, new, __ATOMIC_SEQ_CST);
	write_atomic(&new->evtchn_pending_sel, ~(xen_ulong_t)0U);
	if (atomic_xchg(&new->evtchn_upcall_pending, (uint8_t)1U) == 0U) {
		arch_vcpu_raise_irq(v, GUEST_EVTCHN_PPI);
	}
	return 0;
}

static long vcpu_register_runstate(struct vcpu *v, const struct vcpu_register_runstate_memory_area *a)
{
	struct vcpu_runstate_info rs;

	v->evtchn.runstate_gva = a->addr;
	v->evtchn.runstate_registered = (a->addr != 0U);
	if (a->addr == 0U) {
		return 0;
	}
	/* Pinned 1:1 to a physical CPU: a vCPU is always running. */
	(void)memset(&rs, 0, sizeof(rs));
	rs.state = RUNSTATE_running;
	rs.state_entry_time = arch_now_ns();
	rs.time[RUNSTATE_running] = rs.state_entry_time;
	/* As on Xen on Arm, a bad address is not an error of this call. */
	(void)copy_to_guest_vcpu(v, a->addr, &rs, sizeof(rs));
	return 0;
}

long do_vcpu_op(unsigned int cmd, unsigned int vcpuid, xen_guest_handle_t arg)
{
	struct domain *d = current->domain;
	struct vcpu *v;
	long rc;

	if (vcpuid >= d->nr_vcpus) {
		return -XEN_ENOENT;
	}
	v = &d->vcpu[vcpuid];
	switch (cmd) {
	case VCPUOP_register_vcpu_info: {
		struct vcpu_register_vcpu_info r;
		if (copy_from_guest(&r, arg, sizeof(r)) != 0) {
			return -XEN_EFAULT;
		}
		spin_lock(&d->ev.lock);
		rc = vcpu_register_vcpu_info(v, &r);
		spin_unlock(&d->ev.lock);
		return rc;
	}
	case VCPUOP_register_runstate_memory_area: {
		struct vcpu_register_runstate_memory_area a;
		if (copy_from_guest(&a, arg, sizeof(a)) != 0) {
			return -XEN_EFAULT;
		}
		return vcpu_register_runstate(v, &a);
	}
	default:
		return -XEN_EINVAL;
	}
}
