/* SPDX-License-Identifier: MIT */
/*
 * Xen guest ABI, arm64: core types, hypercall numbers, shared_info.
 * Written from the documented public interface; layouts are checked with
 * compile-time asserts so a change that breaks the ABI fails the build.
 */
#ifndef PUBLIC_XEN_H
#define PUBLIC_XEN_H

#include "arch-arm.h"

#define __HYPERVISOR_memory_op        12U
#define __HYPERVISOR_multicall        13U
#define __HYPERVISOR_xen_version      17U
#define __HYPERVISOR_console_io       18U
#define __HYPERVISOR_grant_table_op   20U
#define __HYPERVISOR_vm_assist        21U
#define __HYPERVISOR_vcpu_op          24U
#define __HYPERVISOR_sched_op         29U
#define __HYPERVISOR_event_channel_op 32U
#define __HYPERVISOR_physdev_op       33U
#define __HYPERVISOR_hvm_op           34U
#define __HYPERVISOR_NR               64U

typedef uint16_t domid_t;
#define DOMID_FIRST_RESERVED 0x7FF0U
#define DOMID_SELF           0x7FF0U
#define DOMID_IO             0x7FF1U
#define DOMID_XEN            0x7FF2U
#define DOMID_COW            0x7FF3U
#define DOMID_INVALID        0x7FF4U
#define DOMID_IDLE           0x7FFFU

/* console_io */
#define CONSOLEIO_write 0U
#define CONSOLEIO_read  1U

/* vm_assist */
#define VMASST_CMD_enable  0U
#define VMASST_CMD_disable 1U
#define VMASST_TYPE_runstate_update_flag 5U

/* Virtual interrupts (bind_virq). */
#define VIRQ_TIMER   0U
#define VIRQ_DEBUG   1U
#define VIRQ_CONSOLE 2U
#define VIRQ_DOM_EXC 3U
#define NR_VIRQS     24U

struct vcpu_time_info {
	uint32_t version;
	uint32_t pad0;
	uint64_t tsc_timestamp;
	uint64_t system_time;
	uint32_t tsc_to_system_mul;
	int8_t tsc_shift;
	uint8_t flags;
	uint8_t pad1[2];
};
XEN_ABI_ASSERT(sizeof(struct vcpu_time_info) == 32U);

struct vcpu_info {
	uint8_t evtchn_upcall_pending;
	/* "pad0" in the Arm header; Xen 4.17 still honours it as the mask. */
	uint8_t evtchn_upcall_mask;
	uint8_t pad[6];
	xen_ulong_t evtchn_pending_sel;
	/* struct arch_vcpu_info is empty on Arm. */
	struct vcpu_time_info time;
};
XEN_ABI_ASSERT(sizeof(struct vcpu_info) == 48U);
XEN_ABI_ASSERT(offsetof(struct vcpu_info, evtchn_pending_sel) == 8U);
XEN_ABI_ASSERT(offsetof(struct vcpu_info, time) == 16U);

#define XEN_LEGACY_MAX_VCPUS 1U
#define EVTCHN_2L_NR_WORDS   64U

struct shared_info {
	struct vcpu_info vcpu_info[XEN_LEGACY_MAX_VCPUS];
	xen_ulong_t evtchn_pending[EVTCHN_2L_NR_WORDS];
	xen_ulong_t evtchn_mask[EVTCHN_2L_NR_WORDS];
	uint32_t wc_version;
	uint32_t wc_sec;
	uint32_t wc_nsec;
	uint32_t wc_sec_hi;
	/* struct arch_shared_info is empty on Arm. */
};
XEN_ABI_ASSERT(offsetof(struct shared_info, evtchn_pending) == 48U);
XEN_ABI_ASSERT(offsetof(struct shared_info, evtchn_mask) == 560U);
XEN_ABI_ASSERT(offsetof(struct shared_info, wc_version) == 1072U);
XEN_ABI_ASSERT(offsetof(struct shared_info, wc_sec_hi) == 1084U);
XEN_ABI_ASSERT(sizeof(struct shared_info) == 1088U);

#endif
