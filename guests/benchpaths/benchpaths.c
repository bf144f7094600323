/* SPDX-License-Identifier: MIT */
/*
 * Path lengths for make bench-paths. Under QEMU -icount shift=0 one virtual
 * nanosecond is one instruction and the 62.5 MHz counter ticks every 16
 * instructions, so each iteration's counter delta (in ticks) is its length
 * to 16 instructions. One-vCPU paths (this file): null hypercall
 * (xen_version), map + unmap of a grant made to ourselves, GNTTABOP_copy of
 * 4 KiB from that grant, event send to upcall handler entry on a loopback
 * interdomain channel, unmask of a pending masked port to upcall entry,
 * virtual timer expiry to handler entry, one GNTTABOP_map_grant_ref of 16
 * elements (reported per element) and one write to an emulated PL011
 * register. smp.c has the paths that need a second CPU.
 * Prints "bench <op> mean_ticks_x100 p99_ticks max_ticks n per" per op.
 *
 * bootargs: self=<own domid> iters=<n> [ops=<mask>] [role=sender|sleeper
 * peer=<domid>]: ops selects the paths (bench.h OP_*; default the one-vCPU
 * ones), so a profile of one path is not mixed with the others
 * (tools/bench/paths-profile.sh); role selects the two partitions of the
 * WFI-wake bench (dts/bench/paths-wake.dtsi).
 */
#include "bench.h"

#define HIST 4096U
#define MAP_ADDR 0x38e00000ULL
#define BATCH_ADDR 0x38d00000ULL
#define REF 8U
#define BATCH_REF 16U
#define BATCH 16U
#define UART_IMSC 0x038U
#define VTIMER_LEAD_TICKS 32U

static uint32_t hist[HIST];
static uint64_t sum, n, max;
static uint8_t src_page[4096] __attribute__((aligned(4096)));
static uint8_t dst_page[4096] __attribute__((aligned(4096)));
static uint8_t batch_pages[BATCH][4096] __attribute__((aligned(4096)));
/* One page each, so no op array straddles a page (same work on every hypervisor). */
static struct gnttab_map_grant_ref batch_map[BATCH] __attribute__((aligned(4096)));
static struct gnttab_unmap_grant_ref batch_unmap[BATCH] __attribute__((aligned(4096)));
static volatile uint64_t t_send, t_entry;
static evtchn_port_t loop_port;
static volatile struct shared_info *si;

void bench_rec(uint64_t d)
{
	hist[d < HIST ? d : HIST - 1U]++;
	sum += d;
	n++;
	max = d > max ? d : max;
}

void bench_report(const char *op, unsigned int per)
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
	printf("bench %s %lu %lu %lu %lu %u\n", op, (unsigned long)(n ? sum * 100U / n : 0),
	       (unsigned long)p99, (unsigned long)max, (unsigned long)n, per);
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

static void vtimer_irq(unsigned int intid)
{
	(void)intid;
	t_entry = cntvct();
	__asm__ volatile("msr cntv_ctl_el0, xzr; isb" ::: "memory");
}

static void evt_mask(evtchn_port_t p)
{
	__atomic_fetch_or(&si->evtchn_mask[p / 64U], 1UL << (p % 64U), __ATOMIC_SEQ_CST);
}

static int bench_grants(domid_t self, uint64_t iters, uint64_t ops)
{
	grant_handle_t h;
	uint64_t i, t;
	unsigned int k;
	long rc;

	for (i = 0; (ops & OP_MAP) && i < iters; i++) {
		t = cntvct();
		rc = gnt_map(self, REF, MAP_ADDR, false, &h);
		rc |= gnt_unmap(MAP_ADDR, h);
		bench_rec(cntvct() - t);
		if (rc != 0) {
			printf("bench: FAIL map/unmap %ld\n", rc);
			return 1;
		}
	}
	bench_report("grant_map_unmap", 1);
	for (i = 0; (ops & OP_COPY) && i < iters; i++) {
		t = cntvct();
		rc = gnt_copy_from(self, REF, 0, (uint64_t)(uintptr_t)dst_page >> 12, 0, 4096);
		bench_rec(cntvct() - t);
		if (rc != 0) {
			printf("bench: FAIL copy %ld\n", rc);
			return 1;
		}
	}
	bench_report("gnttab_copy_4k", 1);
	for (k = 0; k < BATCH; k++)
		gnt_grant(BATCH_REF + k, self, (uint64_t)(uintptr_t)batch_pages[k] >> 12, false);
	for (i = 0; (ops & OP_BATCH16) && i < iters; i++) {
		for (k = 0; k < BATCH; k++) {
			batch_map[k] = (struct gnttab_map_grant_ref){
				.host_addr = BATCH_ADDR + 4096U * k,
				.flags = GNTMAP_host_map,
				.ref = BATCH_REF + k,
				.dom = self,
			};
		}
		t = cntvct();
		rc = HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, batch_map, BATCH);
		bench_rec(cntvct() - t);
		for (k = 0; k < BATCH; k++) {
			rc |= batch_map[k].status;
			batch_unmap[k] = (struct gnttab_unmap_grant_ref){
				.host_addr = BATCH_ADDR + 4096U * k,
				.handle = batch_map[k].handle,
			};
		}
		rc |= HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref, batch_unmap, BATCH);
		for (k = 0; k < BATCH; k++)
			rc |= batch_unmap[k].status;
		if (rc != 0) {
			printf("bench: FAIL map batch %ld\n", rc);
			return 1;
		}
	}
	bench_report("grant_map_batch16", BATCH);
	return 0;
}

static int bench_events(domid_t self, uint64_t iters, uint64_t ops)
{
	struct evtchn_unmask um;
	evtchn_port_t a, b;
	uint64_t i;

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
	for (i = 0; (ops & OP_EVENT) && i < iters; i++) {
		t_entry = 0;
		t_send = cntvct();
		(void)evt_send(b);
		while (t_entry == 0) {
		}
		bench_rec(t_entry - t_send);
	}
	bench_report("event_send_to_upcall", 1);
	/* a masked and pending (the send raises nothing), then unmasked: the upcall. */
	um.port = a;
	for (i = 0; (ops & OP_UNMASK) && i < iters; i++) {
		t_entry = 0;
		evt_mask(a);
		(void)evt_send(b);
		if (!evt_pending(a) || t_entry != 0) {
			printf("bench: FAIL masked port not pending, or an upcall for it\n");
			return 1;
		}
		t_send = cntvct();
		(void)HYPERVISOR_event_channel_op(EVTCHNOP_unmask, &um);
		while (t_entry == 0) {
		}
		bench_rec(t_entry - t_send);
	}
	bench_report("evtchn_unmask", 1);
	return 0;
}

static void bench_vtimer(uint64_t iters)
{
	uint64_t i, cval;

	gic_enable_ppi(TIMER_VIRT_INTID, vtimer_irq);
	for (i = 0; i < iters; i++) {
		t_entry = 0;
		cval = cntvct() + VTIMER_LEAD_TICKS;
		__asm__ volatile("msr cntv_cval_el0, %0" :: "r"(cval));
		__asm__ volatile("msr cntv_ctl_el0, %0; isb" :: "r"(1UL) : "memory");
		while (t_entry == 0) {
		}
		bench_rec(t_entry - cval);
	}
	gic_disable_ppi(TIMER_VIRT_INTID);
}

static int bench_vpl011(uint64_t iters)
{
	volatile uint32_t *imsc = (volatile uint32_t *)(GUEST_PL011_BASE + UART_IMSC);
	uint64_t i, t;

	if (!rt.has_vpl011) {
		printf("bench: FAIL no vpl011 in the device tree\n");
		return 1;
	}
	for (i = 0; i < iters; i++) {
		t = cntvct();
		*imsc = 0U;
		bench_rec(cntvct() - t);
	}
	return 0;
}

int test_main(void)
{
	domid_t self = (domid_t)rt_arg_u64("self", 1);
	domid_t peer = (domid_t)rt_arg_u64("peer", 2);
	uint64_t iters = rt_arg_u64("iters", 10000), i, t;
	uint64_t ops = rt_arg_u64("ops", OPS_ONE_VCPU);
	char role[8] = "";
	int rc = 0;

	if (evt_setup(false) != 0 || gnt_setup(1) != 0 || !gic_init()) {
		printf("bench: FAIL setup\n");
		return 1;
	}
	si = (volatile struct shared_info *)(rt.gnttab_base + rt.gnttab_size - 4096U);
	(void)rt_arg("role", role, sizeof(role));
	if (strcmp(role, "sleeper") == 0)
		return bench_wake_sleeper(peer, iters);
	if (strcmp(role, "sender") == 0)
		rc = bench_wake_sender(peer, iters);
	else if (ops & OP_SGI)
		rc = bench_sgi(iters);
	if (rc != 0 || (ops & OPS_ONE_VCPU) == 0) {
		if (rc == 0)
			printf("bench: done\n");
		return rc;
	}
	gnt_grant(REF, self, (uint64_t)(uintptr_t)src_page >> 12, false);
	/* Warm-up call so the first sample is not a cold one. */
	(void)xen_version();
	for (i = 0; (ops & OP_NULL) && i < iters; i++) {
		t = cntvct();
		(void)xen_version();
		bench_rec(cntvct() - t);
	}
	bench_report("null_hypercall", 1);
	if (bench_grants(self, iters, ops) != 0 || bench_events(self, iters, ops) != 0)
		return 1;
	if (ops & OP_VTIMER)
		bench_vtimer(iters);
	bench_report("vtimer_inject", 1);
	if ((ops & OP_VPL011) && bench_vpl011(iters) != 0)
		return 1;
	bench_report("mmio_vpl011_write", 1);
	printf("bench: done\n");
	return 0;
}
