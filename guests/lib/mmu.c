/* SPDX-License-Identifier: MIT */
/*
 * Identity stage-1 map of the low 4 GiB. With the MMU off every data access
 * is Device-nGnRnE: shared pages would not be coherent with other CPUs'
 * caches on hardware and exclusives would be unpredictable, so a partition
 * turns this on before anything else. RAM (0x40000000 up) and the grant
 * window (0x38000000-0x3fffffff) are Normal write-back; the rest is Device.
 */
#include <guest/rt.h>

#define PAGE_TABLE_ENTRIES 512U
#define DESC_BLOCK   0x1ULL
#define DESC_TABLE   0x3ULL
#define ATTR_IDX(n)  ((uint64_t)(n) << 2)
#define SH_INNER     (3ULL << 8)
#define AF           (1ULL << 10)
#define PXN          (1ULL << 53)
#define UXN          (1ULL << 54)

#define MAIR_DEVICE_nGnRnE 0ULL   /* index 0 */
#define MAIR_NORMAL_WB     1ULL   /* index 1 */
#define MAIR_DEVICE_nGnRE  2ULL   /* index 2 */
#define MAIR_VALUE ((0x00ULL << 0) | (0xffULL << 8) | (0x04ULL << 16))

/* T0SZ=32 (4 GiB), 4 KiB granule, inner/outer WB WA, inner shareable, EPD1, IPS 4 GiB. */
#define TCR_VALUE (32ULL | (1ULL << 8) | (1ULL << 10) | (3ULL << 12) | (1ULL << 23))

#define SCTLR_M (1ULL << 0)
#define SCTLR_A (1ULL << 1)
#define SCTLR_C (1ULL << 2)
#define SCTLR_I (1ULL << 12)
#define SCTLR_WXN (1ULL << 19)

#define GRANT_WINDOW_START 0x38000000ULL
#define BLOCK_2M (2ULL << 20)
#define BLOCK_1G (1ULL << 30)

static uint64_t l1[PAGE_TABLE_ENTRIES] __attribute__((aligned(4096)));
static uint64_t l2_low[PAGE_TABLE_ENTRIES] __attribute__((aligned(4096)));

static uint64_t normal_block(uint64_t pa)
{
	return pa | DESC_BLOCK | ATTR_IDX(MAIR_NORMAL_WB) | SH_INNER | AF;
}

static uint64_t device_block(uint64_t pa)
{
	return pa | DESC_BLOCK | ATTR_IDX(MAIR_DEVICE_nGnRE) | AF | PXN | UXN;
}

/* Drop any stale cache line over memory written with the MMU off. */
static void invalidate_range(const void *p, size_t len)
{
	uint64_t a = (uint64_t)p & ~63ULL;

	for (; a < (uint64_t)p + len; a += 64U)
		__asm__ volatile("dc ivac, %0" :: "r"(a) : "memory");
	__asm__ volatile("dsb sy" ::: "memory");
}

void mmu_init(void)
{
	unsigned int i;

	for (i = 0; i < PAGE_TABLE_ENTRIES; i++) {
		uint64_t pa = (uint64_t)i * BLOCK_2M;

		l2_low[i] = pa >= GRANT_WINDOW_START ? normal_block(pa) : device_block(pa);
	}
	l1[0] = (uint64_t)l2_low | DESC_TABLE;
	for (i = 1; i < 4U; i++)
		l1[i] = normal_block((uint64_t)i * BLOCK_1G);
	invalidate_range(l1, sizeof(l1));
	invalidate_range(l2_low, sizeof(l2_low));
}

/* Every vCPU: same tables; the boot vCPU calls mmu_init() first. */
void mmu_enable(void)
{
	uint64_t sctlr;

	__asm__ volatile("msr mair_el1, %0" :: "r"(MAIR_VALUE));
	__asm__ volatile("msr tcr_el1, %0" :: "r"(TCR_VALUE));
	__asm__ volatile("msr ttbr0_el1, %0" :: "r"((uint64_t)l1));
	__asm__ volatile("isb; tlbi vmalle1; dsb nsh; isb" ::: "memory");
	__asm__ volatile("mrs %0, sctlr_el1" : "=r"(sctlr));
	sctlr |= SCTLR_M | SCTLR_C | SCTLR_I;
	sctlr &= ~(SCTLR_A | SCTLR_WXN);
	__asm__ volatile("msr sctlr_el1, %0; isb" :: "r"(sctlr) : "memory");
	__asm__ volatile("ic iallu; dsb nsh; isb" ::: "memory");
}
