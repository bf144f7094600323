/* SPDX-License-Identifier: MIT */
/*
 * The interrupt-controller calls arm-cpu code makes (INTERFACES.md). The
 * GIC and vGIC live in asm/gic.h and asm/vgic.h; until those exist this
 * header declares the same prototypes so both sides build independently.
 */
#ifndef ASM_GIC_SEAM_H
#define ASM_GIC_SEAM_H

#include <bulkhead/types.h>

struct vcpu;
struct domain;

#if __has_include(<asm/gic.h>)
#include <asm/gic.h>
#define SGI_KICK GIC_SGI_KICK
#else
#define SGI_KICK U(0)
void gic_init(void);
void gic_cpu_init(void);
void gic_handle_irq(void);
void gic_send_sgi(unsigned int cpu, unsigned int sgi);
int gic_route_irq(unsigned int intid, void (*handler)(unsigned int intid));
#endif

#if __has_include(<asm/vgic.h>)
#include <asm/vgic.h>
#else
int vgic_domain_init(struct domain *d);
void vgic_vcpu_reset(struct vcpu *v);
void vgic_inject_irq(struct vcpu *v, unsigned int virq);
void vgic_flush_lrs(struct vcpu *v);
void vgic_sync_lrs(struct vcpu *v);
bool vgic_vcpu_pending_irq(struct vcpu *v);
int vgic_emulate_sysreg(struct vcpu *v, uint32_t iss, uint64_t *val);
#endif

/* Physical PPIs of the generic timer. */
#define PPI_HYP_TIMER  U(26)
#define PPI_VIRT_TIMER U(27)

#endif
