/* SPDX-License-Identifier: MIT */
/*
 * Block backend partition: serves a RAM disk it owns to up to BB_MAX_FE
 * frontends, each on its own slice, over the protocol of docs/blkif.md.
 * Bootargs: nfe=N, feI=<domid>, portI=<local static port> (I = 0..N-1),
 * lease_ms= (a connected frontend whose heartbeat stops this long is
 * declared lost: its grants are unmapped and the others go on),
 * pers_max= (persistent grants kept mapped per frontend, the LRU bound).
 * It powers off once every frontend is closed or lost.
 */
#include "blkback.h"

#define BB_DISK_BYTES (8U << 20)
#define BB_TRY_MS 5U
#define BB_IDLE_MS 50U  /* longest sleep of a connected backend: lease checks */

uint8_t bb_disk[BB_DISK_BYTES] __attribute__((aligned(4096)));

static struct bb_fe fes[BB_MAX_FE];
static unsigned int nfe;

static uint64_t ms_ticks(uint64_t ms)
{
	return timer_us_to_ticks(ms * 1000U);
}

/* Map the handshake page; accept the frontend if it is ready and sane. */
static void try_connect(struct bb_fe *fe)
{
	volatile struct blkhs_page *hs = (volatile struct blkhs_page *)(uintptr_t)bb_addr(fe, BB_PG_HS);
	bool ok;

	if (cntvct() < fe->next_try) {
		return;
	}
	fe->next_try = cntvct() + ms_ticks(BB_TRY_MS);
	if (gnt_map(fe->dom, BLKHS_REF, bb_addr(fe, BB_PG_HS), false, &fe->hs_handle) != 0) {
		return;  /* not granted yet */
	}
	if ((hs->magic != BLKHS_MAGIC) || (hs->fe_state != BLKHS_FE_READY)) {
		(void)gnt_unmap(bb_addr(fe, BB_PG_HS), fe->hs_handle);
		return;  /* granted before filled in: look again later */
	}
	fe->hs = hs;
	ok = (hs->version == BLKHS_VERSION) && (hs->mode <= BLKHS_MODE_COPY);
	if (ok) {
		ok = gnt_map(fe->dom, hs->ring_gref, bb_addr(fe, BB_PG_RING), false,
			     &fe->ring_handle) == 0;
	}
	if (!ok) {
		printf("%s: frontend %u (d%u) rejected: version %u mode %u ring %u\n", rt_tag(),
		       fe->idx, fe->dom, hs->version, hs->mode, hs->ring_gref);
		hs->be_state = BLKHS_BE_REJECTED;
		(void)gnt_unmap(bb_addr(fe, BB_PG_HS), fe->hs_handle);
		(void)evt_send(fe->port);
		fe->state = BB_CLOSED;
		return;
	}
	fe->sring = (struct blkif_sring *)(uintptr_t)bb_addr(fe, BB_PG_RING);
	fe->req_cons = fe->sring->hdr.req_prod;
	fe->rsp_prod = fe->req_cons;
	fe->bad_prod = fe->req_cons;
	fe->mode = hs->mode;
	if ((fe->mode == BLKHS_MODE_PERSISTENT) && ((hs->fe_features & BLKHS_F_PERSISTENT) == 0U)) {
		fe->mode = BLKHS_MODE_MAP;  /* persistence needs both sides */
	}
	fe->indirect = (hs->fe_features & BLKHS_F_INDIRECT) != 0U;
	hs->be_features = (hs->fe_features & (BLKHS_F_PERSISTENT | BLKHS_F_INDIRECT));
	hs->be_max_indirect = BLKHS_MAX_INDIRECT_SEGS;
	hs->be_persistent_max = fe->pers_max;
	hs->sectors = fe->sectors;
	hs->ring_errors = 0U;
	fe->last_hb = hs->heartbeat;
	fe->hb_tick = cntvct();
	fe->maps += 2U;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	hs->be_state = BLKHS_BE_CONNECTED;
	fe->state = BB_CONNECTED;
	printf("%s: frontend %u (d%u) connected: mode %u, %lu sectors, indirect %u\n", rt_tag(),
	       fe->idx, fe->dom, fe->mode, (unsigned long)fe->sectors, fe->indirect ? 1U : 0U);
	(void)evt_send(fe->port);
}

/* Drop every mapping of fe's grants: on its request, or when it is gone. */
static void disconnect(struct bb_fe *fe, bool lost)
{
	unsigned int n = bb_pers_release(fe);

	(void)gnt_unmap(bb_addr(fe, BB_PG_RING), fe->ring_handle);
	if (!lost) {
		fe->hs->be_state = BLKHS_BE_CLOSED;
	}
	(void)gnt_unmap(bb_addr(fe, BB_PG_HS), fe->hs_handle);
	fe->unmaps += 2U;
	fe->state = lost ? BB_LOST : BB_CLOSED;
	printf("%s: frontend %u (d%u) %s: unmapped %u persistent grants + ring + handshake\n",
	       rt_tag(), fe->idx, fe->dom, lost ? "LOST (heartbeat stopped)" : "closed", n);
	printf("%s: frontend %u: %u requests, %u errors, %u maps, %u unmaps, %u evictions, "
	       "%u copy calls\n", rt_tag(), fe->idx, fe->reqs, fe->errors, fe->maps, fe->unmaps,
	       fe->evictions, fe->copies);
	if (!lost) {
		(void)evt_send(fe->port);
	}
}

static bool poll_connected(struct bb_fe *fe, uint64_t lease)
{
	uint32_t hb;
	bool busy;

	/* Cleared before the look: a request pushed after it ends the next sleep. */
	evt_clear(fe->port);
	hb = fe->hs->heartbeat;

	if (fe->hs->fe_state == BLKHS_FE_CLOSING) {
		(void)bb_ring_serve(fe);
		disconnect(fe, false);
		return true;
	}
	busy = bb_ring_serve(fe);
	if ((hb != fe->last_hb) || busy) {
		fe->last_hb = hb;
		fe->hb_tick = cntvct();
	} else if (cntvct() - fe->hb_tick > lease) {
		disconnect(fe, true);
		return true;
	}
	return busy;
}

int test_main(void)
{
	uint64_t lease = ms_ticks(rt_arg_u64("lease_ms", 2000));
	uint64_t per_fe;
	unsigned int i;
	unsigned int live;
	uint32_t total = 0U;
	uint32_t errors = 0U;

	/* Disks in the device tree: Linux frontends over xenbus (docs/blkif.md). */
	if (fdt_compatible(rt.dtb, -1, "bulkhead,vbd-backend") >= 0) {
		return vbd_main();
	}
	nfe = (unsigned int)rt_arg_u64("nfe", 1);
	if ((nfe == 0U) || (nfe > BB_MAX_FE) || (evt_setup(false) != 0)) {
		printf("%s: FAIL setup (nfe=%u)\n", rt_tag(), nfe);
		return 1;
	}
	/* Slices on 64 KiB boundaries, so a frontend's block never straddles two. */
	per_fe = ((BB_DISK_BYTES / nfe) & ~0xffffU) / BLKIF_SECTOR_SIZE;
	for (i = 0U; i < nfe; i++) {
		char key[8] = "fe0";
		struct bb_fe *fe = &fes[i];

		key[2] = (char)('0' + i);
		fe->idx = i;
		fe->dom = (domid_t)rt_arg_u64(key, i + 2U);
		memcpy(key, "port0", 6);
		key[4] = (char)('0' + i);
		fe->port = (evtchn_port_t)rt_arg_u64(key, 10U + i);
		fe->first_sector = per_fe * i;
		fe->sectors = per_fe;
		fe->pers_max = (unsigned int)rt_arg_u64("pers_max", BB_MAX_PERS);
		if ((fe->pers_max == 0U) || (fe->pers_max > BB_MAX_PERS)) {
			fe->pers_max = BB_MAX_PERS;
		}
		evt_clear(fe->port);  /* a static channel may start pending */
	}
	printf("%s: serving %u frontends, %lu sectors each\n", rt_tag(), nfe, (unsigned long)per_fe);
	do {
		evtchn_port_t ports[BB_MAX_FE];
		bool busy = false;
		bool waiting = false;

		live = 0U;
		for (i = 0U; i < nfe; i++) {
			struct bb_fe *fe = &fes[i];

			if (fe->state == BB_WAITING) {
				evt_clear(fe->port);
				try_connect(fe);
				waiting = true;
				ports[live++] = fe->port;
			} else if (fe->state == BB_CONNECTED) {
				busy = poll_connected(fe, lease) || busy;
				ports[live++] = fe->port;
			}
		}
		/*
		 * Nothing to do: sleep until a frontend rings (or the next connect
		 * attempt, lease check) instead of spinning on the rings, so that
		 * an idle backend gives its CPU back to the frontends.
		 */
		if ((live != 0U) && !busy) {
			(void)evt_poll(ports, live, ms_ticks(waiting ? BB_TRY_MS : BB_IDLE_MS));
		}
	} while (live != 0U);
	for (i = 0U; i < nfe; i++) {
		total += fes[i].reqs;
		errors += fes[i].errors;
	}
	printf("%s: blkback done, %u requests, %u error responses\n", rt_tag(), total, errors);
	return 0;
}
