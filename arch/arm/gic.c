/* SPDX-License-Identifier: MIT */
/*
 * Version-independent half of the physical GIC driver: the routing table,
 * the EL2 interrupt loop, SGIs. The registers are in gicv3.c / gicv2.c.
 *
 * The CPU interface runs with split priority drop and deactivation
 * (EOImode = 1): every interrupt is dropped at once so others can be taken,
 * but the guest's virtual timer stays active until the guest's own virtual
 * EOI deactivates it through a hardware-linked list register.
 */
#include <asm/gic.h>
#include <asm/vgic.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/arch.h>
#include <bulkhead/atomic.h>
#include <bulkhead/console.h>
#include <public/errno.h>
#include "gic_sysreg.h"
#include "gic_hot.h"

/* Interrupts handled per gic_handle_irq() call before returning to the guest. */
#define GIC_IRQS_PER_ENTRY U(16)

static gic_handler_t gic_handlers[GIC_ROUTE_MAX];

static void gic_kick(unsigned int intid)
{
	/* Nothing to do: leaving the guest already makes the loop look again. */
	(void)intid;
}

void gic_init(void)
{
	gic_hw_dist_init();
	write_atomic(&gic_handlers[GIC_SGI_KICK], gic_kick);
}

void gic_cpu_init(void)
{
	gic_hw_cpu_init(arch_cpu_id());
}

int gic_route_irq(unsigned int intid, gic_handler_t handler)
{
	if (intid >= GIC_ROUTE_MAX || handler == NULL || intid == GIC_PPI_MAINT ||
	    intid == GIC_PPI_VTIMER || vgic_hw_owned(intid)) {
		return -XEN_EINVAL;
	}
	write_atomic(&gic_handlers[intid], handler);
	gic_hw_enable(intid, true);
	return 0;
}

/* One bit per INTID in the distributor's 32-bit banks (the same on v2 and v3). */
static void gic_spi_bit(uint32_t reg, unsigned int intid)
{
	if ((intid >= GIC_SPI_BASE) && (intid < GIC_INTID_SPECIAL)) {
		mmio_write32(hw_machine.gicd.base + reg + ((paddr_t)intid / 32U) * 4U,
			     (uint32_t)1U << (intid % 32U));
	}
}

void gic_spi_set_pending(unsigned int intid, bool pending)
{
	gic_spi_bit(pending ? GICD_ISPENDR : GICD_ICPENDR, intid);
}

bool gic_spi_pending(unsigned int intid)
{
	if ((intid < GIC_SPI_BASE) || (intid >= GIC_INTID_SPECIAL)) {
		return false;
	}
	return ((mmio_read32(hw_machine.gicd.base + GICD_ISPENDR + ((paddr_t)intid / 32U) * 4U) >>
		 (intid % 32U)) & 1U) != 0U;
}

bool gic_spi_enabled(unsigned int intid)
{
	if ((intid < GIC_SPI_BASE) || (intid >= GIC_INTID_SPECIAL)) {
		return false;
	}
	return ((mmio_read32(hw_machine.gicd.base + GICD_ISENABLER + ((paddr_t)intid / 32U) * 4U) >>
		 (intid % 32U)) & 1U) != 0U;
}

void gic_spi_clear_active(unsigned int intid)
{
	gic_spi_bit(GICD_ICACTIVER, intid);
}

void gic_spi_set_edge(unsigned int intid, bool edge)
{
	paddr_t a = hw_machine.gicd.base + GICD_ICFGR + ((paddr_t)intid / 16U) * 4U;
	uint32_t bit = (uint32_t)2U << ((intid % 16U) * 2U);   /* Int_config[1]: edge-triggered */
	uint32_t v;

	if ((intid < GIC_SPI_BASE) || (intid >= GIC_INTID_SPECIAL)) {
		return;
	}
	v = mmio_read32(a);
	mmio_write32(a, edge ? (v | bit) : (v & ~bit));
}

void gic_send_sgi(unsigned int cpu, unsigned int sgi)
{
	if (cpu >= hw_machine.nr_cpus || cpu >= CONFIG_NR_CPUS || sgi >= 16U) {
		return;
	}
	gic_hw_send_sgi(cpu, sgi);
}

void gic_handle_acked(uint32_t iar)
{
	uint32_t intid = gic_hot_intid(iar);
	gic_handler_t h;

	gic_hot_eoi(iar);
	if (intid == GIC_PPI_VTIMER) {
		if (!vgic_vtimer_fired(iar)) {
			gic_hot_deactivate(iar);
		}
		return;
	}
	/* An assigned device's SPI: its partition's EOI deactivates it. */
	if ((intid >= GIC_SPI_BASE) && vgic_hw_irq(intid)) {
		return;
	}
	if (intid == GIC_PPI_MAINT) {
		vgic_maintenance();
	} else if (intid < GIC_ROUTE_MAX) {
		h = read_atomic(&gic_handlers[intid]);
		if (h != NULL) {
			h(intid);
		} else {
			printk("gic: spurious INTID %u disabled\n", (unsigned int)intid);
			gic_hw_enable(intid, false);
		}
	} else {
		/* Beyond the handler table: never routed, so only deactivated. */
	}
	gic_hot_deactivate(iar);
}

void gic_handle_irq(void)
{
	unsigned int n;

	for (n = 0U; n < GIC_IRQS_PER_ENTRY; n++) {
		uint32_t iar = gic_hot_ack();

		if (gic_hot_intid(iar) >= GIC_INTID_SPECIAL) {
			break;
		}
		gic_handle_acked(iar);
	}
}
