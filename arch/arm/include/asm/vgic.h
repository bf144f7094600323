/* SPDX-License-Identifier: MIT */
/*
 * Virtual GIC of a partition: a guest-visible distributor (GICv3 GICD+GICR
 * or GICv2 GICD with the hardware GICV as its CPU interface), per-vCPU
 * pending state, and the list registers that deliver it (docs/vgic.md).
 */
#ifndef ASM_VGIC_H
#define ASM_VGIC_H

#include <bulkhead/types.h>
#include <asm/gic.h>

struct domain;
struct vcpu;

/* Registers the guest GICD/GICR (v3) or GICD + the GICC->GICV mapping (v2). */
int vgic_domain_init(struct domain *d);
/* Banked state and pending interrupts of v back to reset (vCPU (re)start). */
void vgic_vcpu_reset(struct vcpu *v);
/* Make virq pending on v; from any CPU: kicks v's pCPU when it is not ours. */
void vgic_inject_irq(struct vcpu *v, unsigned int virq);
/* Just before entering the guest: load pending interrupts into the LRs. */
void vgic_flush_lrs(struct vcpu *v);
/* Just after leaving it: release the LRs the guest has finished with. */
void vgic_sync_lrs(struct vcpu *v);
/* This CPU's list registers are v's and current (debug check of the hypercall exit). */
bool vgic_lrs_loaded_here(const struct vcpu *v);
/* Something is pending or in flight for v (a trapped WFI must not sleep). */
bool vgic_vcpu_pending(struct vcpu *v);
/* The same, by the name arm-cpu's run loop uses. */
bool vgic_vcpu_pending_irq(struct vcpu *v);
/*
 * A trapped guest access to an ICC_* system register (ESR_EL2 EC 0x18, GICv3
 * only; ICC_SGI1R_EL1 traps whenever HCR_EL2.IMO is set). iss is ESR_EL2's
 * ISS; val is Xt for a write and receives the result of a read. Returns 0,
 * or -XEN_ENOENT when iss names no register the vGIC emulates.
 */
int vgic_emulate_sysreg(struct vcpu *v, uint32_t iss, uint64_t *val);

/* Interrupt-side hooks the GIC driver calls (gic.c). */
void vgic_maintenance(void);
/* The guest's virtual timer fired; true when the guest will deactivate it. */
bool vgic_vtimer_fired(uint32_t iar);
/*
 * An assigned device's SPI fired (acknowledged, priority dropped): made
 * pending on its partition's vCPU with a hardware-linked LR, so the
 * partition's EOI deactivates it. False when no partition owns intid.
 */
bool vgic_hw_irq(unsigned int intid);
/* intid belongs to a partition (never routed to a hypervisor handler). */
bool vgic_hw_owned(unsigned int intid);
/*
 * A partition stops (crash, shutdown, restart): its devices' SPIs are
 * disabled, their pending and active state cleared. Returns how many the
 * distributor then reads back as enabled still (0: all masked).
 */
unsigned int vgic_domain_hw_stop(struct domain *d);

#endif
