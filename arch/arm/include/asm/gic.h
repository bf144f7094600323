/* SPDX-License-Identifier: MIT */
/*
 * Physical GIC (v3 or v2, chosen by CONFIG_GICV3 / CONFIG_GICV2) as the
 * hypervisor uses it: interrupts taken at EL2, SGIs between physical CPUs,
 * and the virtual CPU interface's list registers that the vGIC loads.
 */
#ifndef ASM_GIC_H
#define ASM_GIC_H

#include <bulkhead/types.h>

#define GIC_SGI_KICK      U(0)    /* "look at your vCPU again" between pCPUs */
#define GIC_PPI_MAINT     U(25)   /* virtual CPU interface maintenance */
#define GIC_PPI_HYP_TIMER U(26)   /* EL2 physical timer (the hypervisor's own) */
#define GIC_PPI_VTIMER    U(27)   /* EL1 virtual timer: the guest's */
#define GIC_INTID_SPECIAL U(1020) /* 1020-1023: no interrupt */
#define GIC_ROUTE_MAX     U(256)  /* INTIDs a handler can be routed to */
#define GIC_PRIO_DEFAULT  U(0xa0)

typedef void (*gic_handler_t)(unsigned int intid);

void gic_init(void);
void gic_cpu_init(void);
/* Acknowledge and handle pending interrupts (the EL2 IRQ vector calls this). */
void gic_handle_irq(void);
/* Handle one interrupt already acknowledged (IAR iar, INTID below 1020). */
void gic_handle_acked(uint32_t iar);
void gic_send_sgi(unsigned int cpu, unsigned int sgi);
/* Route intid to handler and enable it (PPIs: on the calling CPU). */
int gic_route_irq(unsigned int intid, gic_handler_t handler);

/*
 * SPIs of assigned devices, owned by a partition's vGIC (docs/vgic.md): the
 * distributor state of one SPI, from any CPU. gic_route_irq refuses them.
 */
#define GIC_SPI_BASE      U(32)
void gic_spi_set_edge(unsigned int intid, bool edge);
void gic_spi_set_pending(unsigned int intid, bool pending);
bool gic_spi_pending(unsigned int intid);
bool gic_spi_enabled(unsigned int intid);
void gic_spi_clear_active(unsigned int intid);
/* Deliver the SPI to physical CPU cpu only (v3 IROUTER, v2 ITARGETSR). */
void gic_hw_route_spi(unsigned int intid, unsigned int cpu);

/*
 * One list register, independent of the GIC version. state uses the
 * architectural encoding of both versions.
 */
#define GIC_LR_INVALID        U(0)
#define GIC_LR_PENDING        U(1)
#define GIC_LR_ACTIVE         U(2)
#define GIC_LR_PENDING_ACTIVE U(3)

struct gic_lr {
	uint32_t virq;
	uint32_t pintid;     /* with hw: the physical INTID the guest's EOI deactivates */
	uint8_t prio;
	uint8_t state;
	bool hw;
	bool group1;
};

/*
 * The version-specific layer (gicv3.c or gicv2.c, exactly one is built).
 * All of these act on the calling CPU.
 */
void gic_hw_dist_init(void);
void gic_hw_cpu_init(unsigned int cpu);
uint32_t gic_hw_ack(void);                  /* IAR; INTID in the low bits */
uint32_t gic_hw_intid(uint32_t iar);
void gic_hw_eoi(uint32_t iar);              /* priority drop */
void gic_hw_deactivate(uint32_t iar);
void gic_hw_enable(unsigned int intid, bool on);
void gic_hw_send_sgi(unsigned int cpu, unsigned int sgi);
unsigned int gic_hw_nr_lrs(void);
void gic_hw_write_lr(unsigned int i, const struct gic_lr *lr);
/* The common case of the above: a pending, software (not hardware-linked) virq. */
void gic_hw_write_lr_pending(unsigned int i, uint32_t virq, uint8_t prio, bool group1);
/* A pending, hardware-linked virq whose EOI deactivates physical INTID virq (the same). */
void gic_hw_write_lr_hw(unsigned int i, uint32_t virq, uint8_t prio, bool group1);
void gic_hw_read_lr(unsigned int i, struct gic_lr *lr);
uint32_t gic_hw_empty_lrs(void);            /* ELRSR: LRs holding nothing */
/* Ask for a maintenance interrupt when at most one LR is still in use. */
void gic_hw_underflow(bool on);
/* Virtual CPU interface to its reset state (no LRs, no active priorities). */
void gic_hw_vcpu_if_reset(void);

#endif
