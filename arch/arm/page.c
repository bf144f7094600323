/* SPDX-License-Identifier: MIT */
/* Page clearing with DC ZVA: one instruction zeroes one block (64 bytes on Cortex-A). */
#include <bulkhead/arch.h>
#include <bulkhead/lib.h>
#include <asm/sysregs.h>

#define DCZID_BS_MASK U(0xf)
#define DCZID_DZP     (U(1) << 4)

void arch_clear_page(void *va)
{
	uint64_t dczid = sysreg_read(dczid_el0);
	uint64_t p = (uint64_t)(uintptr_t)va;
	uint64_t end = p + PAGE_SIZE;
	/* BS is log2 of the block size in 4-byte words. */
	uint64_t bs = UL(4) << (dczid & DCZID_BS_MASK);

	if (((dczid & DCZID_DZP) != 0U) || (bs > (PAGE_SIZE / 4U))) {
		/* DC ZVA prohibited, or blocks too large to unroll within a page. */
		(void)memset(va, 0, PAGE_SIZE);
		return;
	}
	/* LOOP-BOUND: counter: p advances by 4 blocks (<= PAGE_SIZE) up to the page's end. */
	for (; p < end; p += 4U * bs) {
		__asm__ volatile("dc zva, %0\n\t"
				 "dc zva, %1\n\t"
				 "dc zva, %2\n\t"
				 "dc zva, %3" ::"r"(p),
				 "r"(p + bs), "r"(p + (2U * bs)), "r"(p + (3U * bs))
				 : "memory");
	}
}
