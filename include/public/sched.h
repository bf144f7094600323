/* SPDX-License-Identifier: MIT */
/* sched_op hypercall (29). */
#ifndef PUBLIC_SCHED_H
#define PUBLIC_SCHED_H

#include "xen.h"

#define SCHEDOP_yield       0U
#define SCHEDOP_block       1U
#define SCHEDOP_shutdown    2U
#define SCHEDOP_poll        3U
#define SCHEDOP_remote_shutdown 4U
#define SCHEDOP_shutdown_code 5U
#define SCHEDOP_watchdog    6U
#define SCHEDOP_pin_override 7U

#define SHUTDOWN_poweroff 0U
#define SHUTDOWN_reboot   1U
#define SHUTDOWN_suspend  2U
#define SHUTDOWN_crash    3U
#define SHUTDOWN_watchdog 4U

struct sched_shutdown {
	uint32_t reason;
};
XEN_ABI_ASSERT(sizeof(struct sched_shutdown) == 4U);

struct sched_poll {
	xen_guest_handle_t ports;
	uint32_t nr_ports;
	uint64_t timeout;
};
XEN_ABI_ASSERT(sizeof(struct sched_poll) == 24U);
XEN_ABI_ASSERT(offsetof(struct sched_poll, timeout) == 16U);

#endif
