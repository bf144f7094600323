/* SPDX-License-Identifier: MIT */
/* xen_version hypercall (17). */
#ifndef PUBLIC_VERSION_H
#define PUBLIC_VERSION_H

#include "xen.h"

#define XENVER_version      0U
#define XENVER_extraversion 1U
#define XENVER_compile_info 2U
#define XENVER_capabilities 3U
#define XENVER_changeset    4U
#define XENVER_platform_parameters 5U
#define XENVER_get_features 6U
#define XENVER_pagesize     7U
#define XENVER_guest_handle 8U
#define XENVER_commandline  9U
#define XENVER_build_id     10U

#define XEN_EXTRAVERSION_LEN 16U
typedef char xen_extraversion_t[XEN_EXTRAVERSION_LEN];

struct xen_compile_info {
	char compiler[64];
	char compile_by[16];
	char compile_domain[32];
	char compile_date[32];
};
XEN_ABI_ASSERT(sizeof(struct xen_compile_info) == 144U);

#define XEN_CAPABILITIES_INFO_LEN 1024U
#define XEN_CHANGESET_INFO_LEN    64U
#define XEN_DOMAIN_HANDLE_LEN     16U
#define XEN_COMMANDLINE_LEN       1024U

struct xen_platform_parameters {
	xen_ulong_t virt_start;
};
XEN_ABI_ASSERT(sizeof(struct xen_platform_parameters) == 8U);

struct xen_feature_info {
	uint32_t submap_idx;
	uint32_t submap;
};
XEN_ABI_ASSERT(sizeof(struct xen_feature_info) == 8U);

#define XENFEAT_writable_page_tables    0U
#define XENFEAT_auto_translated_physmap 2U
#define XENFEAT_dom0                    11U
#define XENFEAT_memory_op_vnode_supported 13U
#define XENFEAT_ARM_SMCCC_supported     14U
#define XENFEAT_not_direct_mapped       16U
#define XENFEAT_direct_mapped           17U
#define XENFEAT_runstate_phys_area      18U

#endif
