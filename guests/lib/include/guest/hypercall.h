/* SPDX-License-Identifier: MIT */
/* Xen arm64 hypercalls: HVC #0xEA1, number in x16, arguments x0-x4. */
#ifndef GUEST_HYPERCALL_H
#define GUEST_HYPERCALL_H

#include <stdint.h>
#include <public/xen.h>
#include <public/errno.h>
#include <public/sched.h>
#include <public/version.h>
#include <public/memory.h>

long xen_hypercall(uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		   uint64_t a4);

static inline long HYPERVISOR_console_io(unsigned int cmd, unsigned int len, const void *buf)
{
	return xen_hypercall(__HYPERVISOR_console_io, cmd, len, (uint64_t)buf, 0, 0);
}

static inline long HYPERVISOR_xen_version(unsigned int cmd, void *arg)
{
	return xen_hypercall(__HYPERVISOR_xen_version, cmd, (uint64_t)arg, 0, 0, 0);
}

static inline long HYPERVISOR_sched_op(unsigned int cmd, void *arg)
{
	return xen_hypercall(__HYPERVISOR_sched_op, cmd, (uint64_t)arg, 0, 0, 0);
}

static inline long HYPERVISOR_memory_op(unsigned int cmd, void *arg)
{
	return xen_hypercall(__HYPERVISOR_memory_op, cmd, (uint64_t)arg, 0, 0, 0);
}

static inline long HYPERVISOR_grant_table_op(unsigned int cmd, void *uop, unsigned int count)
{
	return xen_hypercall(__HYPERVISOR_grant_table_op, cmd, (uint64_t)uop, count, 0, 0);
}

static inline long HYPERVISOR_event_channel_op(unsigned int cmd, void *arg)
{
	return xen_hypercall(__HYPERVISOR_event_channel_op, cmd, (uint64_t)arg, 0, 0, 0);
}

static inline long HYPERVISOR_vcpu_op(unsigned int cmd, unsigned int vcpu, void *arg)
{
	return xen_hypercall(__HYPERVISOR_vcpu_op, cmd, vcpu, (uint64_t)arg, 0, 0);
}

/* SCHEDOP_shutdown with a SHUTDOWN_* reason; returns only on error. */
long xen_shutdown(unsigned int reason);
/* xen_version as major << 16 | minor. */
long xen_version(void);
/* Place shared_info (space 0) or grant frame idx (space 1) at gfn. */
long xen_add_to_physmap(unsigned int space, uint64_t idx, uint64_t gfn);

#endif
