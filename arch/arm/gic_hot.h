/* SPDX-License-Identifier: MIT */
/*
 * The GIC accesses of the interrupt and event paths, inline (gic_hot_*):
 * acknowledge, priority drop, deactivation, the empty-LR mask and the LR
 * writes. On GICv3 each is one system-register access (and its barrier),
 * which a call would double; the gicv3.c functions of asm/gic.h are these.
 * GICv2 keeps its out-of-line MMIO versions (gicv2.c).
 */
#ifndef ARM_GIC_HOT_H
#define ARM_GIC_HOT_H

#include <bulkhead/config.h>
#include <asm/gic.h>

#ifdef CONFIG_GICV3
#include "gic_sysreg.h"

#define ICH_LR_STATE_SHIFT  U(62)
#define ICH_LR_HW           (ULL(1) << 61)
#define ICH_LR_GROUP        (ULL(1) << 60)
#define ICH_LR_PRIO_SHIFT   U(48)
#define ICH_LR_PINTID_SHIFT U(32)
#define ICH_LR_PINTID_MASK  ULL(0x1fff)

static inline uint32_t gic_hot_ack(void)
{
	uint32_t iar = (uint32_t)gic_read_sysreg(icc_iar1_el1);

	__asm__ volatile("dsb sy" ::: "memory");
	return iar;
}

static inline uint32_t gic_hot_intid(uint32_t iar)
{
	return iar & U(0xffffff);
}

static inline void gic_hot_eoi(uint32_t iar)
{
	gic_write_sysreg(icc_eoir1_el1, iar);
	gic_isb();
}

static inline void gic_hot_deactivate(uint32_t iar)
{
	gic_write_sysreg(icc_dir_el1, iar);
	gic_isb();
}

static inline uint32_t gic_hot_empty_lrs(void)
{
	return (uint32_t)gic_read_sysreg(ich_elrsr_el2);
}

/* The list register's name must be literal text in the mrs/msr template. */
#define GIC_HOT_LR(n)                                                         \
	do {                                                                    \
		if (write) {                                                    \
			gic_write_sysreg(ich_lr##n##_el2, *val);                \
		} else {                                                        \
			*val = gic_read_sysreg(ich_lr##n##_el2);                \
		}                                                               \
	} while (false)

/* ICH_LR<i>_EL2; i past the last LR reads as 0 and ignores writes. */
static inline __attribute__((always_inline)) void gic_hot_lr_access(unsigned int i, bool write,
								     uint64_t *val)
{
	switch (i) {
	case 0U: GIC_HOT_LR(0); break;
	case 1U: GIC_HOT_LR(1); break;
	case 2U: GIC_HOT_LR(2); break;
	case 3U: GIC_HOT_LR(3); break;
	case 4U: GIC_HOT_LR(4); break;
	case 5U: GIC_HOT_LR(5); break;
	case 6U: GIC_HOT_LR(6); break;
	case 7U: GIC_HOT_LR(7); break;
	case 8U: GIC_HOT_LR(8); break;
	case 9U: GIC_HOT_LR(9); break;
	case 10U: GIC_HOT_LR(10); break;
	case 11U: GIC_HOT_LR(11); break;
	case 12U: GIC_HOT_LR(12); break;
	case 13U: GIC_HOT_LR(13); break;
	case 14U: GIC_HOT_LR(14); break;
	case 15U: GIC_HOT_LR(15); break;
	default:
		if (!write) {
			*val = 0U;
		}
		break;
	}
}

/* A pending virq, hardware-linked to physical INTID virq (the same) when hw. */
static inline uint64_t gic_hot_lr_value(uint32_t virq, uint8_t prio, bool group1, bool hw)
{
	uint64_t v = (uint64_t)virq | ((uint64_t)prio << ICH_LR_PRIO_SHIFT) |
		     ((uint64_t)GIC_LR_PENDING << ICH_LR_STATE_SHIFT) | (group1 ? ICH_LR_GROUP : ULL(0));

	if (hw) {
		v |= ICH_LR_HW | (((uint64_t)virq & ICH_LR_PINTID_MASK) << ICH_LR_PINTID_SHIFT);
	}
	return v;
}

static inline __attribute__((always_inline)) void gic_hot_write_lr_pending(unsigned int i,
									    uint32_t virq,
									    uint8_t prio,
									    bool group1)
{
	uint64_t v = gic_hot_lr_value(virq, prio, group1, false);

	gic_hot_lr_access(i, true, &v);
}

static inline __attribute__((always_inline)) void gic_hot_write_lr_hw(unsigned int i,
								       uint32_t virq, uint8_t prio,
								       bool group1)
{
	uint64_t v = gic_hot_lr_value(virq, prio, group1, true);

	gic_hot_lr_access(i, true, &v);
}

#else

static inline uint32_t gic_hot_ack(void)
{
	return gic_hw_ack();
}

static inline uint32_t gic_hot_intid(uint32_t iar)
{
	return gic_hw_intid(iar);
}

static inline void gic_hot_eoi(uint32_t iar)
{
	gic_hw_eoi(iar);
}

static inline void gic_hot_deactivate(uint32_t iar)
{
	gic_hw_deactivate(iar);
}

static inline uint32_t gic_hot_empty_lrs(void)
{
	return gic_hw_empty_lrs();
}

static inline void gic_hot_write_lr_pending(unsigned int i, uint32_t virq, uint8_t prio,
					    bool group1)
{
	gic_hw_write_lr_pending(i, virq, prio, group1);
}

static inline void gic_hot_write_lr_hw(unsigned int i, uint32_t virq, uint8_t prio, bool group1)
{
	gic_hw_write_lr_hw(i, virq, prio, group1);
}

#endif

#endif
