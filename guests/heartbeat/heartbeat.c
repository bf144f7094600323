/* SPDX-License-Identifier: MIT */
/*
 * Prints "heartbeat N" every period_ms (default 100) for beats (default 30;
 * 0 = forever), sleeping on WFI until the virtual timer (PPI 27) fires, so
 * it also shows the vGIC and the timer work. mode=poll busy-waits instead.
 */
#include <guest/guest.h>

int test_main(void)
{
	uint64_t period = timer_us_to_ticks(rt_arg_u64("period_ms", 100) * 1000U);
	uint64_t beats = rt_arg_u64("beats", 30), n;
	char mode[8] = "irq";
	bool irq;

	(void)rt_arg("mode", mode, sizeof(mode));
	irq = strcmp(mode, "poll") != 0;
	if (irq) {
		if (!gic_init()) {
			printf("%s: no GIC in the device tree\n", rt_tag());
			return 1;
		}
		gic_enable_ppi(TIMER_VIRT_INTID, NULL);
		rt_irq_enable();
	}
	printf("%s: heartbeat start, period %lu ticks, %s, GICv%u\n", rt_tag(), period, mode,
	       gic_version());
	for (n = 1; beats == 0 || n <= beats; n++) {
		if (irq)
			timer_sleep_ticks(period);
		else
			udelay(timer_ticks_to_us(period));
		printf("%s: heartbeat %lu\n", rt_tag(), n);
	}
	if (irq)
		printf("%s: heartbeat done, %u timer interrupts\n", rt_tag(),
		       gic_irq_count(TIMER_VIRT_INTID));
	return irq && gic_irq_count(TIMER_VIRT_INTID) == 0 ? 1 : 0;
}
