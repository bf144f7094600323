/* SPDX-License-Identifier: MIT */
/*
 * A partition that owns QEMU virt's PL031 RTC, found in its own device
 * tree (the /passthrough node the hypervisor copied from its partial tree,
 * at whatever guest address that gave it): reads the PrimeCell IDs and the
 * time, then takes the match interrupt `matches=` times (default 2), a
 * second apart. The interrupt is level-triggered: the handler clears it
 * (RTCICR) before its EOI, which deactivates the physical SPI.
 * touch=ADDR: then arms one more match and reads ADDR, MMIO it was not
 * given: the hypervisor stops it (and masks its RTC interrupt).
 */
#include <guest/guest.h>

#define RTCDR   0x000U
#define RTCMR   0x004U
#define RTCIMSC 0x010U
#define RTCRIS  0x014U
#define RTCMIS  0x018U
#define RTCICR  0x01cU
#define PL031_PERIPH_ID 0x00141031U
#define PRIMECELL_ID    0xb105f00dU
#define TIME_2020       1577836800U

static uint64_t base;
static volatile unsigned int matched;
static volatile uint32_t mis;

static void on_match(unsigned int intid)
{
	(void)intid;
	mis = mmio_read32(base + RTCMIS);
	mmio_write32(base + RTCICR, 1U);   /* lowers the level before the EOI */
	matched++;
}

static bool wait_match(unsigned int n, uint64_t ticks)
{
	uint64_t end = cntvct() + ticks;

	/* On the virtual timer, 10 ms at a time: a bare WFI might never wake. */
	while (matched < n && cntvct() < end)
		(void)timer_sleep_ticks(timer_us_to_ticks(10000U));
	return matched >= n;
}

int test_main(void)
{
	unsigned int n = (unsigned int)rt_arg_u64("matches", 2), i;
	uint64_t touch = rt_arg_u64("touch", 0);
	struct dev_info d;
	uint32_t t0, pid, cid;

	if (!dev_find("arm,pl031", &d)) {
		printf("%s: no arm,pl031 node in the device tree\n", rt_tag());
		return 1;
	}
	base = d.base;
	pid = dev_periph_id(base);
	cid = dev_cell_id(base);
	printf("%s: pl031 at 0x%lx, interrupt %u (%s)\n", rt_tag(), d.base, d.intid,
	       d.edge ? "edge" : "level");
	printf("%s: pl031 periph id 0x%08x cell id 0x%08x%s\n", rt_tag(), pid, cid,
	       (pid == PL031_PERIPH_ID && cid == PRIMECELL_ID) ? "" : " MISMATCH");
	t0 = mmio_read32(base + RTCDR);
	printf("%s: pl031 time %u%s\n", rt_tag(), t0, t0 > TIME_2020 ? "" : " MISMATCH");
	if (!gic_init()) {
		printf("%s: no GIC in the device tree\n", rt_tag());
		return 1;
	}
	gic_enable_spi(d.intid, on_match, 0);
	gic_enable_ppi(TIMER_VIRT_INTID, NULL);
	rt_irq_enable();
	for (i = 1; i <= n; i++) {
		uint32_t now = mmio_read32(base + RTCDR);

		mmio_write32(base + RTCMR, now + 1U);
		mmio_write32(base + RTCIMSC, 1U);
		if (!wait_match(i, timer_us_to_ticks(3000000U))) {
			printf("%s: MISMATCH no match interrupt %u in 3 s\n", rt_tag(), i);
			return 1;
		}
		printf("%s: match interrupt %u at %u (MIS 0x%x, RIS after clear 0x%x)\n", rt_tag(), i,
		       mmio_read32(base + RTCDR), mis, mmio_read32(base + RTCRIS));
	}
	if (touch != 0U) {
		mmio_write32(base + RTCMR, mmio_read32(base + RTCDR) + 1U);
		printf("%s: touching 0x%lx\n", rt_tag(), touch);
		(void)mmio_read32(touch);
		printf("%s: NOT stopped after touching 0x%lx\n", rt_tag(), touch);
		return 1;
	}
	mmio_write32(base + RTCIMSC, 0U);
	printf("%s: rtc done, %u match interrupts\n", rt_tag(), gic_irq_count(d.intid));
	return 0;
}
