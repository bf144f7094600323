/* SPDX-License-Identifier: MIT */
/*
 * Grant-table scenario between a granter (role=a) and a mapper (role=b),
 * synchronised over a static event channel (port=, strictly alternating):
 *  1. A grants page P to B (ref 8) and another page to domid `third` (ref 9).
 *  2. B maps ref 8 read-write, sees A's magic, writes its own; B's map of
 *     ref 9 (not made for B) fails with GNTST_general_error (Xen 4.17).
 *  3. A sees B's write, writes again, cannot revoke ref 8 while mapped.
 *  4. B sees A's second write, unmaps; a second unmap is GNTST_bad_handle.
 *  5. A revokes ref 8; B's map of it now fails; B touches the address it
 *     unmapped, which must fault in B only.
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

#define MAP_ADDR 0x38e00000ULL
#define REF_B 8U
#define REF_THIRD 9U
#define WAIT_MS 5000U

static uint8_t page[4096] __attribute__((aligned(4096)));
static uint8_t other[4096] __attribute__((aligned(4096)));

static evtchn_port_t port;

static bool step(const char *what)
{
	if (!evt_wait(port, WAIT_MS)) {
		printf("%s: FAIL timeout at %s\n", rt_tag(), what);
		return false;
	}
	return true;
}

static int granter(domid_t peer, domid_t third)
{
	volatile uint32_t *w = (volatile uint32_t *)page;
	long rc;

	/* The mapper clears its stale static-channel pending bit at start. */
	mdelay(rt_arg_u64("start_ms", 200));
	w[0] = 0xA11CE000U;
	gnt_grant(REF_B, peer, (uint64_t)(uintptr_t)page >> 12, false);
	gnt_grant(REF_THIRD, third, (uint64_t)(uintptr_t)other >> 12, false);
	(void)evt_send(port);
	if (!step("b mapped")) {
		return 1;
	}
	printf("%s: sees B's write 0x%x, grant flags 0x%x\n", rt_tag(), w[1],
	       gnt_entry(REF_B)->flags);
	if (w[1] != 0xB0B00001U) {
		printf("%s: FAIL B's write not visible\n", rt_tag());
		return 1;
	}
	rc = gnt_revoke(REF_B);
	printf("%s: revoke while mapped = %ld\n", rt_tag(), rc);
	if (rc != -XEN_EBUSY) {
		return 1;
	}
	w[2] = 0xA11CE002U;
	(void)evt_send(port);
	if (!step("b unmapped")) {
		return 1;
	}
	rc = gnt_revoke(REF_B);
	printf("%s: revoke after unmap = %ld, flags 0x%x\n", rt_tag(), rc, gnt_entry(REF_B)->flags);
	(void)evt_send(port);
	printf("%s: share done\n", rt_tag());
	return (rc == 0) ? 0 : 1;
}

static int mapper(domid_t peer)
{
	volatile uint32_t *m = (volatile uint32_t *)MAP_ADDR;
	grant_handle_t h;
	grant_handle_t h2;
	int st;

	if (!step("offer")) {
		return 1;
	}
	st = gnt_map(peer, REF_B, MAP_ADDR, false, &h);
	printf("%s: map ref %u = %d, reads 0x%x\n", rt_tag(), REF_B, st, st == 0 ? m[0] : 0U);
	if ((st != 0) || (m[0] != 0xA11CE000U)) {
		return 1;
	}
	m[1] = 0xB0B00001U;
	st = gnt_map(peer, REF_THIRD, MAP_ADDR + 0x1000U, false, &h2);
	printf("%s: map of a grant made for another domain = %d\n", rt_tag(), st);
	if (st != GNTST_general_error) {
		return 1;
	}
	(void)evt_send(port);
	if (!step("a wrote")) {
		return 1;
	}
	printf("%s: sees A's second write 0x%x\n", rt_tag(), m[2]);
	if (m[2] != 0xA11CE002U) {
		return 1;
	}
	st = gnt_unmap(MAP_ADDR, h);
	printf("%s: unmap = %d\n", rt_tag(), st);
	if (st != 0) {
		return 1;
	}
	st = gnt_unmap(MAP_ADDR, h);
	printf("%s: second unmap = %d\n", rt_tag(), st);
	if (st != GNTST_bad_handle) {
		return 1;
	}
	(void)evt_send(port);
	if (!step("a revoked")) {
		return 1;
	}
	st = gnt_map(peer, REF_B, MAP_ADDR, false, &h);
	printf("%s: map after revoke = %d\n", rt_tag(), st);
	if (st == 0) {
		return 1;
	}
	printf("%s: touching unmapped 0x%lx\n", rt_tag(), (unsigned long)MAP_ADDR);
	(void)m[0];
	printf("%s: FAIL access after unmap did not fault\n", rt_tag());
	return 1;
}

int test_main(void)
{
	char role[4] = "a";
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
	if (role[0] == 'a') {
		return granter(peer, (domid_t)rt_arg_u64("third", 3));
	}
	/* The static channel's second side starts pending: clear it first. */
	evt_clear(port);
	return mapper(peer);
}
