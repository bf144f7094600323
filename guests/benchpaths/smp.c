/* SPDX-License-Identifier: MIT */
/*
 * The bench-paths paths that need two CPUs (QEMU -smp 2, -icount: one
 * round-robin thread runs both, and a CPU hands over only when it waits, so
 * each waiting side ends its turn with WFE, which QEMU takes as a yield).
 *
 * sgi_to_other_vcpu: vCPU 0 writes ICC_SGI1R_EL1 (GICv3; on a GICv2, as on
 * the ZCU102, GICD_SGIR, an emulated MMIO write) for vCPU 1 of the same
 * partition, which sleeps in WFI with interrupts on; timed from before the
 * write to the first instruction of vCPU 1's SGI handler (CNTVCT: one
 * partition, one offset). vCPU 0 waits in WFE, so the count includes its own
 * return to the guest up to that WFE (instructions of both CPUs count).
 *
 * wfi_wake: the sleeper partition waits in WFI with interrupts masked; the
 * sender partition sends on a static event channel to it; timed from before
 * the EVTCHNOP_send to the sleeper's first instruction after its WFI (CNTPCT,
 * the physical count both partitions read without an offset; the sleeper
 * writes its time into a page the sender grants it). The sleeper then takes
 * the upcall with interrupts on and says it is ready again.
 */
#include "bench.h"

#define SGI_BENCH 1U
#define SHARED_REF 9U
#define SHARED_ADDR 0x38e00000ULL
#define SENDER_PORT 10U
#define SLEEPER_PORT 11U
#define WAIT_MS 5000U

static volatile uint64_t sgi_entry;
static volatile unsigned int sgi_ready, sgi_stop;

static void sgi_handler(unsigned int intid)
{
	(void)intid;
	sgi_entry = cntvct();
	bench_sev();
}

static void sgi_target(unsigned int cpu)
{
	(void)cpu;
	gic_enable_ppi(SGI_BENCH, sgi_handler);
	rt_irq_enable();
	__atomic_store_n(&sgi_ready, 1U, __ATOMIC_RELEASE);
	bench_sev();
	while (!__atomic_load_n(&sgi_stop, __ATOMIC_ACQUIRE))
		rt_wfi();
}

#define GICD_SGIR 0xf00U

static inline void sgi1r_write(uint64_t v)
{
	__asm__ volatile("msr S3_0_C12_C11_5, %0; isb" :: "r"(v) : "memory"); /* ICC_SGI1R_EL1 */
}

/* The SGI to vCPU 1, the way the partition's GIC takes it. */
static inline void sgi_send(uint64_t sgi1r)
{
	if (gic_version() == 3U) {
		sgi1r_write(sgi1r);
	} else {
		/* GICD_SGIR: target list (CPU interface 1), filter 0, INTID. */
		mmio_write32(gic_dist_base() + GICD_SGIR, (1U << (16U + 1U)) | SGI_BENCH);
	}
}

int bench_sgi(uint64_t iters)
{
	/* TargetList bit 1 (Aff0 = 1: vCPU 1), Aff1..3 = 0, INTID SGI_BENCH. */
	const uint64_t sgi1r = (1UL << 1) | ((uint64_t)SGI_BENCH << 24);
	uint64_t i, t, spins;

	if (rt.nr_cpus < 2U) {
		printf("bench: FAIL sgi_to_other_vcpu needs 2 vCPUs\n");
		return 1;
	}
	if (psci_cpu_on(1, sgi_target) != PSCI_SUCCESS) {
		printf("bench: FAIL CPU_ON\n");
		return 1;
	}
	for (spins = 0; !__atomic_load_n(&sgi_ready, __ATOMIC_ACQUIRE) && spins < 100000000UL; spins++)
		bench_wfe();
	for (i = 0; i < iters; i++) {
		sgi_entry = 0;
		t = cntvct();
		sgi_send(sgi1r);
		for (spins = 0; sgi_entry == 0 && spins < 100000000UL; spins++)
			bench_wfe();
		if (sgi_entry == 0) {
			printf("bench: FAIL no SGI on vCPU 1\n");
			return 1;
		}
		bench_rec(sgi_entry - t);
	}
	bench_report("sgi_to_other_vcpu", 1);
	__atomic_store_n(&sgi_stop, 1U, __ATOMIC_RELEASE);
	sgi_send(sgi1r);
	return 0;
}

/* The page the sender grants the sleeper. */
struct wake_page {
	volatile uint64_t armed;    /* sleeper: about to wait for round n */
	volatile uint64_t woken;    /* sleeper: round n woke at t_wake */
	volatile uint64_t t_wake;
};

static uint8_t wake_page[4096] __attribute__((aligned(4096)));
static volatile struct shared_info *wake_si;

static void sleeper_upcall(unsigned int intid)
{
	(void)intid;
	wake_si->vcpu_info[0].evtchn_upcall_pending = 0;
	wake_si->vcpu_info[0].evtchn_pending_sel = 0;
	evt_clear(SLEEPER_PORT);
}

int bench_wake_sender(domid_t peer, uint64_t iters)
{
	volatile struct wake_page *w = (volatile struct wake_page *)wake_page;
	uint64_t i, t, spins;

	evt_clear(SENDER_PORT);
	gnt_grant(SHARED_REF, peer, (uint64_t)(uintptr_t)wake_page >> 12, false);
	(void)evt_send(SENDER_PORT);   /* offer: the page is granted */
	if (!evt_wait(SENDER_PORT, WAIT_MS)) {
		printf("bench: FAIL sleeper did not map the page\n");
		return 1;
	}
	for (i = 0; i < iters; i++) {
		for (spins = 0; w->armed != i + 1U && spins < 100000000UL; spins++)
			bench_wfe();
		t = cntpct();
		(void)evt_send(SENDER_PORT);
		for (spins = 0; w->woken != i + 1U && spins < 100000000UL; spins++)
			bench_wfe();
		if (w->woken != i + 1U) {
			printf("bench: FAIL sleeper did not wake (round %lu)\n", (unsigned long)i);
			return 1;
		}
		bench_rec(w->t_wake - t);
	}
	bench_report("wfi_wake", 1);
	return 0;
}

int bench_wake_sleeper(domid_t peer, uint64_t iters)
{
	volatile struct wake_page *w = (volatile struct wake_page *)SHARED_ADDR;
	grant_handle_t h;
	uint64_t i, t;
	int st;

	wake_si = (volatile struct shared_info *)(rt.gnttab_base + rt.gnttab_size - 4096U);
	/*
	 * Xen leaves the second side of a static channel pending at bind, so an
	 * event may come before the offer: map once the grant is there.
	 */
	for (i = 0, st = -1; i < 4U && st != 0; i++) {
		if (!evt_wait(SLEEPER_PORT, WAIT_MS)) {
			printf("bench: FAIL no offer from the sender\n");
			return 1;
		}
		st = gnt_map(peer, SHARED_REF, SHARED_ADDR, false, &h);
	}
	if (st != 0) {
		printf("bench: FAIL map of the shared page: %d\n", st);
		return 1;
	}
	gic_enable_ppi(rt.evtchn_intid, sleeper_upcall);
	wake_si->vcpu_info[0].evtchn_upcall_pending = 0;
	wake_si->vcpu_info[0].evtchn_upcall_mask = 0;
	/* Take the upcall the offer left pending, or the first WFI would not wait. */
	rt_irq_enable();
	__asm__ volatile("isb" ::: "memory");
	(void)evt_send(SLEEPER_PORT);  /* mapped */
	for (i = 0; i < iters; i++) {
		rt_irq_disable();
		w->armed = i + 1U;
		bench_sev();
		/* A WFI may also end for another reason (the hypervisor's own timer). */
		do {
			rt_wfi();
			t = cntpct();
		} while (!evt_pending(SLEEPER_PORT));
		w->t_wake = t;
		rt_irq_enable();    /* the upcall clears the port */
		__asm__ volatile("isb" ::: "memory");
		rt_irq_disable();
		w->woken = i + 1U;
		bench_sev();
	}
	printf("bench: sleeper finished %lu rounds\n", (unsigned long)iters);
	return 0;
}
