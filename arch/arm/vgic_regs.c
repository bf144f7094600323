/* SPDX-License-Identifier: MIT */
/*
 * Guest GICD / GICR register decoding (see vgic_regs.h).
 *
 * Every value a guest writes is masked to the bits the emulated GIC has, so
 * a stored value is always valid and a racing read-modify-write by two vCPUs
 * of one partition can at worst lose one of the two writes: the partition's
 * own problem, never an out-of-bounds index. Enable bits change with atomic
 * or/and because the emulation runs lock-free on every vCPU.
 */
#include "vgic_regs.h"
#include <bulkhead/atomic.h>
#include <public/errno.h>

#define GICD_CTLR       U(0x0000)
#define GICD_TYPER      U(0x0004)
#define GICD_IIDR       U(0x0008)
#define GICD_TYPER2     U(0x000c)
#define GICD_IGROUPR    U(0x0080)
#define GICD_ISENABLER  U(0x0100)
#define GICD_ICENABLER  U(0x0180)
#define GICD_ISPENDR    U(0x0200)
#define GICD_ICPENDR    U(0x0280)
#define GICD_ISACTIVER  U(0x0300)
#define GICD_ICACTIVER  U(0x0380)
#define GICD_IPRIORITYR U(0x0400)
#define GICD_ITARGETSR  U(0x0800)
#define GICD_ICFGR      U(0x0c00)
#define GICD_ICFGR_END  U(0x0d00)
#define GICD_SGIR       U(0x0f00)
#define GICD_IROUTER    U(0x6000)
#define GICD_IROUTER_END U(0x7fe0)
#define GIC_PIDR2       U(0xffe8)
#define GICD_V2_PIDR2   U(0x0fe8)       /* the v2 distributor is one 4 KiB page */

#define GICR_CTLR       U(0x0000)
#define GICR_IIDR       U(0x0004)
#define GICR_TYPER      U(0x0008)
#define GICR_WAKER      U(0x0014)

#define CTLR_V3_ARE_NS  (U(1) << 4)
#define WAKER_SLEEP     (U(1) << 1)
#define WAKER_ASLEEP    (U(1) << 2)
#define TYPER_LAST      (U(1) << 4)
#define IIDR_BULKHEAD   U(0x0000043b)   /* Arm's JEP106 code: generic Linux paths */
#define CFG_EDGE_BITS   U(0xaaaaaaaa)   /* bit 1 of each 2-bit field */
#define SGI_CFG         U(0xaaaaaaaa)   /* SGIs are edge-triggered, read-only */


void vgic_dist_reset_priv(struct vgic_dist *d, unsigned int vcpu)
{
	struct vgic_priv *p;
	unsigned int i;

	if (vcpu >= CONFIG_MAX_VCPUS) {
		return;
	}
	p = &d->priv[vcpu];
	/* GICv2 SGIs are always enabled (RAO/WI); v3 ones are enabled by the guest. */
	p->enabled = (d->version == 2U) ? (uint32_t)U(0xffff) : 0U;
	p->edge = U(0x0000ffff);      /* SGIs edge, PPIs level */
	for (i = 0U; i < VGIC_NR_PRIVATE; i++) {
		p->prio[i] = 0U;
	}
	p->asleep = true;
}

void vgic_dist_reset(struct vgic_dist *d, uint32_t version, uint32_t nr_vcpus)
{
	unsigned int i;

	d->version = version;
	d->nr_vcpus = MIN(nr_vcpus, (uint32_t)CONFIG_MAX_VCPUS);
	d->ctlr = 0U;
	for (i = 0U; i < VGIC_NR_WORDS; i++) {
		d->spi_enabled[i] = 0U;
		d->spi_edge[i] = 0U;
	}
	for (i = 0U; i < VGIC_NR_SPIS; i++) {
		d->spi_prio[i] = 0U;
		d->spi_targets[i] = 1U;   /* vCPU 0 */
		d->spi_irouter[i] = 0U;   /* Aff 0.0.0.0: vCPU 0 */
	}
	for (i = 0U; i < CONFIG_MAX_VCPUS; i++) {
		vgic_dist_reset_priv(d, i);
	}
}

/*
 * Guest affinity of a vCPU, as its VMPIDR_EL2 and Xen give it: Aff0 = id % 16,
 * Aff1 = id / 16 (16 per cluster: SGI target lists name Aff0 0-15 only).
 */
uint64_t vgic_vcpu_affinity(unsigned int vcpu)
{
	return (((uint64_t)vcpu / 16U) << 8) | ((uint64_t)vcpu % 16U);
}

/* ------------------------------------------------------------------ */
/* Registers with one bit, one byte or two bits per interrupt.         */

static uint32_t *bits_word(struct vgic_dist *d, uint32_t *spi_words, unsigned int vcpu,
			   unsigned int word)
{
	if (word == 0U) {
		return &d->priv[vcpu].enabled;
	}
	return &spi_words[word];
}

static void enable_write(struct vgic_dist *d, const struct vgic_bus *bus, unsigned int vcpu,
			 unsigned int word, uint32_t bits, bool set)
{
	uint32_t *w = bits_word(d, d->spi_enabled, vcpu, word);
	uint32_t fresh;
	uint64_t kick = 0U;

	if (!set) {
		(void)atomic_fetch_and(w, ~bits);
		return;
	}
	fresh = bits & ~atomic_fetch_or(w, bits);
	while (fresh != 0U) {
		unsigned int irq = word * 32U + (unsigned int)__builtin_ctz(fresh);

		fresh &= fresh - 1U;
		kick |= ULL(1) << vgic_dist_target(d, irq, vcpu);
	}
	while (kick != 0U) {
		unsigned int t = (unsigned int)__builtin_ctzll(kick);

		kick &= kick - 1U;
		bus->update(bus->ctx, t);
	}
}

static uint32_t pend_read(struct vgic_dist *d, const struct vgic_bus *bus, unsigned int vcpu,
			  unsigned int word)
{
	uint32_t v = 0U;
	unsigned int i;

	for (i = 0U; i < 32U; i++) {
		unsigned int irq = word * 32U + i;

		if (bus->pending(bus->ctx, vgic_dist_target(d, irq, vcpu), irq)) {
			v |= U(1) << i;
		}
	}
	return v;
}

static void pend_write(struct vgic_dist *d, const struct vgic_bus *bus, unsigned int vcpu,
		       unsigned int word, uint32_t bits, bool set)
{
	uint32_t todo = bits;

	while (todo != 0U) {
		unsigned int irq = word * 32U + (unsigned int)__builtin_ctz(todo);
		unsigned int t = vgic_dist_target(d, irq, vcpu);

		todo &= todo - 1U;
		if (set) {
			bus->raise(bus->ctx, t, irq);
		} else {
			bus->lower(bus->ctx, t, irq);
		}
	}
}

static uint8_t *prio_byte(struct vgic_dist *d, unsigned int vcpu, unsigned int irq)
{
	return (irq < VGIC_NR_PRIVATE) ? &d->priv[vcpu].prio[irq]
				       : &d->spi_prio[irq - VGIC_NR_PRIVATE];
}

static uint32_t targets_byte(struct vgic_dist *d, unsigned int vcpu, unsigned int irq)
{
	/* SGIs/PPIs: the accessing CPU interface only, read-only. */
	return (irq < VGIC_NR_PRIVATE) ? (U(1) << vcpu)
				       : read_atomic(&d->spi_targets[irq - VGIC_NR_PRIVATE]);
}

static void cfg_rw(struct vgic_dist *d, unsigned int vcpu, unsigned int reg, bool write,
		   uint64_t *val)
{
	uint32_t *edge = (reg < 2U) ? &d->priv[vcpu].edge : &d->spi_edge[reg / 2U];
	unsigned int shift = (reg % 2U) * 16U;
	uint32_t v = 0U;
	unsigned int i;

	if (reg == 0U) {   /* SGIs: always edge */
		if (!write) {
			*val = SGI_CFG;
		}
		return;
	}
	if (write) {
		uint32_t nv = read_atomic(edge) & ~(U(0xffff) << shift);

		for (i = 0U; i < 16U; i++) {
			if (((*val >> (2U * i + 1U)) & 1U) != 0U) {
				nv |= U(1) << (shift + i);
			}
		}
		write_atomic(edge, nv);
		return;
	}
	for (i = 0U; i < 16U; i++) {
		if (((read_atomic(edge) >> (shift + i)) & 1U) != 0U) {
			v |= U(1) << (2U * i + 1U);
		}
	}
	*val = v;
}

/*
 * The interrupt-indexed banks common to GICD (v2 whole, v3 SPIs) and the
 * GICv3 SGI_base frame (private part). lo/hi: the INTIDs this frame serves.
 */
static int bank_access(struct vgic_dist *d, const struct vgic_bus *bus, unsigned int vcpu,
		       uint32_t off, unsigned int size, bool write, uint64_t *val,
		       unsigned int lo, unsigned int hi)
{
	unsigned int i;

	if (off >= GICD_IPRIORITYR && off < GICD_ICFGR) {
		bool targets = off >= GICD_ITARGETSR;
		uint64_t out = 0U;
		unsigned int first;

		if (size != 1U && size != 4U) {
			return -XEN_EINVAL;
		}
		first = off - (targets ? GICD_ITARGETSR : GICD_IPRIORITYR);
		if (targets && d->version != 2U) {
			if (!write) {
				*val = 0U;
			}
			return 0;
		}
		for (i = 0U; i < size; i++) {
			unsigned int irq = first + i;
			unsigned int shift = 8U * i;
			uint32_t b = (uint32_t)(*val >> shift) & U(0xff);

			if (irq < lo || irq >= hi) {
				continue;
			}
			if (!targets) {
				if (write) {
					write_atomic(prio_byte(d, vcpu, irq), (uint8_t)(b & VGIC_PRIO_MASK));
				} else {
					out |= (uint64_t)read_atomic(prio_byte(d, vcpu, irq)) << shift;
				}
			} else if (write && irq >= VGIC_NR_PRIVATE) {
				b &= (uint32_t)((ULL(1) << d->nr_vcpus) - 1U);
				write_atomic(&d->spi_targets[irq - VGIC_NR_PRIVATE], (uint8_t)b);
			} else if (!write) {
				out |= (uint64_t)targets_byte(d, vcpu, irq) << shift;
			} else {
				/* ITARGETSR of SGIs and PPIs: read-only (WI). */
			}
		}
		if (!write) {
			*val = out;
		}
		return 0;
	}

	if (size != 4U) {
		return -XEN_EINVAL;
	}
	if (off >= GICD_ICFGR && off < GICD_ICFGR_END) {
		unsigned int reg = (off - GICD_ICFGR) / 4U;

		if (reg * 16U < lo || reg * 16U >= hi) {
			if (!write) {
				*val = 0U;
			}
			return 0;
		}
		if (write) {
			*val &= CFG_EDGE_BITS;
		}
		cfg_rw(d, vcpu, reg, write, val);
		return 0;
	}
	if (off < GICD_IGROUPR || off >= GICD_IPRIORITYR) {
		if (!write) {
			*val = 0U;
		}
		return 0;
	}

	{
		unsigned int base = off & ~U(0x7f);
		unsigned int word = (off & U(0x7f)) / 4U;
		uint32_t bits = (uint32_t)*val;

		if (word * 32U < lo || word * 32U >= hi) {
			if (!write) {
				*val = 0U;
			}
			return 0;
		}
		switch (base) {
		case GICD_IGROUPR:
			/* v3: everything Group 1; v2: Group 0 (what Linux's GICv2 driver uses). */
			if (!write) {
				*val = (d->version == 3U) ? ULL(0xffffffff) : ULL(0);
			}
			break;
		case GICD_ISENABLER:
		case GICD_ICENABLER:
			if (write) {
				if (word == 0U && d->version == 2U && base == GICD_ICENABLER) {
					bits &= ~U(0xffff); /* GICv2: SGIs cannot be disabled */
				}
				enable_write(d, bus, vcpu, word, bits, base == GICD_ISENABLER);
			} else {
				*val = read_atomic(bits_word(d, d->spi_enabled, vcpu, word));
			}
			break;
		case GICD_ISPENDR:
		case GICD_ICPENDR:
			if (write) {
				pend_write(d, bus, vcpu, word, bits, base == GICD_ISPENDR);
			} else {
				*val = pend_read(d, bus, vcpu, word);
			}
			break;
		default:   /* ISACTIVER / ICACTIVER: active state lives in the LRs */
			if (!write) {
				*val = 0U;
			}
			break;
		}
	}
	return 0;
}

static int irouter_access(struct vgic_dist *d, uint32_t off, unsigned int size, bool write,
			  uint64_t *val)
{
	unsigned int irq = (off - GICD_IROUTER) / 8U;
	unsigned int shift = (off % 8U) * 8U;
	uint64_t *r, mask;

	if (size != 8U && size != 4U) {
		return -XEN_EINVAL;
	}
	if (irq < VGIC_NR_PRIVATE || irq >= VGIC_NR_IRQS) {
		if (!write) {
			*val = 0U;
		}
		return 0;
	}
	r = &d->spi_irouter[irq - VGIC_NR_PRIVATE];
	mask = (size == 8U) ? ~ULL(0) : (ULL(0xffffffff) << shift);
	if (write) {
		uint64_t nv = (read_atomic(r) & ~mask) | ((*val << shift) & mask);

		write_atomic(r, nv & VGIC_IROUTER_MASK);
	} else {
		*val = (read_atomic(r) & mask) >> shift;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Distributor                                                          */

static int gicd_ctlr(struct vgic_dist *d, bool write, uint64_t *val)
{
	if (d->version == 2U) {
		if (write) {
			write_atomic(&d->ctlr, (uint32_t)*val & VGIC_CTLR_V2_MASK);
		} else {
			*val = read_atomic(&d->ctlr);
		}
		return 0;
	}
	/* Affinity routing is always on: ARE_NS reads as one, RWP as zero. */
	if (write) {
		write_atomic(&d->ctlr, (uint32_t)*val & VGIC_CTLR_V3_MASK);
	} else {
		*val = read_atomic(&d->ctlr) | CTLR_V3_ARE_NS;
	}
	return 0;
}

static uint32_t gicd_typer(const struct vgic_dist *d)
{
	uint32_t lines = VGIC_NR_IRQS / 32U - 1U;

	if (d->version == 2U) {
		return lines | ((d->nr_vcpus - 1U) << 5);
	}
	return lines | ((uint32_t)9U << 19);   /* IDbits: 10 INTID bits, no LPIs, no ESPIs */
}

int vgic_gicd_access(struct vgic_dist *d, const struct vgic_bus *bus, unsigned int vcpu,
		     uint32_t off, unsigned int size, bool write, uint64_t *val)
{
	uint32_t limit = (d->version == 2U) ? VGIC_GICD_SIZE_V2 : VGIC_GICD_SIZE_V3;

	if (size == 0U || (off & (size - 1U)) != 0U || off >= limit || vcpu >= d->nr_vcpus) {
		return -XEN_EINVAL;
	}
	if (d->version == 3U && off >= GICD_IROUTER && off < GICD_IROUTER_END) {
		return irouter_access(d, off, size, write, val);
	}
	if (off >= GICD_IGROUPR && off < GICD_ICFGR_END) {
		/* v3 with affinity routing: the private INTIDs live in the GICR. */
		return bank_access(d, bus, vcpu, off, size, write, val,
				   (d->version == 3U) ? VGIC_NR_PRIVATE : 0U, VGIC_NR_IRQS);
	}
	if (size != 4U) {
		return -XEN_EINVAL;
	}
	if (d->version == 2U && off == GICD_V2_PIDR2) {
		if (!write) {
			*val = U(0x20);
		}
		return 0;
	}
	switch (off) {
	case GICD_CTLR:
		return gicd_ctlr(d, write, val);
	case GICD_TYPER:
		if (!write) {
			*val = gicd_typer(d);
		}
		return 0;
	case GICD_IIDR:
		if (!write) {
			*val = IIDR_BULKHEAD;
		}
		return 0;
	case GICD_SGIR:
		if (write && d->version == 2U) {
			unsigned int sgi;
			uint64_t t = vgic_sgir_targets((uint32_t)*val, vcpu, d->nr_vcpus, &sgi);

			vgic_send_sgis(bus, t, d->nr_vcpus, sgi);
		} else if (!write) {
			*val = 0U;
		} else {
			/* GICD_SGIR exists on GICv2 only: WI on GICv3. */
		}
		return 0;
	case GIC_PIDR2:
		if (!write) {
			*val = U(0x30);
		}
		return 0;
	default:   /* reserved, TYPER2, SPI message registers, pending SGIs: RAZ/WI */
		if (!write) {
			*val = 0U;
		}
		return 0;
	}
}

/* ------------------------------------------------------------------ */
/* Redistributors (GICv3): one RD_base + SGI_base pair per vCPU.       */

static int gicr_rd_access(struct vgic_dist *d, unsigned int vcpu, uint32_t off,
			  unsigned int size, bool write, uint64_t *val)
{
	if (off == GICR_TYPER || off == GICR_TYPER + 4U) {
		uint64_t typer = (vgic_vcpu_affinity(vcpu) << 32) | ((uint64_t)vcpu << 8);

		if (vcpu + 1U == d->nr_vcpus) {
			typer |= TYPER_LAST;
		}
		if (size != 8U && (size != 4U)) {
			return -XEN_EINVAL;
		}
		if (!write) {
			*val = (off == GICR_TYPER) ? ((size == 8U) ? typer : (uint32_t)typer)
						   : (typer >> 32);
		}
		return 0;
	}
	if (size != 4U && !(size == 8U && off >= U(0x70) && off < U(0x80))) {
		return -XEN_EINVAL;
	}
	switch (off) {
	case GICR_WAKER:
		if (write) {
			write_atomic(&d->priv[vcpu].asleep, (*val & WAKER_SLEEP) != 0U);
		} else {
			*val = read_atomic(&d->priv[vcpu].asleep) ? (WAKER_SLEEP | WAKER_ASLEEP) : 0U;
		}
		return 0;
	case GICR_IIDR:
		if (!write) {
			*val = IIDR_BULKHEAD;
		}
		return 0;
	case GIC_PIDR2:
		if (!write) {
			*val = U(0x30);
		}
		return 0;
	default:   /* CTLR (no LPIs), STATUSR, PROPBASER, PENDBASER...: RAZ/WI */
		if (!write) {
			*val = 0U;
		}
		return 0;
	}
}

int vgic_gicr_access(struct vgic_dist *d, const struct vgic_bus *bus, uint32_t off,
		     unsigned int size, bool write, uint64_t *val)
{
	unsigned int vcpu = off / VGIC_GICR_STRIDE;
	uint32_t frame_off = off % VGIC_GICR_STRIDE;

	if (d->version != 3U || size == 0U || (off & (size - 1U)) != 0U || vcpu >= d->nr_vcpus) {
		return -XEN_EINVAL;
	}
	if (frame_off < VGIC_GICR_SGI_BASE) {
		return gicr_rd_access(d, vcpu, frame_off, size, write, val);
	}
	frame_off -= VGIC_GICR_SGI_BASE;
	if (frame_off >= GICD_IGROUPR && frame_off < GICD_ICFGR_END) {
		return bank_access(d, bus, vcpu, frame_off, size, write, val, 0U,
				   VGIC_NR_PRIVATE);
	}
	if (size != 4U) {
		return -XEN_EINVAL;
	}
	if (!write) {
		*val = 0U;
	}
	return 0;
}
