/* SPDX-License-Identifier: MIT */
/* Hypercall table and the continuation helpers. */
#include <bulkhead/hypercall.h>
#include <bulkhead/domain.h>
#include <bulkhead/gnttab.h>
#include <bulkhead/evtchn.h>
#include <public/errno.h>

static long hc_memory_op(const regval_t a[HYPERCALL_NR_ARGS])
{
	return do_memory_op(a[0], a[1]);
}

static long hc_xen_version(const regval_t a[HYPERCALL_NR_ARGS])
{
	return do_xen_version((unsigned int)a[0], a[1]);
}

static long hc_console_io(const regval_t a[HYPERCALL_NR_ARGS])
{
	return do_console_io((unsigned int)a[0], (unsigned int)a[1], a[2]);
}

static long hc_grant_table_op(const regval_t a[HYPERCALL_NR_ARGS])
{
	return do_grant_table_op((unsigned int)a[0], a[1], (unsigned int)a[2]);
}

static long hc_vm_assist(const regval_t a[HYPERCALL_NR_ARGS])
{
	return do_vm_assist((unsigned int)a[0], (unsigned int)a[1]);
}

static long hc_vcpu_op(const regval_t a[HYPERCALL_NR_ARGS])
{
	return do_vcpu_op((unsigned int)a[0], (unsigned int)a[1], a[2]);
}

static long hc_sched_op(const regval_t a[HYPERCALL_NR_ARGS])
{
	return do_sched_op((unsigned int)a[0], a[1]);
}

static long hc_hvm_op(const regval_t a[HYPERCALL_NR_ARGS])
{
	return do_hvm_op((unsigned int)a[0], a[1]);
}

const hypercall_fn_t hypercall_table[__HYPERVISOR_NR] = {
	[__HYPERVISOR_memory_op] = hc_memory_op,
	[__HYPERVISOR_xen_version] = hc_xen_version,
	[__HYPERVISOR_console_io] = hc_console_io,
	[__HYPERVISOR_grant_table_op] = hc_grant_table_op,
	[__HYPERVISOR_vm_assist] = hc_vm_assist,
	[__HYPERVISOR_vcpu_op] = hc_vcpu_op,
	[__HYPERVISOR_sched_op] = hc_sched_op,
	/* event_channel_op: hypercall_dispatch calls do_event_channel_op itself. */
	[__HYPERVISOR_hvm_op] = hc_hvm_op,
};

long hypercall_continue(unsigned int nargs, const regval_t args[HYPERCALL_NR_ARGS])
{
	struct vcpu *v = current;
	unsigned int i;

	for (i = 1U; (i < nargs) && (i < HYPERCALL_NR_ARGS); i++) {
		arch_hypercall_set_arg(v, i, args[i]);
	}
	arch_hypercall_continue(v);
	return (long)args[0];
}

bool hypercall_preempt_check(unsigned int done)
{
	return (done != 0U) && ((done % CONFIG_HYPERCALL_BATCH) == 0U);
}
