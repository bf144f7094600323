/* SPDX-License-Identifier: MIT */
/*
 * GICv3 physical driver: distributor and redistributors by MMIO, the CPU
 * interface and the virtual interface (ICH_*) by system registers.
 */
#include <bulkhead/config.h>

#ifdef CONFIG_GICV3
#include <asm/gic.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/arch.h>
#include <bulkhead/console.h>
#include "gic_hot.h"

#define GICD_CTLR_RWP     ((uint32_t)1U << 31)
#define GICD_CTLR_ENABLE  (U(1) << 0 | U(1) << 1 | U(1) << 4) /* Grp1(A), ARE */

#define GICR_FRAME        U(0x10000)
#define GICR_WAKER        U(0x0014)
#define GICR_TYPER        U(0x0008)
#define GICR_TYPER_LAST   (ULL(1) << 4)
#define GICR_TYPER_VLPIS  (ULL(1) << 1)
#define GICR_WAKER_SLEEP  (U(1) << 1)
#define GICR_WAKER_ASLEEP (U(1) << 2)
#define GICR_MAX_FRAMES   U(256)
#define GIC_POLL_MAX      U(1000000)

#define ICC_SRE_EL2_VAL   ULL(0xf)        /* SRE, DFB, DIB, Enable (EL1 may set SRE) */
#define ICC_CTLR_EOIMODE  (ULL(1) << 1)
#define ICH_HCR_EN        (ULL(1) << 0)
#define ICH_HCR_UIE       (ULL(1) << 1)


static paddr_t gicv3_rd_base[CONFIG_NR_CPUS];   /* RD_base of each CPU's redistributor */
static unsigned int gicv3_nr_lines;
static unsigned int gicv3_lrs;

static void gicd_wait_rwp(void)
{
	unsigned int i;

	for (i = 0U; i < GIC_POLL_MAX; i++) {
		if ((mmio_read32(hw_machine.gicd.base + GICD_CTLR) & GICD_CTLR_RWP) == 0U) {
			return;
		}
	}
	printk("gicv3: distributor RWP stuck\n");
}

static uint64_t mpidr_aff(uint64_t mpidr)
{
	/* MPIDR Aff3 sits at 39:32, GICR_TYPER wants Aff3.Aff2.Aff1.Aff0. */
	return (mpidr & ULL(0xffffff)) | ((mpidr >> 8) & ULL(0xff000000));
}

void gic_hw_dist_init(void)
{
	paddr_t d = hw_machine.gicd.base;
	unsigned int i;

	mmio_write32(d + GICD_CTLR, 0U);
	gicd_wait_rwp();
	gicv3_nr_lines = ((mmio_read32(d + GICD_TYPER) & U(0x1f)) + 1U) * 32U;
	if (gicv3_nr_lines > GIC_INTID_SPECIAL) {
		gicv3_nr_lines = GIC_INTID_SPECIAL;
	}
	for (i = 32U; i < gicv3_nr_lines; i += 32U) {
		mmio_write32(d + GICD_ICENABLER + (paddr_t)i / 8U, ~U(0));
		mmio_write32(d + GICD_ICPENDR + (paddr_t)i / 8U, ~U(0));
		mmio_write32(d + GICD_ICACTIVER + (paddr_t)i / 8U, ~U(0));
		mmio_write32(d + GICD_IGROUPR + (paddr_t)i / 8U, ~U(0));
	}
	for (i = 32U; i < gicv3_nr_lines; i += 4U) {
		mmio_write32(d + GICD_IPRIORITYR + i, GIC_PRIO_DEFAULT * U(0x01010101));
	}
	for (i = 32U; i < gicv3_nr_lines; i++) {
		/* SPIs go to the boot CPU; nothing here needs them elsewhere. */
		mmio_write64(d + GICD_IROUTER + ((paddr_t)i * 8U), mpidr_aff(hw_machine.mpidr[0]));
	}
	gicd_wait_rwp();
	mmio_write32(d + GICD_CTLR, GICD_CTLR_ENABLE);
	gicd_wait_rwp();
}

static paddr_t gicr_find(unsigned int cpu)
{
	paddr_t rd = hw_machine.gicr.base;
	/* What machine_setup() mapped of the region: 4 frames a CPU at most. */
	paddr_t end = rd + MIN(hw_machine.gicr.size, (uint64_t)hw_machine.cpus_listed * 4U * GICR_FRAME);
	uint64_t want = mpidr_aff(hw_machine.mpidr[cpu]);
	unsigned int i;

	for (i = 0U; (i < GICR_MAX_FRAMES) && ((rd + (2U * GICR_FRAME)) <= end); i++) {
		uint64_t typer = mmio_read64(rd + GICR_TYPER);

		if ((typer >> 32) == want) {
			return rd;
		}
		if ((typer & GICR_TYPER_LAST) != 0U) {
			break;
		}
		rd += ((typer & GICR_TYPER_VLPIS) != 0U) ? 4U * GICR_FRAME : 2U * GICR_FRAME;
	}
	return 0U;
}

void gic_hw_cpu_init(unsigned int cpu)
{
	paddr_t rd, sgi;
	unsigned int i;

	if (cpu >= CONFIG_NR_CPUS) {
		return;
	}
	rd = gicr_find(cpu);
	if (rd == 0U) {
		panic("gicv3: no redistributor for CPU %u (MPIDR 0x%llx)", cpu,
		      (unsigned long long)hw_machine.mpidr[cpu]);
	}
	gicv3_rd_base[cpu] = rd;
	sgi = rd + GICR_FRAME;

	mmio_write32(rd + GICR_WAKER, mmio_read32(rd + GICR_WAKER) & ~GICR_WAKER_SLEEP);
	for (i = 0U; i < GIC_POLL_MAX; i++) {
		if ((mmio_read32(rd + GICR_WAKER) & GICR_WAKER_ASLEEP) == 0U) {
			break;
		}
	}
	mmio_write32(sgi + GICD_ICENABLER, ~U(0));
	mmio_write32(sgi + GICD_ICPENDR, ~U(0));
	mmio_write32(sgi + GICD_ICACTIVER, ~U(0));
	mmio_write32(sgi + GICD_IGROUPR, ~U(0));
	for (i = 0U; i < 32U; i += 4U) {
		mmio_write32(sgi + GICD_IPRIORITYR + i, GIC_PRIO_DEFAULT * U(0x01010101));
	}
	/* SGIs, maintenance and the guest's virtual timer are always wanted. */
	mmio_write32(sgi + GICD_ISENABLER,
		     U(0xffff) | ((uint32_t)1U << GIC_PPI_MAINT) | ((uint32_t)1U << GIC_PPI_VTIMER));

	gic_write_sysreg(icc_sre_el2, ICC_SRE_EL2_VAL);
	gic_isb();
	if ((gic_read_sysreg(icc_sre_el2) & 1U) == 0U) {
		panic("gicv3: system register interface unavailable at EL2");
	}
	gic_write_sysreg(icc_pmr_el1, 0xffU);
	gic_write_sysreg(icc_bpr1_el1, 0U);
	gic_write_sysreg(icc_ctlr_el1, ICC_CTLR_EOIMODE);
	gic_write_sysreg(icc_igrpen1_el1, 1U);
	gic_isb();

	gicv3_lrs = (unsigned int)(gic_read_sysreg(ich_vtr_el2) & 0x1fU) + 1U;
	gic_hw_vcpu_if_reset();
}

uint32_t gic_hw_ack(void)
{
	return gic_hot_ack();
}

uint32_t gic_hw_intid(uint32_t iar)
{
	return gic_hot_intid(iar);
}

void gic_hw_eoi(uint32_t iar)
{
	gic_hot_eoi(iar);
}

void gic_hw_deactivate(uint32_t iar)
{
	gic_hot_deactivate(iar);
}

void gic_hw_enable(unsigned int intid, bool on)
{
	unsigned int cpu = arch_cpu_id();
	paddr_t base;

	if (intid < 32U) {
		if (cpu >= CONFIG_NR_CPUS || gicv3_rd_base[cpu] == 0U) {
			return;
		}
		base = gicv3_rd_base[cpu] + GICR_FRAME;
	} else if (intid < gicv3_nr_lines) {
		base = hw_machine.gicd.base;
	} else {
		return;
	}
	mmio_write32(base + (on ? GICD_ISENABLER : GICD_ICENABLER) + ((paddr_t)intid / 32U) * 4U,
		     U(1) << (intid % 32U));
}

void gic_hw_route_spi(unsigned int intid, unsigned int cpu)
{
	if ((intid >= GIC_SPI_BASE) && (intid < gicv3_nr_lines) && (cpu < CONFIG_NR_CPUS)) {
		mmio_write64(hw_machine.gicd.base + GICD_IROUTER + ((paddr_t)intid * 8U),
			     mpidr_aff(hw_machine.mpidr[cpu]));
	}
}

void gic_hw_send_sgi(unsigned int cpu, unsigned int sgi)
{
	uint64_t m = hw_machine.mpidr[cpu];
	uint64_t aff0 = m & ULL(0xff);
	uint64_t v;

	/* Target list bit n names Aff0 = 16 * RS + n. */
	v = (ULL(1) << (aff0 % 16U)) | ((aff0 / 16U) << 44) | ((uint64_t)sgi << 24) |
	    (((m >> 8) & ULL(0xff)) << 16) | (((m >> 16) & ULL(0xff)) << 32) |
	    (((m >> 32) & ULL(0xff)) << 48);
	gic_dsb();
	gic_write_sysreg(icc_sgi1r_el1, v);
	gic_isb();
}

unsigned int gic_hw_nr_lrs(void)
{
	return gicv3_lrs;
}

void gic_hw_write_lr(unsigned int i, const struct gic_lr *lr)
{
	uint64_t v = (uint64_t)lr->virq | ((uint64_t)lr->prio << ICH_LR_PRIO_SHIFT) |
		     ((uint64_t)(lr->state & 3U) << ICH_LR_STATE_SHIFT);

	if (lr->group1) {
		v |= ICH_LR_GROUP;
	}
	if (lr->hw) {
		v |= ICH_LR_HW | (((uint64_t)lr->pintid & ICH_LR_PINTID_MASK) << ICH_LR_PINTID_SHIFT);
	}
	gic_hot_lr_access(i, true, &v);
}

void gic_hw_write_lr_pending(unsigned int i, uint32_t virq, uint8_t prio, bool group1)
{
	gic_hot_write_lr_pending(i, virq, prio, group1);
}

void gic_hw_write_lr_hw(unsigned int i, uint32_t virq, uint8_t prio, bool group1)
{
	gic_hot_write_lr_hw(i, virq, prio, group1);
}

void gic_hw_read_lr(unsigned int i, struct gic_lr *lr)
{
	uint64_t v;

	gic_hot_lr_access(i, false, &v);
	lr->virq = (uint32_t)v;
	lr->prio = (uint8_t)(v >> ICH_LR_PRIO_SHIFT);
	lr->state = (uint8_t)(v >> ICH_LR_STATE_SHIFT) & 3U;
	lr->group1 = (v & ICH_LR_GROUP) != 0U;
	lr->hw = (v & ICH_LR_HW) != 0U;
	lr->pintid = (uint32_t)((v >> ICH_LR_PINTID_SHIFT) & ICH_LR_PINTID_MASK);
}

uint32_t gic_hw_empty_lrs(void)
{
	return gic_hot_empty_lrs();
}

void gic_hw_underflow(bool on)
{
	uint64_t h = gic_read_sysreg(ich_hcr_el2);

	h = on ? (h | ICH_HCR_UIE) : (h & ~ICH_HCR_UIE);
	gic_write_sysreg(ich_hcr_el2, h);
	gic_isb();
}

void gic_hw_vcpu_if_reset(void)
{
	unsigned int i;
	uint64_t zero = 0U;

	for (i = 0U; i < gicv3_lrs && i < 16U; i++) {
		gic_hot_lr_access(i, true, &zero);
	}
	gic_write_sysreg(ich_ap1r0_el2, 0U);
	gic_write_sysreg(ich_ap0r0_el2, 0U);
	gic_write_sysreg(ich_vmcr_el2, 0U);
	gic_write_sysreg(ich_hcr_el2, ICH_HCR_EN);
	gic_isb();
}
#endif
