/* SPDX-License-Identifier: MIT */
/*
 * hvm_op and vm_assist. Without xenstore and with no PV console, the params a
 * Linux domU reads are 0, which makes it skip xenbus and hvc (dom0less
 * "no-xenstore"); a xenstore client's STORE_PFN and STORE_EVTCHN come from
 * common/xenstore.c; CALLBACK_IRQ names the event PPI.
 */
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/domain.h>
#include <bulkhead/xenstore.h>
#include <public/hvm/params.h>
#include <public/errno.h>

long do_hvm_op(unsigned int cmd, xen_guest_handle_t arg)
{
	struct xen_hvm_param p;
	struct domain *d;
	int rc;

	if ((cmd != HVMOP_get_param) && (cmd != HVMOP_set_param)) {
		return -XEN_ENOSYS;
	}
	if (copy_from_guest(&p, arg, sizeof(p)) != 0) {
		return -XEN_EFAULT;
	}
	if (p.index >= HVM_NR_PARAMS) {
		return -XEN_EINVAL;
	}
	d = domain_resolve(p.domid);
	if (d == NULL) {
		return -XEN_ESRCH;
	}
	/* The xenstore params: the partition's own, and its clients' for the store. */
	rc = xenstore_hvm_param(current->domain, d, cmd == HVMOP_set_param, p.index, &p.value);
	if (rc <= 0) {
		if ((rc == 0) && (cmd == HVMOP_get_param) &&
		    (copy_to_guest(arg, &p, sizeof(p)) != 0)) {
			rc = -XEN_EFAULT;
		}
		return rc;
	}
	if (d != current->domain) {
		return -XEN_EPERM;
	}
	if (cmd == HVMOP_set_param) {
		/* Nothing a domU may set on Arm without a toolstack. */
		return -XEN_EPERM;
	}
	switch (p.index) {
	case HVM_PARAM_CALLBACK_IRQ:
		/* type PPI (2) << 56, active-low level flags (2) << 8, the PPI. */
		p.value = (ULL(2) << 56) | (ULL(2) << 8) | GUEST_EVTCHN_PPI;
		break;
	default:
		p.value = 0U;
		break;
	}
	return (copy_to_guest(arg, &p, sizeof(p)) != 0) ? -XEN_EFAULT : 0;
}

long do_vm_assist(unsigned int cmd, unsigned int type)
{
	if ((cmd != VMASST_CMD_enable) && (cmd != VMASST_CMD_disable)) {
		return -XEN_EINVAL;
	}
	/* Xen on Arm knows runstate_update_flag; others are -EINVAL. */
	return (type == VMASST_TYPE_runstate_update_flag) ? 0 : -XEN_EINVAL;
}
