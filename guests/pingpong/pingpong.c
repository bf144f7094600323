/* SPDX-License-Identifier: MIT */
/*
 * Event-channel ping-pong between two partitions, strictly alternating (two
 * sends before a clear count as one event, so nothing may run ahead).
 *
 * bootargs: role=ping|pong peer=<domid> port=<static local port>
 *           mode=static|dynamic abi=2l|fifo iters=<n> tag=<label>
 *           role=flood: send on port as fast as possible for iters sends.
 *           bound_ms=<n> (ping): fail if any round trip takes longer;
 *           beat=<n> (ping): print a heartbeat line every n round trips.
 * mode=dynamic: ping allocates an unbound port for the peer and tells it
 * over the static channel's shared page (grant ref 8); pong binds to it.
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

#define WAIT_MS 5000U
#define MAP_ADDR 0x38e00000ULL
#define HS_REF 8U

static uint8_t hs_page[4096] __attribute__((aligned(4096)));

static bool wait_or_fail(evtchn_port_t p, const char *what)
{
	if (!evt_wait(p, WAIT_MS)) {
		printf("%s: FAIL timeout waiting for %s on port %u\n", rt_tag(), what, p);
		return false;
	}
	return true;
}

/* Dynamic channel set-up; returns the port to ping-pong on, 0 on failure. */
static evtchn_port_t dynamic_port(bool ping, domid_t peer, evtchn_port_t sport)
{
	volatile uint32_t *hs;
	evtchn_port_t p = 0;
	grant_handle_t h;
	long rc;
	int st;

	if (gnt_setup(1) != 0) {
		return 0;
	}
	if (ping) {
		rc = evt_alloc_unbound(peer, &p);
		printf("%s: alloc_unbound(remote=%u) = %ld port %u\n", rt_tag(), peer, rc, p);
		hs = (volatile uint32_t *)hs_page;
		hs[0] = 0xC0FFEE42U;
		hs[1] = p;
		gnt_grant(HS_REF, peer, (uint64_t)(uintptr_t)hs_page >> 12, true);
		(void)evt_send(sport);
		return (rc == 0) && wait_or_fail(sport, "bind") ? p : 0;
	}
	if (!wait_or_fail(sport, "offer")) {
		return 0;
	}
	st = gnt_map(peer, HS_REF, MAP_ADDR, true, &h);
	if (st != 0) {
		printf("%s: FAIL map handshake page: %d\n", rt_tag(), st);
		return 0;
	}
	hs = (volatile uint32_t *)MAP_ADDR;
	if (hs[0] != 0xC0FFEE42U) {
		printf("%s: FAIL handshake magic 0x%x\n", rt_tag(), hs[0]);
		return 0;
	}
	rc = evt_bind_interdomain(peer, hs[1], &p);
	printf("%s: bind_interdomain(%u, %u) = %ld local port %u\n", rt_tag(), peer, hs[1], rc, p);
	(void)gnt_unmap(MAP_ADDR, h);
	/* Bind leaves the local port pending (as Xen): start clean. */
	evt_clear(p);
	(void)evt_send(sport);
	return (rc == 0) ? p : 0;
}

int test_main(void)
{
	char role[8] = "ping";
	char mode[10] = "static";
	char abi[6] = "2l";
	domid_t peer = (domid_t)rt_arg_u64("peer", 0);
	evtchn_port_t sport = (evtchn_port_t)rt_arg_u64("port", 10);
	uint64_t iters = rt_arg_u64("iters", 100);
	evtchn_port_t p;
	uint64_t i;
	uint64_t t0, t1, rt_max = 0;
	uint64_t bound = rt_arg_u64("bound_ms", 0);
	uint64_t beat = rt_arg_u64("beat", 0);
	long rc;
	bool ping;

	(void)rt_arg("role", role, sizeof(role));
	(void)rt_arg("mode", mode, sizeof(mode));
	(void)rt_arg("abi", abi, sizeof(abi));
	rc = evt_setup(abi[0] == 'f');
	if (rc != 0) {
		printf("%s: FAIL evtchn setup (%s): %ld\n", rt_tag(), abi, rc);
		return 1;
	}
	printf("%s: %s, %s channel, %s ABI\n", rt_tag(), role, mode, evt_is_fifo() ? "FIFO" : "2-level");
	if (role[0] == 'f') {
		for (i = 0; i < iters; i++) {
			(void)evt_send(sport);
		}
		printf("%s: flooded %lu sends\n", rt_tag(), (unsigned long)iters);
		return 0;
	}
	ping = (role[1] == 'i');
	/* The static channel's second side starts pending (as Xen leaves it). */
	if (!ping) {
		/* Give the peer time to set its ABI up: an event sent before a FIFO
		 * switch would land in the 2-level bitmap it no longer reads. */
		mdelay(rt_arg_u64("start_ms", 200));
		evt_clear(sport);
		(void)evt_send(sport);
	} else if (!wait_or_fail(sport, "ready")) {
		return 1;
	}
	p = sport;
	if (mode[0] == 'd') {
		p = dynamic_port(ping, peer, sport);
		if (p == 0) {
			return 1;
		}
	}
	t0 = cntvct();
	for (i = 0; i < iters; i++) {
		if (ping) {
			t1 = cntvct();
			(void)evt_send(p);
			if (!wait_or_fail(p, "pong")) {
				return 1;
			}
			t1 = cntvct() - t1;
			rt_max = (t1 > rt_max) ? t1 : rt_max;
			if ((beat != 0U) && (((i + 1U) % beat) == 0U)) {
				printf("%s: heartbeat %lu, max round trip %lu us\n", rt_tag(),
				       (unsigned long)((i + 1U) / beat),
				       (unsigned long)timer_ticks_to_us(rt_max));
			}
		} else {
			if (!wait_or_fail(p, "ping")) {
				return 1;
			}
			(void)evt_send(p);
		}
	}
	if (ping) {
		uint64_t us = timer_ticks_to_us(cntvct() - t0);
		printf("%s: %lu round trips OK, %lu us each\n", rt_tag(), (unsigned long)iters,
		       (unsigned long)(us / (iters ? iters : 1)));
		if (bound != 0U) {
			us = timer_ticks_to_us(rt_max);
			printf("%s: longest round trip %lu us, bound %lu ms%s\n", rt_tag(),
			       (unsigned long)us, (unsigned long)bound,
			       (us > bound * 1000U) ? ": FAIL stalled" : "");
		}
	}
	if (p != sport) {
		rc = evt_close(p);
		printf("%s: close(%u) = %ld\n", rt_tag(), p, rc);
	}
	printf("%s: pingpong done\n", rt_tag());
	return 0;
}
