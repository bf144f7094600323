/* SPDX-License-Identifier: MIT */
/* The choice of the next interrupt to load (see vgic_state.h; the rest is inline there). */
#include "vgic_state.h"

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
