/* SPDX-License-Identifier: MIT */
/* Host build: the few per-arch inlines common code uses. */
#ifndef ASM_ARCH_INLINE_H
#define ASM_ARCH_INLINE_H

#include <sched.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#endif
}

/* Host threads are preemptible: a lock spinner yields after a while. */
static inline void cpu_spin_backoff(unsigned int spins)
{
	if ((spins & 0x3ffU) == 0x3ffU) {
		(void)sched_yield();
	}
}

typedef unsigned long irqflags_t;
static inline irqflags_t local_irq_save(void) { return 0UL; }
static inline void local_irq_restore(irqflags_t f) { (void)f; }

#endif
