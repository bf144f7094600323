/* SPDX-License-Identifier: MIT */
/*
 * Request half of the block backend: read each request once out of the
 * shared ring (the frontend may change it under us), validate everything,
 * move the data in the frontend's mode, answer. Nothing a frontend writes
 * can make the backend touch memory outside its own disk slice and its
 * mappings of that frontend's grants.
 */
#include "blkback.h"

struct bb_seg {
	uint32_t gref;
	uint32_t off;   /* bytes into the frontend's page */
	uint32_t len;
};

struct bb_req {
	uint8_t op;     /* BLKIF_OP_READ or _WRITE */
	uint8_t wire_op;
	uint64_t id;
	uint64_t sector;
	unsigned int nseg;
	struct bb_seg seg[BB_MAX_SEGS];
};

static struct blkif_request_segment ind_buf[BLKHS_SEGS_PER_INDIRECT_PAGE]
	__attribute__((aligned(4096)));

/* Persistent grants: find gref in the LRU, mapping it (evicting the oldest) on a miss. */
static void *pers_get(struct bb_fe *fe, uint32_t gref)
{
	struct bb_pgrant *free_slot = NULL;
	struct bb_pgrant *oldest = NULL;
	struct bb_pgrant *victim;
	unsigned int i;

	for (i = 0U; i < fe->pers_max; i++) {
		struct bb_pgrant *p = &fe->pers[i];

		if (!p->used) {
			free_slot = (free_slot == NULL) ? p : free_slot;
		} else if (p->gref == gref) {
			p->stamp = ++fe->clock;
			return (void *)(uintptr_t)bb_addr(fe, BB_PG_PERS + i);
		} else if ((oldest == NULL) || (p->stamp < oldest->stamp)) {
			oldest = p;
		}
	}
	victim = (free_slot != NULL) ? free_slot : oldest;
	i = (unsigned int)(victim - fe->pers);
	if (victim->used) {
		(void)gnt_unmap(bb_addr(fe, BB_PG_PERS + i), victim->handle);
		victim->used = false;
		fe->unmaps++;
		fe->evictions++;
	}
	if (gnt_map(fe->dom, gref, bb_addr(fe, BB_PG_PERS + i), false, &victim->handle) != 0) {
		return NULL;
	}
	fe->maps++;
	victim->used = true;
	victim->gref = gref;
	victim->stamp = ++fe->clock;
	return (void *)(uintptr_t)bb_addr(fe, BB_PG_PERS + i);
}

unsigned int bb_pers_release(struct bb_fe *fe)
{
	unsigned int i;
	unsigned int n = 0U;

	for (i = 0U; i < fe->pers_max; i++) {
		if (fe->pers[i].used) {
			(void)gnt_unmap(bb_addr(fe, BB_PG_PERS + i), fe->pers[i].handle);
			fe->pers[i].used = false;
			fe->unmaps++;
			n++;
		}
	}
	return n;
}

/*
 * The indirect page's descriptors, copied out once: from the persistent
 * pool in persistent mode, else with one GNTTABOP_copy. map-unmap mode
 * copies too: a map, a memcpy and an unmap (two hypercalls and a TLB
 * invalidation) to read at most 256 bytes would cost more than the copy.
 */
static bool fetch_indirect(struct bb_fe *fe, uint32_t gref, unsigned int nseg)
{
	size_t bytes = nseg * sizeof(struct blkif_request_segment);
	const void *src;

	if (fe->mode == BLKHS_MODE_PERSISTENT) {
		src = pers_get(fe, gref);
		if (src == NULL) {
			return false;
		}
		memcpy(ind_buf, src, bytes);
		return true;
	}
	fe->copies++;
	return gnt_copy_from(fe->dom, gref, 0, (uint64_t)(uintptr_t)ind_buf >> 12, 0,
			     (uint16_t)bytes) == GNTST_okay;
}

static bool seg_ok(const struct blkif_request_segment *s, struct bb_seg *out)
{
	if ((s->first_sect > s->last_sect) || (s->last_sect >= 4096U / BLKIF_SECTOR_SIZE)) {
		return false;
	}
	out->gref = s->gref;
	out->off = (uint32_t)s->first_sect * BLKIF_SECTOR_SIZE;
	out->len = (uint32_t)(s->last_sect - s->first_sect + 1U) * BLKIF_SECTOR_SIZE;
	return true;
}

/* Decode and validate one ring slot into r; a BLKIF_RSP_* status. */
static int16_t decode(struct bb_fe *fe, const union blkif_sring_entry *e, struct bb_req *r)
{
	struct blkif_request req;
	const struct blkif_request_segment *segs;
	uint64_t total = 0U;
	unsigned int i;

	memcpy(&req, &e->req, sizeof(req));  /* one read of the shared slot */
	r->wire_op = req.operation;
	r->id = req.id;
	if ((req.operation == BLKIF_OP_READ) || (req.operation == BLKIF_OP_WRITE)) {
		r->op = req.operation;
		r->sector = req.sector_number;
		r->nseg = req.nr_segments;
		if ((r->nseg == 0U) || (r->nseg > BLKIF_MAX_SEGMENTS_PER_REQUEST)) {
			return BLKIF_RSP_ERROR;
		}
		segs = req.seg;
	} else if ((req.operation == BLKIF_OP_INDIRECT) && fe->indirect) {
		struct blkif_request_indirect ind;

		memcpy(&ind, &e->ind, sizeof(ind));
		r->op = ind.indirect_op;
		r->sector = ind.sector_number;
		r->nseg = ind.nr_segments;
		if (((r->op != BLKIF_OP_READ) && (r->op != BLKIF_OP_WRITE)) || (r->nseg == 0U) ||
		    (r->nseg > BB_MAX_SEGS)) {
			return BLKIF_RSP_ERROR;
		}
		if (!fetch_indirect(fe, ind.indirect_grefs[0], r->nseg)) {
			return BLKIF_RSP_ERROR;
		}
		segs = ind_buf;
	} else {
		return BLKIF_RSP_EOPNOTSUPP;
	}
	for (i = 0U; i < r->nseg; i++) {
		if (!seg_ok(&segs[i], &r->seg[i])) {
			return BLKIF_RSP_ERROR;
		}
		total += r->seg[i].len / BLKIF_SECTOR_SIZE;
	}
	if ((r->sector >= fe->sectors) || (total > fe->sectors - r->sector)) {
		return BLKIF_RSP_ERROR;
	}
	return BLKIF_RSP_OKAY;
}

static void move(const struct bb_req *r, uint8_t *disk, uint8_t *page, const struct bb_seg *s)
{
	if (r->op == BLKIF_OP_WRITE) {
		memcpy(disk, page + s->off, s->len);
	} else {
		memcpy(page + s->off, disk, s->len);
	}
}

/* map-unmap: one batched map of every segment, copy, one batched unmap. */
static int16_t do_map(struct bb_fe *fe, const struct bb_req *r, uint8_t *disk)
{
	static struct gnttab_map_grant_ref mop[BB_MAX_SEGS];
	static struct gnttab_unmap_grant_ref uop[BB_MAX_SEGS];
	unsigned int i;
	unsigned int nun = 0U;
	int16_t st = BLKIF_RSP_OKAY;

	for (i = 0U; i < r->nseg; i++) {
		mop[i] = (struct gnttab_map_grant_ref){
			.host_addr = bb_addr(fe, BB_PG_TMP + i),
			/* A write only reads the frontend's page. */
			.flags = GNTMAP_host_map | ((r->op == BLKIF_OP_WRITE) ? GNTMAP_readonly : 0U),
			.ref = r->seg[i].gref,
			.dom = fe->dom,
		};
	}
	if (HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, mop, r->nseg) != 0) {
		return BLKIF_RSP_ERROR;
	}
	for (i = 0U; i < r->nseg; i++) {
		if (mop[i].status != GNTST_okay) {
			st = BLKIF_RSP_ERROR;
			continue;
		}
		fe->maps++;
		uop[nun++] = (struct gnttab_unmap_grant_ref){ .host_addr = mop[i].host_addr,
							      .handle = mop[i].handle };
	}
	for (i = 0U; (i < r->nseg) && (st == BLKIF_RSP_OKAY); i++) {
		move(r, disk, (uint8_t *)(uintptr_t)mop[i].host_addr, &r->seg[i]);
		disk += r->seg[i].len;
	}
	if (nun != 0U) {
		(void)HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref, uop, nun);
		fe->unmaps += nun;
	}
	return st;
}

static int16_t do_persistent(struct bb_fe *fe, const struct bb_req *r, uint8_t *disk)
{
	unsigned int i;

	for (i = 0U; i < r->nseg; i++) {
		uint8_t *page = pers_get(fe, r->seg[i].gref);

		if (page == NULL) {
			return BLKIF_RSP_ERROR;
		}
		move(r, disk, page, &r->seg[i]);
		disk += r->seg[i].len;
	}
	return BLKIF_RSP_OKAY;
}

/* copy: every segment (split where the disk side crosses a page) in one GNTTABOP_copy. */
static int16_t do_copy(struct bb_fe *fe, const struct bb_req *r, uint8_t *disk)
{
	static struct gnttab_copy cop[2U * BB_MAX_SEGS];
	unsigned int n = 0U;
	unsigned int i;

	for (i = 0U; i < r->nseg; i++) {
		uint32_t done = 0U;

		while (done < r->seg[i].len) {
			uint64_t d = (uint64_t)(uintptr_t)disk;
			uint32_t chunk = r->seg[i].len - done;
			uint32_t room = 4096U - (uint32_t)(d & 4095U);
			struct gnttab_copy_ptr mine = { .u.gmfn = d >> 12, .domid = DOMID_SELF,
							.offset = (uint16_t)(d & 4095U) };
			struct gnttab_copy_ptr theirs = { .u.ref = r->seg[i].gref, .domid = fe->dom,
							  .offset = (uint16_t)(r->seg[i].off + done) };

			chunk = (chunk < room) ? chunk : room;
			cop[n] = (struct gnttab_copy){ .len = (uint16_t)chunk };
			if (r->op == BLKIF_OP_WRITE) {
				cop[n].source = theirs;
				cop[n].dest = mine;
				cop[n].flags = GNTCOPY_source_gref;
			} else {
				cop[n].source = mine;
				cop[n].dest = theirs;
				cop[n].flags = GNTCOPY_dest_gref;
			}
			n++;
			done += chunk;
			disk += chunk;
		}
	}
	fe->copies++;
	if (HYPERVISOR_grant_table_op(GNTTABOP_copy, cop, n) != 0) {
		return BLKIF_RSP_ERROR;
	}
	for (i = 0U; i < n; i++) {
		if (cop[i].status != GNTST_okay) {
			return BLKIF_RSP_ERROR;
		}
	}
	return BLKIF_RSP_OKAY;
}

static int16_t handle(struct bb_fe *fe, const union blkif_sring_entry *e, struct bb_req *r)
{
	int16_t st = decode(fe, e, r);
	uint8_t *disk;

	if (st != BLKIF_RSP_OKAY) {
		return st;
	}
	disk = bb_disk + (fe->first_sector + r->sector) * BLKIF_SECTOR_SIZE;
	switch (fe->mode) {
	case BLKHS_MODE_PERSISTENT:
		return do_persistent(fe, r, disk);
	case BLKHS_MODE_COPY:
		return do_copy(fe, r, disk);
	default:
		return do_map(fe, r, disk);
	}
}

bool bb_ring_serve(struct bb_fe *fe)
{
	static struct bb_req r;
	RING_IDX prod = __atomic_load_n(&fe->sring->hdr.req_prod, __ATOMIC_ACQUIRE);
	bool any = false;
	unsigned int budget = BLKIF_RING_SIZE;

	if ((RING_IDX)(prod - fe->req_cons) > BLKIF_RING_SIZE) {
		/* A producer past the ring: refuse it whole, say so once per bad value. */
		if (prod != fe->bad_prod) {
			fe->bad_prod = prod;
			fe->hs->ring_errors++;
			printf("%s: frontend %u: req_prod %u is %u past req_cons %u: refused\n",
			       rt_tag(), fe->idx, prod, prod - fe->req_cons, fe->req_cons);
			(void)evt_send(fe->port);
		}
		return false;
	}
	while ((fe->req_cons != prod) && (budget-- != 0U)) {
		union blkif_sring_entry *e = &fe->sring->ring[fe->req_cons % BLKIF_RING_SIZE];
		struct blkif_response rsp;

		fe->req_cons++;
		memset(&r, 0, sizeof(r));
		rsp.status = handle(fe, e, &r);
		rsp.id = r.id;
		rsp.operation = r.wire_op;
		fe->reqs++;
		if (rsp.status != BLKIF_RSP_OKAY) {
			fe->errors++;
		}
		/* The response takes the request's slot: it was read out already. */
		memcpy(&fe->sring->ring[fe->rsp_prod % BLKIF_RING_SIZE].rsp, &rsp, sizeof(rsp));
		fe->rsp_prod++;
		any = true;
	}
	if (any) {
		__atomic_store_n(&fe->sring->hdr.rsp_prod, fe->rsp_prod, __ATOMIC_RELEASE);
		(void)evt_send(fe->port);
	}
	return any;
}
