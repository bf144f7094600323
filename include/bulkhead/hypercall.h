/* SPDX-License-Identifier: MIT */
/* Hypercall dispatch (Xen arm64 convention: HVC #0xEA1, number in x16). */
#ifndef BULKHEAD_HYPERCALL_H
#define BULKHEAD_HYPERCALL_H

#include <bulkhead/types.h>
#include <public/xen.h>
#include <public/errno.h>
#include <bulkhead/evtchn.h>   /* do_event_channel_op, which the dispatch calls directly */

struct vcpu;

#define HYPERCALL_NR_ARGS U(5)

typedef long (*hypercall_fn_t)(const regval_t a[HYPERCALL_NR_ARGS]);

/* Indexed by hypercall number; NULL where Bulkhead has none (common/hypercall.c). */
extern const hypercall_fn_t hypercall_table[__HYPERVISOR_NR];

/*
 * Run hypercall nr for the current vCPU; the result goes to x0. Inline: the
 * arch's hypercall exit calls it on every hypercall.
 */
static inline long hypercall_dispatch(regval_t nr, const regval_t args[HYPERCALL_NR_ARGS])
{
	long ret = -XEN_ENOSYS;

	/*
	 * event_channel_op, the one a partition makes most (every send and
	 * unmask), straight to its handler: what the table's entry would call.
	 * Any other number comes from the guest: checked before indexing.
	 */
	if (nr == (regval_t)__HYPERVISOR_event_channel_op) {
		ret = do_event_channel_op((unsigned int)args[0], args[1]);
	} else if ((nr < (regval_t)__HYPERVISOR_NR) && (hypercall_table[nr] != NULL)) {
		ret = hypercall_table[nr](args);
	} else {
		/* None by that number: -ENOSYS, as Xen answers. */
	}
	return ret;
}

/*
 * Arrange for the current hypercall to be re-issued with the given
 * arguments (PC rewound to the HVC). Returns the value for x0, which is
 * the continued call's first argument.
 */
long hypercall_continue(unsigned int nargs, const regval_t args[HYPERCALL_NR_ARGS]);

/* Preemption point for long hypercalls: true once the batch budget is spent. */
bool hypercall_preempt_check(unsigned int done);

long do_xen_version(unsigned int cmd, xen_guest_handle_t arg);
long do_console_io(unsigned int cmd, unsigned int count, xen_guest_handle_t buf);
long do_sched_op(unsigned int cmd, xen_guest_handle_t arg);
long do_memory_op(regval_t cmd, xen_guest_handle_t arg);
long do_vcpu_op(unsigned int cmd, unsigned int vcpuid, xen_guest_handle_t arg);
long do_hvm_op(unsigned int cmd, xen_guest_handle_t arg);
long do_vm_assist(unsigned int cmd, unsigned int type);

#endif
