/* SPDX-License-Identifier: MIT */
/*
 * Writes one distinct word into every page of its RAM between its own image
 * and its device tree, then reads them all back: RAM made of several
 * machine ranges (xen,static-mem) that were mapped over each other, or a
 * missing one, shows as a mismatch or a fault.
 */
#include <guest/guest.h>

extern char __image_end[];

int test_main(void)
{
	uint64_t lo = ((uint64_t)(uintptr_t)__image_end + 0xffffU) & ~0xfffULL;
	uint64_t hi = (uint64_t)(uintptr_t)rt.dtb & ~0xfffULL;
	uint64_t a, pages = 0, bad = 0;

	printf("%s: RAM 0x%lx+0x%lx, checking 0x%lx-0x%lx\n", rt_tag(), rt.ram_base, rt.ram_size,
	       lo, hi);
	for (a = lo; a < hi; a += 4096U)
		*(volatile uint64_t *)a = a ^ 0x5a5a5a5a00000000ULL;
	for (a = lo; a < hi; a += 4096U) {
		pages++;
		if (*(volatile uint64_t *)a != (a ^ 0x5a5a5a5a00000000ULL))
			bad++;
	}
	printf("%s: %lu pages, %lu wrong%s\n", rt_tag(), pages, bad, bad ? " MISMATCH" : "");
	return bad ? 1 : 0;
}
