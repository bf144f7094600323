/* SPDX-License-Identifier: MIT */
/*
 * Xen guest ABI, arm64: grant tables (hypercall 20, grant_table_op).
 * Written from the documented public interface; every layout the guest
 * sees is pinned by a compile-time assert so an ABI break fails the build.
 */
#ifndef PUBLIC_GRANT_TABLE_H
#define PUBLIC_GRANT_TABLE_H

#include "xen.h"

typedef uint32_t grant_ref_t;
typedef uint32_t grant_handle_t;
typedef uint16_t grant_status_t;

/* Refs 0 (console) and 1 (xenstore) and up to 7 belong to the toolstack. */
#define GNTTAB_NR_RESERVED_ENTRIES 8U
/* Entries the domain builder fills for the guest. */
#define GNTTAB_RESERVED_CONSOLE  0U
#define GNTTAB_RESERVED_XENSTORE 1U

/* v1 entry: flags and domid are updated together as one 32-bit word. */
struct grant_entry_v1 {
	uint16_t flags;
	domid_t domid;
	uint32_t frame;
};
XEN_ABI_ASSERT(sizeof(struct grant_entry_v1) == 8U);
XEN_ABI_ASSERT(offsetof(struct grant_entry_v1, domid) == 2U);
XEN_ABI_ASSERT(offsetof(struct grant_entry_v1, frame) == 4U);

struct grant_entry_header {
	uint16_t flags;
	domid_t domid;
};

/* v2 entries exist in the ABI; Xen on Arm (and Bulkhead) never use them. */
union grant_entry_v2 {
	struct grant_entry_header hdr;
	struct {
		struct grant_entry_header hdr;
		uint32_t pad0;
		uint64_t frame;
	} full_page;
	struct {
		struct grant_entry_header hdr;
		uint16_t page_off;
		uint16_t length;
		uint64_t frame;
	} sub_page;
	struct {
		struct grant_entry_header hdr;
		domid_t trans_domid;
		uint16_t pad0;
		grant_ref_t gref;
	} transitive;
	uint32_t __spacer[4];
};
XEN_ABI_ASSERT(sizeof(union grant_entry_v2) == 16U);

/* Type field of an entry's flags (bits 0-1), then subflags. */
#define GTF_invalid         0U
#define GTF_permit_access   1U
#define GTF_accept_transfer 2U
#define GTF_transitive      3U
#define GTF_type_mask       3U
#define GTF_readonly        (1U << 2)
#define GTF_reading         (1U << 3)
#define GTF_writing         (1U << 4)
#define GTF_PWT             (1U << 5)
#define GTF_PCD             (1U << 6)
#define GTF_PAT             (1U << 7)
#define GTF_sub_page        ((uint32_t)1U << 8)
#define GTF_transfer_committed (1U << 2)
#define GTF_transfer_completed (1U << 3)

/* Sub-ops. */
#define GNTTABOP_map_grant_ref     0U
#define GNTTABOP_unmap_grant_ref   1U
#define GNTTABOP_setup_table       2U
#define GNTTABOP_dump_table        3U
#define GNTTABOP_transfer          4U
#define GNTTABOP_copy              5U
#define GNTTABOP_query_size        6U
#define GNTTABOP_unmap_and_replace 7U
#define GNTTABOP_set_version       8U
#define GNTTABOP_get_status_frames 9U
#define GNTTABOP_get_version       10U
#define GNTTABOP_swap_grant_ref    11U
#define GNTTABOP_cache_flush       12U

/* Map flags. */
#define GNTMAP_device_map      (1U << 0)
#define GNTMAP_host_map        (1U << 1)
#define GNTMAP_readonly        (1U << 2)
#define GNTMAP_application_map (1U << 3)
#define GNTMAP_contains_pte    (1U << 4)
#define GNTMAP_guest_avail_mask 0xffff0000U

/* Per-element status codes. */
#define GNTST_okay              0
#define GNTST_general_error     (-1)
#define GNTST_bad_domain        (-2)
#define GNTST_bad_gntref        (-3)
#define GNTST_bad_handle        (-4)
#define GNTST_bad_virt_addr     (-5)
#define GNTST_bad_dev_addr      (-6)
#define GNTST_no_device_space   (-7)
#define GNTST_permission_denied (-8)
#define GNTST_bad_page          (-9)
#define GNTST_bad_copy_arg      (-10)
#define GNTST_address_too_big   (-11)
#define GNTST_eagain            (-12)
#define GNTST_no_space          (-13)

struct gnttab_map_grant_ref {
	uint64_t host_addr;
	uint32_t flags;
	grant_ref_t ref;
	domid_t dom;
	int16_t status;
	grant_handle_t handle;
	uint64_t dev_bus_addr;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_map_grant_ref) == 32U);
XEN_ABI_ASSERT(offsetof(struct gnttab_map_grant_ref, flags) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_map_grant_ref, ref) == 12U);
XEN_ABI_ASSERT(offsetof(struct gnttab_map_grant_ref, dom) == 16U);
XEN_ABI_ASSERT(offsetof(struct gnttab_map_grant_ref, status) == 18U);
XEN_ABI_ASSERT(offsetof(struct gnttab_map_grant_ref, handle) == 20U);
XEN_ABI_ASSERT(offsetof(struct gnttab_map_grant_ref, dev_bus_addr) == 24U);

struct gnttab_unmap_grant_ref {
	uint64_t host_addr;
	uint64_t dev_bus_addr;
	grant_handle_t handle;
	int16_t status;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_unmap_grant_ref) == 24U);
XEN_ABI_ASSERT(offsetof(struct gnttab_unmap_grant_ref, dev_bus_addr) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_unmap_grant_ref, handle) == 16U);
XEN_ABI_ASSERT(offsetof(struct gnttab_unmap_grant_ref, status) == 20U);

struct gnttab_setup_table {
	domid_t dom;
	uint32_t nr_frames;
	int16_t status;
	xen_guest_handle_t frame_list; /* xen_pfn_t[] */
};
XEN_ABI_ASSERT(sizeof(struct gnttab_setup_table) == 24U);
XEN_ABI_ASSERT(offsetof(struct gnttab_setup_table, nr_frames) == 4U);
XEN_ABI_ASSERT(offsetof(struct gnttab_setup_table, status) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_setup_table, frame_list) == 16U);

struct gnttab_dump_table {
	domid_t dom;
	int16_t status;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_dump_table) == 4U);

struct gnttab_transfer {
	xen_pfn_t mfn;
	domid_t domid;
	grant_ref_t ref;
	int16_t status;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_transfer) == 24U);
XEN_ABI_ASSERT(offsetof(struct gnttab_transfer, domid) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_transfer, ref) == 12U);
XEN_ABI_ASSERT(offsetof(struct gnttab_transfer, status) == 16U);

#define GNTCOPY_source_gref (1U << 0)
#define GNTCOPY_dest_gref   (1U << 1)

struct gnttab_copy_ptr {
	union {
		grant_ref_t ref;
		xen_pfn_t gmfn;
	} u;
	domid_t domid;
	uint16_t offset;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_copy_ptr) == 16U);
XEN_ABI_ASSERT(offsetof(struct gnttab_copy_ptr, domid) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_copy_ptr, offset) == 10U);

struct gnttab_copy {
	struct gnttab_copy_ptr source;
	struct gnttab_copy_ptr dest;
	uint16_t len;
	uint16_t flags;
	int16_t status;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_copy) == 40U);
XEN_ABI_ASSERT(offsetof(struct gnttab_copy, dest) == 16U);
XEN_ABI_ASSERT(offsetof(struct gnttab_copy, len) == 32U);
XEN_ABI_ASSERT(offsetof(struct gnttab_copy, flags) == 34U);
XEN_ABI_ASSERT(offsetof(struct gnttab_copy, status) == 36U);

struct gnttab_query_size {
	domid_t dom;
	uint32_t nr_frames;
	uint32_t max_nr_frames;
	int16_t status;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_query_size) == 16U);
XEN_ABI_ASSERT(offsetof(struct gnttab_query_size, nr_frames) == 4U);
XEN_ABI_ASSERT(offsetof(struct gnttab_query_size, max_nr_frames) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_query_size, status) == 12U);

struct gnttab_unmap_and_replace {
	uint64_t host_addr;
	uint64_t new_addr;
	grant_handle_t handle;
	int16_t status;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_unmap_and_replace) == 24U);
XEN_ABI_ASSERT(offsetof(struct gnttab_unmap_and_replace, new_addr) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_unmap_and_replace, handle) == 16U);
XEN_ABI_ASSERT(offsetof(struct gnttab_unmap_and_replace, status) == 20U);

struct gnttab_set_version {
	uint32_t version;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_set_version) == 4U);

struct gnttab_get_status_frames {
	uint32_t nr_frames;
	domid_t dom;
	int16_t status;
	xen_guest_handle_t frame_list; /* uint64_t[] */
};
XEN_ABI_ASSERT(sizeof(struct gnttab_get_status_frames) == 16U);
XEN_ABI_ASSERT(offsetof(struct gnttab_get_status_frames, dom) == 4U);
XEN_ABI_ASSERT(offsetof(struct gnttab_get_status_frames, status) == 6U);
XEN_ABI_ASSERT(offsetof(struct gnttab_get_status_frames, frame_list) == 8U);

struct gnttab_get_version {
	domid_t dom;
	uint16_t pad;
	uint32_t version;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_get_version) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_get_version, version) == 4U);

struct gnttab_swap_grant_ref {
	grant_ref_t ref_a;
	grant_ref_t ref_b;
	int16_t status;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_swap_grant_ref) == 12U);
XEN_ABI_ASSERT(offsetof(struct gnttab_swap_grant_ref, status) == 8U);

#define GNTTAB_CACHE_CLEAN       (1U << 0)
#define GNTTAB_CACHE_INVAL       (1U << 1)
#define GNTTAB_CACHE_SOURCE_GREF (1U << 31)

struct gnttab_cache_flush {
	union {
		uint64_t dev_bus_addr;
		grant_ref_t ref;
	} a;
	uint16_t offset;
	uint16_t length;
	uint32_t op;
};
XEN_ABI_ASSERT(sizeof(struct gnttab_cache_flush) == 16U);
XEN_ABI_ASSERT(offsetof(struct gnttab_cache_flush, offset) == 8U);
XEN_ABI_ASSERT(offsetof(struct gnttab_cache_flush, length) == 10U);
XEN_ABI_ASSERT(offsetof(struct gnttab_cache_flush, op) == 12U);

#endif
