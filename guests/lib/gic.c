/* SPDX-License-Identifier: MIT */
/*
 * Minimal driver for the partition's virtual GIC: enough to take PPIs (the
 * virtual timer, 27, and the event-channel upcall, 31). Writes only the
 * registers Linux writes, so it asks no more of a vGIC than Linux does.
 */
#include <guest/gic.h>
#include <guest/fdt.h>
#include <guest/rt.h>
#include <guest/timer.h>
#include <public/arch-arm.h>

#define GICD_CTLR        0x0000U
#define GICD_ISENABLER   0x0100U
#define GICD_ICENABLER   0x0180U
#define GICD_IPRIORITYR  0x0400U
#define GICD_CTLR_V3     0x13U    /* ARE_NS | EnableGrp1A | EnableGrp1 */
#define GICR_SGI_FRAME   0x10000U
#define GICC_CTLR        0x0000U
#define GICC_PMR         0x0004U
#define GICC_BPR         0x0008U
#define GICC_IAR         0x000cU
#define GICC_EOIR        0x0010U
#define IRQ_PRIORITY     0xa0U
#define INTID_SPURIOUS   1020U
#define NR_PPI_SGI       32U
#define NR_HANDLED       128U     /* SGIs, PPIs and SPIs 32-127 take handlers */
#define GICD_ITARGETSR   0x0800U
#define GICD_IROUTER     0x6000U

static unsigned int version;
static uint64_t gicd, gicr, gicc;
static irq_handler_t handlers[NR_HANDLED];
static volatile unsigned int counts[NR_HANDLED];

unsigned int gic_version(void)
{
	return version;
}

static uint64_t redist(void)
{
	return gicr + (uint64_t)rt_cpu() * GUEST_GICV3_RDIST_STRIDE;
}

void gic_cpu_init(void)
{
	uint64_t sre;

	if (version == 3U) {
		__asm__ volatile("mrs %0, S3_0_C12_C12_5" : "=r"(sre));
		__asm__ volatile("msr S3_0_C12_C12_5, %0; isb" :: "r"(sre | 1U));
		__asm__ volatile("msr S3_0_C4_C6_0, %0" :: "r"(0xffUL));     /* ICC_PMR_EL1 */
		__asm__ volatile("msr S3_0_C12_C12_3, %0" :: "r"(0UL));      /* ICC_BPR1_EL1 */
		__asm__ volatile("msr S3_0_C12_C12_7, %0; isb" :: "r"(1UL)); /* ICC_IGRPEN1_EL1 */
	} else if (version == 2U) {
		mmio_write32(gicc + GICC_PMR, 0xffU);
		mmio_write32(gicc + GICC_BPR, 0U);
		mmio_write32(gicc + GICC_CTLR, 1U);
	}
}

bool gic_init(void)
{
	int node = fdt_compatible(rt.dtb, -1, "arm,gic-v3");
	uint64_t size;

	if (node >= 0) {
		version = 3;
		if (!fdt_reg(rt.dtb, node, 0, &gicd, &size) ||
		    !fdt_reg(rt.dtb, node, 1, &gicr, &size))
			return false;
	} else {
		node = fdt_compatible(rt.dtb, -1, "arm,gic-400");
		if (node < 0)
			node = fdt_compatible(rt.dtb, -1, "arm,cortex-a15-gic");
		if (node < 0)
			return false;
		version = 2;
		if (!fdt_reg(rt.dtb, node, 0, &gicd, &size) ||
		    !fdt_reg(rt.dtb, node, 1, &gicc, &size))
			return false;
	}
	mmio_write32(gicd + GICD_CTLR, version == 3U ? GICD_CTLR_V3 : 1U);
	gic_cpu_init();
	return true;
}

uint64_t gic_dist_base(void)
{
	return gicd;
}

/* Banked per-vCPU registers of the PPIs: redistributor (v3) or distributor (v2). */
static uint64_t ppi_regs(void)
{
	return version == 3U ? redist() + GICR_SGI_FRAME : gicd;
}

void gic_enable_ppi(unsigned int intid, irq_handler_t handler)
{
	uint64_t base = ppi_regs(), prio = base + GICD_IPRIORITYR + (intid & ~3U);
	unsigned int shift = (intid & 3U) * 8U;

	if (intid >= NR_PPI_SGI || !version)
		return;
	handlers[intid] = handler;
	mmio_write32(prio, (mmio_read32(prio) & ~(0xffU << shift)) | (IRQ_PRIORITY << shift));
	mmio_write32(base + GICD_ISENABLER, 1U << intid);
}

void gic_disable_ppi(unsigned int intid)
{
	if (intid < NR_PPI_SGI && version)
		mmio_write32(ppi_regs() + GICD_ICENABLER, 1U << intid);
}

void gic_enable_spi(unsigned int intid, irq_handler_t handler, unsigned int cpu)
{
	uint64_t prio = gicd + GICD_IPRIORITYR + (intid & ~3U);
	unsigned int shift = (intid & 3U) * 8U;

	if (intid < NR_PPI_SGI || intid >= NR_HANDLED || !version)
		return;
	handlers[intid] = handler;
	mmio_write32(prio, (mmio_read32(prio) & ~(0xffU << shift)) | (IRQ_PRIORITY << shift));
	gic_route_spi(intid, cpu);
	mmio_write32(gicd + GICD_ISENABLER + (intid / 32U) * 4U, 1U << (intid % 32U));
}

void gic_route_spi(unsigned int intid, unsigned int cpu)
{
	if (intid < NR_PPI_SGI || !version)
		return;
	if (version == 3U) {
		/* Xen's vCPU affinity: Aff0 = cpu % 16, Aff1 = cpu / 16. */
		uint64_t aff = ((uint64_t)(cpu / 16U) << 8) | (cpu % 16U);
		mmio_write32(gicd + GICD_IROUTER + 8U * intid, (uint32_t)aff);
		mmio_write32(gicd + GICD_IROUTER + 8U * intid + 4U, 0U);
	} else {
		uint64_t a = gicd + GICD_ITARGETSR + (intid & ~3U);
		unsigned int sh = (intid & 3U) * 8U;

		mmio_write32(a, (mmio_read32(a) & ~(0xffU << sh)) | ((1U << cpu) << sh));
	}
}

void gic_disable_spi(unsigned int intid)
{
	if (intid >= NR_PPI_SGI && intid < NR_HANDLED && version)
		mmio_write32(gicd + GICD_ICENABLER + (intid / 32U) * 4U, 1U << (intid % 32U));
}

unsigned int gic_irq_count(unsigned int intid)
{
	return intid < NR_HANDLED ? counts[intid] : 0U;
}

static uint32_t ack(void)
{
	uint64_t v;

	if (version == 2U)
		return mmio_read32(gicc + GICC_IAR);
	__asm__ volatile("mrs %0, S3_0_C12_C12_0" : "=r"(v) :: "memory"); /* ICC_IAR1_EL1 */
	return (uint32_t)v;
}

static void eoi(uint32_t iar)
{
	if (version == 2U)
		mmio_write32(gicc + GICC_EOIR, iar);
	else
		__asm__ volatile("msr S3_0_C12_C12_1, %0; isb" :: "r"((uint64_t)iar)); /* EOIR1 */
}

void gic_handle_irq(void)
{
	uint32_t iar = ack();
	unsigned int intid = iar & 0x3ffU;

	if (intid >= INTID_SPURIOUS)
		return;
	if (intid < NR_HANDLED) {
		__atomic_fetch_add(&counts[intid], 1U, __ATOMIC_RELAXED);
		if (handlers[intid])
			handlers[intid](intid);
		else if (intid == TIMER_VIRT_INTID)
			timer_disarm();   /* a level interrupt nobody handles would storm */
	}
	eoi(iar);
}
