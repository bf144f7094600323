/* SPDX-License-Identifier: MIT */
/* Shared by the bench-paths partition's files: per-op statistics and the op bits. */
#ifndef BENCHPATHS_BENCH_H
#define BENCHPATHS_BENCH_H

#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>

/* ops= bootarg bits: one per path, so a profile can select one. */
#define OP_NULL      (1U << 0)
#define OP_MAP       (1U << 1)
#define OP_COPY      (1U << 2)
#define OP_EVENT     (1U << 3)
#define OP_UNMASK    (1U << 4)
#define OP_VTIMER    (1U << 5)
#define OP_BATCH16   (1U << 6)
#define OP_VPL011    (1U << 7)
#define OP_SGI       (1U << 8)   /* needs a second vCPU (paths-sgi.dtsi) */
#define OP_WAKE      (1U << 9)   /* needs a sleeper partition (paths-wake.dtsi) */
#define OPS_ONE_VCPU 0xffU

/* Record one iteration's length in counter ticks. */
void bench_rec(uint64_t ticks);
/*
 * Print "bench <op> mean_ticks_x100 p99_ticks max_ticks n per" and reset;
 * per is how many elements one iteration handled (the CSV is per element).
 */
void bench_report(const char *op, unsigned int per);

/* smp.c: vCPU 0 to vCPU 1 SGI, and the cross-partition WFI wake (both roles). */
int bench_sgi(uint64_t iters);
int bench_wake_sender(domid_t peer, uint64_t iters);
int bench_wake_sleeper(domid_t peer, uint64_t iters);

static inline void bench_wfe(void)
{
	__asm__ volatile("wfe" ::: "memory");
}

static inline void bench_sev(void)
{
	__asm__ volatile("dsb ish; sev" ::: "memory");
}

#endif
