/* SPDX-License-Identifier: MIT */
/*
 * Block frontend partition (docs/blkif.md). One image, many instances; the
 * identity comes from bootargs: id= (pattern seed), be= (backend domid),
 * port= (local static channel), mode=map|persistent|copy, reqs= (total
 * requests), bytes=4096|65536, qd= (queue depth), crash_after= (touch an
 * unmapped address after that many requests), bad=1 (malformed requests
 * first). Rounds of qd writes to distinct blocks then qd reads of them:
 * every read is checked against the pattern of the request that wrote it,
 * and every response must match exactly one request in flight.
 */
#include <guest/guest.h>
#include <guest/blkhs.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>
#include "blkfront.h"

struct bf bf;

static struct blkhs_page hs_page __attribute__((aligned(4096)));
static struct blkif_sring ring_page __attribute__((aligned(4096)));
static uint8_t user[BF_MAX_QD][BF_MAX_BYTES] __attribute__((aligned(4096)));
static uint8_t pool[BF_MAX_QD][BF_PAGES_PER_SLOT][4096] __attribute__((aligned(4096)));
static uint32_t writer[BF_MAX_BLOCKS];  /* request number that last wrote each block, +1 */

static uint64_t ms_ticks(uint64_t ms)
{
	return timer_us_to_ticks(ms * 1000U);
}

static uint64_t gfn_of(const void *p)
{
	return (uint64_t)(uintptr_t)p >> 12;
}

/*
 * The data of request n on block blk: 64-bit word k is base + k * STEP,
 * base a hash of (frontend, request, block). A word from another frontend,
 * request or block, or from another place of the same block, differs. One
 * add per 8 bytes: the check must not cost more than the I/O it checks
 * (a per-word hash was ~10 instructions a word, most of a 4 KiB request).
 */
#define PATTERN_STEP 0x9e3779b97f4a7c15ULL

static uint64_t pattern_base(uint32_t n, uint32_t blk)
{
	uint64_t v = ((uint64_t)(bf.id + 1U) << 40) ^ ((uint64_t)n << 20) ^ blk;

	v *= 0xff51afd7ed558ccdULL;
	return v ^ (v >> 29);
}

static grant_ref_t slot_ref(unsigned int s, unsigned int k)
{
	return (grant_ref_t)(BF_REF_BASE + s * BF_PAGES_PER_SLOT + k);
}

void bf_alive(void)
{
	hs_page.heartbeat++;
}

void bf_push(void)
{
	__atomic_store_n(&ring_page.hdr.req_prod, bf.req_prod, __ATOMIC_RELEASE);
	(void)evt_send(bf.port);
}

union blkif_sring_entry *bf_slot_entry(void)
{
	return &ring_page.ring[bf.req_prod++ % BLKIF_RING_SIZE];
}

volatile struct blkhs_page *bf_hs(void)
{
	return &hs_page;
}

/*
 * Wait until done() or the deadline, asleep in SCHEDOP_poll between looks
 * rather than spinning: with more vCPUs than host cores a spinning
 * frontend would take the core its backend needs. The port is cleared
 * before each look, so a signal after the look ends the sleep; the slice
 * keeps the heartbeat going whatever the backend does.
 */
static bool bf_wait(bool (*done)(void), uint64_t deadline)
{
	for (;;) {
		evt_clear(bf.port);
		if (done()) {
			return true;
		}
		bf_alive();
		if (cntvct() > deadline) {
			return false;
		}
		(void)evt_poll(&bf.port, 1U, ms_ticks(BF_SLICE_MS));
	}
}

static bool rsp_ready(void)
{
	return __atomic_load_n(&ring_page.hdr.rsp_prod, __ATOMIC_ACQUIRE) != bf.rsp_cons;
}

static bool be_answered(void)
{
	return hs_page.be_state != BLKHS_BE_NONE;
}

static bool be_closed(void)
{
	return hs_page.be_state == BLKHS_BE_CLOSED;
}

/* Wait for the next response; false (and a FAIL line) after the timeout. */
bool bf_next_rsp(struct blkif_response *out)
{
	/* The common case, a response already there, costs no clear and no poll. */
	if (!rsp_ready() && !bf_wait(rsp_ready, cntvct() + ms_ticks(bf.wait_ms))) {
		printf("%s: FAIL lost response: none for %lu ms (rsp_cons %u)\n", rt_tag(),
		       (unsigned long)bf.wait_ms, bf.rsp_cons);
		return false;
	}
	memcpy(out, &ring_page.ring[bf.rsp_cons % BLKIF_RING_SIZE].rsp, sizeof(*out));
	bf.rsp_cons++;
	return true;
}

/* Put request n (op on block blk) of slot s on the ring, not yet pushed. */
static void issue(unsigned int s, uint8_t op, uint32_t blk, uint32_t n)
{
	unsigned int nseg = bf.bytes / 4096U;
	bool persistent = bf.mode == BLKHS_MODE_PERSISTENT;
	union blkif_sring_entry *e = bf_slot_entry();
	struct blkif_request_segment *segs;
	uint64_t *w = (uint64_t *)user[s];
	unsigned int k;

	if (op == BLKIF_OP_WRITE) {
		uint64_t v = pattern_base(n, blk);

		for (k = 0U; k < bf.bytes / 8U; k++, v += PATTERN_STEP) {
			w[k] = v;
		}
		if (persistent) {
			for (k = 0U; k < nseg; k++) {
				memcpy(pool[s][k], user[s] + k * 4096U, 4096U);
			}
		}
	}
	for (k = 0U; (k < nseg) && !persistent; k++) {
		/* Zero-copy: grant the data page itself, read-only when the backend only reads it. */
		gnt_grant(slot_ref(s, k), bf.be, gfn_of(user[s] + k * 4096U), op == BLKIF_OP_WRITE);
	}
	if (nseg <= BLKIF_MAX_SEGMENTS_PER_REQUEST) {
		memset(&e->req, 0, sizeof(e->req));
		e->req.operation = op;
		e->req.nr_segments = (uint8_t)nseg;
		e->req.id = n;
		e->req.sector_number = (uint64_t)blk * (bf.bytes / BLKIF_SECTOR_SIZE);
		segs = e->req.seg;
	} else {
		memset(&e->ind, 0, sizeof(e->ind));
		e->ind.operation = BLKIF_OP_INDIRECT;
		e->ind.indirect_op = op;
		e->ind.nr_segments = (uint16_t)nseg;
		e->ind.id = n;
		e->ind.sector_number = (uint64_t)blk * (bf.bytes / BLKIF_SECTOR_SIZE);
		e->ind.indirect_grefs[0] = slot_ref(s, BF_IND_PAGE);
		segs = (struct blkif_request_segment *)pool[s][BF_IND_PAGE];
		if (!persistent) {
			gnt_grant(slot_ref(s, BF_IND_PAGE), bf.be, gfn_of(pool[s][BF_IND_PAGE]), true);
		}
	}
	for (k = 0U; k < nseg; k++) {
		segs[k].gref = slot_ref(s, k);
		segs[k].first_sect = 0U;
		segs[k].last_sect = 7U;
	}
	bf.inflight[s] = n + 1U;
	bf.op[s] = op;
	bf.blk[s] = blk;
}

/* Account for one response: exactly one request in flight must own it. */
static bool complete(const struct blkif_response *rsp)
{
	unsigned int nseg = bf.bytes / 4096U;
	const uint64_t *w;
	uint64_t want;
	unsigned int s;
	unsigned int k;

	for (s = 0U; s < bf.qd; s++) {
		if (bf.inflight[s] == rsp->id + 1U) {
			break;
		}
	}
	if (s == bf.qd) {
		printf("%s: FAIL duplicated or unknown response id %lu\n", rt_tag(),
		       (unsigned long)rsp->id);
		return false;
	}
	bf.inflight[s] = 0U;
	if (rsp->status != BLKIF_RSP_OKAY) {
		printf("%s: FAIL request %lu status %d\n", rt_tag(), (unsigned long)rsp->id,
		       rsp->status);
		return false;
	}
	if (bf.mode != BLKHS_MODE_PERSISTENT) {
		for (k = 0U; k < nseg + ((nseg > BLKIF_MAX_SEGMENTS_PER_REQUEST) ? 1U : 0U); k++) {
			unsigned int page = (k < nseg) ? k : BF_IND_PAGE;

			if (gnt_revoke(slot_ref(s, page)) != 0) {
				printf("%s: FAIL backend still holds grant %u after response\n",
				       rt_tag(), slot_ref(s, page));
				return false;
			}
		}
	}
	if (bf.op[s] == BLKIF_OP_WRITE) {
		writer[bf.blk[s]] = (uint32_t)rsp->id + 1U;
		return true;
	}
	if (bf.mode == BLKHS_MODE_PERSISTENT) {
		for (k = 0U; k < nseg; k++) {
			memcpy(user[s] + k * 4096U, pool[s][k], 4096U);
		}
	}
	w = (const uint64_t *)user[s];
	want = pattern_base(writer[bf.blk[s]] - 1U, bf.blk[s]);
	for (k = 0U; k < bf.bytes / 8U; k++, want += PATTERN_STEP) {
		if (w[k] != want) {
			printf("%s: FAIL data mismatch: read %lu block %u word %u: 0x%lx, want 0x%lx\n",
			       rt_tag(), (unsigned long)rsp->id, bf.blk[s], k, (unsigned long)w[k],
			       (unsigned long)want);
			return false;
		}
	}
	bf.verified++;
	return true;
}

static bool connect(void)
{
	uint64_t deadline = cntvct() + ms_ticks(bf.wait_ms * 4U);
	unsigned int s;
	unsigned int k;

	ring_page.hdr.req_event = 1U;
	ring_page.hdr.rsp_event = 1U;
	hs_page.magic = BLKHS_MAGIC;
	hs_page.version = (uint16_t)rt_arg_u64("version", BLKHS_VERSION);
	hs_page.mode = bf.mode;
	hs_page.ring_gref = BLKHS_RING_REF;
	hs_page.fe_features = BLKHS_F_INDIRECT |
			      ((bf.mode == BLKHS_MODE_PERSISTENT) ? BLKHS_F_PERSISTENT : 0U);
	hs_page.fe_max_indirect = BF_MAX_BYTES / 4096U;
	if (bf.mode == BLKHS_MODE_PERSISTENT) {
		for (s = 0U; s < bf.qd; s++) {
			for (k = 0U; k < BF_PAGES_PER_SLOT; k++) {
				gnt_grant(slot_ref(s, k), bf.be, gfn_of(pool[s][k]), false);
			}
		}
	}
	gnt_grant(BLKHS_RING_REF, bf.be, gfn_of(&ring_page), false);
	hs_page.fe_state = BLKHS_FE_READY;
	gnt_grant(BLKHS_REF, bf.be, gfn_of(&hs_page), false);
	(void)evt_send(bf.port);
	if (!bf_wait(be_answered, deadline)) {
		printf("%s: FAIL backend never connected\n", rt_tag());
		return false;
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (hs_page.be_state != BLKHS_BE_CONNECTED) {
		printf("%s: backend rejected the handshake (state %u)\n", rt_tag(), hs_page.be_state);
		return false;
	}
	if ((bf.mode == BLKHS_MODE_PERSISTENT) &&
	    ((hs_page.be_features & BLKHS_F_PERSISTENT) == 0U)) {
		printf("%s: FAIL backend refused feature-persistent\n", rt_tag());
		return false;
	}
	bf.blocks = (uint32_t)(hs_page.sectors * BLKIF_SECTOR_SIZE / bf.bytes);
	bf.blocks = (bf.blocks > BF_MAX_BLOCKS) ? BF_MAX_BLOCKS : bf.blocks;
	printf("%s: connected, mode %u, %u blocks of %u bytes, qd %u, persistent max %u\n",
	       rt_tag(), bf.mode, bf.blocks, bf.bytes, bf.qd, hs_page.be_persistent_max);
	return bf.blocks >= bf.qd;
}

/* Ask the backend to unmap everything, then take every grant back. */
static bool disconnect(void)
{
	uint64_t deadline = cntvct() + ms_ticks(bf.wait_ms);
	unsigned int s;
	unsigned int k;
	long rc;

	hs_page.fe_state = BLKHS_FE_CLOSING;
	(void)evt_send(bf.port);
	if (!bf_wait(be_closed, deadline)) {
		printf("%s: FAIL backend did not close\n", rt_tag());
		return false;
	}
	/* The backend's last act is to unmap the handshake page it just wrote: retry. */
	do {
		rc = 0;
		for (s = 0U; (s < bf.qd) && (bf.mode == BLKHS_MODE_PERSISTENT); s++) {
			for (k = 0U; k < BF_PAGES_PER_SLOT; k++) {
				rc |= gnt_revoke(slot_ref(s, k));
			}
		}
		rc |= gnt_revoke(BLKHS_RING_REF);
		rc |= gnt_revoke(BLKHS_REF);
	} while ((rc != 0) && (cntvct() < deadline));
	if (rc != 0) {
		printf("%s: FAIL a grant is still in use after close\n", rt_tag());
		return false;
	}
	return true;
}

static int run(void)
{
	uint32_t n = 0U;
	uint32_t round = 0U;
	uint64_t t0 = cntvct();
	uint64_t us;
	unsigned int s;

	while (n < bf.reqs) {
		for (int phase = 0; phase < 2; phase++) {
			uint8_t op = (phase == 0) ? BLKIF_OP_WRITE : BLKIF_OP_READ;

			for (s = 0U; s < bf.qd; s++) {
				issue(s, op, (round * bf.qd + s) % bf.blocks, n++);
			}
			bf_push();
			for (s = 0U; s < bf.qd; s++) {
				struct blkif_response rsp;

				if (!bf_next_rsp(&rsp) || !complete(&rsp)) {
					return 1;
				}
			}
			if ((bf.crash_after != 0U) && (n >= bf.crash_after)) {
				printf("%s: crashing on purpose after %u requests\n", rt_tag(), n);
				(void)*(volatile uint32_t *)(uintptr_t)(rt.ram_base + rt.ram_size);
			}
		}
		round++;
	}
	us = timer_ticks_to_us(cntvct() - t0);
	printf("%s: %u requests, %u reads verified, %lu us, %lu req/s\n", rt_tag(), n, bf.verified,
	       (unsigned long)us, (unsigned long)((uint64_t)n * 1000000U / (us ? us : 1U)));
	return 0;
}

static uint16_t parse_mode(void)
{
	char m[16] = "map";

	(void)rt_arg("mode", m, sizeof(m));
	if (strcmp(m, "persistent") == 0) {
		return BLKHS_MODE_PERSISTENT;
	}
	if (strcmp(m, "copy") == 0) {
		return BLKHS_MODE_COPY;
	}
	return (strcmp(m, "map") == 0) ? BLKHS_MODE_MAP : 0xffU;
}

int test_main(void)
{
	bf.id = (uint32_t)rt_arg_u64("id", 0);
	bf.be = (domid_t)rt_arg_u64("be", 1);
	bf.port = (evtchn_port_t)rt_arg_u64("port", 11);
	bf.mode = parse_mode();
	bf.reqs = (uint32_t)rt_arg_u64("reqs", 200);
	bf.bytes = (uint32_t)rt_arg_u64("bytes", 4096);
	bf.qd = (unsigned int)rt_arg_u64("qd", 4);
	bf.crash_after = (uint32_t)rt_arg_u64("crash_after", 0);
	bf.wait_ms = rt_arg_u64("wait_ms", 10000);
	if ((bf.qd == 0U) || (bf.qd > BF_MAX_QD) || (bf.bytes % 4096U != 0U) ||
	    (bf.bytes == 0U) || (bf.bytes > BF_MAX_BYTES) || (bf.mode > BLKHS_MODE_COPY)) {
		printf("%s: FAIL bad bootargs\n", rt_tag());
		return 1;
	}
	if ((gnt_setup(1) != 0) || (evt_setup(false) != 0)) {
		printf("%s: FAIL grant/event setup\n", rt_tag());
		return 1;
	}
	evt_clear(bf.port);
	if (!connect()) {
		return 1;
	}
	if ((rt_arg_u64("bad", 0) != 0U) && (bf_malformed() != 0)) {
		return 1;
	}
	if ((run() != 0) || !disconnect()) {
		return 1;
	}
	printf("%s: blkfront done, integrity OK\n", rt_tag());
	return 0;
}
