/* SPDX-License-Identifier: MIT */
/*
 * Xen shared I/O rings: one page holding producer/consumer indexes and a
 * power-of-two array of request/response slots. Written from the layout
 * Xen's io/ring.h defines: four u32 indexes, 4 private bytes, 44 bytes of
 * padding, then the slots at offset 64.
 */
#ifndef PUBLIC_IO_RING_H
#define PUBLIC_IO_RING_H

#include "../xen.h"

typedef uint32_t RING_IDX;

struct xen_sring_header {
	RING_IDX req_prod;
	RING_IDX req_event;
	RING_IDX rsp_prod;
	RING_IDX rsp_event;
	uint8_t pvt[4];
	uint8_t pad[44];
};
XEN_ABI_ASSERT(sizeof(struct xen_sring_header) == 64U);
XEN_ABI_ASSERT(offsetof(struct xen_sring_header, rsp_event) == 12U);

/* Slots in a one-page ring of entries of `entry` bytes: a power of two. */
static inline uint32_t xen_ring_size(uint32_t page_bytes, uint32_t entry)
{
	uint32_t n = (page_bytes - (uint32_t)sizeof(struct xen_sring_header)) / entry;
	uint32_t p = 1U;

	while ((p * 2U) <= n) {
		p *= 2U;
	}
	return p;
}

#endif
