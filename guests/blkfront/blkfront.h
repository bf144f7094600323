/* SPDX-License-Identifier: MIT */
/* Block frontend state shared by the workload and the malformed-request checks. */
#ifndef BLKFRONT_H
#define BLKFRONT_H

#include <guest/blkhs.h>
#include <public/event_channel.h>

#define BF_MAX_QD         8U
#define BF_MAX_BYTES      65536U
#define BF_IND_PAGE       16U  /* slot page holding the indirect descriptors */
#define BF_PAGES_PER_SLOT 17U
#define BF_REF_BASE       16U
#define BF_MAX_BLOCKS     2048U
#define BF_SLICE_MS       50U  /* longest sleep between two looks at the ring */

struct bf {
	uint32_t id;
	domid_t be;
	evtchn_port_t port;
	uint16_t mode;
	uint32_t reqs;
	uint32_t bytes;
	unsigned int qd;
	uint32_t crash_after;
	uint64_t wait_ms;
	uint32_t blocks;
	uint32_t verified;
	RING_IDX req_prod;
	RING_IDX rsp_cons;
	uint64_t inflight[BF_MAX_QD];  /* request number + 1, 0 when free */
	uint8_t op[BF_MAX_QD];
	uint32_t blk[BF_MAX_QD];
};

extern struct bf bf;

void bf_alive(void);
void bf_push(void);
union blkif_sring_entry *bf_slot_entry(void);
volatile struct blkhs_page *bf_hs(void);
bool bf_next_rsp(struct blkif_response *out);
/* Send malformed requests, check each gets its error; 0 if all did. */
int bf_malformed(void);

#endif
