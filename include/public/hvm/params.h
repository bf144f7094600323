/* SPDX-License-Identifier: MIT */
/* hvm_op hypercall (34): get/set_param, as Xen on Arm offers them. */
#ifndef PUBLIC_HVM_PARAMS_H
#define PUBLIC_HVM_PARAMS_H

#include "../xen.h"

#define HVMOP_set_param 0U
#define HVMOP_get_param 1U

#define HVM_PARAM_CALLBACK_IRQ 0U
#define HVM_PARAM_STORE_PFN    1U
#define HVM_PARAM_STORE_EVTCHN 2U
#define HVM_PARAM_CONSOLE_PFN  17U
#define HVM_PARAM_CONSOLE_EVTCHN 18U
#define HVM_NR_PARAMS          40U

struct xen_hvm_param {
	domid_t domid;
	uint16_t pad;
	uint32_t index;
	uint64_t value;
};
XEN_ABI_ASSERT(sizeof(struct xen_hvm_param) == 16U);
XEN_ABI_ASSERT(offsetof(struct xen_hvm_param, value) == 8U);

#endif
