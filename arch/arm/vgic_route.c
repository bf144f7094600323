/* SPDX-License-Identifier: MIT */
/*
 * The distributor state the interrupt paths read (see vgic_regs.h): where an
 * SPI is routed, which interrupts a vCPU has enabled, whom a guest's SGI
 * names. The register emulation itself (vgic_regs.c) is built for size;
 * these run on every SPI injection, full LR flush and guest SGI.
 */
#include "vgic_regs.h"
#include <bulkhead/atomic.h>

static unsigned int vgic_route_v3(const struct vgic_dist *d, uint64_t r)
{
	uint64_t aff0 = r & ULL(0xff);
	uint64_t aff1 = (r >> 8) & ULL(0xff);
	uint64_t id = aff1 * 16U + aff0;

	if ((r & VGIC_IROUTER_IRM) != 0U || (r & ULL(0xff00ff0000)) != 0U || aff0 >= 16U ||
	    id >= d->nr_vcpus) {
		return 0U;
	}
	return (unsigned int)id;
}

unsigned int vgic_dist_target(const struct vgic_dist *d, unsigned int irq, unsigned int self)
{
	unsigned int spi;
	uint32_t t;

	if (irq < VGIC_NR_PRIVATE || !vgic_irq_valid(irq)) {
		return self;
	}
	spi = irq - VGIC_NR_PRIVATE;
	if (d->version == 3U) {
		return vgic_route_v3(d, read_atomic(&d->spi_irouter[spi]));
	}
	t = read_atomic(&d->spi_targets[spi]);
	/* One target only: the lowest vCPU of the mask (1-of-N delivery). */
	return (t == 0U) ? 0U : (unsigned int)__builtin_ctz(t);
}

void vgic_dist_enabled_set(const struct vgic_dist *d, unsigned int vcpu, struct vgic_irqset *out)
{
	unsigned int i;

	out->w[0] = (vcpu < d->nr_vcpus) ? read_atomic(&d->priv[vcpu].enabled) : 0U;
	for (i = 1U; i < VGIC_NR_WORDS; i++) {
		out->w[i] = read_atomic(&d->spi_enabled[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Guest SGIs                                                           */

uint64_t vgic_sgi1r_targets(uint64_t sgi1r, unsigned int self, unsigned int nr_vcpus,
			    unsigned int *sgi)
{
	uint64_t all = (nr_vcpus >= 64U) ? ~ULL(0) : ((ULL(1) << nr_vcpus) - 1U);
	uint64_t list = sgi1r & ULL(0xffff);
	uint64_t aff1 = (sgi1r >> 16) & ULL(0xff);

	*sgi = (unsigned int)((sgi1r >> 24) & ULL(0xf));
	if (((sgi1r >> 40) & 1U) != 0U) {   /* IRM: every PE but the sender */
		return all & ~(ULL(1) << self);
	}
	/* Aff0 of a vCPU is below 16: RS other than 0, Aff2 or Aff3 name nobody. */
	if ((sgi1r & ULL(0x00ff00ff00000000)) != 0U || ((sgi1r >> 44) & ULL(0xf)) != 0U ||
	    aff1 >= 4U) {
		return 0U;
	}
	return (list << (16U * aff1)) & all;
}

uint64_t vgic_sgir_targets(uint32_t sgir, unsigned int self, unsigned int nr_vcpus,
			   unsigned int *sgi)
{
	uint64_t all = (nr_vcpus >= 8U) ? ULL(0xff) : ((ULL(1) << nr_vcpus) - 1U);

	*sgi = sgir & U(0xf);
	switch ((sgir >> 24) & U(3)) {
	case 0U:
		return ((sgir >> 16) & U(0xff)) & all;
	case 1U:
		return all & ~(ULL(1) << self);
	case 2U:
		return (ULL(1) << self) & all;
	default:
		return 0U;
	}
}

void vgic_send_sgis(const struct vgic_bus *bus, uint64_t mask, unsigned int nr_vcpus,
		    unsigned int sgi)
{
	unsigned int v;

	if (sgi >= VGIC_NR_SGIS) {
		return;
	}
	for (v = 0U; v < nr_vcpus && v < 64U; v++) {
		if (((mask >> v) & 1U) != 0U) {
			bus->raise(bus->ctx, v, sgi);
		}
	}
}
