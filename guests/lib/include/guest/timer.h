/* SPDX-License-Identifier: MIT */
/* Generic timer: the EL1 virtual counter and timer (PPI 27). */
#ifndef GUEST_TIMER_H
#define GUEST_TIMER_H

#include <stdint.h>

#define TIMER_VIRT_INTID 27U

static inline uint64_t cntvct(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

/* Physical counter: no per-partition offset (if the hypervisor lets EL1 read it). */
static inline uint64_t cntpct(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntpct_el0" : "=r"(v) :: "memory");
	return v;
}

static inline uint64_t cntfrq(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

uint64_t timer_us_to_ticks(uint64_t us);
uint64_t timer_ticks_to_us(uint64_t ticks);
/* Busy-wait (no interrupt needed). */
void udelay(uint64_t us);
void mdelay(uint64_t ms);
/* Program the virtual timer to fire at cntvct() + ticks (unmasked, enabled). */
void timer_arm(uint64_t ticks);
void timer_disarm(void);
/*
 * Sleep on WFI until the virtual timer interrupt, due ticks from now, has
 * been taken (at most one second late): needs PPI 27 enabled
 * (gic_enable_ppi) and IRQs on. Returns the counter at wake-up.
 */
uint64_t timer_sleep_ticks(uint64_t ticks);

#endif
