/* SPDX-License-Identifier: MIT */
/* vcpu_op hypercall (24): Xen on Arm offers a domU two sub-ops only. */
#ifndef PUBLIC_VCPU_H
#define PUBLIC_VCPU_H

#include "xen.h"

#define VCPUOP_register_runstate_memory_area 5U
#define VCPUOP_register_vcpu_info            10U

struct vcpu_register_vcpu_info {
	uint64_t mfn;
	uint32_t offset;
	uint32_t rsvd;
};
XEN_ABI_ASSERT(sizeof(struct vcpu_register_vcpu_info) == 16U);

#define RUNSTATE_running  0
#define RUNSTATE_runnable 1
#define RUNSTATE_blocked  2
#define RUNSTATE_offline  3

struct vcpu_runstate_info {
	int32_t state;
	uint64_t state_entry_time;
	uint64_t time[4];
};
XEN_ABI_ASSERT(sizeof(struct vcpu_runstate_info) == 48U);
XEN_ABI_ASSERT(offsetof(struct vcpu_runstate_info, state_entry_time) == 8U);

struct vcpu_register_runstate_memory_area {
	xen_guest_handle_t addr;
};
XEN_ABI_ASSERT(sizeof(struct vcpu_register_runstate_memory_area) == 8U);

#endif
