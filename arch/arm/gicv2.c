/* SPDX-License-Identifier: MIT */
/*
 * GICv2 (GIC-400) physical driver: GICD, GICC and the virtual interface
 * control block GICH, all by MMIO at the addresses of the device tree's GIC
 * node. A GIC-400 wired with 64 KiB frames (ZynqMP) repeats each 4 KiB page
 * of GICC and GICV across 64 KiB: the tree then gives 128 KiB regions and
 * the 8 KiB the drivers use lie at base + 60 KiB, the last alias of page 0
 * followed by the first of page 1 (what Xen's gicv2_is_aliased detects).
 */
#include <bulkhead/config.h>

#ifdef CONFIG_GICV2
#include <asm/gic.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/arch.h>
#include <bulkhead/console.h>
#include "gic_sysreg.h"

#define GICC_CTLR        U(0x0000)
#define GICC_PMR         U(0x0004)
#define GICC_BPR         U(0x0008)
#define GICC_IAR         U(0x000c)
#define GICC_EOIR        U(0x0010)
#define GICC_IIDR        U(0x00fc)
#define GICC_DIR         U(0x1000)
#define GIC_ALIAS_SPAN   U(0x20000)     /* two 4 KiB pages, each over 64 KiB */
#define GIC_ALIAS_OFFSET U(0xf000)      /* last alias of page 0 */
#define GICC_CTLR_ENABLE (U(1) << 0)
#define GICC_CTLR_EOIMODE (U(1) << 9)

#define GICH_HCR         U(0x0000)
#define GICH_VTR         U(0x0004)
#define GICH_VMCR        U(0x0008)
#define GICH_ELRSR0      U(0x0030)
#define GICH_APR         U(0x00f0)
#define GICH_LR(n)       (U(0x0100) + 4U * (n))
#define GICH_HCR_EN      (U(1) << 0)
#define GICH_HCR_UIE     (U(1) << 1)

#define GICH_LR_HW       (U(1) << 31)
#define GICH_LR_GRP1     (U(1) << 30)
#define GICH_LR_STATE_SHIFT U(28)
#define GICH_LR_PRIO_SHIFT U(23)        /* 5 bits: priority 7:3 */
#define GICH_LR_PID_SHIFT U(10)
#define GICH_LR_PID_MASK U(0x3ff)
#define GICH_LR_VID_MASK U(0x3ff)

static uint8_t gicv2_cpu_mask[CONFIG_NR_CPUS]; /* CPU interface bit of each CPU */
static unsigned int gicv2_nr_lines;
static unsigned int gicv2_lrs;

/*
 * Aliased when the tree gives 128 KiB and the page at +60 KiB reads as page
 * 0 (same non-zero GICC_IIDR). QEMU's GIC-400 reports an IIDR of its own
 * (0x0002043b), so the product ID is not checked, only the aliasing.
 */
static void gicv2_check_aliasing(void)
{
	uint32_t low;
	uint32_t high;

	if (hw_machine.gicc.size < GIC_ALIAS_SPAN) {
		return;
	}
	low = mmio_read32(hw_machine.gicc.base + GICC_IIDR);
	high = mmio_read32(hw_machine.gicc.base + GIC_ALIAS_OFFSET + GICC_IIDR);
	if ((low == 0U) || (low != high)) {
		printk("gicv2: GICC is 0x%llx bytes but not aliased: GICC_DIR at +0x1000\n",
		       (unsigned long long)hw_machine.gicc.size);
		return;
	}
	hw_machine.gicc.base += GIC_ALIAS_OFFSET;
	hw_machine.gicc.size = U(0x2000);
	if (hw_machine.gicv.size >= GIC_ALIAS_SPAN) {
		hw_machine.gicv.base += GIC_ALIAS_OFFSET;
		hw_machine.gicv.size = U(0x2000);
	}
	printk("gicv2: 4 KiB pages aliased over 64 KiB: GICC at 0x%llx, GICV at 0x%llx\n",
	       (unsigned long long)hw_machine.gicc.base, (unsigned long long)hw_machine.gicv.base);
}

void gic_hw_dist_init(void)
{
	paddr_t d = hw_machine.gicd.base;
	unsigned int i;

	gicv2_check_aliasing();
	mmio_write32(d + GICD_CTLR, 0U);
	gicv2_nr_lines = ((mmio_read32(d + GICD_TYPER) & U(0x1f)) + 1U) * 32U;
	if (gicv2_nr_lines > GIC_INTID_SPECIAL) {
		gicv2_nr_lines = GIC_INTID_SPECIAL;
	}
	for (i = 32U; i < gicv2_nr_lines; i += 32U) {
		mmio_write32(d + GICD_ICENABLER + i / 8U, ~U(0));
		mmio_write32(d + GICD_ICPENDR + i / 8U, ~U(0));
		mmio_write32(d + GICD_ICACTIVER + i / 8U, ~U(0));
	}
	for (i = 32U; i < gicv2_nr_lines; i += 4U) {
		mmio_write32(d + GICD_IPRIORITYR + i, GIC_PRIO_DEFAULT * U(0x01010101));
	}
	/* SPIs go to the CPU interface of whoever initialises the distributor. */
	for (i = 32U; i < gicv2_nr_lines; i += 4U) {
		uint32_t me = mmio_read32(d + GICD_ITARGETSR) & U(0xff);

		mmio_write32(d + GICD_ITARGETSR + i, me * U(0x01010101));
	}
	mmio_write32(d + GICD_CTLR, 1U);
}

void gic_hw_cpu_init(unsigned int cpu)
{
	paddr_t d = hw_machine.gicd.base;
	paddr_t c = hw_machine.gicc.base;
	unsigned int i;

	if (cpu >= CONFIG_NR_CPUS) {
		return;
	}
	/* ITARGETSR0 is banked and read-only: it names the reading CPU's interface. */
	gicv2_cpu_mask[cpu] = (uint8_t)(mmio_read32(d + GICD_ITARGETSR) & U(0xff));
	mmio_write32(d + GICD_ICENABLER, ~U(0));
	mmio_write32(d + GICD_ICPENDR, ~U(0));
	mmio_write32(d + GICD_ICACTIVER, ~U(0));
	for (i = 0U; i < 32U; i += 4U) {
		mmio_write32(d + GICD_IPRIORITYR + i, GIC_PRIO_DEFAULT * U(0x01010101));
	}
	mmio_write32(d + GICD_ISENABLER,
		     U(0xffff) | (U(1) << GIC_PPI_MAINT) | (U(1) << GIC_PPI_VTIMER));

	mmio_write32(c + GICC_PMR, U(0xff));
	mmio_write32(c + GICC_BPR, 0U);
	mmio_write32(c + GICC_CTLR, GICC_CTLR_ENABLE | GICC_CTLR_EOIMODE);

	gicv2_lrs = (mmio_read32(hw_machine.gich.base + GICH_VTR) & U(0x3f)) + 1U;
	if (gicv2_lrs > 16U) {
		gicv2_lrs = 16U;  /* v2 allows 64; the vGIC bookkeeping holds 16 */
	}
	gic_hw_vcpu_if_reset();
}

uint32_t gic_hw_ack(void)
{
	return mmio_read32(hw_machine.gicc.base + GICC_IAR);
}

uint32_t gic_hw_intid(uint32_t iar)
{
	return iar & U(0x3ff);
}

void gic_hw_eoi(uint32_t iar)
{
	mmio_write32(hw_machine.gicc.base + GICC_EOIR, iar);
}

void gic_hw_deactivate(uint32_t iar)
{
	mmio_write32(hw_machine.gicc.base + GICC_DIR, iar);
}

void gic_hw_enable(unsigned int intid, bool on)
{
	if (intid >= gicv2_nr_lines && intid >= 32U) {
		return;
	}
	mmio_write32(hw_machine.gicd.base + (on ? GICD_ISENABLER : GICD_ICENABLER) +
		     (intid / 32U) * 4U, U(1) << (intid % 32U));
}

void gic_hw_route_spi(unsigned int intid, unsigned int cpu)
{
	if ((intid >= GIC_SPI_BASE) && (intid < gicv2_nr_lines) && (cpu < CONFIG_NR_CPUS) &&
	    (gicv2_cpu_mask[cpu] != 0U)) {
		mmio_write8(hw_machine.gicd.base + GICD_ITARGETSR + intid, gicv2_cpu_mask[cpu]);
	}
}

void gic_hw_send_sgi(unsigned int cpu, unsigned int sgi)
{
	/* Before that CPU has read its own interface number, assume QEMU's: the index. */
	uint32_t mask = (gicv2_cpu_mask[cpu] != 0U) ? gicv2_cpu_mask[cpu] : (U(1) << (cpu % 8U));

	gic_dsb();
	mmio_write32(hw_machine.gicd.base + GICD_SGIR, (mask << 16) | sgi);
}

unsigned int gic_hw_nr_lrs(void)
{
	return gicv2_lrs;
}

void gic_hw_write_lr(unsigned int i, const struct gic_lr *lr)
{
	uint32_t v = (lr->virq & GICH_LR_VID_MASK) | ((uint32_t)(lr->prio >> 3) << GICH_LR_PRIO_SHIFT) |
		     ((uint32_t)(lr->state & 3U) << GICH_LR_STATE_SHIFT);

	if (lr->group1) {
		v |= GICH_LR_GRP1;
	}
	if (lr->hw) {
		v |= GICH_LR_HW | ((lr->pintid & GICH_LR_PID_MASK) << GICH_LR_PID_SHIFT);
	}
	mmio_write32(hw_machine.gich.base + GICH_LR(i), v);
}

void gic_hw_write_lr_pending(unsigned int i, uint32_t virq, uint8_t prio, bool group1)
{
	uint32_t v = (virq & GICH_LR_VID_MASK) | ((uint32_t)(prio >> 3) << GICH_LR_PRIO_SHIFT) |
		     ((uint32_t)GIC_LR_PENDING << GICH_LR_STATE_SHIFT) | (group1 ? GICH_LR_GRP1 : 0U);

	mmio_write32(hw_machine.gich.base + GICH_LR(i), v);
}

void gic_hw_write_lr_hw(unsigned int i, uint32_t virq, uint8_t prio, bool group1)
{
	uint32_t v = (virq & GICH_LR_VID_MASK) | ((uint32_t)(prio >> 3) << GICH_LR_PRIO_SHIFT) |
		     ((uint32_t)GIC_LR_PENDING << GICH_LR_STATE_SHIFT) | (group1 ? GICH_LR_GRP1 : 0U) |
		     GICH_LR_HW | ((virq & GICH_LR_PID_MASK) << GICH_LR_PID_SHIFT);

	mmio_write32(hw_machine.gich.base + GICH_LR(i), v);
}

void gic_hw_read_lr(unsigned int i, struct gic_lr *lr)
{
	uint32_t v = mmio_read32(hw_machine.gich.base + GICH_LR(i));

	lr->virq = v & GICH_LR_VID_MASK;
	lr->prio = (uint8_t)(((v >> GICH_LR_PRIO_SHIFT) & U(0x1f)) << 3);
	lr->state = (uint8_t)((v >> GICH_LR_STATE_SHIFT) & 3U);
	lr->group1 = (v & GICH_LR_GRP1) != 0U;
	lr->hw = (v & GICH_LR_HW) != 0U;
	lr->pintid = (v >> GICH_LR_PID_SHIFT) & GICH_LR_PID_MASK;
}

uint32_t gic_hw_empty_lrs(void)
{
	return mmio_read32(hw_machine.gich.base + GICH_ELRSR0);
}

void gic_hw_underflow(bool on)
{
	uint32_t h = mmio_read32(hw_machine.gich.base + GICH_HCR);

	mmio_write32(hw_machine.gich.base + GICH_HCR, on ? (h | GICH_HCR_UIE) : (h & ~GICH_HCR_UIE));
}

void gic_hw_vcpu_if_reset(void)
{
	unsigned int i;

	for (i = 0U; i < gicv2_lrs; i++) {
		mmio_write32(hw_machine.gich.base + GICH_LR(i), 0U);
	}
	mmio_write32(hw_machine.gich.base + GICH_APR, 0U);
	mmio_write32(hw_machine.gich.base + GICH_VMCR, 0U);
	mmio_write32(hw_machine.gich.base + GICH_HCR, GICH_HCR_EN);
}
#endif
