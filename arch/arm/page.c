/* SPDX-License-Identifier: MIT */
/*
 * Page clearing with DC ZVA: one instruction zeroes one block (64 bytes on
 * Cortex-A), and the block is cleaned to the point of coherency in the same
 * step, so a partition that starts with its MMU off reads the zeros, not
 * what DRAM held before. Copying into a partition page fuses its clean the
 * same way.
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

#define COPY_STEP U(128)

/* 128 bytes from s to d, eight load pairs then eight store pairs. */
static void copy_step(uint64_t *d, const uint64_t *s)
{
	uint64_t w0 = s[0];
	uint64_t w1 = s[1];
	uint64_t w2 = s[2];
	uint64_t w3 = s[3];
	uint64_t w4 = s[4];
	uint64_t w5 = s[5];
	uint64_t w6 = s[6];
	uint64_t w7 = s[7];
	uint64_t w8 = s[8];
	uint64_t w9 = s[9];
	uint64_t w10 = s[10];
	uint64_t w11 = s[11];
	uint64_t w12 = s[12];
	uint64_t w13 = s[13];
	uint64_t w14 = s[14];
	uint64_t w15 = s[15];

	d[0] = w0;
	d[1] = w1;
	d[2] = w2;
	d[3] = w3;
	d[4] = w4;
	d[5] = w5;
	d[6] = w6;
	d[7] = w7;
	d[8] = w8;
	d[9] = w9;
	d[10] = w10;
	d[11] = w11;
	d[12] = w12;
	d[13] = w13;
	d[14] = w14;
	d[15] = w15;
}

void arch_copy_page_clean(void *dst, const void *src, size_t len)
{
	uint64_t d = (uint64_t)(uintptr_t)dst;
	uint64_t s = (uint64_t)(uintptr_t)src;
	uint64_t end = d + len;
	uint64_t line = UL(4) << CTR_DMINLINE(sysreg_read(ctr_el0));

	/*
	 * Two cleans per 128-byte step reach every line of it only when a line
	 * is 64 bytes or more and the step starts 64-byte aligned; otherwise
	 * (or a source not 8-byte aligned) the plain copy, then the clean.
	 */
	if ((line < U(64)) || ((d & U(63)) != 0U) || ((s & U(7)) != 0U)) {
		(void)memcpy(dst, src, len);
		cache_clean_range(dst, len);
		return;
	}
	/* LOOP-BOUND: counter: d advances by 128 bytes while 128 or more remain before end. */
	for (; (end - d) >= COPY_STEP; d += COPY_STEP) {
		copy_step((uint64_t *)(uintptr_t)d, (const uint64_t *)(uintptr_t)s);
		s += COPY_STEP;
		/* The clean follows the stores to the same lines: it writes them back. */
		__asm__ volatile("dc cvac, %0\n\tdc cvac, %1" ::"r"(d), "r"(d + U(64)) : "memory");
	}
	if (d < end) {
		(void)memcpy((void *)(uintptr_t)d, (const void *)(uintptr_t)s, end - d);
		cache_clean_range((const void *)(uintptr_t)d, end - d); /* its DSB covers the above */
	} else {
		dsb_ish();
	}
}
