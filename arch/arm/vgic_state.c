/* SPDX-License-Identifier: MIT */
/* Pending sets and list-register bookkeeping of one vCPU (see vgic_state.h). */
#include "vgic_state.h"

void vgic_set_add(struct vgic_irqset *s, unsigned int irq)
{
	if (vgic_irq_valid(irq)) {
		s->w[irq / 32U] |= U(1) << (irq % 32U);
	}
}

void vgic_set_del(struct vgic_irqset *s, unsigned int irq)
{
	if (vgic_irq_valid(irq)) {
		s->w[irq / 32U] &= ~(U(1) << (irq % 32U));
	}
}

bool vgic_set_has(const struct vgic_irqset *s, unsigned int irq)
{
	return vgic_irq_valid(irq) && ((s->w[irq / 32U] >> (irq % 32U)) & 1U) != 0U;
}

bool vgic_set_empty(const struct vgic_irqset *s)
{
	uint32_t any = 0U;
	unsigned int i;

	for (i = 0U; i < VGIC_NR_WORDS; i++) {
		any |= s->w[i];
	}
	return any == 0U;
}

static uint8_t vgic_prio_of(const uint8_t *prio_priv, const uint8_t *prio_spi, unsigned int irq)
{
	return (irq < VGIC_NR_PRIVATE) ? prio_priv[irq] : prio_spi[irq - VGIC_NR_PRIVATE];
}

unsigned int vgic_pick(const struct vgic_irqset *pend, const struct vgic_irqset *enabled,
		       const uint8_t prio_priv[VGIC_NR_PRIVATE], const uint8_t prio_spi[VGIC_NR_SPIS],
		       const struct vgic_lrs *lrs)
{
	uint8_t best_prio = 0U;
	unsigned int best = VGIC_NO_IRQ;
	unsigned int i;

	/* One pass over at most VGIC_NR_WORDS words: bounded by the Kconfig size. */
	for (i = 0U; i < VGIC_NR_WORDS; i++) {
		uint32_t cand = pend->w[i] & enabled->w[i];

		while (cand != 0U) {
			unsigned int bit = (unsigned int)__builtin_ctz(cand);
			unsigned int irq = i * 32U + bit;

			cand &= cand - 1U;
			if (vgic_lr_find(lrs, irq) >= 0) {
				continue;
			}
			if (best == VGIC_NO_IRQ ||
			    vgic_prio_of(prio_priv, prio_spi, irq) < best_prio) {
				best = irq;
				best_prio = vgic_prio_of(prio_priv, prio_spi, irq);
			}
		}
	}
	return best;
}

int vgic_lr_find(const struct vgic_lrs *l, unsigned int irq)
{
	uint32_t used = l->used;

	while (used != 0U) {
		unsigned int i = (unsigned int)__builtin_ctz(used);

		used &= used - 1U;
		if (l->irq[i] == irq) {
			return (int)i;
		}
	}
	return -1;
}

int vgic_lr_claim(struct vgic_lrs *l, unsigned int nr_lrs, unsigned int irq, bool hw)
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

uint32_t vgic_lr_retire(struct vgic_lrs *l, uint32_t empty)
{
	uint32_t done = l->used & empty;

	l->used &= ~done;
	l->hw &= ~done;
	return done;
}

unsigned int vgic_lr_count(const struct vgic_lrs *l)
{
	return (unsigned int)__builtin_popcount(l->used);
}

int vgic_lr_direct(struct vgic_lrs *l, const struct vgic_irqset *pend, unsigned int nr_lrs,
		   unsigned int irq, bool enabled)
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
