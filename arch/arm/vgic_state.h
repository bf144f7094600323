/* SPDX-License-Identifier: MIT */
/*
 * The pure part of the vGIC: bounded interrupt sets, list-register occupancy
 * and the choice of what to load next. Plain C on plain memory so the host
 * unit tests run exactly this code (tests/unit/test_vgic.c); nothing here
 * touches a register or takes a lock (callers hold the vCPU's vgic lock).
 */
#ifndef ARM_VGIC_STATE_H
#define ARM_VGIC_STATE_H

#include <bulkhead/config.h>
#include <bulkhead/types.h>
#include <bulkhead/atomic.h>

#ifndef CONFIG_VGIC_NR_SPIS
#define CONFIG_VGIC_NR_SPIS 32
#endif

#define VGIC_NR_PRIVATE  U(32)                 /* SGIs 0-15, PPIs 16-31 */
#define VGIC_NR_SGIS     U(16)
#define VGIC_NR_SPIS     ((unsigned int)CONFIG_VGIC_NR_SPIS)
#define VGIC_NR_IRQS     (VGIC_NR_PRIVATE + VGIC_NR_SPIS)
#define VGIC_NR_WORDS    (VGIC_NR_IRQS / U(32))
#define VGIC_MAX_LRS     U(16)                 /* architectural maximum, v2 and v3 */
#define VGIC_NO_IRQ      U(0xffffffff)

BUILD_ASSERT(CONFIG_VGIC_NR_SPIS % 32 == 0);
BUILD_ASSERT(CONFIG_VGIC_NR_SPIS >= 32 && CONFIG_VGIC_NR_SPIS <= 960);

/* One bit per virtual INTID of a vCPU (private ones plus the SPIs). */
struct vgic_irqset {
	uint32_t w[VGIC_NR_WORDS];
};

/* Which list registers of a vCPU hold which virtual INTID. */
struct vgic_lrs {
	uint32_t used;                  /* bit i: LR i holds irq[i] */
	uint32_t hw;                    /* bit i: LR i is linked to a physical INTID */
	uint16_t irq[VGIC_MAX_LRS];
};

static inline bool vgic_irq_valid(unsigned int irq)
{
	return irq < VGIC_NR_IRQS;
}

/* Inline: the event path adds, drops and tests one bit per delivery. */
static inline void vgic_set_add(struct vgic_irqset *s, unsigned int irq)
{
	if (vgic_irq_valid(irq)) {
		s->w[irq / 32U] |= U(1) << (irq % 32U);
	}
}

static inline void vgic_set_del(struct vgic_irqset *s, unsigned int irq)
{
	if (vgic_irq_valid(irq)) {
		s->w[irq / 32U] &= ~(U(1) << (irq % 32U));
	}
}

static inline bool vgic_set_has(const struct vgic_irqset *s, unsigned int irq)
{
	return vgic_irq_valid(irq) && ((s->w[irq / 32U] >> (irq % 32U)) & 1U) != 0U;
}

static inline bool vgic_set_empty(const struct vgic_irqset *s)
{
	uint32_t any = 0U;
	unsigned int i;

	for (i = 0U; i < VGIC_NR_WORDS; i++) {
		any |= s->w[i];
	}
	return any == 0U;
}

/*
 * The pending interrupt to load next: in pend and in enabled, not already in
 * an LR, with the numerically lowest priority (the most urgent), the lowest
 * INTID on ties. VGIC_NO_IRQ when there is none.
 */
unsigned int vgic_pick(const struct vgic_irqset *pend, const struct vgic_irqset *enabled,
		       const uint8_t prio_priv[VGIC_NR_PRIVATE], const uint8_t prio_spi[VGIC_NR_SPIS],
		       const struct vgic_lrs *lrs);

/*
 * LR bookkeeping, inline: the event path claims one LR and retires it at
 * every delivery. Index of the LR holding irq, or -1.
 */
static inline int vgic_lr_find(const struct vgic_lrs *l, unsigned int irq)
{
	/* Atomic: the owning pCPU retires LRs without the lock (vgic_sync_lrs). */
	uint32_t used = read_atomic(&l->used);

	while (used != 0U) {
		unsigned int i = (unsigned int)__builtin_ctz(used);

		used &= used - 1U;
		if (l->irq[i] == irq) {
			return (int)i;
		}
	}
	return -1;
}

/* Claim a free LR among the first nr_lrs for irq; -1 when all are busy. */
static inline int vgic_lr_claim(struct vgic_lrs *l, unsigned int nr_lrs, unsigned int irq,
				bool hw)
{
	uint32_t all = (nr_lrs >= 32U) ? ~U(0) : (((uint32_t)1U << nr_lrs) - 1U);
	uint32_t free = ~l->used & all & (((uint32_t)1U << VGIC_MAX_LRS) - 1U);
	unsigned int i;

	if (free == 0U || !vgic_irq_valid(irq)) {
		return -1;
	}
	i = (unsigned int)__builtin_ctz(free);
	l->used |= U(1) << i;
	if (hw) {
		l->hw |= U(1) << i;
	} else {
		l->hw &= ~(U(1) << i);
	}
	l->irq[i] = (uint16_t)irq;
	return (int)i;
}

/*
 * Release every used LR whose bit is set in empty (the hardware's ELRSR:
 * the guest has finished with it). Returns the released LRs' mask.
 */
static inline uint32_t vgic_lr_retire(struct vgic_lrs *l, uint32_t empty)
{
	uint32_t done = l->used & empty;

	/* One atomic store: vgic_lr_find may read it on another CPU meanwhile. */
	write_atomic(&l->used, l->used & ~done);
	l->hw &= ~done;
	return done;
}

/* Number of LRs in use. */
static inline unsigned int vgic_lr_count(const struct vgic_lrs *l)
{
	return (unsigned int)__builtin_popcount(l->used);
}

/*
 * irq was raised for the vCPU whose LRs these are, while the pCPU holding them
 * handles that vCPU's trap: claim a free LR for it at once (the caller loads it)
 * when nothing waits in pend, irq is valid and enabled, not in an LR already
 * and an LR among the first nr_lrs is free. The GIC then orders it against the
 * other LRs by priority, as a flush would have. -1: leave it to the flush.
 */
static inline int vgic_lr_direct(struct vgic_lrs *l, const struct vgic_irqset *pend,
				 unsigned int nr_lrs, unsigned int irq, bool enabled)
{
	/*
	 * Something else pending: the flush must choose the most urgent for the
	 * free LRs. Already in an LR: the flush makes that LR pending again.
	 */
	if (!enabled || !vgic_set_empty(pend) || (vgic_lr_find(l, irq) >= 0)) {
		return -1;
	}
	return vgic_lr_claim(l, nr_lrs, irq, false);
}

#endif
