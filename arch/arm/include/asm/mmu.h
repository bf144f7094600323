/* SPDX-License-Identifier: MIT */
/* EL2 stage-1 translation: attributes shared by head.S and mmu.c. */
#ifndef ASM_MMU_H
#define ASM_MMU_H

#include <bulkhead/types.h>

/* MAIR_EL2 attribute indexes. */
#define MT_DEVICE  U(0)   /* Device-nGnRnE */
#define MT_NORMAL  U(1)   /* Normal, inner/outer write-back */
#define MT_NORMAL_NC U(2)
#define MAIR_EL2_VALUE ULL(0x44ff00)

/* TCR_EL2: 4 KiB granule, 39-bit VA (T0SZ 25, start at level 1), 40-bit PA,
 * table walks inner shareable write-back. */
#define TCR_EL2_VALUE ULL(0x80823519)

/* VTCR_EL2 matching arch/arm/p2m.c: T0SZ 25, SL0 = level 1, 4 KiB, 40-bit PS,
 * walks inner shareable write-back, 8-bit VMID. */
#define VTCR_EL2_VALUE ULL(0x80023559)

/*
 * The EL2 page entry of a temporary mapping of partition RAM (XPFO slots):
 * Normal write-back, inner shareable, read-write, never executable.
 */
#define MMU_PTE_ADDR   ULL(0x000000fffffff000)
#define MMU_PTE_RAM_RW ((ULL(1) << 54) | (ULL(1) << 10) | (ULL(3) << 8) | (ULL(1) << 6) | \
			((uint64_t)MT_NORMAL << 2) | ULL(3))

#ifndef __ASSEMBLER__
/* Map [pa, pa+size) of a device at EL2 (identity, Device-nGnRnE). */
void mmu_map_device(paddr_t pa, uint64_t size);
/* Without CONFIG_XPFO: direct map the machine's RAM banks (after machine_setup()). */
void mmu_map_ram(void);
/* Clean data cache lines of [va, va+size) to the point of coherency. */
void cache_clean_range(const void *va, uint64_t size);
struct pcpu;
/* Point pc at its own temporary mapping slots (the tables exist by then). */
void mmu_percpu_slots(struct pcpu *pc);
/* Debug builds, arch_map_scratch: ma is RAM, the slot one and free, IRQs masked (else panic). */
void mmu_scratch_check(const struct pcpu *pc, unsigned int slot, paddr_t ma);
/* Debug builds, arch_gva_to_maddr: IRQs are masked (else panic). */
void mmu_irqs_masked_check(void);
/* Boot: check that no partition RAM translates at EL2 (CONFIG_XPFO). */
void mmu_xpfo_selfcheck(void);
#endif

#endif
