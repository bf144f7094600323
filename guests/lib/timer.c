/* SPDX-License-Identifier: MIT */
/* Delays and sleeps on the EL1 virtual timer. */
#include <guest/timer.h>
#include <guest/rt.h>

#define CNTV_CTL_ENABLE (1U << 0)
#define CNTV_CTL_IMASK  (1U << 1)

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
	uint64_t end = cntvct() + ticks, now;

	timer_arm(ticks);
	/* The IRQ handler (gic.c) masks the timer; spurious wake-ups loop. */
	while ((now = cntvct()) < end)
		rt_wfi();
	timer_disarm();
	return now;
}
