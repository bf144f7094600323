/* SPDX-License-Identifier: MIT */
/*
 * A vCPU's vGIC state (arch/arm/vgic.c), here so that the exit of every
 * hypercall (traps.c guest_hypercall) can make its two checks inline: are
 * any list registers in use (then the sync retires finished ones), and is
 * anything pending that the flush would load.
 */
#ifndef ARM_VGIC_CPU_H
#define ARM_VGIC_CPU_H

#include <bulkhead/spinlock.h>
#include "vgic_state.h"

struct vgic_dist;

struct vgic_cpu {
	spinlock_t lock;
	const struct vgic_dist *dist;  /* the partition's, and this vCPU's id in it */
	unsigned int vcpu;
	struct vgic_irqset pending;    /* not yet in an LR */
	struct vgic_lrs lrs;
	bool lrs_stale;                /* reset: the owning pCPU must clear its LRs */
	bool vtimer_active;            /* physical PPI 27 active, the guest owns it */
	bool vtimer_hw;                /* the pending PPI 27 is the physical one */
	bool underflow;                /* the last flush asked for the underflow interrupt */
	const uint32_t *hw;            /* the partition's assigned SPIs (vgic_hw_mask) */
	uint32_t hw_active[VGIC_NR_WORDS]; /* assigned SPIs taken for this vCPU, owed its EOI */
} __cacheline_aligned;

/* Some LR holds an interrupt: the sync at trap entry has something to look at. */
static inline bool vgic_lrs_in_use(const struct vgic_cpu *c)
{
	return c->lrs.used != 0U;
}

/*
 * Nothing waits to be loaded. Read without the lock by the owning pCPU with
 * IRQs masked: another CPU that makes something pending after this also
 * kicks the CPU, whose SGI then takes the guest straight back to a full flush.
 */
static inline bool vgic_none_pending(const struct vgic_cpu *c)
{
	uint32_t any = 0U;
	unsigned int w;

	/* Plain loads (arm only): an aligned word is read in one access. */
	for (w = 0U; w < VGIC_NR_WORDS; w++) {
		any |= *(const volatile uint32_t *)&c->pending.w[w];
	}
	return any == 0U;
}

#endif
