/* SPDX-License-Identifier: MIT */
/*
 * Partition restart with live grants and channels.
 * role=owner (restart policy "always"): grants a page to the peer over a
 * static channel, waits until the peer has mapped it, then faults. Its next
 * incarnation finds the static port closed (its channels were reset), checks
 * (told by the peer's read-only phase page, since its own memory is
 * scrubbed) that its memory came back clean, and powers off.
 * The owner runs the FIFO event ABI and registers its vcpu_info, so it holds
 * three pages shared with the hypervisor when it crashes (the XPFO walk
 * counts them); it also marks a page outside its image, which the new
 * incarnation must find zero (the scrub, not the image load, cleared it).
 * Last, the new incarnation resets its channels (EVTCHNOP_reset releases
 * the FIFO pages), registers a control block and event array on other pages
 * and powers off.
 * role=peer: maps the owner's grant, then watches EVTCHNOP_status until the
 * owner's crash disconnects the channel; its unmap of the old mapping must return
 * a defined status, and reading the old mapping address must fault (last).
 * bootargs: role= peer=<domid> port=<static port> ref=<grant ref>
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>
#include <public/vcpu.h>

#define MAP_ADDR 0x38e00000ULL
#define PHASE_ADDR 0x38e01000ULL
#define PHASE_REF 9U
#define MAGIC 0x5EC12E75U

static uint8_t page[4096] __attribute__((aligned(4096)));
static uint8_t phase_page[4096] __attribute__((aligned(4096)));
static uint32_t canary = 0x0DDBA11U;	/* .data: reloaded from the image on restart */
static uint8_t vcpu_info_page[4096] __attribute__((aligned(4096)));
static uint8_t cb_again[4096] __attribute__((aligned(4096)));
static uint8_t array_again[4096] __attribute__((aligned(4096)));

/* Half-way up RAM: past the image and its .bss, below the device tree Xen places at the top. */
static volatile uint32_t *far_word(void)
{
	return (volatile uint32_t *)(uintptr_t)(rt.ram_base + (rt.ram_size / 2U));
}

static int share_pages(void)
{
	struct vcpu_register_vcpu_info r = {
		.mfn = (uint64_t)(uintptr_t)vcpu_info_page >> 12, .offset = 0, .rsvd = 0 };
	long rc = evt_setup(true);

	if (rc == 0) {
		rc = HYPERVISOR_vcpu_op(VCPUOP_register_vcpu_info, 0, &r);
	}
	if (rc != 0) {
		printf("%s: FAIL FIFO setup or vcpu_info registration: %ld\n", rt_tag(), rc);
	}
	return (int)rc;
}

static int owner(domid_t peer, evtchn_port_t port, grant_ref_t ref)
{
	uint32_t phase;
	grant_handle_t h;
	uint64_t t;

	/* Memory is scrubbed on restart: the peer's page says which incarnation this is. */
	if (!evt_wait(port, 10000) || gnt_setup(1) != 0) {
		printf("%s: FAIL peer not ready\n", rt_tag());
		return 1;
	}
	if (gnt_map(peer, PHASE_REF, PHASE_ADDR, true, &h) != 0) {
		printf("%s: FAIL map of the peer's phase page\n", rt_tag());
		return 1;
	}
	phase = *(volatile uint32_t *)PHASE_ADDR;
	(void)gnt_unmap(PHASE_ADDR, h);
	if (phase == 2U) {
		struct evtchn_reset rs = { .dom = DOMID_SELF };
		printf("%s: new incarnation: port %u status %ld, canary 0x%x, grant page %s, "
		       "far page %s\n", rt_tag(), port, evt_status(port), canary,
		       (*(volatile uint32_t *)page == 0U) ? "clean" : "STALE FAIL",
		       (*far_word() == 0U) ? "clean" : "STALE FAIL");
		struct evtchn_init_control ic = {
			.control_gfn = (uint64_t)(uintptr_t)cb_again >> 12, .offset = 0, .vcpu = 0 };
		struct evtchn_expand_array ea = {
			.array_gfn = (uint64_t)(uintptr_t)array_again >> 12 };
		long a;
		printf("%s: evtchn reset: %ld\n", rt_tag(),
		       HYPERVISOR_event_channel_op(EVTCHNOP_reset, &rs));
		/* Registered again elsewhere: only the new pages may be mapped now. */
		a = HYPERVISOR_event_channel_op(EVTCHNOP_init_control, &ic);
		printf("%s: FIFO registered again on other pages: %ld %ld\n", rt_tag(), a,
		       HYPERVISOR_event_channel_op(EVTCHNOP_expand_array, &ea));
		return 0;
	}
	printf("%s: first incarnation, port %u status %ld\n", rt_tag(), port, evt_status(port));
	*(volatile uint32_t *)page = MAGIC;
	*far_word() = MAGIC;
	canary = 0xBAD;
	gnt_grant(ref, peer, (uint64_t)(uintptr_t)page >> 12, false);
	(void)evt_send(port);
	/* The peer's ack. */
	if (!evt_wait(port, 10000)) {
		printf("%s: FAIL peer did not map\n", rt_tag());
		return 1;
	}
	t = cntpct();
	printf("%s: crashing with grant %u mapped by d%u, cntpct %lu\n", rt_tag(), ref, peer,
	       (unsigned long)t);
	(void)*(volatile uint32_t *)(uintptr_t)(rt.ram_base + rt.ram_size);
	printf("%s: FAIL fault returned\n", rt_tag());
	return 1;
}

/*
 * Between two looks at the port: nothing by default (the scenario watches
 * the restart as it happens); with bootarg poll_sleep_us=N a timer sleep, so
 * that under -icount this vCPU is not counted in the owner's restart time
 * (QEMU runs all vCPUs in one round-robin thread; tools/bench/restart.sh).
 */
static void look_pause(uint64_t us)
{
	if (us != 0U) {
		(void)timer_sleep_ticks(timer_us_to_ticks(us));
	}
}

static int peer_side(domid_t owner_id, evtchn_port_t port, grant_ref_t ref)
{
	uint64_t nap = rt_arg_u64("poll_sleep_us", 0);
	grant_handle_t h;
	uint64_t t0;
	long st;
	int rc;

	volatile uint32_t *phase = (volatile uint32_t *)phase_page;

	if (gnt_setup(1) != 0) {
		printf("%s: FAIL grant setup\n", rt_tag());
		return 1;
	}
	*phase = 1U;
	gnt_grant(PHASE_REF, owner_id, (uint64_t)(uintptr_t)phase_page >> 12, true);
	mdelay(200);
	evt_clear(port);
	(void)evt_send(port);
	if (!evt_wait(port, 10000)) {
		printf("%s: FAIL no grant offer\n", rt_tag());
		return 1;
	}
	rc = gnt_map(owner_id, ref, MAP_ADDR, false, &h);
	if (rc != 0 || *(volatile uint32_t *)MAP_ADDR != MAGIC) {
		printf("%s: FAIL map of grant %u: %d\n", rt_tag(), ref, rc);
		return 1;
	}
	printf("%s: mapped grant %u of d%u, magic OK\n", rt_tag(), ref, owner_id);
	*phase = 2U;
	(void)evt_send(port);
	t0 = cntvct();
	do {
		look_pause(nap);
		st = evt_status(port);
	} while (st == (long)EVTCHNSTAT_interdomain &&
		 cntvct() - t0 < timer_us_to_ticks(20000000U));
	/* As in Xen, closing one end leaves the other unbound: no longer connected. */
	printf("%s: port %u status after the owner's crash: %ld (%s)\n", rt_tag(), port, st,
	       (st == (long)EVTCHNSTAT_closed || st == (long)EVTCHNSTAT_unbound) ?
	       "disconnected" : "FAIL still connected");
	/* Static channels are bound again once the owner is reloaded: tell it to go. */
	t0 = cntvct();
	while (evt_status(port) != (long)EVTCHNSTAT_interdomain &&
	       cntvct() - t0 < timer_us_to_ticks(20000000U)) {
		look_pause(nap);
	}
	evt_clear(port);
	(void)evt_send(port);
	mdelay(rt_arg_u64("settle_ms", 1000));
	rc = gnt_unmap(MAP_ADDR, h);
	printf("%s: unmap of the old mapping: %d (%s)\n", rt_tag(), rc,
	       (rc == GNTST_okay || rc == GNTST_bad_handle) ? "defined" : "FAIL undefined");
	printf("%s: touching old mapping 0x%llx\n", rt_tag(), MAP_ADDR);
	(void)*(volatile uint32_t *)MAP_ADDR;
	printf("%s: FAIL old mapping still readable\n", rt_tag());
	return 1;
}

int test_main(void)
{
	char role[8] = "owner";
	domid_t peer = (domid_t)rt_arg_u64("peer", 0);
	evtchn_port_t port = (evtchn_port_t)rt_arg_u64("port", 10);
	grant_ref_t ref = (grant_ref_t)rt_arg_u64("ref", 8);

	(void)rt_arg("role", role, sizeof(role));
	if (role[0] == 'o') {
		if (share_pages() != 0) {
			return 1;
		}
	} else if (evt_setup(false) != 0) {
		printf("%s: FAIL evtchn setup\n", rt_tag());
		return 1;
	}
	return role[0] == 'o' ? owner(peer, port, ref) : peer_side(peer, port, ref);
}
