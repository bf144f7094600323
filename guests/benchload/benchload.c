/* SPDX-License-Identifier: MIT */
/*
 * make bench-irq's interference: a partition on its own CPU that floods
 * the hypervisor, forever: xen_version, a 4 KiB GNTTABOP_copy from a page
 * it granted itself, and an event sent on a loopback channel (upcalls
 * masked, the pending bit cleared), in turn. Prints its op count every
 * `every=` rounds (default 20000) so the log shows it ran.
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

#define REF 8U

static uint8_t src[4096] __attribute__((aligned(4096)));
static uint8_t dst[4096] __attribute__((aligned(4096)));

int test_main(void)
{
	domid_t self = (domid_t)rt_arg_u64("self", 2);
	uint64_t every = rt_arg_u64("every", 20000), rounds;
	evtchn_port_t a, b;

	if (evt_setup(false) != 0 || gnt_setup(1) != 0 ||
	    evt_alloc_unbound(DOMID_SELF, &a) != 0 || evt_bind_interdomain(DOMID_SELF, a, &b) != 0) {
		printf("%s: FAIL setup\n", rt_tag());
		return 1;
	}
	gnt_grant(REF, self, (uint64_t)(uintptr_t)src >> 12, false);
	printf("%s: load running\n", rt_tag());
	for (rounds = 1;; rounds++) {
		(void)xen_version();
		if (gnt_copy_from(self, REF, 0, (uint64_t)(uintptr_t)dst >> 12, 0, 4096) != 0) {
			printf("%s: FAIL copy\n", rt_tag());
			return 1;
		}
		(void)evt_send(b);
		evt_clear(a);
		if (rounds % every == 0)
			printf("%s: %lu rounds\n", rt_tag(), rounds);
	}
}
