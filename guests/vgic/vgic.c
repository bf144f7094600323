/* SPDX-License-Identifier: MIT */
/*
 * vGIC checks from inside a partition (2 vCPUs): distributor and
 * redistributor identification, the virtual timer through the vGIC, SGIs to
 * itself and to the other vCPU, SPIs made pending through GICD_ISPENDR and
 * taken in priority order, ICPENDR, and masking of guest-written routes.
 * Interrupts other than the timer and the cross-vCPU SGI are taken by
 * polling the acknowledge register with IRQs masked, so no handler runs.
 */
#include <guest/guest.h>

#define GICD_TYPER      0x0004U
#define GICD_ISENABLER  0x0100U
#define GICD_ICENABLER  0x0180U
#define GICD_ISPENDR    0x0200U
#define GICD_ICPENDR    0x0280U
#define GICD_IPRIORITYR 0x0400U
#define GICD_ITARGETSR  0x0800U
#define GICD_SGIR       0x0f00U
#define GICD_IROUTER    0x6000U
#define GICD_PIDR2_V3   0xffe8U
#define GICR_TYPER      0x0008U
#define GICR_STRIDE     0x20000U
#define GICC_IAR        0x000cU
#define GICC_EOIR       0x0010U
#define SPURIOUS        1023U

static uint64_t gicd, gicr, gicc;
static unsigned int ver;
static volatile unsigned int cross_sgis, cpu1_ready, cpu1_done;
static int fails;

#define CHECK(cond, ...) do {                                           \
	if (!(cond)) {                                                  \
		printf("%s: MISMATCH ", rt_tag());                      \
		printf(__VA_ARGS__);                                    \
		printf("\n");                                           \
		fails++;                                                \
	}                                                               \
} while (0)

static bool find_gic(void)
{
	uint64_t size;
	int node = fdt_compatible(rt.dtb, -1, "arm,gic-v3");

	if (node >= 0) {
		ver = 3;
		return fdt_reg(rt.dtb, node, 0, &gicd, &size) && fdt_reg(rt.dtb, node, 1, &gicr, &size);
	}
	node = fdt_compatible(rt.dtb, -1, "arm,gic-400");
	if (node < 0)
		node = fdt_compatible(rt.dtb, -1, "arm,cortex-a15-gic");
	ver = 2;
	return node >= 0 && fdt_reg(rt.dtb, node, 0, &gicd, &size) &&
	       fdt_reg(rt.dtb, node, 1, &gicc, &size);
}

static uint32_t ack(void)
{
	uint64_t v;

	if (ver == 2)
		return mmio_read32(gicc + GICC_IAR);
	__asm__ volatile("mrs %0, S3_0_C12_C12_0" : "=r"(v) :: "memory");
	return (uint32_t)v;
}

static void eoi(uint32_t iar)
{
	if (ver == 2)
		mmio_write32(gicc + GICC_EOIR, iar);
	else
		__asm__ volatile("msr S3_0_C12_C12_1, %0; isb" :: "r"((uint64_t)iar));
}

/* Acknowledge what is pending now (interrupts masked), or SPURIOUS. */
static unsigned int take(void)
{
	uint32_t iar = ack();
	unsigned int id = iar & 0x3ffU;

	if (id < SPURIOUS)
		eoi(iar);
	return id;
}

static void send_sgi(unsigned int cpu, unsigned int sgi)
{
	if (ver == 2) {
		mmio_write32(gicd + GICD_SGIR, (1U << (16 + cpu)) | sgi);
		return;
	}
	__asm__ volatile("msr S3_0_C12_C11_5, %0; isb" :: "r"(((uint64_t)sgi << 24) | (1UL << cpu)));
}

static void set_prio(unsigned int irq, uint8_t prio)
{
	uint64_t a = gicd + GICD_IPRIORITYR + (irq & ~3U);
	unsigned int sh = (irq & 3U) * 8U;

	mmio_write32(a, (mmio_read32(a) & ~(0xffU << sh)) | ((uint32_t)prio << sh));
}

static void spi_setup(unsigned int irq, uint8_t prio, bool enable)
{
	set_prio(irq, prio);
	if (ver == 3) {
		mmio_write32(gicd + GICD_IROUTER + 8U * irq, 0U);       /* vCPU 0 */
		mmio_write32(gicd + GICD_IROUTER + 8U * irq + 4U, 0U);
	} else {
		uint64_t a = gicd + GICD_ITARGETSR + (irq & ~3U);
		unsigned int sh = (irq & 3U) * 8U;

		mmio_write32(a, (mmio_read32(a) & ~(0xffU << sh)) | (1U << sh));
	}
	mmio_write32(gicd + (enable ? GICD_ISENABLER : GICD_ICENABLER) + (irq / 32U) * 4U,
		     1U << (irq % 32U));
}

static void spi_pend(unsigned int irq, bool set)
{
	mmio_write32(gicd + (set ? GICD_ISPENDR : GICD_ICPENDR) + (irq / 32U) * 4U,
		     1U << (irq % 32U));
}

static void on_cross_sgi(unsigned int intid)
{
	(void)intid;
	__atomic_fetch_add(&cross_sgis, 1U, __ATOMIC_RELEASE);
}

static void cpu1_main(unsigned int cpu)
{
	uint64_t end = cntvct() + timer_us_to_ticks(5000000U);

	gic_cpu_init();
	gic_enable_ppi(2, on_cross_sgi);
	rt_irq_enable();
	__atomic_store_n(&cpu1_ready, 1U, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&cross_sgis, __ATOMIC_ACQUIRE) && cntvct() < end)
		rt_wfi();
	rt_irq_disable();
	printf("%s: cpu%u took %u SGI(s)\n", rt_tag(), cpu, cross_sgis);
	__atomic_store_n(&cpu1_done, 1U, __ATOMIC_RELEASE);
}

static bool wait_flag(volatile unsigned int *f, uint64_t ms)
{
	uint64_t end = cntvct() + timer_us_to_ticks(ms * 1000U);

	while (!__atomic_load_n(f, __ATOMIC_ACQUIRE))
		if (cntvct() > end)
			return false;
	return true;
}

static void check_ids(void)
{
	unsigned int lines = ((mmio_read32(gicd + GICD_TYPER) & 0x1fU) + 1U) * 32U;
	unsigned int c;

	CHECK(lines >= 64U, "GICD_TYPER: %u interrupt lines", lines);
	if (ver != 3)
		return;
	CHECK((mmio_read32(gicd + GICD_PIDR2_V3) & 0xf0U) == 0x30U, "GICD_PIDR2 not GICv3");
	for (c = 0; c < rt.nr_cpus; c++) {
		uint64_t base = gicr + (uint64_t)c * GICR_STRIDE + GICR_TYPER;
		uint64_t t = mmio_read32(base) | ((uint64_t)mmio_read32(base + 4) << 32);

		CHECK((t >> 32) == c, "GICR%u_TYPER affinity 0x%lx", c, t >> 32);
		CHECK(((t >> 4) & 1U) == (c + 1U == rt.nr_cpus), "GICR%u_TYPER Last bit", c);
	}
	printf("%s: GICv3 GICD and %u redistributors identified\n", rt_tag(), rt.nr_cpus);
}

static void check_timer(void)
{
	unsigned int got = 0, n;

	gic_enable_ppi(TIMER_VIRT_INTID, NULL);   /* the handler masks the timer */
	rt_irq_enable();
	for (n = 0; n < 5; n++) {
		unsigned int before = gic_irq_count(TIMER_VIRT_INTID);
		uint64_t end = cntvct() + timer_us_to_ticks(200000);

		/* Wait for the interrupt itself, not for the time: no race with the count. */
		timer_arm(timer_us_to_ticks(2000));
		while (gic_irq_count(TIMER_VIRT_INTID) == before && cntvct() < end)
			rt_wfi();
		if (gic_irq_count(TIMER_VIRT_INTID) != before)
			got++;
	}
	timer_disarm();
	rt_irq_disable();
	CHECK(got == 5U, "%u of 5 virtual timer interrupts arrived", got);
	printf("%s: virtual timer: %u interrupts\n", rt_tag(), got);
}

static void check_sgi_self(void)
{
	unsigned int id;

	gic_enable_ppi(5, NULL);     /* enable and prioritise; taken by polling */
	send_sgi(0, 5);
	id = take();
	CHECK(id == 5U, "self SGI 5: took %u", id);
	if (id == 5U)
		printf("%s: SGI to self delivered\n", rt_tag());
}

static void check_sgi_cross(void)
{
	int64_t rc;

	if (rt.nr_cpus < 2U)
		return;
	rc = psci_cpu_on(1, cpu1_main);
	if (rc != PSCI_SUCCESS || !wait_flag(&cpu1_ready, 5000)) {
		CHECK(0, "cpu1 did not start (%ld)", rc);
		return;
	}
	send_sgi(1, 2);
	CHECK(wait_flag(&cpu1_done, 6000) && cross_sgis >= 1U, "cpu1 got no SGI 2");
	if (cross_sgis >= 1U)
		printf("%s: SGI to cpu1 delivered\n", rt_tag());
}

static void check_spis(void)
{
	unsigned int a, b, c;

	/* Two pending SPIs: the more urgent one is taken first. */
	spi_setup(42, 0x80, true);
	spi_setup(43, 0x40, true);
	spi_pend(42, true);
	spi_pend(43, true);
	a = take();
	b = take();
	c = take();
	CHECK(a == 43U && b == 42U && c == SPURIOUS, "SPI order %u %u %u", a, b, c);
	if (a == 43U && b == 42U)
		printf("%s: SPIs 43 (prio 0x40) then 42 (prio 0x80)\n", rt_tag());
}

/*
 * More pending SPIs than the hardware has list registers (QEMU: 4): the
 * rest reach the guest only when the hypervisor refills the LRs as they
 * drain (underflow maintenance interrupt), still most urgent first.
 */
static void check_lr_overflow(void)
{
	unsigned int i, id, got = 0, last_prio = 0;
	bool order = true;

	for (i = 0; i < 8; i++)
		spi_setup(48 + i, (uint8_t)(0x80 - 8 * i), true);
	for (i = 0; i < 8; i++)
		spi_pend(48 + i, true);
	for (i = 0; i < 8; i++) {
		uint64_t end = cntvct() + timer_us_to_ticks(100000);

		while ((id = take()) == SPURIOUS && cntvct() < end)
			;
		if (id < 48U || id >= 56U)
			break;
		/* Priorities fall with the INTID here: 55 first, 48 last. */
		if (got > 0 && 0x80U - 8U * (id - 48U) < last_prio)
			order = false;
		last_prio = 0x80U - 8U * (id - 48U);
		got++;
	}
	/* Xen 4.17 delivers them all but does not preempt LRs: lrorder=0 there. */
	if (!rt_arg_u64("lrorder", 1))
		order = true;
	CHECK(got == 8U && order, "%u of 8 SPIs beyond the LRs taken, %s", got,
	      order ? "in order" : "out of order");
	if (got == 8U)
		printf("%s: 8 pending SPIs taken through the list registers\n", rt_tag());
}

/* Xen 4.17 does not emulate these (it logs "trying to clear pending"): icpendr=0. */
static void check_icpendr(void)
{
	unsigned int a;

	/* Pending while disabled, cleared by ICPENDR: nothing arrives on enable. */
	spi_setup(41, 0x80, false);
	spi_pend(41, true);
	CHECK((mmio_read32(gicd + GICD_ISPENDR + 4U) >> 9) & 1U, "ISPENDR does not show SPI 41");
	spi_pend(41, false);
	CHECK(!((mmio_read32(gicd + GICD_ISPENDR + 4U) >> 9) & 1U), "ICPENDR left SPI 41");
	spi_setup(41, 0x80, true);
	a = take();
	CHECK(a == SPURIOUS, "cleared SPI 41 still arrived (%u)", a);
	if (a == SPURIOUS)
		printf("%s: ICPENDR cleared a pending SPI\n", rt_tag());
}

int test_main(void)
{
	if (!find_gic() || !gic_init()) {
		printf("%s: no GIC in the device tree\n", rt_tag());
		return 1;
	}
	printf("%s: vgic test on GICv%u, %u vCPUs\n", rt_tag(), ver, rt.nr_cpus);
	check_ids();
	check_timer();
	check_sgi_self();
	check_sgi_cross();
	check_spis();
	check_lr_overflow();
	if (rt_arg_u64("icpendr", 1))
		check_icpendr();
	if (fails == 0)
		printf("%s: vgic all passed\n", rt_tag());
	return fails;
}
