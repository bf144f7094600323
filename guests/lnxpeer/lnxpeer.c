/* SPDX-License-Identifier: MIT */
/*
 * The bare-metal side of a Linux partition's peer test (tools/linux/progs/
 * xenpeer.c): an RTOS-like partition with a timer heartbeat that must stay
 * on time while it serves Linux.
 *
 * It grants one page to Linux (ref 8, bootarg linux=<domid>) holding a
 * magic and the port of an unbound event channel it opened for Linux;
 * Linux maps the page through gntdev and binds the port through
 * /dev/xen/evtchn. Then, for each session (one per Linux boot):
 *   - every event from Linux whose page command is PING is answered with
 *     an event (the round trip Linux times);
 *   - on DONE it waits 10 ms and sends one event of its own (the bare-metal
 *     side starting an exchange), then counts the session;
 * When Linux restarts, its end is closed and the port is unbound again:
 * the next boot binds it anew. The static channel of the configuration
 * (bootarg static=<port>) is checked to be connected to Linux.
 *
 * Heartbeat: every period_ms (default 10) on the virtual counter; a beat is
 * late by the time between its deadline and when it is taken; every
 * report beats (default 100, 0: never) "P: heartbeat N, late max X us"
 * (and "... LATE" past late_us, default 2000).
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

#define REF 8U
#define MAGIC 0x9ee71e55U
enum { CMD_IDLE = 0, CMD_PING = 1, CMD_DONE = 2 };

/* The shared page: what xenpeer reads and writes (same layout there). */
struct peer_page {
	uint32_t magic;
	uint32_t port;     /* the bare-metal side's unbound port for Linux */
	uint32_t cmd;      /* written by Linux before each notify */
	uint32_t seq;      /* Linux's round number, echoed in reply */
	uint32_t reply;
	uint32_t sessions; /* sessions the bare-metal side has completed */
	uint32_t beats;    /* heartbeat count, for Linux to see it advance */
};

static uint8_t page[4096] __attribute__((aligned(4096)));

int test_main(void)
{
	volatile struct peer_page *pp = (volatile struct peer_page *)page;
	domid_t linux_dom = (domid_t)rt_arg_u64("linux", 1);
	uint64_t period = timer_us_to_ticks(rt_arg_u64("period_ms", 10) * 1000U);
	uint64_t late_limit = timer_us_to_ticks(rt_arg_u64("late_us", 2000));
	uint64_t sessions_max = rt_arg_u64("sessions", 0); /* 0: forever */
	uint64_t report = rt_arg_u64("report", 100);
	evtchn_port_t sport = (evtchn_port_t)rt_arg_u64("static", 0);
	evtchn_port_t port = 0;
	uint64_t next;
	uint64_t late_max = 0;
	uint64_t beats = 0;
	uint64_t rounds = 0;
	uint64_t done_at = 0;
	long rc;

	if ((gnt_setup(1) != 0) || (evt_setup(true) != 0)) {
		printf("P: FAIL grant table or event channel setup\n");
		return 1;
	}
	if (sport != 0U) {
		rc = evt_status(sport);
		printf("P: static channel %u %s\n", sport,
		       rc == EVTCHNSTAT_interdomain ? "connected to Linux" : "NOT connected");
	}
	rc = evt_alloc_unbound(linux_dom, &port);
	if (rc != 0) {
		printf("P: FAIL alloc_unbound for d%u: %ld\n", linux_dom, rc);
		return 1;
	}
	pp->port = port;
	pp->magic = MAGIC;
	gnt_grant(REF, linux_dom, (uint64_t)(uintptr_t)page >> 12, false);
	printf("P: page granted to d%u (ref %u), event port %u, heartbeat every %lu ticks\n",
	       linux_dom, REF, port, period);

	next = cntvct() + period;
	while (sessions_max == 0 || pp->sessions < sessions_max) {
		uint64_t now = cntvct();

		if (now >= next) {
			uint64_t late = now - next;
			if (late > late_max) {
				late_max = late;
			}
			beats++;
			pp->beats = (uint32_t)beats;
			next += period;
			if (late > period) {
				next = now + period; /* missed beats are not made up */
			}
			if ((report != 0U) && (beats % report == 0U)) {
				printf("P: heartbeat %lu, late max %lu us%s\n", beats,
				       timer_ticks_to_us(late_max), late_max > late_limit ? " LATE" : "");
			}
			continue;
		}
		if (done_at != 0U && now >= done_at) {
			/* The bare-metal side starts an exchange of its own. */
			done_at = 0;
			pp->reply = 0xb0b0U;
			(void)evt_send(port);
			pp->sessions++;
			printf("P: session %u done, %lu round trips, event sent to Linux\n",
			       pp->sessions, rounds);
			rounds = 0;
			continue;
		}
		uint64_t until = (done_at != 0U && done_at < next) ? done_at : next;
		if (!evt_poll(&port, 1, until - now)) {
			continue;
		}
		evt_clear(port);
		if (pp->cmd == CMD_PING) {
			pp->reply = pp->seq;
			rounds++;
			(void)evt_send(port);
		} else if (pp->cmd == CMD_DONE) {
			pp->cmd = CMD_IDLE;
			done_at = cntvct() + timer_us_to_ticks(10000);
		}
	}
	printf("P: %u sessions, heartbeat %lu, late max %lu us\n", pp->sessions, beats,
	       timer_ticks_to_us(late_max));
	return 0;
}
