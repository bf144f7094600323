/* SPDX-License-Identifier: MIT */
/*
 * Path lengths for make bench-paths. Under QEMU -icount shift=0 one virtual
 * nanosecond is one instruction and the 62.5 MHz counter ticks every 16
 * instructions, so each iteration's CNTVCT delta (in ticks) is its length
 * to 16 instructions. Paths: null hypercall (xen_version), map + unmap of a
 * grant made to ourselves, GNTTABOP_copy of 4 KiB from that grant, and
 * event send to upcall handler entry on a loopback interdomain channel.
 * Prints "bench <op> mean_ticks_x100 p99_ticks max_ticks n" per op.
 *
 * bootargs: self=<own domid> iters=<n> [ops=<mask>]: ops selects the paths
 * (bit 0 null hypercall, 1 map+unmap, 2 copy, 3 event; default all), so a
 * profile of one path is not mixed with the others (tools/bench/paths-profile.sh).
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

#define HIST 4096U
#define MAP_ADDR 0x38e00000ULL
#define REF 8U

static uint32_t hist[HIST];
static uint64_t sum, n, max;
static uint8_t src_page[4096] __attribute__((aligned(4096)));
static uint8_t dst_page[4096] __attribute__((aligned(4096)));
static volatile uint64_t t_send, t_entry;
static evtchn_port_t loop_port;
static volatile struct shared_info *si;

static void rec(uint64_t d)
{
	hist[d < HIST ? d : HIST - 1U]++;
	sum += d;
	n++;
	max = d > max ? d : max;
}

static void report(const char *op)
{
	uint64_t acc = 0, p99 = 0;
	unsigned int i;

	for (i = 0; i < HIST; i++) {
		acc += hist[i];
		if (acc * 100U >= n * 99U) {
			p99 = i;
			break;
		}
	}
	printf("bench %s %lu %lu %lu %lu\n", op, (unsigned long)(n ? sum * 100U / n : 0),
	       (unsigned long)p99, (unsigned long)max, (unsigned long)n);
	memset(hist, 0, sizeof(hist));
	sum = n = max = 0;
}

static void upcall(unsigned int intid)
{
	(void)intid;
	t_entry = cntvct();
	si->vcpu_info[0].evtchn_upcall_pending = 0;
	si->vcpu_info[0].evtchn_pending_sel = 0;
	evt_clear(loop_port);
}

int test_main(void)
{
	domid_t self = (domid_t)rt_arg_u64("self", 1);
	uint64_t iters = rt_arg_u64("iters", 10000), i, t;
	uint64_t ops = rt_arg_u64("ops", 15);
	evtchn_port_t a, b;
	grant_handle_t h;
	long rc;

	if (evt_setup(false) != 0 || gnt_setup(1) != 0 || !gic_init()) {
		printf("bench: FAIL setup\n");
		return 1;
	}
	si = (volatile struct shared_info *)(rt.gnttab_base + rt.gnttab_size - 4096U);
	gnt_grant(REF, self, (uint64_t)(uintptr_t)src_page >> 12, false);
	/* Warm-up call so the first sample is not a cold one. */
	(void)xen_version();
	for (i = 0; (ops & 1U) && i < iters; i++) {
		t = cntvct();
		(void)xen_version();
		rec(cntvct() - t);
	}
	report("null_hypercall");
	for (i = 0; (ops & 2U) && i < iters; i++) {
		t = cntvct();
		rc = gnt_map(self, REF, MAP_ADDR, false, &h);
		rc |= gnt_unmap(MAP_ADDR, h);
		rec(cntvct() - t);
		if (rc != 0) {
			printf("bench: FAIL map/unmap %ld\n", rc);
			return 1;
		}
	}
	report("grant_map_unmap");
	for (i = 0; (ops & 4U) && i < iters; i++) {
		t = cntvct();
		rc = gnt_copy_from(self, REF, 0, (uint64_t)(uintptr_t)dst_page >> 12, 0, 4096);
		rec(cntvct() - t);
		if (rc != 0) {
			printf("bench: FAIL copy %ld\n", rc);
			return 1;
		}
	}
	report("gnttab_copy_4k");
	if (evt_alloc_unbound(self, &a) != 0 || evt_bind_interdomain(self, a, &b) != 0) {
		printf("bench: FAIL loopback channel\n");
		return 1;
	}
	loop_port = a;
	evt_clear(a);
	evt_clear(b);
	gic_enable_ppi(rt.evtchn_intid, upcall);
	si->vcpu_info[0].evtchn_upcall_pending = 0;
	si->vcpu_info[0].evtchn_upcall_mask = 0;
	rt_irq_enable();
	for (i = 0; (ops & 8U) && i < iters; i++) {
		t_entry = 0;
		t_send = cntvct();
		(void)evt_send(b);
		while (t_entry == 0) {
		}
		rec(t_entry - t_send);
	}
	report("event_send_to_upcall");
	printf("bench: done\n");
	return 0;
}
