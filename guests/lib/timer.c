/* SPDX-License-Identifier: MIT */
/* Delays and sleeps on the EL1 virtual timer. */
#include <guest/timer.h>
#include <guest/gic.h>
#include <guest/rt.h>

#define CNTV_CTL_ENABLE (1U << 0)
#define CNTV_CTL_IMASK  (1U << 1)
/* How long past its deadline a timer interrupt may still arrive. */
#define TIMER_IRQ_GRACE_US 1000000U

uint64_t timer_us_to_ticks(uint64_t us)
{
	return us * cntfrq() / 1000000U;
}

uint64_t timer_ticks_to_us(uint64_t ticks)
{
	uint64_t f = cntfrq();

	return f ? ticks * 1000000U / f : 0;
}

void udelay(uint64_t us)
{
	uint64_t end = cntvct() + timer_us_to_ticks(us);

	while (cntvct() < end)
		;
}

void mdelay(uint64_t ms)
{
	udelay(ms * 1000U);
}

void timer_arm(uint64_t ticks)
{
	uint64_t cval = cntvct() + ticks;

	__asm__ volatile("msr cntv_cval_el0, %0" :: "r"(cval));
	__asm__ volatile("msr cntv_ctl_el0, %0; isb" :: "r"((uint64_t)CNTV_CTL_ENABLE) : "memory");
}

void timer_disarm(void)
{
	__asm__ volatile("msr cntv_ctl_el0, %0; isb" :: "r"((uint64_t)CNTV_CTL_IMASK) : "memory");
}

uint64_t timer_sleep_ticks(uint64_t ticks)
{
	unsigned int seen = gic_irq_count(TIMER_VIRT_INTID);
	uint64_t start = cntvct(), limit = ticks + timer_us_to_ticks(TIMER_IRQ_GRACE_US), now;

	timer_arm(ticks);
	/*
	 * Wait for the interrupt itself, not for the counter: WFI may return
	 * early (any wake-up event) and the interrupt may be injected a little
	 * after the deadline; disarming at the deadline would lose it. The
	 * handler (gic.c) masks the timer. Bounded: a lost interrupt shows up
	 * as a missing count, not as a hang.
	 */
	while (gic_irq_count(TIMER_VIRT_INTID) == seen && (now = cntvct()) - start < limit)
		rt_wfi();
	now = cntvct();
	timer_disarm();
	return now;
}
