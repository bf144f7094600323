/* SPDX-License-Identifier: MIT */
/*
 * Xen block I/O interface (blkif): requests whose data segments are grant
 * references, on a shared ring. Layouts are the arm64 ones of Xen's
 * io/blkif.h, checked below.
 */
#ifndef PUBLIC_IO_BLKIF_H
#define PUBLIC_IO_BLKIF_H

#include "ring.h"

typedef uint16_t blkif_vdev_t;
typedef uint64_t blkif_sector_t;

#define BLKIF_OP_READ     0U
#define BLKIF_OP_WRITE    1U
#define BLKIF_OP_WRITE_BARRIER 2U
#define BLKIF_OP_FLUSH_DISKCACHE 3U
#define BLKIF_OP_DISCARD  5U
#define BLKIF_OP_INDIRECT 6U

#define BLKIF_MAX_SEGMENTS_PER_REQUEST 11U
#define BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST 8U
#define BLKIF_SECTOR_SIZE 512U
/* Segment descriptors in one indirect page (4 KiB / 8 bytes). */
#define BLKIF_SEGS_PER_INDIRECT_FRAME 512U
/* Largest ring: 2^XENBUS_MAX_RING_GRANT_ORDER pages (max-ring-page-order). */
#define XENBUS_MAX_RING_GRANT_ORDER 4U
#define XENBUS_MAX_RING_GRANTS (1U << XENBUS_MAX_RING_GRANT_ORDER)

/* The backend's "info" node: bits of VDISK_*. */
#define VDISK_CDROM     1U
#define VDISK_REMOVABLE 2U
#define VDISK_READONLY  4U

#define BLKIF_RSP_EOPNOTSUPP (-2)
#define BLKIF_RSP_ERROR      (-1)
#define BLKIF_RSP_OKAY       0

struct blkif_request_segment {
	uint32_t gref;
	uint8_t first_sect; /* first 512-byte sector in the frame, inclusive */
	uint8_t last_sect;  /* last one, inclusive */
};
XEN_ABI_ASSERT(sizeof(struct blkif_request_segment) == 8U);

struct blkif_request {
	uint8_t operation;
	uint8_t nr_segments;
	blkif_vdev_t handle;
	uint64_t id;
	blkif_sector_t sector_number;
	struct blkif_request_segment seg[BLKIF_MAX_SEGMENTS_PER_REQUEST];
};
XEN_ABI_ASSERT(sizeof(struct blkif_request) == 112U);
XEN_ABI_ASSERT(offsetof(struct blkif_request, id) == 8U);
XEN_ABI_ASSERT(offsetof(struct blkif_request, seg) == 24U);

struct blkif_request_indirect {
	uint8_t operation;   /* BLKIF_OP_INDIRECT */
	uint8_t indirect_op; /* BLKIF_OP_READ or BLKIF_OP_WRITE */
	uint16_t nr_segments;
	uint64_t id;
	blkif_sector_t sector_number;
	blkif_vdev_t handle;
	uint32_t indirect_grefs[BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST];
};
XEN_ABI_ASSERT(sizeof(struct blkif_request_indirect) == 64U);
XEN_ABI_ASSERT(offsetof(struct blkif_request_indirect, indirect_grefs) == 28U);

struct blkif_response {
	uint64_t id;
	uint8_t operation;
	int16_t status;
};
XEN_ABI_ASSERT(sizeof(struct blkif_response) == 16U);
XEN_ABI_ASSERT(offsetof(struct blkif_response, status) == 10U);

union blkif_sring_entry {
	struct blkif_request req;
	struct blkif_request_indirect ind;
	struct blkif_response rsp;
};

#define BLKIF_RING_SIZE 32U /* xen_ring_size(4096, 112) */
/* Slots of a ring of `pages` pages: 32, 64, 128, 256, 512 for 1..16 pages. */
static inline uint32_t blkif_ring_size(uint32_t pages)
{
	return xen_ring_size(pages * 4096U, (uint32_t)sizeof(union blkif_sring_entry));
}

struct blkif_sring {
	struct xen_sring_header hdr;
	union blkif_sring_entry ring[BLKIF_RING_SIZE];
};
XEN_ABI_ASSERT(sizeof(struct blkif_sring) <= 4096U);
XEN_ABI_ASSERT(offsetof(struct blkif_sring, ring) == 64U);

#endif
