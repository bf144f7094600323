/* SPDX-License-Identifier: MIT */
/* AArch64 EL2: the few per-arch inlines common code uses. */
#ifndef ASM_ARCH_INLINE_H
#define ASM_ARCH_INLINE_H

#include <bulkhead/config.h>
#include <asm/percpu.h>
#include <asm/sysregs.h>
#include <asm/mmu.h>
#include <public/errno.h>

/*
 * The calling CPU and its vCPU: one TPIDR_EL2 read and a load, asked on
 * every hypercall (`current`), so inline rather than a call.
 */
#define ARCH_INLINE_CURRENT 1

static inline unsigned int arch_cpu_id(void)
{
	return this_pcpu()->id;
}

static inline struct vcpu *arch_current_vcpu(void)
{
	return this_pcpu()->cur_vcpu;
}

/*
 * gva of v through both stages at once (AT S12E1R/W, with the stage-2
 * permission for the access): the machine address, or -XEN_EFAULT. Inline:
 * every hypercall argument and result is translated so. Only for v, the vCPU
 * whose trap this CPU handles (its stage 1 and VTTBR are live), so IRQs are
 * masked and nothing else uses PAR_EL1 meanwhile; PAR_EL1 is guest state and
 * is given back. Debug builds check the masking.
 */
#define ARCH_INLINE_GVA_TO_MADDR 1

static inline int arch_gva_to_maddr(const struct vcpu *v, vaddr_t gva, bool write, paddr_t *ma)
{
	uint64_t saved;
	uint64_t par;

	if ((v == NULL) || (v != this_pcpu()->cur_vcpu)) {
		return -XEN_EFAULT;
	}
#if CONFIG_DEBUG
	mmu_irqs_masked_check();
#endif
	saved = sysreg_read(par_el1);
	if (write) {
		__asm__ volatile("at s12e1w, %0" ::"r"(gva) : "memory");
	} else {
		__asm__ volatile("at s12e1r, %0" ::"r"(gva) : "memory");
	}
	isb();
	par = sysreg_read(par_el1);
	sysreg_write(par_el1, saved);
	if ((par & 1U) != 0U) {
		return -XEN_EFAULT;
	}
	*ma = (par & MMU_PTE_ADDR) | PAGE_OFFSET_OF(gva);
	return 0;
}

/*
 * A short access to a page of partition RAM (bulkhead/arch.h): with
 * CONFIG_XPFO through one of this CPU's fixed scratch slots, each with one
 * use, so it needs no search and no bookkeeping; nothing may be mapped in
 * that slot between the two (debug builds check), and the caller has found
 * ma in the partition's RAM. Without XPFO the direct map.
 */
#define ARCH_INLINE_SCRATCH 1

static inline void *arch_map_scratch(unsigned int slot, paddr_t ma)
{
#if CONFIG_XPFO
	struct pcpu *pc = this_pcpu();

#if CONFIG_DEBUG
	mmu_scratch_check(pc, slot, ma);
#endif
	/* The slot was invalid: no TLB entry to remove, only order the write. */
	__atomic_store_n(&pc->scratch_pte[slot], (ma & MMU_PTE_ADDR) | MMU_PTE_RAM_RW,
			 __ATOMIC_RELAXED);
	dsb_ishst();
	isb();
	return (void *)(uintptr_t)(pc->scratch_va + ((uint64_t)slot << PAGE_SHIFT) +
				   PAGE_OFFSET_OF(ma));
#else
	(void)slot;
	return (void *)(uintptr_t)ma;
#endif
}

static inline void arch_unmap_scratch(unsigned int slot, void *va)
{
#if CONFIG_XPFO
	const struct pcpu *pc = this_pcpu();

	(void)va;
	__atomic_store_n(&pc->scratch_pte[slot], 0U, __ATOMIC_RELAXED);
	dsb_ishst();
	/* Only this CPU ever uses its scratch slots: a local invalidation suffices. */
	__asm__ volatile("tlbi vae2, %0" ::"r"((pc->scratch_va >> PAGE_SHIFT) + slot) : "memory");
	dsb_nsh();
	isb();
#else
	(void)slot;
	(void)va;
#endif
}

/*
 * Copy blocks x 512 bytes (blocks >= 1; arch/arm/copy.S, Advanced SIMD):
 * the bulk of memcpy (common/lib/string.c) when the arch provides it.
 */
#define ARCH_COPY_BLOCKS 1
void arch_copy_blocks(void *dst, const void *src, size_t blocks);

static inline void cpu_relax(void)
{
	__asm__ volatile("yield" ::: "memory");
}

static inline void cpu_spin_backoff(unsigned int spins)
{
	(void)spins;
}

typedef unsigned long irqflags_t;

static inline irqflags_t local_irq_save(void)
{
	irqflags_t f;
	__asm__ volatile("mrs %0, daif\n\tmsr daifset, #2" : "=r"(f)::"memory");
	return f;
}

static inline void local_irq_restore(irqflags_t f)
{
	__asm__ volatile("msr daif, %0" ::"r"(f) : "memory");
}

#endif
