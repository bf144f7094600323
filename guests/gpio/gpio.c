/* SPDX-License-Identifier: MIT */
/*
 * A partition that owns QEMU virt's PL061 GPIO block (its /passthrough
 * node): reads the PrimeCell IDs, then makes the block raise its
 * level-sensitive interrupt, pin 0 sensing a low level, which an
 * unconnected input has. The first handler only clears the latch
 * (GPIOIC): the level is still there, so once its EOI has deactivated the
 * physical SPI the interrupt comes again; the second handler masks the pin.
 * Exactly two interrupts, `rounds=` times (default 2).
 * Then its vGIC's control of the SPI: GICD_ISPENDR raises it (the device
 * quiet), ICPENDR clears it while disabled so enabling brings nothing
 * (pending=0 leaves both out: Xen 4.17 neither reads nor clears that
 * pending state), and with 2 vCPUs, routed to vCPU 1 it is taken there.
 * reset_in_irq=1: the first incarnation resets the partition (PSCI
 * SYSTEM_RESET) from inside its first handler, before the EOI: the physical
 * SPI is still active then, and only the hypervisor can end it. It marks
 * itself in GPIOAFSEL (a register QEMU's PL061 keeps, unused on virt), so
 * the restarted partition knows it is the second and runs the rounds.
 */
#include <guest/guest.h>

#define GPIODIR 0x400U
#define GPIOIS  0x404U
#define GPIOIBE 0x408U
#define GPIOIEV 0x40cU
#define GPIOIE  0x410U
#define GPIORIS 0x414U
#define GPIOIC  0x41cU
#define GPIOAFSEL 0x420U
#define MARK    0x80U
#define PL061_PERIPH_ID 0x00041061U
#define PRIMECELL_ID    0xb105f00dU

#define GICD_ISENABLER 0x100U
#define GICD_ICENABLER 0x180U
#define GICD_ISPENDR   0x200U
#define GICD_ICPENDR   0x280U

static uint64_t base;
static volatile unsigned int taken;
static volatile unsigned int on_cpu = 99U;
static volatile bool cpu1_up;
static bool reset_in_irq;

static void on_gpio(unsigned int intid)
{
	(void)intid;
	if (reset_in_irq) {
		printf("%s: resetting inside the interrupt handler\n", rt_tag());
		(void)psci_system_reset();
		printf("%s: MISMATCH SYSTEM_RESET returned\n", rt_tag());
	}
	taken++;
	on_cpu = rt_cpu();
	if ((taken % 2U) == 0U)
		mmio_write32(base + GPIOIE, 0U);   /* second: mask the pin */
	mmio_write32(base + GPIOIC, 1U);           /* first: the level re-latches at once */
}

static void gicd_bit(uint32_t reg, unsigned int intid)
{
	mmio_write32(gic_dist_base() + reg + (intid / 32U) * 4U, 1U << (intid % 32U));
}

static bool gicd_pending(unsigned int intid)
{
	return (mmio_read32(gic_dist_base() + GICD_ISPENDR + (intid / 32U) * 4U) >>
		(intid % 32U)) & 1U;
}

/* 100 ms on the virtual timer: a bare WFI might never wake if nothing comes. */
static void settle(void)
{
	(void)timer_sleep_ticks(timer_us_to_ticks(100000U));
}

/* The second vCPU takes interrupts until the first says it is done. */
static void cpu1_main(unsigned int cpu)
{
	(void)cpu;
	rt_irq_enable();
	cpu1_up = true;
	while (cpu1_up)
		rt_wfi();
}

/* The vGIC's own controls of the assigned SPI, with the device quiet. */
static int vgic_controls(unsigned int intid)
{
	unsigned int before = taken;
	bool p1 = true, p2 = false;

	mmio_write32(base + GPIOIE, 0U);
	if (rt_arg_u64("pending", 1) == 0U)
		goto route;
	gicd_bit(GICD_ISPENDR, intid);
	settle();
	printf("%s: ISPENDR: %u interrupt%s\n", rt_tag(), taken - before,
	       taken - before == 1U ? "" : "s MISMATCH");
	gicd_bit(GICD_ICENABLER, intid);
	gicd_bit(GICD_ISPENDR, intid);
	p1 = gicd_pending(intid);
	gicd_bit(GICD_ICPENDR, intid);
	p2 = gicd_pending(intid);
	before = taken;
	gicd_bit(GICD_ISENABLER, intid);
	settle();
	printf("%s: disabled: ISPENDR reads %u, after ICPENDR %u, enabled: %u interrupts%s\n",
	       rt_tag(), p1, p2, taken - before, (p1 && !p2 && taken == before) ? "" : " MISMATCH");
	if (!p1 || p2 || taken != before)
		return 1;
route:
	if (rt.nr_cpus < 2U)
		return 0;
	if (psci_cpu_on(1, cpu1_main) != 0) {
		printf("%s: MISMATCH CPU_ON 1 failed\n", rt_tag());
		return 1;
	}
	while (!cpu1_up)
		;
	gic_route_spi(intid, 1);
	before = taken;
	mmio_write32(base + GPIOIE, 1U);
	settle();
	mmio_write32(base + GPIOIE, 0U);
	cpu1_up = false;
	printf("%s: routed to vCPU 1: %u interrupts, last on vCPU %u%s\n", rt_tag(),
	       taken - before, on_cpu, (taken != before && on_cpu == 1U) ? "" : " MISMATCH");
	return (p1 && !p2 && taken != before && on_cpu == 1U) ? 0 : 1;
}

int test_main(void)
{
	unsigned int rounds = (unsigned int)rt_arg_u64("rounds", 2), r;
	struct dev_info d;
	uint32_t pid, cid;

	if (!dev_find("arm,pl061", &d)) {
		printf("%s: no arm,pl061 node in the device tree\n", rt_tag());
		return 1;
	}
	base = d.base;
	pid = dev_periph_id(base);
	cid = dev_cell_id(base);
	printf("%s: pl061 at 0x%lx, interrupt %u (%s)\n", rt_tag(), d.base, d.intid,
	       d.edge ? "edge" : "level");
	printf("%s: pl061 periph id 0x%08x cell id 0x%08x%s\n", rt_tag(), pid, cid,
	       (pid == PL061_PERIPH_ID && cid == PRIMECELL_ID) ? "" : " MISMATCH");
	if (!gic_init()) {
		printf("%s: no GIC in the device tree\n", rt_tag());
		return 1;
	}
	if (rt_arg_u64("reset_in_irq", 0) != 0U) {
		reset_in_irq = (mmio_read32(base + GPIOAFSEL) & MARK) == 0U;
		mmio_write32(base + GPIOAFSEL, reset_in_irq ? MARK : 0U);
		printf("%s: %s incarnation\n", rt_tag(), reset_in_irq ? "first" : "second");
	}
	/* A restart leaves the device as the last incarnation left it: quiet it first. */
	mmio_write32(base + GPIOIE, 0U);
	mmio_write32(base + GPIODIR, 0U);      /* all inputs */
	mmio_write32(base + GPIOIS, 1U);       /* pin 0 level-sensitive */
	mmio_write32(base + GPIOIBE, 0U);
	mmio_write32(base + GPIOIEV, 0U);      /* ... to a low level */
	mmio_write32(base + GPIOIC, 0xffU);
	gic_enable_spi(d.intid, on_gpio, 0);
	gic_enable_ppi(TIMER_VIRT_INTID, NULL);
	rt_irq_enable();
	for (r = 1; r <= rounds; r++) {
		mmio_write32(base + GPIOIE, 1U);
		settle();   /* long enough for a third one, if it came */
		printf("%s: round %u: %u interrupts (RIS 0x%x)%s\n", rt_tag(), r, taken,
		       mmio_read32(base + GPIORIS), taken == 2U * r ? "" : " MISMATCH");
	}
	if (taken != 2U * rounds)
		return 1;
	if (vgic_controls(d.intid) != 0)
		return 1;
	printf("%s: gpio done, %u interrupts\n", rt_tag(), gic_irq_count(d.intid));
	return 0;
}
