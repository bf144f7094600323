/* SPDX-License-Identifier: MIT */
/* AArch64 EL2: the few per-arch inlines common code uses. */
#ifndef ASM_ARCH_INLINE_H
#define ASM_ARCH_INLINE_H

#include <asm/percpu.h>

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
