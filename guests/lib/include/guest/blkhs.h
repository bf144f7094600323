/* SPDX-License-Identifier: MIT */
/*
 * Block I/O handshake page (docs/blkif.md). With no xenstore, the frontend
 * grants this page to the backend at the well-known ref BLKHS_REF; each
 * field has one writer, so neither side ever needs a lock or a CAS.
 */
#ifndef GUEST_BLKHS_H
#define GUEST_BLKHS_H

#include <stdint.h>
#include <public/io/blkif.h>

#define BLKHS_MAGIC   0x424b4853U /* "BKHS" */
#define BLKHS_VERSION 1U
#define BLKHS_REF     8U  /* grant ref of the handshake page */
#define BLKHS_RING_REF 9U /* conventional; the page carries the real one */

/* fe_state, written by the frontend only. */
#define BLKHS_FE_NONE      0U
#define BLKHS_FE_READY     1U /* every frontend field below is valid */
#define BLKHS_FE_CLOSING   2U /* no more requests; unmap everything */

/* be_state, written by the backend only. */
#define BLKHS_BE_NONE      0U
#define BLKHS_BE_CONNECTED 1U /* ring mapped, be_* fields valid */
#define BLKHS_BE_CLOSED    2U /* every grant of this frontend unmapped */
#define BLKHS_BE_REJECTED  3U /* magic, version or mode refused */

/* Data modes. */
#define BLKHS_MODE_MAP        0U
#define BLKHS_MODE_PERSISTENT 1U
#define BLKHS_MODE_COPY       2U

#define BLKHS_F_PERSISTENT 1U /* feature-persistent */
#define BLKHS_F_INDIRECT   2U /* BLKIF_OP_INDIRECT understood */

struct blkhs_page {
	uint32_t magic;          /* FE */
	uint16_t version;        /* FE */
	uint16_t fe_state;       /* FE */
	uint16_t be_state;       /* BE */
	uint16_t mode;           /* FE: requested BLKHS_MODE_* */
	uint32_t ring_gref;      /* FE */
	uint32_t fe_features;    /* FE: BLKHS_F_* */
	uint32_t fe_max_indirect;/* FE: segments it may put in one indirect request */
	uint32_t be_features;    /* BE: accepted BLKHS_F_* (the intersection) */
	uint32_t be_max_indirect;/* BE: its limit on indirect segments */
	uint64_t sectors;        /* BE: size of this frontend's disk, 512-byte sectors */
	uint32_t heartbeat;      /* FE: bumped while alive (the backend's lease) */
	uint32_t ring_errors;    /* BE: times the producer index was refused */
	uint32_t be_persistent_max; /* BE: grants it keeps mapped (LRU bound) */
	uint32_t pad;
};
_Static_assert(sizeof(struct blkhs_page) == 56U, "handshake layout");

/* The backend's indirect limit: 64 KiB requests need 16. */
#define BLKHS_MAX_INDIRECT_SEGS 32U
/* Segment descriptors per indirect page. */
#define BLKHS_SEGS_PER_INDIRECT_PAGE (4096U / sizeof(struct blkif_request_segment))

#endif
