/* SPDX-License-Identifier: MIT */
/* Block backend internals shared by its connection and request halves. */
#ifndef BLKBACK_H
#define BLKBACK_H

#include <guest/guest.h>
#include <guest/blkhs.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

#define BB_MAX_FE     4U
#define BB_MAX_PERS   96U   /* LRU bound per frontend (maptrack is 256 per partition) */
#define BB_WIN_BASE   0x38100000ULL /* grant mappings, inside Xen's 16 MiB window too */
#define BB_FE_WIN     0x400000ULL   /* 1024 pages of the window per frontend */
#define BB_PG_HS      0U
#define BB_PG_RING    1U
#define BB_PG_PERS    16U
#define BB_PG_TMP     512U          /* map-unmap: one request's segments */
#define BB_MAX_SEGS   BLKHS_MAX_INDIRECT_SEGS

enum bb_state { BB_WAITING, BB_CONNECTED, BB_CLOSED, BB_LOST };

struct bb_pgrant {
	uint32_t gref;
	grant_handle_t handle;
	uint32_t stamp;  /* LRU clock at last use */
	bool used;
};

struct bb_fe {
	unsigned int idx;
	domid_t dom;
	evtchn_port_t port;
	enum bb_state state;
	grant_handle_t hs_handle;
	grant_handle_t ring_handle;
	volatile struct blkhs_page *hs;
	struct blkif_sring *sring;
	RING_IDX req_cons;
	RING_IDX rsp_prod;
	RING_IDX bad_prod;  /* last refused producer index, reported once */
	uint16_t mode;
	bool indirect;
	uint64_t first_sector;  /* this frontend's slice of the disk */
	uint64_t sectors;
	uint32_t last_hb;
	uint64_t hb_tick;
	uint64_t next_try;
	struct bb_pgrant pers[BB_MAX_PERS];
	unsigned int pers_max;
	uint32_t clock;
	/* Counters for the summary line. */
	uint32_t reqs;
	uint32_t errors;
	uint32_t maps;
	uint32_t unmaps;
	uint32_t evictions;
	uint32_t copies;
};

extern uint8_t bb_disk[];

static inline uint64_t bb_addr(const struct bb_fe *fe, unsigned int page)
{
	return BB_WIN_BASE + (uint64_t)fe->idx * BB_FE_WIN + (uint64_t)page * 4096U;
}

/* The xenbus backend (vbd_plat.c), when the device tree gives disks. */
int vbd_main(void);

/* Serve every request the frontend has produced; true if any was. */
bool bb_ring_serve(struct bb_fe *fe);
/* Unmap every persistent grant of fe; the number unmapped. */
unsigned int bb_pers_release(struct bb_fe *fe);

#endif
