/* SPDX-License-Identifier: MIT */
/*
 * Guest-visible distributor and redistributor registers of one partition,
 * decoded in plain C. Side effects on pending state go through struct
 * vgic_bus, so the host tests drive the same decoder with recording
 * callbacks and the hypervisor with the locked per-vCPU state (vgic.c).
 */
#ifndef ARM_VGIC_REGS_H
#define ARM_VGIC_REGS_H

#include "vgic_state.h"
#include <bulkhead/atomic.h>

#define VGIC_GICD_SIZE_V2   U(0x1000)
#define VGIC_GICD_SIZE_V3   U(0x10000)
#define VGIC_GICR_STRIDE    U(0x20000)  /* RD_base + SGI_base frames, 64 KiB each */
#define VGIC_GICR_SGI_BASE  U(0x10000)
#define VGIC_PRIO_MASK      U(0xf8)     /* 5 priority bits, as GIC-400 and QEMU */
#define VGIC_IROUTER_MASK   ULL(0xff800fffff) /* Aff3, IRM, Aff2, Aff1, Aff0 */
#define VGIC_IROUTER_IRM    (ULL(1) << 31)
#define VGIC_CTLR_V2_MASK   U(0x1)      /* Enable */
#define VGIC_CTLR_V3_MASK   U(0x3)      /* EnableGrp1, EnableGrp1A (NS view) */

BUILD_ASSERT(CONFIG_MAX_VCPUS <= 64);

struct vgic_bus {
	void *ctx;
	/* Make irq pending on vCPU vcpu; kicks it if it runs elsewhere. */
	void (*raise)(void *ctx, unsigned int vcpu, unsigned int irq);
	/* Forget a pending irq of vcpu that is not yet in a list register. */
	void (*lower)(void *ctx, unsigned int vcpu, unsigned int irq);
	bool (*pending)(void *ctx, unsigned int vcpu, unsigned int irq);
	/* Something became deliverable on vcpu (an enable bit went 0 -> 1). */
	void (*update)(void *ctx, unsigned int vcpu);
};

/* State banked per vCPU: SGIs and PPIs, and the redistributor's WAKER. */
struct vgic_priv {
	uint32_t enabled;
	uint32_t edge;                  /* bit n: INTID n is edge-triggered */
	uint8_t prio[VGIC_NR_PRIVATE];
	bool asleep;                    /* GICR_WAKER.ProcessorSleep */
};

struct vgic_dist {
	uint32_t version;               /* 2 or 3 */
	uint32_t nr_vcpus;
	uint32_t ctlr;
	uint32_t spi_enabled[VGIC_NR_WORDS]; /* word 0 unused: SGIs/PPIs are banked */
	uint32_t spi_edge[VGIC_NR_WORDS];
	uint8_t spi_prio[VGIC_NR_SPIS];
	uint8_t spi_targets[VGIC_NR_SPIS];   /* v2 GICD_ITARGETSR, validated */
	uint64_t spi_irouter[VGIC_NR_SPIS];  /* v3 GICD_IROUTER, validated */
	struct vgic_priv priv[CONFIG_MAX_VCPUS];
};

/* Guest MPIDR affinity (Aff1.Aff0) of a vCPU id. */
uint64_t vgic_vcpu_affinity(unsigned int vcpu);
/* Reset state of a partition with nr_vcpus vCPUs and a GICv<version> view. */
void vgic_dist_reset(struct vgic_dist *d, uint32_t version, uint32_t nr_vcpus);
/* Reset only the banked state of one vCPU (PSCI CPU_ON, vCPU reset). */
void vgic_dist_reset_priv(struct vgic_dist *d, unsigned int vcpu);

/* The vCPU an interrupt raised by (or for) vCPU self is delivered to. */
unsigned int vgic_dist_target(const struct vgic_dist *d, unsigned int irq, unsigned int self);
/* Inline, as vgic_dist_on: every interrupt delivered asks both. */
static inline bool vgic_dist_irq_enabled(const struct vgic_dist *d, unsigned int vcpu,
					 unsigned int irq)
{
	if (!vgic_irq_valid(irq) || vcpu >= d->nr_vcpus) {
		return false;
	}
	if (irq < VGIC_NR_PRIVATE) {
		return ((read_atomic(&d->priv[vcpu].enabled) >> irq) & 1U) != 0U;
	}
	return ((read_atomic(&d->spi_enabled[irq / 32U]) >> (irq % 32U)) & 1U) != 0U;
}

/* The guest has turned its distributor on (some group enabled). */
static inline bool vgic_dist_on(const struct vgic_dist *d)
{
	return (read_atomic(&d->ctlr) &
		((d->version == 2U) ? VGIC_CTLR_V2_MASK : VGIC_CTLR_V3_MASK)) != 0U;
}

/* Enabled set of vCPU vcpu, as vgic_pick wants it. */
void vgic_dist_enabled_set(const struct vgic_dist *d, unsigned int vcpu, struct vgic_irqset *out);

/*
 * Guest accesses; off is relative to the frame; vcpu is the accessing vCPU.
 * Return 0 or -XEN_EINVAL for an access width or alignment the GIC does not
 * offer (the MMIO layer then faults that partition only).
 */
int vgic_gicd_access(struct vgic_dist *d, const struct vgic_bus *bus, unsigned int vcpu,
		     uint32_t off, unsigned int size, bool write, uint64_t *val);
/* off relative to GICR_BASE of the partition: selects the vCPU frame. */
int vgic_gicr_access(struct vgic_dist *d, const struct vgic_bus *bus, uint32_t off,
		     unsigned int size, bool write, uint64_t *val);

/*
 * A guest SGI: the targets of an ICC_SGI1R_EL1 value written by vCPU self
 * (mask of vCPU ids of the same partition) and its INTID.
 */
uint64_t vgic_sgi1r_targets(uint64_t sgi1r, unsigned int self, unsigned int nr_vcpus,
			    unsigned int *sgi);
/* Same for a GICv2 GICD_SGIR value. */
uint64_t vgic_sgir_targets(uint32_t sgir, unsigned int self, unsigned int nr_vcpus,
			   unsigned int *sgi);
/* Raise sgi on every vCPU in mask. */
void vgic_send_sgis(const struct vgic_bus *bus, uint64_t mask, unsigned int nr_vcpus,
		    unsigned int sgi);

#endif
