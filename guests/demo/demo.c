/* SPDX-License-Identifier: MIT */
/*
 * The make run demo: what Bulkhead is for, in two partitions that never see
 * each other's memory except for one page one of them grants.
 *
 *  role=sensor   grants one of its pages to the display partition (ref 8),
 *                then `readings=` times writes a reading into it and
 *                notifies the display over a static event channel; waits
 *                for the display's acknowledgement each time; at the end
 *                revokes the grant, which only succeeds once it is unmapped.
 *  role=display  maps the sensor's grant, prints each reading it sees in
 *                the shared page when the event arrives, acknowledges it;
 *                unmaps the page after the last one.
 *
 * Strictly alternating, so no event is coalesced with another.
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

#define MAP_ADDR 0x38e00000ULL
#define REF 8U
#define WAIT_MS 5000U
#define DONE 0xffffffffU

struct reading {
	uint32_t seq;
	uint32_t speed_kmh;
	char text[48];
};

static uint8_t page[4096] __attribute__((aligned(4096)));
static evtchn_port_t port;

static bool wait_peer(const char *what)
{
	if (!evt_wait(port, WAIT_MS)) {
		printf("%s: FAIL no event from the peer (%s)\n", rt_tag(), what);
		return false;
	}
	return true;
}

static void format_reading(struct reading *r, uint32_t seq)
{
	r->speed_kmh = 40U + (7U * seq);
	(void)snprintf(r->text, sizeof(r->text), "wheel speed %u km/h", r->speed_kmh);
	/* The sequence number last: the display reads it as "this one is new". */
	__atomic_store_n(&r->seq, seq, __ATOMIC_RELEASE);
}

static int sensor(domid_t display, uint32_t readings)
{
	volatile struct reading *r = (volatile struct reading *)page;
	uint32_t i;
	long rc;

	/* The display clears its stale static-channel pending bit at start. */
	mdelay(rt_arg_u64("start_ms", 200));
	gnt_grant(REF, display, (uint64_t)(uintptr_t)page >> 12, false);
	printf("%s: granted page 0x%lx to d%u as grant ref %u, event channel port %u\n", rt_tag(),
	       (unsigned long)(uintptr_t)page, display, REF, port);
	for (i = 1U; i <= readings; i++) {
		format_reading((struct reading *)page, i);
		printf("%s: reading %u written: \"%s\", notifying d%u\n", rt_tag(), i,
		       ((struct reading *)page)->text, display);
		(void)evt_send(port);
		if (!wait_peer("acknowledgement")) {
			return 1;
		}
	}
	r->seq = DONE;
	(void)evt_send(port);
	if (!wait_peer("unmap")) {
		return 1;
	}
	rc = gnt_revoke(REF);
	printf("%s: display unmapped the page; grant revoked (%ld), %u readings sent\n", rt_tag(), rc,
	       readings);
	return (rc == 0) ? 0 : 1;
}

static int display(domid_t sensor_dom)
{
	volatile struct reading *r = (volatile struct reading *)MAP_ADDR;
	grant_handle_t h;
	uint32_t seen = 0U;
	int st;

	if (!wait_peer("first reading")) {
		return 1;
	}
	st = gnt_map(sensor_dom, REF, MAP_ADDR, true, &h);
	if (st != 0) {
		printf("%s: FAIL mapping d%u's grant %u: status %d\n", rt_tag(), sensor_dom, REF, st);
		return 1;
	}
	printf("%s: mapped d%u's grant %u read-only at 0x%lx\n", rt_tag(), sensor_dom, REF,
	       (unsigned long)MAP_ADDR);
	for (;;) {
		uint32_t seq = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE);
		if (seq == DONE) {
			break;
		}
		if (seq != seen + 1U) {
			printf("%s: FAIL reading %u after %u\n", rt_tag(), seq, seen);
			return 1;
		}
		seen = seq;
		printf("%s: event on port %u: shared page says \"%s\" (reading %u)\n", rt_tag(), port,
		       (const char *)r->text, seq);
		(void)evt_send(port);
		if (!wait_peer("next reading")) {
			return 1;
		}
	}
	st = gnt_unmap(MAP_ADDR, h);
	printf("%s: %u readings seen; page unmapped (%d)\n", rt_tag(), seen, st);
	(void)evt_send(port);
	return (st == 0) ? 0 : 1;
}

int test_main(void)
{
	char role[8] = "sensor";
	domid_t peer = (domid_t)rt_arg_u64("peer", 0);
	long rc;

	port = (evtchn_port_t)rt_arg_u64("port", 10);
	(void)rt_arg("role", role, sizeof(role));
	rc = gnt_setup(1);
	if (rc == 0) {
		rc = evt_setup(false);
	}
	if (rc != 0) {
		printf("%s: FAIL setup %ld\n", rt_tag(), rc);
		return 1;
	}
	if (role[0] == 's') {
		return sensor(peer, (uint32_t)rt_arg_u64("readings", 5));
	}
	/* The static channel's second side starts pending: clear it first. */
	evt_clear(port);
	return display(peer);
}
