/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the block backend's xenbus half (guests/blkback/vbd_*.c).
 *
 * The fake hypervisor: the frontend's memory is a memfd, and a grant
 * mapping is a real mmap of the granted page at the backend's window slot
 * (read-only mappings PROT_READ), so the backend touches exactly what a
 * stage-2 mapping would give it, and a page it has not mapped faults.
 * Grant entries count their mappings as GTF_reading/GTF_writing do, so the
 * frontend's revoke fails while the backend holds one: the test frontend
 * (vbdt_fe_*) is written after Linux's xen-blkfront, persistent grant
 * reuse included. The fake store is a table of paths with watches that
 * queue their token; vbdt_dispatch() hands them to vbd_dev_changed().
 */
#ifndef VBDT_H
#define VBDT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../../guests/blkback/vbd/vbd.h"

#define VERIFIES(...) /* requirement trace: __VA_ARGS__ */

#define VBDT_BE     1U    /* backend domid */
#define VBDT_FE     2U    /* frontend domid */
#define VBDT_FE2    3U
#define VBDT_PAGES  4096U /* frontend memory */
#define VBDT_GREFS  4096U
#define VBDT_WIN    4096U /* backend's grant window */
#define VBDT_DISK_SECTORS 8192U /* 4 MiB */

/* ------------------------------------------------------------ the store */
const char *vbdt_read(const char *path);       /* NULL when absent */
void vbdt_write(const char *path, const char *val); /* as the frontend (fires watches) */
void vbdt_rm(const char *path);                /* the subtree (fires watches) */
/* Give every queued watch event to vbd_dev_changed of its disk; how many. */
unsigned int vbdt_dispatch(void);
extern bool vbdt_store_refuses;  /* the store answers every backend write with an error */

/* --------------------------------------------------------- the hypervisor */
uint8_t *vbdt_fe_page(uint16_t dom, uint32_t page);
/* Grant page to the backend: a new gref. */
uint32_t vbdt_grant(uint16_t dom, uint32_t page, bool ro);
/* gnttab_try_end_foreign_access: false while the backend has it mapped. */
bool vbdt_revoke(uint16_t dom, uint32_t gref);
unsigned int vbdt_mapped(void);           /* backend mappings alive */
unsigned int vbdt_maps_made(void);
unsigned int vbdt_bound(void);            /* event channels bound */
extern unsigned int vbdt_maptrack_max;    /* mappings the "hypervisor" allows */
/* An unbound port of dom for the backend. */
uint32_t vbdt_port(uint16_t dom);
unsigned int vbdt_notified(uint16_t dom);  /* events the backend sent */

/* ------------------------------------------------- a Linux-like frontend */
struct vbdt_grant {
	uint32_t gref;      /* VBDT_NOREF: none (revoked) */
	uint32_t page;
};
#define VBDT_NOREF 0xffffffffU
#define VBDT_POOL  512U

struct vbdt_req {
	bool busy;
	uint8_t op;         /* BLKIF_OP_READ/WRITE/FLUSH_DISKCACHE/INDIRECT */
	uint8_t inner;      /* the data direction */
	uint64_t sector;
	uint32_t bytes;
	unsigned int ngrants;
	struct vbdt_grant *g[VBD_MAX_INDIRECT_SEGS + 1U];
	int16_t status;
	bool done;
};

struct vbdt_queue {
	uint32_t page;      /* first ring page in frontend memory */
	uint32_t gref[VBD_MAX_RING_PAGES];
	uint32_t port;
	uint32_t size;
	struct xen_sring_header *sring;
	union blkif_sring_entry *slot;
	RING_IDX req_prod_pvt;
	RING_IDX rsp_cons;
	struct vbdt_req shadow[256];
	/* Linux's per-ring grant list: reused from the head, revoked ones at the tail. */
	struct vbdt_grant pool[VBDT_POOL];
	struct vbdt_grant *list[VBDT_POOL];
	unsigned int nlist;
	unsigned int persistent_c;
	unsigned int kicks;  /* notifications the frontend sent */
};

struct vbdt_fe {
	uint16_t dom;
	uint32_t devid;
	char path[96];
	char be_path[96];
	unsigned int order;
	unsigned int nq;
	bool persistent;    /* what it writes as feature-persistent */
	bool pers_on;       /* negotiated (read from the backend at Connected) */
	unsigned int max_indirect;
	uint32_t next_page;
	struct vbdt_queue q[VBD_MAX_QUEUES];
	uint64_t completed;
	uint64_t failed;
};

/* Reset everything; one disk of VBDT_DISK_SECTORS served to fe with offer o. */
void vbdt_reset(void);
struct vbd_dev *vbdt_dev(unsigned int idx, uint16_t fe, const char *name,
			 const struct vbd_offer *o);
extern uint8_t vbdt_disk[VBD_MAX_DEVS][VBDT_DISK_SECTORS * 512U];
/* The store's part: the toolstack nodes of both ends, as guests/xenstore writes them. */
void vbdt_store_nodes(uint16_t fe, uint32_t devid);
void vbdt_store_be_nodes(uint16_t fe, uint32_t devid);
/* Frontend: rings allocated, nodes written, Initialised (talk_to_blkback). */
void vbdt_fe_init(struct vbdt_fe *f, uint16_t dom, uint32_t devid, unsigned int order,
		  unsigned int nq, bool persistent);
/* After the backend says Connected: read its features as blkfront_connect does. */
void vbdt_fe_connected(struct vbdt_fe *f);
/* Queue a request of bytes at sector (data for writes); its shadow id. */
int vbdt_fe_submit(struct vbdt_fe *f, unsigned int qi, uint8_t op, uint64_t sector,
		   uint32_t bytes, const uint8_t *data);
/* Push and notify as RING_PUSH_REQUESTS_AND_CHECK_NOTIFY says; whether it notified. */
bool vbdt_fe_push(struct vbdt_fe *f, unsigned int qi);
/* Take the responses, finish grants as blkif_completion does; read data copied to out[id]. */
unsigned int vbdt_fe_complete(struct vbdt_fe *f, unsigned int qi);
/* Read the data of a finished read request id into buf. */
void vbdt_fe_data(struct vbdt_fe *f, unsigned int qi, int id, uint8_t *buf);
/* Write and read back through the backend; true if the data matched. */
bool vbdt_fe_roundtrip(struct vbd_dev *d, struct vbdt_fe *f, unsigned int qi, uint64_t sector,
		       uint32_t bytes, unsigned int seed);
/* Frontend state node. */
void vbdt_fe_state(struct vbdt_fe *f, enum xenbus_state s);
enum xenbus_state vbdt_be_state(uint16_t fe, uint32_t devid);

void vbdt_pattern(uint8_t *buf, uint32_t bytes, unsigned int seed);

#endif
