/* SPDX-License-Identifier: MIT */
/*
 * Page clearing with DC ZVA: one instruction zeroes one block (64 bytes on
 * Cortex-A), and the block is cleaned to the point of coherency in the same
 * step, so a partition that starts with its MMU off reads the zeros, not
 * what DRAM held before.
 */
#include <bulkhead/arch.h>
#include <bulkhead/lib.h>
#include <asm/mmu.h>
#include <asm/sysregs.h>

#define DCZID_BS_MASK U(0xf)
#define DCZID_DZP     (U(1) << 4)
#define CTR_DMINLINE(ctr) (((ctr) >> 16) & U(0xf))

void arch_clear_page(void *va)
{
	uint64_t dczid = sysreg_read(dczid_el0);
	uint64_t p = (uint64_t)(uintptr_t)va;
	uint64_t end = p + PAGE_SIZE;
	/* Both fields are log2 of a size in 4-byte words. */
	uint64_t bs = UL(4) << (dczid & DCZID_BS_MASK);
	uint64_t line = UL(4) << CTR_DMINLINE(sysreg_read(ctr_el0));

	/*
	 * The fused loop cleans one line per block, so it needs the block to be
	 * the cache line; otherwise (or with DC ZVA prohibited) the plain way.
	 */
	if (((dczid & DCZID_DZP) != 0U) || (bs != line) || (bs > (PAGE_SIZE / 4U))) {
		(void)memset(va, 0, PAGE_SIZE);
		cache_clean_range(va, PAGE_SIZE);
		return;
	}
	/* LOOP-BOUND: counter: p advances by 4 blocks (<= PAGE_SIZE) up to the page's end. */
	for (; p < end; p += 4U * bs) {
		__asm__ volatile("dc zva, %0\n\t"
				 "dc zva, %1\n\t"
				 "dc zva, %2\n\t"
				 "dc zva, %3\n\t"
				 "dc cvac, %0\n\t"
				 "dc cvac, %1\n\t"
				 "dc cvac, %2\n\t"
				 "dc cvac, %3" ::"r"(p),
				 "r"(p + bs), "r"(p + (2U * bs)), "r"(p + (3U * bs))
				 : "memory");
	}
	dsb_ish();
}
