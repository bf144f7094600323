/* SPDX-License-Identifier: MIT */
/*
 * Atomics on the compiler's __atomic builtins: the same source compiles to
 * LL/SC (or LSE) on AArch64 and to native atomics on the host, so the lock
 * code the host tests exercise is the code the hypervisor runs.
 */
#ifndef BULKHEAD_ATOMIC_H
#define BULKHEAD_ATOMIC_H

#include <bulkhead/types.h>

#define read_atomic(p)       __atomic_load_n((p), __ATOMIC_RELAXED)
#define write_atomic(p, v)   __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define load_acquire(p)      __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define store_release(p, v)  __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define atomic_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_ACQ_REL)
#define atomic_fetch_sub(p, v) __atomic_fetch_sub((p), (v), __ATOMIC_ACQ_REL)
#define atomic_fetch_or(p, v)  __atomic_fetch_or((p), (v), __ATOMIC_ACQ_REL)
#define atomic_fetch_and(p, v) __atomic_fetch_and((p), (v), __ATOMIC_ACQ_REL)
#define atomic_xchg(p, v)      __atomic_exchange_n((p), (v), __ATOMIC_ACQ_REL)
/*
 * Returns true and updates *p when *p == *expected; else loads *expected.
 * The builtin already yields bool; the cast states it for the MISRA checker.
 */
#define atomic_cmpxchg(p, expected, desired)                                  \
	((bool)__atomic_compare_exchange_n((p), (expected), (desired), false, \
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))

#if defined(__SANITIZE_THREAD__)
/*
 * ThreadSanitizer does not model fences (gcc refuses them under -Werror):
 * in that build a fence is a sequentially consistent read-modify-write of
 * one shared word, which TSan does see as ordering. Host stress builds only.
 */
extern uint64_t tsan_fence_word;
#define smp_mb()  ((void)__atomic_fetch_add(&tsan_fence_word, 0U, __ATOMIC_SEQ_CST))
#define smp_rmb() smp_mb()
#define smp_wmb() smp_mb()
#else
#define smp_mb()  __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#endif

static inline bool test_and_set_bit(unsigned int nr, volatile uint64_t *addr)
{
	const unsigned int bit = nr % 64U;
	uint64_t mask = UL(1) << bit;
	return (atomic_fetch_or(&addr[nr / 64U], mask) & mask) != 0U;
}

static inline bool test_and_clear_bit(unsigned int nr, volatile uint64_t *addr)
{
	const unsigned int bit = nr % 64U;
	uint64_t mask = UL(1) << bit;
	return (atomic_fetch_and(&addr[nr / 64U], ~mask) & mask) != 0U;
}

static inline bool test_bit(unsigned int nr, const volatile uint64_t *addr)
{
	return ((load_acquire(&addr[nr / 64U]) >> (nr % 64U)) & 1U) != 0U;
}

#endif
