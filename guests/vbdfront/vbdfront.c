/* SPDX-License-Identifier: MIT */
/*
 * A bare-metal blkfront over xenbus (docs/blkif.md, "Linux frontends over
 * xenbus"): what Linux's xen-blkfront does to connect, in a few hundred
 * lines, so that a test can also do what Linux never does. It finds its
 * disk under device/vbd/<id>, waits for the backend's InitWait, grants a
 * one-page ring, offers an unbound event channel, writes ring-ref,
 * event-channel, protocol and feature-persistent = 0 and Initialised, and
 * once the backend is Connected reads the size and says Connected.
 *
 * Bootargs: tag=, id= (virtual-device number, default 51712: xvda),
 * reqs= (write-and-read-back rounds, default 64), base= (first sector),
 * wait_peer=P (make data/sync, readable and writable by partition P, and go
 * on with rounds until P writes data/sync/go: the other frontend is busy),
 * bad=1 (then malformed requests, each answered with an error carrying
 * its id, and a producer index past the ring, refused whole; then good
 * ones again), vanish=1 (after the rounds, queue writes and crash without
 * waiting for them: a frontend disappearing mid-request), close=1 (the
 * default: Closing, the backend's Closed, every grant revoked).
 * Lines: "NAME: PASS what", "NAME: FAIL what", "NAME: done, N passed, M failed".
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>
#include <guest/xenbus.h>
#include <public/io/blkif.h>
#include <public/io/xenbus.h>

#define REF_RING   16U      /* grant references: 0..7 are Xen's, 1 the store's ring */
#define REF_DATA   17U      /* ... then one per data page */
#define NPAGES     8U
#define WAIT_MS    20000U

static struct blkif_sring ring __attribute__((aligned(4096)));
static uint8_t data[NPAGES][4096] __attribute__((aligned(4096)));
static char fe_path[64];
static char be_path[96];
static uint16_t be;
static evtchn_port_t port;
static RING_IDX req_prod;
static RING_IDX rsp_cons;
static uint64_t sectors;
static unsigned int passed;
static unsigned int failed;

static void check(bool ok, const char *what)
{
	printf("%s: %s %s\n", rt_tag(), ok ? "PASS" : "FAIL", what);
	if (ok) {
		passed++;
	} else {
		failed++;
	}
}

static uint64_t ms_ticks(uint64_t ms)
{
	return timer_us_to_ticks(ms * 1000U);
}

static uint64_t num(const char *s)
{
	uint64_t v = 0U;
	unsigned int i;

	for (i = 0U; (s[i] >= '0') && (s[i] <= '9') && (i < 20U); i++) {
		v = (v * 10U) + (uint64_t)(s[i] - '0');
	}
	return v;
}

/* base/rel (rel alone when base is "") read into a static buffer; "" when absent. */
static const char *rd(const char *base, const char *rel)
{
	static char out[128];
	char p[128];
	uint32_t len = 0U;
	uint32_t type = XS_INVALID;
	const char *r;

	(void)snprintf(p, sizeof(p), "%s%s%s", base, (base[0] != '\0') ? "/" : "", rel);
	r = xb_req(XS_READ, 0U, p, (uint32_t)strlen(p) + 1U, &len, &type);
	if ((type != XS_READ) || (len >= sizeof(out))) {
		return "";
	}
	memcpy(out, r, len);
	out[len] = '\0';
	return out;
}

static bool wr(const char *rel, const char *fmt, uint64_t v)
{
	char p[128];
	char val[64];

	(void)snprintf(p, sizeof(p), "%s/%s", fe_path, rel);
	(void)snprintf(val, sizeof(val), fmt, v);
	return strcmp(xb_write(0U, p, val), "OK") == 0;
}

static bool wr_s(const char *rel, const char *val)
{
	char p[128];

	(void)snprintf(p, sizeof(p), "%s/%s", fe_path, rel);
	return strcmp(xb_write(0U, p, val), "OK") == 0;
}

/* Until the backend's state is want (polled: the store's watch would do as well). */
static bool wait_be(enum xenbus_state want)
{
	uint64_t deadline = cntvct() + ms_ticks(WAIT_MS);

	while (cntvct() < deadline) {
		if (num(rd(be_path, "state")) == (uint64_t)want) {
			return true;
		}
		mdelay(5U);
	}
	return false;
}

/* ------------------------------------------------------------ requests */

static union blkif_sring_entry *slot(RING_IDX i)
{
	return &ring.ring[i % BLKIF_RING_SIZE];
}

static void push(void)
{
	RING_IDX old = ring.hdr.req_prod;

	__atomic_store_n(&ring.hdr.req_prod, req_prod, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* RING_PUSH_REQUESTS_AND_CHECK_NOTIFY */
	if ((RING_IDX)(req_prod - ring.hdr.req_event) < (RING_IDX)(req_prod - old)) {
		(void)evt_send(port);
	}
}

/* The next response: true with it in *r, false after the wait. */
static bool response(struct blkif_response *r, uint64_t wait_ms)
{
	uint64_t deadline = cntvct() + ms_ticks(wait_ms);

	for (;;) {
		evt_clear(port);
		if (__atomic_load_n(&ring.hdr.rsp_prod, __ATOMIC_ACQUIRE) != rsp_cons) {
			memcpy(r, &slot(rsp_cons)->rsp, sizeof(*r));
			rsp_cons++;
			return true;
		}
		/* RING_FINAL_CHECK_FOR_RESPONSES: ask for an event, look again, then sleep. */
		ring.hdr.rsp_event = rsp_cons + 1U;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(&ring.hdr.rsp_prod, __ATOMIC_ACQUIRE) != rsp_cons) {
			continue;
		}
		if (cntvct() >= deadline) {
			return false;
		}
		(void)evt_poll(&port, 1U, ms_ticks(50U));
	}
}

/* A request of nseg whole pages (data[0..nseg)) at sector; its status, or 99 when none came. */
static int16_t rw(uint8_t op, uint64_t sector, unsigned int nseg, uint64_t id)
{
	union blkif_sring_entry *e = slot(req_prod);
	struct blkif_response r;
	unsigned int k;

	memset(e, 0, sizeof(*e));
	e->req.operation = op;
	e->req.nr_segments = (uint8_t)nseg;
	e->req.id = id;
	e->req.sector_number = sector;
	for (k = 0U; (k < nseg) && (k < NPAGES); k++) {
		gnt_grant(REF_DATA + k, be, (uint64_t)(uintptr_t)data[k] >> 12, op == BLKIF_OP_WRITE);
		e->req.seg[k] = (struct blkif_request_segment){ .gref = REF_DATA + k, .first_sect = 0U,
							       .last_sect = 7U };
	}
	req_prod++;
	push();
	if (!response(&r, WAIT_MS)) {
		return 99;
	}
	for (k = 0U; (k < nseg) && (k < NPAGES); k++) {
		if (gnt_revoke(REF_DATA + k) != 0) {
			return 98; /* the backend kept a page mapped without feature-persistent */
		}
	}
	return (r.id == id) ? r.status : (int16_t)97;
}

static void fill(unsigned int npages, uint64_t seed)
{
	unsigned int k;
	unsigned int w;

	for (k = 0U; k < npages; k++) {
		uint64_t *p = (uint64_t *)(void *)data[k];
		for (w = 0U; w < 512U; w++) {
			p[w] = (seed << 32) ^ ((uint64_t)k << 16) ^ w ^ 0x5a5a000000000000ULL;
		}
	}
}

static bool same(unsigned int npages, uint64_t seed)
{
	unsigned int k;
	unsigned int w;

	for (k = 0U; k < npages; k++) {
		const uint64_t *p = (const uint64_t *)(const void *)data[k];
		for (w = 0U; w < 512U; w++) {
			if (p[w] != ((seed << 32) ^ ((uint64_t)k << 16) ^ w ^ 0x5a5a000000000000ULL)) {
				return false;
			}
		}
	}
	return true;
}

/* Rounds of a write of 1..8 pages, then its read back, each checked. */
static bool rounds(uint64_t n, uint64_t base, uint64_t first_id)
{
	uint64_t i;
	bool ok = true;

	for (i = 0U; (i < n) && ok; i++) {
		unsigned int np = 1U + (unsigned int)(i % NPAGES);
		uint64_t sector = base + ((i * 64U) % (sectors - base - 64U));
		int16_t st;
		fill(np, first_id + i);
		st = rw(BLKIF_OP_WRITE, sector, np, first_id + 2U * i);
		ok = st == BLKIF_RSP_OKAY;
		if (ok) {
			memset(data, 0, sizeof(data));
			st = rw(BLKIF_OP_READ, sector, np, first_id + 2U * i + 1U);
			ok = (st == BLKIF_RSP_OKAY) && same(np, first_id + i);
		}
		if (!ok) {
			printf("%s: round %llu: status %d\n", rt_tag(), (unsigned long long)i, st);
		}
	}
	return ok;
}

/* One malformed request (built by the caller in the next slot): answered with want and its id. */
static bool answered(int16_t want, uint64_t id)
{
	struct blkif_response r;

	req_prod++;
	push();
	return response(&r, WAIT_MS) && (r.id == id) && (r.status == want);
}

static void malformed(void)
{
	union blkif_sring_entry *e;
	struct blkif_response r;
	RING_IDX saved;

	e = slot(req_prod);
	memset(e, 0, sizeof(*e));
	e->req = (struct blkif_request){ .operation = BLKIF_OP_READ, .nr_segments = 0U, .id = 1001U };
	check(answered(BLKIF_RSP_ERROR, 1001U), "a read of no segments: error");
	e = slot(req_prod);
	e->req = (struct blkif_request){ .operation = BLKIF_OP_WRITE, .nr_segments = 12U,
					 .id = 1002U };
	check(answered(BLKIF_RSP_ERROR, 1002U), "12 direct segments: error");
	e = slot(req_prod);
	gnt_grant(REF_DATA, be, (uint64_t)(uintptr_t)data[0] >> 12, false);
	e->req = (struct blkif_request){ .operation = BLKIF_OP_READ, .nr_segments = 1U, .id = 1003U,
					 .sector_number = sectors - 4U };
	e->req.seg[0] = (struct blkif_request_segment){ .gref = REF_DATA, .first_sect = 0U,
							.last_sect = 7U };
	check(answered(BLKIF_RSP_ERROR, 1003U), "a read past the end of the disk: error");
	e = slot(req_prod);
	e->req = (struct blkif_request){ .operation = BLKIF_OP_READ, .nr_segments = 1U, .id = 1004U };
	e->req.seg[0] = (struct blkif_request_segment){ .gref = REF_DATA, .first_sect = 5U,
							.last_sect = 2U };
	check(answered(BLKIF_RSP_ERROR, 1004U), "first_sect after last_sect: error");
	e = slot(req_prod);
	e->req = (struct blkif_request){ .operation = BLKIF_OP_READ, .nr_segments = 1U, .id = 1005U };
	e->req.seg[0] = (struct blkif_request_segment){ .gref = REF_DATA, .first_sect = 0U,
							.last_sect = 8U };
	check(answered(BLKIF_RSP_ERROR, 1005U), "last_sect 8: error");
	e = slot(req_prod);
	e->req = (struct blkif_request){ .operation = BLKIF_OP_READ, .nr_segments = 1U, .id = 1006U };
	e->req.seg[0] = (struct blkif_request_segment){ .gref = 300U, .first_sect = 0U,
							.last_sect = 7U };
	check(answered(BLKIF_RSP_ERROR, 1006U), "an ungranted reference: error");
	e = slot(req_prod);
	e->req = (struct blkif_request){ .operation = 99U, .nr_segments = 1U, .id = 1007U };
	check(answered(BLKIF_RSP_EOPNOTSUPP, 1007U), "operation 99: not supported");
	e = slot(req_prod);
	e->req = (struct blkif_request){ .operation = BLKIF_OP_DISCARD, .id = 1008U };
	check(answered(BLKIF_RSP_EOPNOTSUPP, 1008U), "discard (not offered): not supported");
	e = slot(req_prod);
	e->ind = (struct blkif_request_indirect){ .operation = BLKIF_OP_INDIRECT,
						  .indirect_op = BLKIF_OP_WRITE, .nr_segments = 0U,
						  .id = 1009U };
	check(answered(BLKIF_RSP_ERROR, 1009U), "an indirect request of no segments: error");
	e = slot(req_prod);
	e->ind = (struct blkif_request_indirect){ .operation = BLKIF_OP_INDIRECT,
						  .indirect_op = BLKIF_OP_FLUSH_DISKCACHE,
						  .nr_segments = 1U, .id = 1010U };
	e->ind.indirect_grefs[0] = REF_DATA;
	check(answered(BLKIF_RSP_ERROR, 1010U), "an indirect flush: error");
	(void)gnt_revoke(REF_DATA);
	/* A producer index far past the ring: refused whole, nothing answered. */
	saved = req_prod;
	__atomic_store_n(&ring.hdr.req_prod, rsp_cons + 1000U, __ATOMIC_RELEASE);
	(void)evt_send(port);
	check(!response(&r, 500U), "req_prod 1000 past the ring: nothing consumed or answered");
	ring.hdr.req_prod = saved;
	req_prod = saved;
}

/* ------------------------------------------------------------- connect */

static bool connect(uint32_t id)
{
	char state[8];

	(void)snprintf(fe_path, sizeof(fe_path), "device/vbd/%u", id);
	(void)snprintf(be_path, sizeof(be_path), "%s", rd(fe_path, "backend"));
	be = (uint16_t)num(rd(fe_path, "backend-id"));
	if ((be_path[0] == '\0') || (be == 0U)) {
		return false;
	}
	(void)snprintf(state, sizeof(state), "%s", rd(fe_path, "state"));
	check(strcmp(state, "1") == 0, "the store wrote device/vbd/<id>, state Initialising");
	if (!wait_be(XenbusStateInitWait)) {
		return false;
	}
	memset(&ring, 0, sizeof(ring));
	ring.hdr.req_event = 1U;
	ring.hdr.rsp_event = 1U;
	gnt_grant(REF_RING, be, (uint64_t)(uintptr_t)&ring >> 12, false);
	if (evt_alloc_unbound(be, &port) != 0) {
		return false;
	}
	if (!wr("ring-ref", "%llu", REF_RING) || !wr("event-channel", "%llu", port) ||
	    !wr_s("protocol", "arm-abi") ||
	    !wr("feature-persistent", "%llu", 0U) ||
	    !wr("state", "%llu", XenbusStateInitialised)) {
		return false;
	}
	if (!wait_be(XenbusStateConnected)) {
		return false;
	}
	sectors = num(rd(be_path, "sectors"));
	check((sectors >= 1024U) && (num(rd(be_path, "sector-size")) == 512U),
	      "the backend is Connected and gives the size");
	return wr("state", "%llu", XenbusStateConnected);
}

static void close_disk(void)
{
	unsigned int k;
	bool ok;

	check(wr("state", "%llu", XenbusStateClosing) && wait_be(XenbusStateClosing),
	      "Closing answered with Closing");
	ok = wr("state", "%llu", XenbusStateClosed) && wait_be(XenbusStateClosed);
	check(ok, "Closed answered with Closed");
	ok = gnt_revoke(REF_RING) == 0;
	for (k = 0U; k < NPAGES; k++) {
		ok = ok && (gnt_revoke(REF_DATA + k) == 0);
	}
	check(ok, "every grant revoked: the backend unmapped all");
	(void)evt_close(port);
}

int test_main(void)
{
	uint32_t id = (uint32_t)rt_arg_u64("id", 51712U);
	uint64_t n = rt_arg_u64("reqs", 64U);
	uint64_t base = rt_arg_u64("base", 0U);
	long rc;

	if ((gnt_setup(1) != 0) || (evt_setup(false) != 0)) {
		printf("%s: FAIL grant table or event channels\n", rt_tag());
		return 1;
	}
	rc = xb_init(60000U);
	if (rc != 0) {
		printf("%s: FAIL no xenstore (%ld)\n", rt_tag(), rc);
		return 1;
	}
	if (!connect(id)) {
		printf("%s: FAIL connecting device/vbd/%u\n", rt_tag(), id);
		return 1;
	}
	printf("%s: connected to d%u, %llu sectors\n", rt_tag(), be, (unsigned long long)sectors);
	if (rt_arg_u64("wait_peer", 0U) != 0U) {
		/* Busy beside the other frontend until it says it is busy too. */
		char perms[32];
		uint64_t r = 0U;
		bool ok;
		(void)snprintf(perms, sizeof(perms), "n%s,b%llu", rd("", "domid"),
			       (unsigned long long)rt_arg_u64("wait_peer", 0U));
		ok = (strcmp(xb_mkdir(0U, "data/sync"), "OK") == 0) &&
		     (strcmp(xb_set_perms(0U, "data/sync", perms), "OK") == 0);
		check(ok, "data/sync given to the other frontend");
		/* Its node is the writer's (a new node's owner is its creator): listed, not read. */
		while (ok && (strcmp(xb_dir(0U, "data/sync"), "go") != 0)) {
			ok = rounds(8U, base, 1U + 16U * r);
			r++;
		}
		printf("%s: %llu rounds of 8 until the other frontend wrote data/sync/go\n", rt_tag(),
		       (unsigned long long)r * 8U);
		check(ok && (r != 0U), "every write read back the same while the others were served");
	}
	if (rt_arg_u64("bad", 0U) != 0U) {
		malformed();
	}
	check(rounds(n, base, 1U), "every write read back the same");
	if (rt_arg_u64("vanish", 0U) != 0U) {
		unsigned int i;
		fill(NPAGES, 77U);
		for (i = 0U; i < 8U; i++) {
			union blkif_sring_entry *e = slot(req_prod);
			unsigned int k;
			memset(e, 0, sizeof(*e));
			e->req.operation = BLKIF_OP_WRITE;
			e->req.nr_segments = NPAGES;
			e->req.id = 5000U + i;
			e->req.sector_number = base + 64U * i;
			for (k = 0U; k < NPAGES; k++) {
				gnt_grant(REF_DATA + k, be, (uint64_t)(uintptr_t)data[k] >> 12, true);
				e->req.seg[k] = (struct blkif_request_segment){
					.gref = REF_DATA + k, .first_sect = 0U, .last_sect = 7U };
			}
			req_prod++;
		}
		push();
		printf("%s: vanishing with 8 requests in flight (%u passed, %u failed)\n", rt_tag(),
		       passed, failed);
		rt_exit(3);
	}
	if (rt_arg_u64("close", 1U) != 0U) {
		close_disk();
	}
	printf("%s: done, %u passed, %u failed\n", rt_tag(), passed, failed);
	return (failed == 0U) ? 0 : 1;
}
