/* SPDX-License-Identifier: MIT */
/* memory_op hypercall (12), the parts Xen on Arm offers a domU. */
#ifndef PUBLIC_MEMORY_H
#define PUBLIC_MEMORY_H

#include "xen.h"

#define XENMEM_increase_reservation 0U
#define XENMEM_decrease_reservation 1U
#define XENMEM_populate_physmap     6U
#define XENMEM_add_to_physmap       7U
#define XENMEM_add_to_physmap_batch 23U
#define XENMEM_remove_from_physmap  15U

/* Low bits of cmd are the op; the rest is the continuation extent. */
#define MEMOP_EXTENT_SHIFT 6U
#define MEMOP_CMD_MASK     ((1U << MEMOP_EXTENT_SHIFT) - 1U)

#define XENMAPSPACE_shared_info  0U
#define XENMAPSPACE_grant_table  1U
#define XENMAPSPACE_gmfn         2U
#define XENMAPSPACE_gmfn_range   3U
#define XENMAPSPACE_gmfn_foreign 4U
#define XENMAPSPACE_dev_mmio     5U

#define XENMAPIDX_grant_table_status 0x80000000U

struct xen_add_to_physmap {
	domid_t domid;
	uint16_t size;
	uint32_t space;
	xen_ulong_t idx;
	xen_pfn_t gpfn;
};
XEN_ABI_ASSERT(sizeof(struct xen_add_to_physmap) == 24U);
XEN_ABI_ASSERT(offsetof(struct xen_add_to_physmap, space) == 4U);
XEN_ABI_ASSERT(offsetof(struct xen_add_to_physmap, idx) == 8U);
XEN_ABI_ASSERT(offsetof(struct xen_add_to_physmap, gpfn) == 16U);

struct xen_remove_from_physmap {
	domid_t domid;
	uint16_t pad0;
	uint32_t pad1;
	xen_pfn_t gpfn;
};
XEN_ABI_ASSERT(sizeof(struct xen_remove_from_physmap) == 16U);

#endif
