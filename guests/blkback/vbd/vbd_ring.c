/* SPDX-License-Identifier: MIT */
/*
 * One ring of a virtual disk, served as Linux's xen-blkfront uses it
 * (Xen's io/blkif.h): a ring of 1..8 granted pages, requests read out of
 * their slot once (the frontend may rewrite it meanwhile) and validated
 * whole before anything moves, direct requests of up to 11 segments,
 * BLKIF_OP_INDIRECT with up to feature-max-indirect-segments segments in
 * up to 8 indirect pages, BLKIF_OP_FLUSH_DISKCACHE (with or without data),
 * everything else BLKIF_RSP_EOPNOTSUPP. Each response goes into the slot
 * of the request it answers and is published at once; the event index
 * rules of io/ring.h decide when either side is notified, so a frontend
 * that relies on req_event (Linux does) is woken exactly when needed.
 */
#include "vbd.h"

struct vbd_seg {
	uint32_t gref;
	uint16_t off;       /* bytes into the frontend's page */
	uint16_t len;
};

/* The request being served: one at a time, so one of them. */
static struct {
	uint8_t op;         /* BLKIF_OP_READ or _WRITE: the data's direction */
	uint8_t rsp_op;     /* what the response says (indirect: the inner op) */
	bool flush;
	uint64_t id;
	uint64_t sector;
	unsigned int nseg;
	struct vbd_seg seg[VBD_MAX_INDIRECT_SEGS];
	struct blkif_request_segment ind[VBD_MAX_INDIRECT_SEGS];
	struct vbd_map map[VBD_TMP_PAGES];  /* this request's new mappings */
	bool pers[VBD_TMP_PAGES];           /* map[i] is (to be) persistent */
	unsigned int npers;                 /* how many of map[] are */
	void *va[VBD_MAX_INDIRECT_SEGS];    /* each segment's page, when already mapped */
	int mi[VBD_MAX_INDIRECT_SEGS];      /* else its entry in map[] */
} q;

static int tmp_win = -1; /* VBD_TMP_PAGES window pages for transient mappings */

static unsigned int nr_ind_pages(unsigned int nseg)
{
	return (nseg + BLKIF_SEGS_PER_INDIRECT_FRAME - 1U) / BLKIF_SEGS_PER_INDIRECT_FRAME;
}

/* ------------------------------------------------------------ mapping */

/*
 * Where gref's page is for this request: a persistent grant already
 * mapped (returned), a mapping this request already asked for (a frontend
 * may name one grant twice) or a new entry of q.map (nmap grows): NULL and
 * the entry's index in *mi. New grants become persistent while the ring's
 * table has room, each at the window slot of its place in the table.
 */
static void *want(struct vbd_ring *r, uint32_t gref, bool ro, unsigned int *nmap, int *mi)
{
	struct vbd_pgrant *g;
	uint32_t slot = 0U;
	unsigned int i;

	*mi = -1;
	if (r->dev->persistent) {
		g = vbd_pers_find(&r->pers, gref);
		if (g != NULL) {
			r->st.pers_hits++;
			return g->va;
		}
	}
	for (i = 0U; i < *nmap; i++) {
		if (q.map[i].gref == gref) {
			*mi = (int)i;
			q.map[i].ro = q.map[i].ro && ro;
			return NULL;
		}
	}
	i = *nmap;
	q.pers[i] = r->dev->persistent && vbd_pers_room(&r->pers, &slot) &&
		    (r->pers.used + q.npers < r->pers.max);
	if (q.pers[i]) {
		slot += q.npers;   /* the ones this request claimed before */
		q.npers++;
		ro = false;        /* kept for reads and writes alike */
	} else {
		slot = (uint32_t)tmp_win + i;
	}
	q.map[i] = (struct vbd_map){ .dom = r->dev->fe, .gref = gref, .slot = slot, .ro = ro };
	*mi = (int)i;
	(*nmap)++;
	return NULL;
}

/*
 * Map q.map[0..n) in one batch. False if any failed: then none becomes
 * persistent (the table's slots stay in order) and all go at unmap_tmp.
 */
static bool map_all(struct vbd_ring *r, unsigned int n)
{
	bool ok = true;
	unsigned int i;

	if (n == 0U) {
		return true;
	}
	vbd_plat_map(q.map, n);
	for (i = 0U; i < n; i++) {
		if (q.map[i].status == GNTST_okay) {
			r->st.maps++;
		} else {
			ok = false;
		}
	}
	for (i = 0U; i < n; i++) {
		if (q.pers[i] && ok) {
			vbd_pers_add(&r->pers, q.map[i].gref, q.map[i].handle, q.map[i].slot,
				     q.map[i].va);
		}
		q.pers[i] = q.pers[i] && ok;
	}
	return ok;
}

/* Unmap this request's transient mappings (the persistent ones stay). */
static void unmap_tmp(struct vbd_ring *r, unsigned int n)
{
	static struct vbd_map um[VBD_TMP_PAGES];
	unsigned int k = 0U;
	unsigned int i;

	for (i = 0U; i < n; i++) {
		if ((q.map[i].status == GNTST_okay) && !q.pers[i]) {
			um[k++] = q.map[i];
		}
	}
	if (k != 0U) {
		vbd_plat_unmap(um, k);
		r->st.unmaps += k;
	}
}

/* ------------------------------------------------------------ decoding */

static bool seg_ok(const struct blkif_request_segment *s, struct vbd_seg *out)
{
	if ((s->first_sect > s->last_sect) || (s->last_sect >= 4096U / BLKIF_SECTOR_SIZE)) {
		return false;
	}
	out->gref = s->gref;
	out->off = (uint16_t)(s->first_sect * BLKIF_SECTOR_SIZE);
	out->len = (uint16_t)((s->last_sect - s->first_sect + 1U) * BLKIF_SECTOR_SIZE);
	return true;
}

/* The indirect pages' descriptors into q.ind: copied, or from persistent grants. */
static bool fetch_indirect(struct vbd_ring *r, const struct blkif_request_indirect *ind)
{
	unsigned int pages = nr_ind_pages(q.nseg);
	unsigned int nmap = 0U;
	unsigned int i;
	bool ok = true;

	if (!r->dev->persistent) {
		/* A copy of at most 4 KiB costs less than a map, an unmap and an invalidation. */
		for (i = 0U; (i < pages) && ok; i++) {
			unsigned int n = q.nseg - i * BLKIF_SEGS_PER_INDIRECT_FRAME;
			n = (n > BLKIF_SEGS_PER_INDIRECT_FRAME) ? BLKIF_SEGS_PER_INDIRECT_FRAME : n;
			r->st.copies++;
			ok = vbd_plat_copy_from(r->dev->fe, ind->indirect_grefs[i], 0U,
						&q.ind[i * BLKIF_SEGS_PER_INDIRECT_FRAME],
						(uint16_t)(n * sizeof(struct blkif_request_segment))) ==
			     GNTST_okay;
		}
		return ok;
	}
	/* Linux grants its indirect pages from the persistent pool too. */
	q.npers = 0U;
	for (i = 0U; i < pages; i++) {
		q.va[i] = want(r, ind->indirect_grefs[i], true, &nmap, &q.mi[i]);
	}
	ok = map_all(r, nmap);
	for (i = 0U; (i < pages) && ok; i++) {
		unsigned int n = q.nseg - i * BLKIF_SEGS_PER_INDIRECT_FRAME;
		const void *src = (q.va[i] != NULL) ? q.va[i] : q.map[q.mi[i]].va;

		n = (n > BLKIF_SEGS_PER_INDIRECT_FRAME) ? BLKIF_SEGS_PER_INDIRECT_FRAME : n;
		memcpy(&q.ind[i * BLKIF_SEGS_PER_INDIRECT_FRAME], src,
		       n * sizeof(struct blkif_request_segment));
	}
	unmap_tmp(r, nmap);
	return ok;
}

/* Read the slot once, check it whole: a BLKIF_RSP_* status. */
static int16_t decode(struct vbd_ring *r, const union blkif_sring_entry *e)
{
	union blkif_sring_entry copy;
	const struct blkif_request_segment *segs;
	uint64_t total = 0U;
	unsigned int i;

	memcpy(&copy, e, sizeof(copy));
	q.id = copy.req.id;
	q.rsp_op = copy.req.operation;
	q.flush = false;
	q.nseg = 0U;
	switch (copy.req.operation) {
	case BLKIF_OP_READ:
	case BLKIF_OP_WRITE:
	case BLKIF_OP_FLUSH_DISKCACHE:
		q.flush = copy.req.operation == BLKIF_OP_FLUSH_DISKCACHE;
		q.op = q.flush ? (uint8_t)BLKIF_OP_WRITE : copy.req.operation;
		q.sector = copy.req.sector_number;
		q.nseg = copy.req.nr_segments;
		if ((q.nseg > BLKIF_MAX_SEGMENTS_PER_REQUEST) || ((q.nseg == 0U) && !q.flush)) {
			return BLKIF_RSP_ERROR;
		}
		segs = copy.req.seg;
		break;
	case BLKIF_OP_INDIRECT:
		q.id = copy.ind.id;
		if (r->dev->offer.max_indirect == 0U) {
			return BLKIF_RSP_EOPNOTSUPP;
		}
		q.op = copy.ind.indirect_op;
		q.rsp_op = q.op;  /* Linux checks the response against the inner op */
		q.sector = copy.ind.sector_number;
		q.nseg = copy.ind.nr_segments;
		if (((q.op != BLKIF_OP_READ) && (q.op != BLKIF_OP_WRITE)) || (q.nseg == 0U) ||
		    (q.nseg > r->dev->offer.max_indirect)) {
			q.nseg = 0U;
			return BLKIF_RSP_ERROR;
		}
		r->st.indirect++;
		if (!fetch_indirect(r, &copy.ind)) {
			q.nseg = 0U;
			return BLKIF_RSP_ERROR;
		}
		segs = q.ind;
		break;
	default:
		return BLKIF_RSP_EOPNOTSUPP;
	}
	for (i = 0U; i < q.nseg; i++) {
		if (!seg_ok(&segs[i], &q.seg[i])) {
			q.nseg = 0U;
			return BLKIF_RSP_ERROR;
		}
		total += q.seg[i].len / BLKIF_SECTOR_SIZE;
	}
	if ((q.nseg != 0U) && ((q.sector >= r->dev->disk.sectors) ||
			       (total > r->dev->disk.sectors - q.sector))) {
		q.nseg = 0U;
		return BLKIF_RSP_ERROR;
	}
	if ((q.op == BLKIF_OP_WRITE) && (q.nseg != 0U) && r->dev->disk.readonly) {
		q.nseg = 0U;
		return BLKIF_RSP_ERROR;
	}
	return BLKIF_RSP_OKAY;
}

/* ----------------------------------------------------------- the data */

static int16_t transfer(struct vbd_ring *r)
{
	uint64_t off = q.sector * BLKIF_SECTOR_SIZE;
	unsigned int nmap = 0U;
	unsigned int i;
	bool ok;

	q.npers = 0U;
	for (i = 0U; i < q.nseg; i++) {
		/* A write only reads the frontend's page. */
		q.va[i] = want(r, q.seg[i].gref, q.op == BLKIF_OP_WRITE, &nmap, &q.mi[i]);
	}
	ok = map_all(r, nmap);
	for (i = 0U; (i < q.nseg) && ok; i++) {
		uint8_t *page = (q.va[i] != NULL) ? (uint8_t *)q.va[i] : (uint8_t *)q.map[q.mi[i]].va;

		if (q.op == BLKIF_OP_WRITE) {
			vbd_disk_write(&r->dev->disk, off, &page[q.seg[i].off], q.seg[i].len);
		} else {
			vbd_disk_read(&r->dev->disk, off, &page[q.seg[i].off], q.seg[i].len);
		}
		off += q.seg[i].len;
	}
	/* Before the response: Linux revokes what it finds unmapped, and only that. */
	unmap_tmp(r, nmap);
	if (ok && q.flush) {
		vbd_disk_flush(&r->dev->disk);
		r->st.flushes++;
	}
	return ok ? BLKIF_RSP_OKAY : BLKIF_RSP_ERROR;
}

/* ------------------------------------------------------------- the ring */

static void publish(struct vbd_ring *r, int16_t status)
{
	struct blkif_response rsp = { .id = q.id, .operation = q.rsp_op, .status = status };

	memcpy(&r->slot[r->rsp_prod_pvt % r->size].rsp, &rsp, sizeof(rsp));
	r->rsp_prod_pvt++;
	/* At once: a backend that takes over after a crash trusts rsp_prod (vbd.h). */
	__atomic_store_n(&r->sring->rsp_prod, r->rsp_prod_pvt, __ATOMIC_RELEASE);
}

bool vbd_ring_serve(struct vbd_ring *r)
{
	RING_IDX old = r->rsp_prod_pvt;
	RING_IDX prod;
	unsigned int n = 0U;
	bool again = true;
	bool refused = false;

	if (!r->connected) {
		return false;
	}
	while (again && (n < VBD_BUDGET)) {
		prod = __atomic_load_n(&r->sring->req_prod, __ATOMIC_ACQUIRE);
		if ((RING_IDX)(prod - r->req_cons) > r->size) {
			/* Past the ring: refuse it whole, say so once per value. */
			if (prod != r->bad_prod) {
				r->bad_prod = prod;
				r->st.ring_errors++;
				vbd_log("%s: d%u %s queue %u: req_prod %u is %u past req_cons %u: "
					"refused\n", vbd_plat_tag(), r->dev->fe, r->dev->name,
					r->idx, prod, prod - r->req_cons, r->req_cons);
			}
			refused = true;
			break;
		}
		while ((r->req_cons != prod) && (n < VBD_BUDGET)) {
			const union blkif_sring_entry *e = &r->slot[r->req_cons % r->size];
			int16_t st;

			r->req_cons++;
			st = decode(r, e);
			if ((st == BLKIF_RSP_OKAY) && (q.nseg != 0U)) {
				st = transfer(r);
			} else if ((st == BLKIF_RSP_OKAY) && q.flush) {
				vbd_disk_flush(&r->dev->disk);
				r->st.flushes++;
			} else {
				/* refused whole, nothing moved */
			}
			r->st.reqs++;
			r->st.errors += (st == BLKIF_RSP_ERROR) ? 1U : 0U;
			r->st.unsupported += (st == BLKIF_RSP_EOPNOTSUPP) ? 1U : 0U;
			publish(r, st);
			n++;
		}
		/* RING_FINAL_CHECK_FOR_REQUESTS: ask for an event, then look once more. */
		again = false;
		if (r->req_cons == prod) {
			__atomic_store_n(&r->sring->req_event, r->req_cons + 1U, __ATOMIC_RELAXED);
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			again = __atomic_load_n(&r->sring->req_prod, __ATOMIC_ACQUIRE) != r->req_cons;
		}
	}
	if (r->rsp_prod_pvt != old) {
		RING_IDX ev;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		ev = __atomic_load_n(&r->sring->rsp_event, __ATOMIC_ACQUIRE);
		/* RING_PUSH_RESPONSES_AND_CHECK_NOTIFY */
		if ((RING_IDX)(r->rsp_prod_pvt - ev) < (RING_IDX)(r->rsp_prod_pvt - old)) {
			vbd_plat_notify(r->lport);
			r->st.notifies++;
		}
	}
	/* Busy while there is more to do: the caller comes back before it sleeps. */
	return !refused && ((n != 0U) || (r->req_cons != __atomic_load_n(&r->sring->req_prod,
									    __ATOMIC_ACQUIRE)));
}

/* ------------------------------------------------------- connect/close */

void vbd_ring_init(void)
{
	tmp_win = -1;
}

/* Window pages of the ring and of its persistent grants; false when there are none left. */
static bool win_get(struct vbd_ring *r)
{
	unsigned int np = r->dev->persistent ? r->dev->offer.max_pers : 0U;

	if (tmp_win < 0) {
		tmp_win = vbd_plat_win_alloc(VBD_TMP_PAGES);
	}
	r->win = vbd_plat_win_alloc(r->pages);
	r->pers_win = (np != 0U) ? vbd_plat_win_alloc(np) : -1;
	if ((tmp_win >= 0) && (r->win >= 0) && ((np == 0U) || (r->pers_win >= 0))) {
		vbd_pers_init(&r->pers, np, (r->pers_win < 0) ? 0U : (unsigned int)r->pers_win);
		return true;
	}
	vbd_log("%s: d%u %s: no room in the grant window\n", vbd_plat_tag(), r->dev->fe,
		r->dev->name);
	if (r->win >= 0) {
		vbd_plat_win_free((unsigned int)r->win, r->pages);
	}
	if (r->pers_win >= 0) {
		vbd_plat_win_free((unsigned int)r->pers_win, np);
	}
	r->win = -1;
	r->pers_win = -1;
	return false;
}

static void win_put(struct vbd_ring *r)
{
	if (r->pers_win >= 0) {
		vbd_plat_win_free((unsigned int)r->pers_win, r->pers.max);
	}
	vbd_plat_win_free((unsigned int)r->win, r->pages);
	r->win = -1;
	r->pers_win = -1;
}

int vbd_ring_connect(struct vbd_ring *r)
{
	static struct vbd_map m[VBD_MAX_RING_PAGES];
	unsigned int i;
	unsigned int k = 0U;
	bool ok = true;

	if ((r->pages == 0U) || (r->pages > VBD_MAX_RING_PAGES) || !win_get(r)) {
		return -1;
	}
	for (i = 0U; i < r->pages; i++) {
		m[i] = (struct vbd_map){ .dom = r->dev->fe, .gref = r->gref[i],
					 .slot = (uint32_t)r->win + i, .ro = false };
	}
	vbd_plat_map(m, r->pages);
	for (i = 0U; i < r->pages; i++) {
		ok = ok && (m[i].status == GNTST_okay);
		/* Contiguous slots, so the ring is one run of memory. */
		ok = ok && ((uint8_t *)m[i].va == (uint8_t *)m[0].va + 4096U * i);
		r->handle[i] = m[i].handle;
	}
	if (ok && (vbd_plat_bind(r->dev->fe, r->rport, &r->lport) != 0)) {
		ok = false;
		r->lport = 0U;
	}
	if (!ok) {
		for (i = 0U; i < r->pages; i++) {
			if (m[i].status == GNTST_okay) {
				m[k++] = m[i];
			}
		}
		vbd_plat_unmap(m, k);
		win_put(r);
		return -1;
	}
	r->sring = (struct xen_sring_header *)m[0].va;
	r->slot = (union blkif_sring_entry *)(void *)((uint8_t *)m[0].va +
						     sizeof(struct xen_sring_header));
	r->size = blkif_ring_size(r->pages);
	/* Fresh: both 0. Taken over from a crashed backend: what it published is done. */
	r->rsp_prod_pvt = __atomic_load_n(&r->sring->rsp_prod, __ATOMIC_ACQUIRE);
	r->req_cons = r->rsp_prod_pvt;
	r->bad_prod = r->req_cons;
	r->connected = true;
	r->st.maps += r->pages;
	return 0;
}

void vbd_ring_disconnect(struct vbd_ring *r)
{
	static struct vbd_map m[VBD_MAX_RING_PAGES];
	unsigned int i;

	if (!r->connected) {
		return;
	}
	r->st.unmaps += vbd_pers_release(&r->pers, r->dev->fe);
	for (i = 0U; i < r->pages; i++) {
		m[i] = (struct vbd_map){ .dom = r->dev->fe, .gref = r->gref[i],
					 .slot = (uint32_t)r->win + i,
					 .va = (uint8_t *)r->sring + 4096U * i, .handle = r->handle[i] };
	}
	vbd_plat_unmap(m, r->pages);
	r->st.unmaps += r->pages;
	win_put(r);
	if (r->lport != 0U) {
		vbd_plat_unbind(r->lport);
		r->lport = 0U;
	}
	r->connected = false;
	r->sring = NULL;
	r->slot = NULL;
}
