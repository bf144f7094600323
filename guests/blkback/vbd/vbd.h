/* SPDX-License-Identifier: MIT */
/*
 * The xenbus half of the block backend (docs/blkif.md, "Linux frontends"):
 * virtual disks served to unmodified frontends (Linux's xen-blkfront) over
 * the standard xenbus protocol and Xen's blkif ring, with multi-page rings,
 * several queues, indirect requests, flushes and persistent grants.
 *
 * Three layers, so that all but the last build for the host and are unit
 * tested there (tests/blkback):
 *   vbd_bus.c   the xenbus state machine of one disk (Initialising ->
 *               InitWait -> Connected -> Closing -> Closed), what it reads
 *               of the frontend and writes for it;
 *   vbd_ring.c  one ring: requests read once, validated, served, answered;
 *   vbd_pers.c  the persistent grants of one ring, a bounded table;
 *   vbd_disk.c  the disk behind it (a RAM disk; a real device goes there);
 *   vbd_plat.c  the partition's side of it: hypercalls, grant window,
 *               xenstore client (target only; tests bring their own).
 */
#ifndef VBD_H
#define VBD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#ifdef VBD_HOST
#include <stdio.h>
#include <string.h>
#define vbd_log printf
#else
#include <guest/rt.h>
#include <guest/console.h>
#define vbd_log printf
#endif
#include <public/io/blkif.h>
#include <public/io/xenbus.h>
#include <public/io/protocols.h>
#include <public/grant_table.h>

/* ------------------------------------------------------------ limits */
#define VBD_MAX_DEVS        4U    /* disks one backend serves */
#define VBD_MAX_QUEUES      4U    /* multi-queue-max-queues at most */
/*
 * 8-page rings (256 slots) at most, one order below Xen's: Linux's request
 * ids are slot numbers, so below 256 a slot that a crashed backend had
 * overwritten with its (unpublished) response reads, to the backend that
 * takes over, as a request of no segments: refused, never a transfer.
 */
#define VBD_MAX_RING_ORDER  3U
#define VBD_MAX_RING_PAGES  (1U << VBD_MAX_RING_ORDER)
#define VBD_MAX_INDIRECT_SEGS 256U /* feature-max-indirect-segments at most (Xen's) */
#define VBD_MAX_INDIRECT_PAGES \
	((VBD_MAX_INDIRECT_SEGS + BLKIF_SEGS_PER_INDIRECT_FRAME - 1U) / BLKIF_SEGS_PER_INDIRECT_FRAME)
#define VBD_MAX_PERS        1024U /* persistent grants per ring at most */
#define VBD_PERS_DEFAULT    128U  /* ... without max-persistent-grants */
#define VBD_PATH_MAX        96U
#define VBD_VAL_MAX         64U
/* Requests a ring is served per round before the others get theirs. */
#define VBD_BUDGET          32U
/* One request's transient mappings: its segments and indirect pages. */
#define VBD_TMP_PAGES       (VBD_MAX_INDIRECT_SEGS + VBD_MAX_INDIRECT_PAGES)

/* --------------------------------------------------------- platform */
/*
 * One grant mapping. The core names a page of the grant window by index
 * (slot); the platform maps there and says where the page is (va).
 */
struct vbd_map {
	uint16_t dom;
	uint32_t gref;
	uint32_t slot;
	bool ro;
	void *va;           /* out */
	uint32_t handle;    /* out */
	int16_t status;     /* out: GNTST_* */
};

/* Map n grants in one batch; each element's status says how it went. */
void vbd_plat_map(struct vbd_map *m, unsigned int n);
/* Unmap n mappings made by vbd_plat_map (status okay) in one batch. */
void vbd_plat_unmap(struct vbd_map *m, unsigned int n);
/* GNTTABOP_copy of len bytes from dom's gref at off into buf: GNTST_*. */
int vbd_plat_copy_from(uint16_t dom, uint32_t gref, uint16_t off, void *buf, uint16_t len);
/* Bind to the frontend's unbound port: 0 and *lport, or -errno. */
long vbd_plat_bind(uint16_t dom, uint32_t rport, uint32_t *lport);
void vbd_plat_unbind(uint32_t lport);
void vbd_plat_notify(uint32_t lport);
/* Grant window pages: first of n contiguous free ones, or -1. */
int vbd_plat_win_alloc(unsigned int n);
void vbd_plat_win_free(unsigned int first, unsigned int n);
/* xenstore: the value of path into buf (nul-terminated): false when absent. */
bool vbd_plat_read(const char *path, char *buf, size_t len);
/* Write (0) or refuse (-1). */
int vbd_plat_write(const char *path, const char *val);
/* Watch path with token (the disk's index): 0 or -1. */
int vbd_plat_watch(const char *path, const char *token);
void vbd_plat_unwatch(const char *path, const char *token);
/* The partition's tag for log lines. */
const char *vbd_plat_tag(void);

/* ------------------------------------------------------------ disk */
/*
 * The storage behind a virtual disk (vbd_disk.c). A RAM disk: bytes at
 * base, a region the hypervisor gives the backend partition and keeps
 * across its restarts. A real device replaces these three functions.
 */
struct vbd_disk {
	uint8_t *base;
	uint64_t sectors;   /* of BLKIF_SECTOR_SIZE bytes */
	bool readonly;
	uint32_t flushes;
};

/* Move len bytes between the disk at byte offset off and buf. */
void vbd_disk_write(struct vbd_disk *dk, uint64_t off, const void *buf, uint32_t len);
void vbd_disk_read(struct vbd_disk *dk, uint64_t off, void *buf, uint32_t len);
/* Everything written so far is on stable storage when it returns. */
void vbd_disk_flush(struct vbd_disk *dk);

/* -------------------------------------------------- persistent grants */
struct vbd_pgrant {
	uint32_t gref;
	uint32_t handle;
	uint32_t slot;      /* its page in the grant window */
	void *va;
};

/*
 * The persistent grants of one ring: at most max (the frontend's working
 * set; beyond it a grant is mapped for one request only and Linux, which
 * reuses grants the backend kept first, settles inside the bound). Open
 * addressing by gref, never deleted from but all at once.
 */
struct vbd_pers {
	unsigned int max;
	unsigned int used;
	unsigned int first_slot;   /* max window pages from here */
	uint16_t bucket[2U * VBD_MAX_PERS]; /* index + 1; 0: empty */
	struct vbd_pgrant g[VBD_MAX_PERS];
};

void vbd_pers_init(struct vbd_pers *p, unsigned int max, unsigned int first_slot);
/* The mapping of gref, or NULL. */
struct vbd_pgrant *vbd_pers_find(struct vbd_pers *p, uint32_t gref);
/* Whether one more fits; then its window slot. */
bool vbd_pers_room(const struct vbd_pers *p, uint32_t *slot);
/* Record a mapping made at the slot vbd_pers_room gave. */
void vbd_pers_add(struct vbd_pers *p, uint32_t gref, uint32_t handle, uint32_t slot, void *va);
/* Unmap everything (n per batch); the number unmapped. */
unsigned int vbd_pers_release(struct vbd_pers *p, uint16_t dom);

/* ------------------------------------------------------------- rings */
struct vbd_stats {
	uint64_t reqs;
	uint64_t errors;        /* BLKIF_RSP_ERROR */
	uint64_t unsupported;   /* BLKIF_RSP_EOPNOTSUPP */
	uint64_t indirect;
	uint64_t flushes;
	uint64_t maps;          /* grant mappings made */
	uint64_t unmaps;
	uint64_t pers_hits;
	uint64_t copies;        /* GNTTABOP_copy calls */
	uint64_t notifies;
	uint32_t ring_errors;   /* producer index refused */
};

struct vbd_dev;

struct vbd_ring {
	struct vbd_dev *dev;
	unsigned int idx;
	unsigned int pages;
	uint32_t size;          /* slots */
	uint32_t gref[VBD_MAX_RING_PAGES];
	uint32_t handle[VBD_MAX_RING_PAGES];
	int win;                /* first window page of the ring, -1: none */
	int pers_win;           /* first of its persistent grants' pages, -1: none */
	struct xen_sring_header *sring;
	union blkif_sring_entry *slot;
	uint32_t rport;         /* the frontend's port */
	uint32_t lport;         /* ours, 0: not bound */
	RING_IDX req_cons;
	RING_IDX rsp_prod_pvt;
	RING_IDX bad_prod;      /* last refused producer index, reported once */
	bool connected;
	struct vbd_stats st;
	struct vbd_pers pers;
};

/* Forget the grant window (the backend starts; a test resets the fake hypervisor). */
void vbd_ring_init(void);
/* Map a ring of r->pages pages (r->gref) and bind r->rport: 0 or -1. */
int vbd_ring_connect(struct vbd_ring *r);
/* Unmap everything of the ring and unbind: after this no page of the frontend is mapped. */
void vbd_ring_disconnect(struct vbd_ring *r);
/* Serve what the frontend has produced (at most VBD_BUDGET); true if any. */
bool vbd_ring_serve(struct vbd_ring *r);

/* ------------------------------------------------------------- disks */
/* What the device tree offers for one disk (bulkhead,vbd). */
struct vbd_offer {
	bool persistent;
	uint32_t max_indirect;  /* 0: no indirect requests */
	uint32_t max_ring_order;
	uint32_t max_queues;
	uint32_t max_pers;      /* persistent grants per ring */
};

struct vbd_dev {
	unsigned int idx;       /* watch token */
	uint16_t self;          /* our domid */
	uint16_t fe;            /* the frontend's domid */
	uint32_t devid;         /* virtual-device number (51712 = xvda) */
	char name[16];          /* "xvda" */
	char be_path[VBD_PATH_MAX];
	char fe_path[VBD_PATH_MAX];
	struct vbd_disk disk;
	struct vbd_offer offer;
	enum xenbus_state state;     /* ours, as published */
	enum xenbus_state fe_state;  /* the frontend's, last read */
	bool watching;
	/* Negotiated at connect. */
	bool persistent;
	unsigned int nr_rings;
	struct vbd_ring ring[VBD_MAX_QUEUES];
	uint32_t connects;
	uint32_t connect_errors;
	bool taken_over;        /* the last connect found the frontend Connected already */
};

/*
 * Set a disk up (paths from the domids, features written) and publish
 * InitWait: 0, or -1 when the store refused (the disk stays Closed).
 */
int vbd_dev_start(struct vbd_dev *d);
/* Something under the watched frontend changed: follow its state. */
void vbd_dev_changed(struct vbd_dev *d);
/* Serve every connected ring of d once; true if any request was. */
bool vbd_dev_serve(struct vbd_dev *d);
/* Drop every mapping and binding of d (frontend gone or closing). */
void vbd_dev_disconnect(struct vbd_dev *d);
/* Sum of the rings' counters. */
void vbd_dev_stats(const struct vbd_dev *d, struct vbd_stats *out);

/*
 * Lower each disk's persistent grants per ring (offer.max_pers) so that all
 * of them, every ring's pages at the offered order and queues, and one
 * request's transient mappings fit in maptrack mappings (the hypervisor's
 * maptrack entries for this partition): a map refused for want of room
 * would fail a request, a lower bound only costs mappings. A disk left with
 * none stops offering feature-persistent. The number of disks lowered.
 */
unsigned int vbd_fit_maptrack(struct vbd_dev *devs, unsigned int n, unsigned int maptrack);

/* Xen's vdev number of "xvdX" (X = a..p): 202 << 8 | X << 4; 0 when not one. */
uint32_t vbd_vdev_of(const char *name);

#endif
