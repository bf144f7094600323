/* SPDX-License-Identifier: MIT */
/*
 * One ring of a virtual disk (guests/blkback/vbd_ring.c, vbd_pers.c):
 * requests as Linux's xen-blkfront makes them, persistent grants as it
 * reuses them, and every malformed request a frontend can write.
 */
#include "vbdt.h"

static const struct vbd_offer all = { .persistent = true, .max_indirect = 64U,
				      .max_ring_order = 3U, .max_queues = 4U, .max_pers = 128U };
static struct vbdt_fe fe;
static struct vbdt_fe fe2;
static uint8_t buf[64U * 4096U];

static int setup(void **state)
{
	(void)state;
	vbdt_reset();
	return 0;
}

static struct vbd_dev *up(const struct vbd_offer *o, unsigned int order, unsigned int nq,
			  bool persistent)
{
	struct vbd_dev *d = vbdt_dev(0, VBDT_FE, "xvda", o);

	assert_int_equal(vbd_dev_start(d), 0);
	(void)vbdt_dispatch();
	vbdt_fe_init(&fe, VBDT_FE, 51712U, order, nq, persistent);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateConnected);
	vbdt_fe_connected(&fe);
	return d;
}

static void serve(struct vbd_dev *d)
{
	unsigned int n;

	for (n = 0U; (n < 1000U) && vbd_dev_serve(d); n++) {
	}
	assert_true(n < 1000U);
}

/* The slot of the next request, to write by hand. */
static union blkif_sring_entry *next_slot(unsigned int qi)
{
	struct vbdt_queue *q = &fe.q[qi];
	union blkif_sring_entry *e = &q->slot[q->req_prod_pvt % q->size];

	memset(e, 0, sizeof(*e));
	return e;
}

/* Push one hand-made request; its response status. */
static int16_t one(struct vbd_dev *d, uint64_t id)
{
	struct vbdt_queue *q = &fe.q[0];
	struct blkif_response rsp;
	RING_IDX before = q->sring->rsp_prod;

	q->req_prod_pvt++;
	(void)vbdt_fe_push(&fe, 0U);
	serve(d);
	assert_int_equal(q->sring->rsp_prod, before + 1U);
	memcpy(&rsp, &q->slot[before % q->size].rsp, sizeof(rsp));
	assert_int_equal(rsp.id, id);
	q->rsp_cons = q->sring->rsp_prod;
	return rsp.status;
}

/* Reads and writes of 4 KiB to 128 KiB, direct and indirect, land where the sector says. */
static void test_data(void **state)
{
	VERIFIES(REQ-BLK-017)
	struct vbd_dev *d = up(&all, 0U, 1U, false);
	struct vbd_stats s;
	unsigned int i;

	(void)state;
	for (i = 1U; i <= 32U; i *= 2U) {
		assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 1000U + 64U * i, i * 4096U, i));
	}
	vbd_dev_stats(d, &s);
	assert_int_equal(s.indirect, 4U);    /* 16 and 32 pages: 2 writes + 2 reads */
	assert_int_equal(s.errors, 0U);
	assert_int_equal(s.copies, 4U);      /* indirect pages copied, not mapped */
	/* The last sector of the disk, and one past it. */
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, VBDT_DISK_SECTORS - 8U, 4096U, 99U));
	assert_false(vbdt_fe_roundtrip(d, &fe, 0U, VBDT_DISK_SECTORS - 7U, 4096U, 99U));
	assert_int_equal(vbdt_mapped(), 1U);
	vbd_dev_disconnect(d);
}

/* Sub-page segments: first_sect..last_sect select 512-byte sectors of the page. */
static void test_partial_segments(void **state)
{
	VERIFIES(REQ-BLK-017)
	struct vbd_dev *d = up(&all, 0U, 1U, false);
	union blkif_sring_entry *e;
	uint32_t page = 3000U;
	uint32_t g;

	(void)state;
	vbdt_pattern(vbdt_fe_page(VBDT_FE, page), 4096U, 7U);
	g = vbdt_grant(VBDT_FE, page, true);
	e = next_slot(0U);
	e->req = (struct blkif_request){ .operation = BLKIF_OP_WRITE, .nr_segments = 2, .id = 5,
					 .sector_number = 40 };
	e->req.seg[0] = (struct blkif_request_segment){ .gref = g, .first_sect = 2, .last_sect = 3 };
	e->req.seg[1] = (struct blkif_request_segment){ .gref = g, .first_sect = 7, .last_sect = 7 };
	assert_int_equal(one(d, 5U), BLKIF_RSP_OKAY);
	assert_memory_equal(&vbdt_disk[0][40U * 512U], vbdt_fe_page(VBDT_FE, page) + 1024U, 1024U);
	assert_memory_equal(&vbdt_disk[0][42U * 512U], vbdt_fe_page(VBDT_FE, page) + 3584U, 512U);
	/* A read-only grant is mapped read-only for a write, refused for a read. */
	e = next_slot(0U);
	e->req = (struct blkif_request){ .operation = BLKIF_OP_READ, .nr_segments = 1, .id = 6,
					 .sector_number = 40 };
	e->req.seg[0] = (struct blkif_request_segment){ .gref = g, .first_sect = 0, .last_sect = 7 };
	assert_int_equal(one(d, 6U), BLKIF_RSP_ERROR);
	assert_true(vbdt_revoke(VBDT_FE, g));
	vbd_dev_disconnect(d);
}

/*
 * Persistent grants: kept mapped after the response (Linux's revoke
 * fails, so it keeps and reuses them), never more than the bound per
 * ring, the rest mapped for one request; all unmapped at disconnect.
 */
static void test_persistent(void **state)
{
	VERIFIES(REQ-BLK-018)
	static const struct vbd_offer o = { .persistent = true, .max_indirect = 32U,
					    .max_ring_order = 0U, .max_queues = 2U,
					    .max_pers = 24U };
	struct vbd_dev *d = up(&o, 0U, 2U, true);
	struct vbd_stats s;
	unsigned int maps;
	unsigned int i;

	(void)state;
	assert_true(d->persistent && fe.pers_on);
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 0U, 4U * 4096U, 1U));
	/* Ring page of each queue + the 4 data grants, still mapped. */
	assert_int_equal(vbdt_mapped(), 2U + 4U);
	assert_int_equal(fe.q[0].persistent_c, 4U);
	maps = vbdt_maps_made();
	for (i = 0U; i < 20U; i++) {
		assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 64U * i, 4U * 4096U, 2U + i));
	}
	/* Reused from the head of Linux's list: not one map more. */
	assert_int_equal(vbdt_maps_made(), maps);
	vbd_dev_stats(d, &s);
	assert_int_equal(s.pers_hits, 4U + 40U * 4U);

	/* 32 segments + 1 indirect page: beyond the bound of 24, the rest are transient. */
	assert_true(vbdt_fe_roundtrip(d, &fe, 1U, 512U, 32U * 4096U, 50U));
	assert_int_equal(d->ring[1].pers.used, 24U);
	assert_int_equal(vbdt_mapped(), 2U + 4U + 24U);
	assert_int_equal(fe.q[1].persistent_c, 24U);
	/* Again: the kept ones come first, the others are granted anew and mapped once. */
	maps = vbdt_maps_made();
	assert_true(vbdt_fe_roundtrip(d, &fe, 1U, 1024U, 32U * 4096U, 51U));
	assert_int_equal(vbdt_mapped(), 2U + 4U + 24U);
	assert_int_equal(vbdt_maps_made() - maps, 2U * (33U - 24U));
	/* Each ring its own table and bound. */
	assert_int_equal(d->ring[0].pers.used, 4U);
	vbd_dev_disconnect(d);
	assert_int_equal(vbdt_mapped(), 0U);
	assert_int_equal(vbdt_bound(), 0U);
	vbd_dev_stats(d, &s);
	assert_int_equal(s.maps, s.unmaps);
}

/* Persistent grants are also indirect pages; a frontend without the feature gets none. */
static void test_persistent_needs_both(void **state)
{
	VERIFIES(REQ-BLK-018)
	struct vbd_dev *d = up(&all, 0U, 1U, false);

	(void)state;
	assert_false(d->persistent);
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 0U, 16U * 4096U, 3U));
	assert_int_equal(vbdt_mapped(), 1U);
	vbd_dev_disconnect(d);
}

/* Flushes: empty (what Linux sends for REQ_OP_FLUSH) and carrying a write. */
static void test_flush(void **state)
{
	VERIFIES(REQ-BLK-019)
	struct vbd_dev *d = up(&all, 0U, 1U, false);
	int id;

	(void)state;
	id = vbdt_fe_submit(&fe, 0U, BLKIF_OP_FLUSH_DISKCACHE, 0U, 0U, NULL);
	(void)vbdt_fe_push(&fe, 0U);
	serve(d);
	assert_int_equal(vbdt_fe_complete(&fe, 0U), 1U);
	assert_int_equal(fe.q[0].shadow[id].status, BLKIF_RSP_OKAY);
	fe.q[0].shadow[id].busy = false;
	assert_int_equal(d->disk.flushes, 1U);
	vbdt_pattern(buf, 8192U, 4U);
	id = vbdt_fe_submit(&fe, 0U, BLKIF_OP_FLUSH_DISKCACHE, 64U, 8192U, buf);
	(void)vbdt_fe_push(&fe, 0U);
	serve(d);
	assert_int_equal(vbdt_fe_complete(&fe, 0U), 1U);
	assert_int_equal(fe.q[0].shadow[id].status, BLKIF_RSP_OKAY);
	assert_int_equal(d->disk.flushes, 2U);
	assert_memory_equal(&vbdt_disk[0][64U * 512U], buf, 8192U);
	vbd_dev_disconnect(d);
}

/* Linux notifies only when req_event asks for it: the backend must keep asking. */
static void test_event_indexes(void **state)
{
	VERIFIES(REQ-BLK-017)
	struct vbd_dev *d = up(&all, 0U, 1U, false);
	unsigned int before = vbdt_notified(VBDT_FE);
	unsigned int i;

	(void)state;
	for (i = 0U; i < 10U; i++) {
		int id = vbdt_fe_submit(&fe, 0U, BLKIF_OP_READ, 8U * i, 4096U, NULL);
		/* Every push after a drained ring must notify, else the backend sleeps on. */
		assert_true(vbdt_fe_push(&fe, 0U));
		serve(d);
		assert_int_equal(fe.q[0].sring->req_event, fe.q[0].sring->req_prod + 1U);
		assert_int_equal(vbdt_fe_complete(&fe, 0U), 1U);
		fe.q[0].shadow[id].busy = false;
	}
	/* And the backend notified each time the frontend had asked (rsp_event). */
	assert_int_equal(vbdt_notified(VBDT_FE) - before, 10U);
	vbd_dev_disconnect(d);
}

/* Every malformed request is answered with an error and moves nothing. */
static void test_malformed(void **state)
{
	VERIFIES(REQ-BLK-020)
	struct vbd_dev *d = up(&all, 0U, 1U, false);
	union blkif_sring_entry *e;
	struct vbd_stats s;
	uint32_t g = vbdt_grant(VBDT_FE, 3001U, false);
	uint32_t ig = vbdt_grant(VBDT_FE, 3002U, true);
	struct blkif_request_segment *isegs =
		(struct blkif_request_segment *)(void *)vbdt_fe_page(VBDT_FE, 3002U);
	uint64_t id = 1U;

	(void)state;
	memset(vbdt_disk[0], 0xab, 4096U);
#define RW(op_, n_, sect_, f_, l_, gref_)                                                  \
	do {                                                                               \
		e = next_slot(0U);                                                         \
		e->req = (struct blkif_request){ .operation = (op_), .nr_segments = (n_),   \
						 .id = id, .sector_number = (sect_) };      \
		e->req.seg[0] = (struct blkif_request_segment){ .gref = (gref_),            \
								.first_sect = (f_),          \
								.last_sect = (l_) };         \
	} while (0)
	RW(BLKIF_OP_WRITE, 0, 0, 0, 7, g);       /* no segments */
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	RW(BLKIF_OP_WRITE, 12, 0, 0, 7, g);      /* more than 11 */
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	RW(BLKIF_OP_WRITE, 1, 0, 4, 3, g);       /* first > last */
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	RW(BLKIF_OP_WRITE, 1, 0, 0, 8, g);       /* last past the page */
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	RW(BLKIF_OP_WRITE, 1, VBDT_DISK_SECTORS, 0, 0, g);  /* past the disk */
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	RW(BLKIF_OP_WRITE, 1, 0xfffffffffffffff8ULL, 0, 7, g); /* wraps */
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	RW(BLKIF_OP_WRITE, 1, 0, 0, 7, 3999U);   /* never granted */
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	RW(BLKIF_OP_WRITE, 1, 0, 0, 7, 70000U);  /* beyond the table */
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	RW(BLKIF_OP_WRITE_BARRIER, 1, 0, 0, 7, g); /* not offered */
	assert_int_equal(one(d, id++), BLKIF_RSP_EOPNOTSUPP);
	RW(BLKIF_OP_DISCARD, 1, 0, 0, 7, g);
	assert_int_equal(one(d, id++), BLKIF_RSP_EOPNOTSUPP);
	RW(200, 1, 0, 0, 7, g);
	assert_int_equal(one(d, id++), BLKIF_RSP_EOPNOTSUPP);
	/* Indirect: bad inner op, too many segments, none, unmappable indirect page, bad segment. */
#define IND(op_, n_, gref_)                                                                 \
	do {                                                                                \
		e = next_slot(0U);                                                          \
		e->ind = (struct blkif_request_indirect){ .operation = BLKIF_OP_INDIRECT,    \
							  .indirect_op = (op_),              \
							  .nr_segments = (n_), .id = id };   \
		e->ind.indirect_grefs[0] = (gref_);                                         \
	} while (0)
	isegs[0] = (struct blkif_request_segment){ .gref = g, .first_sect = 0, .last_sect = 7 };
	isegs[1] = (struct blkif_request_segment){ .gref = g, .first_sect = 0, .last_sect = 9 };
	IND(BLKIF_OP_FLUSH_DISKCACHE, 1, ig);
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	IND(BLKIF_OP_WRITE, 65, ig);
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	IND(BLKIF_OP_WRITE, 0, ig);
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	IND(BLKIF_OP_WRITE, 1, 3998U);
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	IND(BLKIF_OP_WRITE, 2, ig);
	assert_int_equal(one(d, id++), BLKIF_RSP_ERROR);
	/* Nothing moved, nothing left mapped. */
	assert_int_equal(vbdt_disk[0][0], 0xab);
	assert_int_equal(vbdt_mapped(), 1U);
	vbd_dev_stats(d, &s);
	assert_int_equal(s.errors, 13U);
	assert_int_equal(s.unsupported, 3U);
	/* And a good request still works. */
	IND(BLKIF_OP_WRITE, 1, ig);
	assert_int_equal(one(d, id++), BLKIF_RSP_OKAY);
	vbd_dev_disconnect(d);
}

/* A producer index past the ring is refused whole; the ring works again once it is sane. */
static void test_bogus_producer(void **state)
{
	VERIFIES(REQ-BLK-020)
	struct vbd_dev *d = up(&all, 0U, 1U, false);
	RING_IDX good;

	(void)state;
	good = fe.q[0].sring->req_prod;
	fe.q[0].sring->req_prod = good + 1000U;
	assert_false(vbd_dev_serve(d));
	assert_false(vbd_dev_serve(d));
	assert_int_equal(d->ring[0].st.ring_errors, 1U);
	assert_int_equal(fe.q[0].sring->rsp_prod, good);
	fe.q[0].sring->req_prod = good;
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 0U, 4096U, 5U));
	vbd_dev_disconnect(d);
}

/* Two frontends: one writes garbage, the other is served all along. */
static void test_isolation(void **state)
{
	VERIFIES(REQ-BLK-020)
	struct vbd_dev *d = up(&all, 0U, 1U, true);
	struct vbd_dev *d2 = vbdt_dev(1, VBDT_FE2, "xvdb", &all);
	unsigned int i;

	(void)state;
	assert_int_equal(vbd_dev_start(d2), 0);
	(void)vbdt_dispatch();
	vbdt_fe_init(&fe2, VBDT_FE2, vbd_vdev_of("xvdb"), 1U, 1U, true);
	(void)vbdt_dispatch();
	vbdt_fe_connected(&fe2);
	for (i = 0U; i < 8U; i++) {
		union blkif_sring_entry *e = next_slot(0U);
		memset(e, 0x5a + (int)i, sizeof(*e));
		fe.q[0].req_prod_pvt++;
		(void)vbdt_fe_push(&fe, 0U);
		(void)vbd_dev_serve(d);
		assert_true(vbdt_fe_roundtrip(d2, &fe2, 0U, 8U * i, 8192U, i));
	}
	assert_int_equal(d->ring[0].st.reqs, 8U);
	assert_int_equal(d->ring[0].st.errors + d->ring[0].st.unsupported, 8U);
	/* Disks are apart: xvdb's data went to xvdb's disk only. */
	vbdt_pattern(buf, 8192U, 7U);
	assert_memory_equal(&vbdt_disk[1][56U * 512U], buf, 8192U);
	vbd_dev_disconnect(d);
	vbd_dev_disconnect(d2);
	assert_int_equal(vbdt_mapped(), 0U);
}

/* The hypervisor's maptrack runs out: persistent and transient maps fail cleanly. */
static void test_maptrack_full(void **state)
{
	VERIFIES(REQ-BLK-018)
	struct vbd_dev *d = up(&all, 0U, 1U, true);
	int id;

	(void)state;
	vbdt_maptrack_max = 3U;   /* the ring page + 2 */
	vbdt_pattern(buf, 4U * 4096U, 8U);
	id = vbdt_fe_submit(&fe, 0U, BLKIF_OP_WRITE, 0U, 4U * 4096U, buf);
	(void)vbdt_fe_push(&fe, 0U);
	serve(d);
	assert_int_equal(vbdt_fe_complete(&fe, 0U), 1U);
	assert_int_equal(fe.q[0].shadow[id].status, BLKIF_RSP_ERROR);
	fe.q[0].shadow[id].busy = false;
	/* Nothing half kept: the two that mapped were dropped again. */
	assert_int_equal(vbdt_mapped(), 1U);
	assert_int_equal(d->ring[0].pers.used, 0U);
	vbdt_maptrack_max = 100000U;
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 0U, 4U * 4096U, 9U));
	vbd_dev_disconnect(d);
}

/* The persistent-grant table on its own: bound, lookups, release. */
static void test_pers_table(void **state)
{
	VERIFIES(REQ-BLK-018)
	static struct vbd_pers p;
	uint32_t slot;
	unsigned int i;

	(void)state;
	vbd_pers_init(&p, 100U, 1000U);
	for (i = 0U; i < 100U; i++) {
		assert_true(vbd_pers_room(&p, &slot));
		assert_int_equal(slot, 1000U + i);
		vbd_pers_add(&p, 7U * i + 3U, i, slot, NULL);
	}
	assert_false(vbd_pers_room(&p, &slot));
	for (i = 0U; i < 100U; i++) {
		struct vbd_pgrant *g = vbd_pers_find(&p, 7U * i + 3U);
		assert_non_null(g);
		assert_int_equal(g->slot, 1000U + i);
	}
	assert_null(vbd_pers_find(&p, 4U));
	vbd_pers_init(&p, 5000U, 0U);
	assert_int_equal(p.max, VBD_MAX_PERS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_data, setup),
		cmocka_unit_test_setup(test_partial_segments, setup),
		cmocka_unit_test_setup(test_persistent, setup),
		cmocka_unit_test_setup(test_persistent_needs_both, setup),
		cmocka_unit_test_setup(test_flush, setup),
		cmocka_unit_test_setup(test_event_indexes, setup),
		cmocka_unit_test_setup(test_malformed, setup),
		cmocka_unit_test_setup(test_bogus_producer, setup),
		cmocka_unit_test_setup(test_isolation, setup),
		cmocka_unit_test_setup(test_maptrack_full, setup),
		cmocka_unit_test_setup(test_pers_table, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
