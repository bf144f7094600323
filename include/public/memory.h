/* SPDX-License-Identifier: MIT */
/* memory_op hypercall (12): the sub-op numbers and the structures a domU uses. */
#ifndef PUBLIC_MEMORY_H
#define PUBLIC_MEMORY_H

#include "xen.h"

#define XENMEM_increase_reservation 0U
#define XENMEM_decrease_reservation 1U
#define XENMEM_maximum_ram_page     2U
#define XENMEM_current_reservation  3U
#define XENMEM_maximum_reservation  4U
#define XENMEM_machphys_mfn_list    5U
#define XENMEM_populate_physmap     6U
#define XENMEM_add_to_physmap       7U
#define XENMEM_memory_map           9U
#define XENMEM_machine_memory_map   10U
#define XENMEM_exchange             11U
#define XENMEM_machphys_mapping     12U
#define XENMEM_set_memory_map       13U
#define XENMEM_maximum_gpfn         14U
#define XENMEM_remove_from_physmap  15U
#define XENMEM_set_pod_target       16U
#define XENMEM_get_pod_target       17U
#define XENMEM_get_sharing_freed_pages  18U
#define XENMEM_get_sharing_shared_pages 19U
#define XENMEM_paging_op            20U
#define XENMEM_access_op            21U
#define XENMEM_sharing_op           22U
#define XENMEM_add_to_physmap_batch 23U
#define XENMEM_claim_pages          24U
#define XENMEM_machphys_compat_mfn_list 25U
#define XENMEM_get_vnumainfo        26U
#define XENMEM_reserved_device_memory_map 27U
#define XENMEM_acquire_resource     28U
#define XENMEM_get_vnumainfo_compat 29U

/* mem_flags of a reservation. */
#define XENMEMF_get_address_bits(x) ((uint32_t)(x) & 0xffU)
#define XENMEMF_get_node(x)         (((((uint32_t)(x) >> 8U) & 0xffffffU) - 1U) & 0xffU)
#define XENMEMF_populate_on_demand  0x10000U
#define XENMEMF_exact_node_request  0x20000U
#define XENMEMF_vnode               0x40000U

/* increase/decrease_reservation, populate_physmap, claim_pages. */
struct xen_memory_reservation {
	xen_guest_handle_t extent_start; /* xen_pfn_t[nr_extents] */
	xen_ulong_t nr_extents;
	uint32_t extent_order;
	uint32_t mem_flags;
	domid_t domid;
	uint16_t pad[3];
};
XEN_ABI_ASSERT(sizeof(struct xen_memory_reservation) == 32U);
XEN_ABI_ASSERT(offsetof(struct xen_memory_reservation, extent_order) == 16U);
XEN_ABI_ASSERT(offsetof(struct xen_memory_reservation, domid) == 24U);

/* current_reservation, maximum_reservation, maximum_gpfn: arg points at a domid_t. */

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

struct xen_memory_exchange {
	struct xen_memory_reservation in;
	struct xen_memory_reservation out;
	xen_ulong_t nr_exchanged;
};
XEN_ABI_ASSERT(sizeof(struct xen_memory_exchange) == 72U);
XEN_ABI_ASSERT(offsetof(struct xen_memory_exchange, nr_exchanged) == 64U);

struct xen_vnuma_topology_info {
	domid_t domid;
	uint16_t pad;
	uint32_t nr_vnodes;
	uint32_t nr_vcpus;
	uint32_t nr_vmemranges;
	xen_guest_handle_t vdistance;
	xen_guest_handle_t vcpu_to_vnode;
	xen_guest_handle_t vmemrange;
};
XEN_ABI_ASSERT(sizeof(struct xen_vnuma_topology_info) == 40U);

/* Xen's tools interface, answered to a domU too. */
#define XENMEM_RDM_ALL 1U
struct xen_reserved_device_memory_map {
	uint32_t flags;
	uint32_t nr_entries;
	xen_guest_handle_t buffer;
	uint32_t dev; /* union { physdev_pci_device pci; } */
	uint32_t pad;
};
XEN_ABI_ASSERT(sizeof(struct xen_reserved_device_memory_map) == 24U);

struct xen_mem_acquire_resource {
	domid_t domid;
	uint16_t type;
	uint32_t id;
	uint32_t nr_frames;
	uint32_t pad;
	uint64_t frame;
	xen_guest_handle_t frame_list;
};
XEN_ABI_ASSERT(sizeof(struct xen_mem_acquire_resource) == 32U);

struct xen_add_to_physmap_batch {
	domid_t domid;
	uint16_t space;
	uint16_t size;
	domid_t foreign_domid; /* gmfn_foreign only, else 0 */
	xen_guest_handle_t idxs;  /* xen_ulong_t[size] */
	xen_guest_handle_t gpfns; /* xen_pfn_t[size] */
	xen_guest_handle_t errs;  /* int[size], written */
};
XEN_ABI_ASSERT(sizeof(struct xen_add_to_physmap_batch) == 32U);
XEN_ABI_ASSERT(offsetof(struct xen_add_to_physmap_batch, idxs) == 8U);

#endif
