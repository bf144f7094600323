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
#include <asm/gic.h>
#include "gic_hot.h"
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

struct vcpu;

/*
 * The virtual timer fired in v's own trap on CPU cpu (the lean IRQ path,
 * traps.c guest_irq_lean): loaded straight into LR 0, hardware-linked, when
 * nothing else is in flight. false: nothing was changed, take the general
 * path (gic_handle_acked).
 */
bool vgic_vtimer_here(struct vcpu *v, unsigned int cpu);

/*
 * Release the LRs the guest has finished with (ELRSR). Inline: every trap
 * that finds an LR in use runs it (vgic_sync_lrs in vgic.c is this). Without
 * the vgic lock: only the owning pCPU writes the LR bookkeeping (its flush,
 * its direct loads, this), and it runs this with IRQs masked at the start of
 * a trap, so nothing else writes it meanwhile. Retiring only clears bits of
 * lrs.used, in one atomic store (vgic_lr_retire): another CPU reading it
 * under the lock (vgic_bus_pending) sees it before or after, and lrs.irq[]
 * does not change. A reset that marks the LRs stale meanwhile is harmless:
 * the next flush clears them all.
 */
static inline void vgic_sync_here(struct vgic_cpu *c)
{
	uint32_t hw = c->lrs.hw;
	uint32_t done;

	if ((c->lrs.used == 0U) || read_atomic(&c->lrs_stale)) {
		return;   /* nothing to retire, or the next flush clears them all */
	}
	done = vgic_lr_retire(&c->lrs, gic_hot_empty_lrs()) & hw;
	/* The guest's EOI deactivated these physical interrupts. */
	while (done != 0U) {
		unsigned int n = (unsigned int)__builtin_ctz(done);
		unsigned int irq = c->lrs.irq[n];

		done &= done - 1U;
		if (irq == GIC_PPI_VTIMER) {
			c->vtimer_active = false;
		} else if (vgic_irq_valid(irq)) {
			(void)atomic_fetch_and(&c->hw_active[irq / 32U], ~(U(1) << (irq % 32U)));
		} else {
			/* Not an INTID the bookkeeping holds. */
		}
	}
}

#endif
