/* SPDX-License-Identifier: MIT */
/*
 * Malformed requests (bad=1): each must come back as an error response
 * with its own id, and a producer index pushed past the ring must be
 * refused (ring_errors in the handshake page) without killing the
 * connection; the normal workload runs afterwards on the same ring.
 */
#include <guest/guest.h>
#include <guest/xen_gnttab.h>
#include "blkfront.h"

#define BAD_ID 0xbad00000U

static uint8_t page[4096] __attribute__((aligned(4096)));

/* One request as the caller shaped it; the status it got, or 99 when none came. */
static int send_one(void (*shape)(union blkif_sring_entry *e), uint64_t id)
{
	union blkif_sring_entry *e = bf_slot_entry();
	struct blkif_response rsp;

	memset(e, 0, sizeof(*e));
	e->req.operation = BLKIF_OP_READ;
	e->req.nr_segments = 1U;
	e->req.id = id;
	e->req.seg[0].gref = BF_REF_BASE;
	e->req.seg[0].last_sect = 7U;
	shape(e);
	bf_push();
	if (!bf_next_rsp(&rsp)) {
		return 99;
	}
	if (rsp.id != id) {
		printf("%s: FAIL malformed request %lu answered as %lu\n", rt_tag(),
		       (unsigned long)id, (unsigned long)rsp.id);
		return 99;
	}
	return rsp.status;
}

static void bad_gref(union blkif_sring_entry *e) { e->req.seg[0].gref = 400U; }
static void bad_sector(union blkif_sring_entry *e) { e->req.sector_number = 1ULL << 40; }
static void straddle(union blkif_sring_entry *e) { e->req.sector_number = bf_hs()->sectors - 4U; }
static void too_many(union blkif_sring_entry *e) { e->req.nr_segments = 12U; }
static void zero_segs(union blkif_sring_entry *e) { e->req.nr_segments = 0U; }
static void bad_sects(union blkif_sring_entry *e) { e->req.seg[0].first_sect = 6U;
						    e->req.seg[0].last_sect = 2U; }
static void past_page(union blkif_sring_entry *e) { e->req.seg[0].last_sect = 8U; }
static void bad_op(union blkif_sring_entry *e) { e->req.operation = 0x77U; }
static void ind_too_many(union blkif_sring_entry *e)
{
	e->ind.operation = BLKIF_OP_INDIRECT;
	e->ind.indirect_op = BLKIF_OP_READ;
	e->ind.nr_segments = 600U;
	e->ind.indirect_grefs[0] = BF_REF_BASE;
}
static void ind_bad_gref(union blkif_sring_entry *e)
{
	e->ind.operation = BLKIF_OP_INDIRECT;
	e->ind.indirect_op = BLKIF_OP_WRITE;
	e->ind.nr_segments = 16U;
	e->ind.indirect_grefs[0] = 401U;
}

struct bad_case {
	const char *what;
	void (*shape)(union blkif_sring_entry *e);
	int want;
};

static const struct bad_case cases[] = {
	{ "ungranted grant ref", bad_gref, BLKIF_RSP_ERROR },
	{ "sector past the disk", bad_sector, BLKIF_RSP_ERROR },
	{ "request straddling the disk end", straddle, BLKIF_RSP_ERROR },
	{ "12 segments", too_many, BLKIF_RSP_ERROR },
	{ "0 segments", zero_segs, BLKIF_RSP_ERROR },
	{ "first_sect > last_sect", bad_sects, BLKIF_RSP_ERROR },
	{ "last_sect past the page", past_page, BLKIF_RSP_ERROR },
	{ "unknown operation", bad_op, BLKIF_RSP_EOPNOTSUPP },
	{ "indirect with 600 segments", ind_too_many, BLKIF_RSP_ERROR },
	{ "indirect page not granted", ind_bad_gref, BLKIF_RSP_ERROR },
};

int bf_malformed(void)
{
	volatile struct blkhs_page *hs = bf_hs();
	uint64_t deadline;
	unsigned int i;
	RING_IDX good;

	if (bf.mode == BLKHS_MODE_PERSISTENT) {
		printf("%s: FAIL bad=1 needs mode map or copy (it regrants pool refs)\n", rt_tag());
		return 1;
	}
	/* A real page behind the default ref, so only the shaped field is wrong. */
	gnt_grant(BF_REF_BASE, bf.be, (uint64_t)(uintptr_t)page >> 12, false);
	for (i = 0U; i < ARRAY_SIZE(cases); i++) {
		int st = send_one(cases[i].shape, BAD_ID + i);

		printf("%s: malformed: %s -> status %d\n", rt_tag(), cases[i].what, st);
		if (st != cases[i].want) {
			printf("%s: FAIL malformed %s: status %d, want %d\n", rt_tag(), cases[i].what,
			       st, cases[i].want);
			return 1;
		}
	}
	if (gnt_revoke(BF_REF_BASE) != 0) {
		printf("%s: FAIL backend kept a malformed request's grant\n", rt_tag());
		return 1;
	}
	/* The producer jumps 1000 slots ahead: the backend must refuse it and say so. */
	good = bf.req_prod;
	bf.req_prod = good + 1000U;
	bf_push();
	deadline = cntvct() + timer_us_to_ticks(bf.wait_ms * 1000U);
	while (hs->ring_errors == 0U) {
		bf_alive();
		if (cntvct() > deadline) {
			printf("%s: FAIL producer index past the ring not reported\n", rt_tag());
			return 1;
		}
	}
	printf("%s: malformed: req_prod 1000 past the ring -> refused (ring_errors %u)\n",
	       rt_tag(), hs->ring_errors);
	bf.req_prod = good;
	bf_push();
	printf("%s: malformed checks OK, now the normal workload\n", rt_tag());
	return 0;
}
