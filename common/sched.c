/* SPDX-License-Identifier: MIT */
/*
 * sched_op. vCPUs are pinned 1:1 to physical CPUs, so there is nothing to
 * schedule: yield returns, block waits for an interrupt, shutdown stops
 * (or restarts) this partition only.
 */
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/domain.h>
#include <bulkhead/console.h>
#include <public/sched.h>
#include <public/errno.h>

long do_sched_op(unsigned int cmd, xen_guest_handle_t arg)
{
	struct vcpu *v = current;

	switch (cmd) {
	case SCHEDOP_yield:
		return 0;
	case SCHEDOP_block:
		v->blocked = true;
		return 0;
	case SCHEDOP_shutdown: {
		struct sched_shutdown s;
		if (copy_from_guest(&s, arg, sizeof(s)) != 0) {
			return -XEN_EFAULT;
		}
		if (s.reason > SHUTDOWN_watchdog) {
			return -XEN_EINVAL;
		}
		domain_shutdown(v->domain, s.reason);
		return 0;
	}
	case SCHEDOP_poll:
		return sched_poll(v, arg);
	default:
		return -XEN_ENOSYS;
	}
}
