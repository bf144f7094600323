/* SPDX-License-Identifier: MIT */
/* AArch64 EL2: the few per-arch inlines common code uses. */
#ifndef ASM_ARCH_INLINE_H
#define ASM_ARCH_INLINE_H

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
