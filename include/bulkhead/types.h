/* SPDX-License-Identifier: MIT */
/* Basic types and the MISRA-friendly constant helpers shared by all code. */
#ifndef BULKHEAD_TYPES_H
#define BULKHEAD_TYPES_H

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

/* Unsigned constants usable in both C and assembly (TF-A convention). */
#ifdef __ASSEMBLER__
#define U(x)   (x)
#define UL(x)  (x)
#define ULL(x) (x)
#else
#define U(x)   (x##U)
#define UL(x)  (x##UL)
#define ULL(x) (x##ULL)
#endif

#ifndef __ASSEMBLER__
typedef uint64_t paddr_t;
typedef uint64_t vaddr_t;
typedef uint64_t regval_t;
typedef uint64_t mfn_t;
typedef uint64_t gfn_t;

#define BUILD_ASSERT(cond) _Static_assert(cond, #cond)
#define ARRAY_SIZE(a)      (sizeof(a) / sizeof((a)[0]))

#define PAGE_SHIFT U(12)
#define PAGE_SIZE  (UL(1) << PAGE_SHIFT)
#define PAGE_MASK  (~(PAGE_SIZE - UL(1)))
#define PAGE_OFFSET_OF(a) ((a) & (PAGE_SIZE - UL(1)))

#define CACHE_LINE_SIZE U(64)
/* Hot per-partition structures start on their own line: no false sharing. */
#define __cacheline_aligned __attribute__((aligned(CACHE_LINE_SIZE)))
#define __page_aligned      __attribute__((aligned(4096)))
#define __unused            __attribute__((unused))
#define __noreturn          __attribute__((noreturn))

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define MIN(a, b) (((a) < (b)) ? (a) : (b))
#define MAX(a, b) (((a) > (b)) ? (a) : (b))
#define ROUND_UP(x, a) (((x) + ((a) - 1U)) & ~((a) - 1U))

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

#endif
