/* SPDX-License-Identifier: MIT */
/*
 * Entry of an EL1 test partition. The arm64 Image header lets a hypervisor
 * (Bulkhead, or Xen dom0less for comparison) load it like a Linux kernel:
 * entered at EL1h, MMU off, x0 = the partition's device tree.
 */
#include <guest/layout.h>

	.section .text.head, "ax"
	.global _head
_head:
	b	entry			/* code0 */
	.long	0			/* code1 */
	.quad	0			/* text_offset: loaded at the RAM base */
	.quad	__image_end - _head	/* image_size including bss */
	.quad	0x2			/* little endian, 4 KiB pages, 2 MiB aligned base */
	.quad	0, 0, 0
	.ascii	"ARM\x64"
	.long	0

entry:
	/* First instruction: the boot bench counts hypervisor entry to here. */
	mrs	x20, cntpct_el0
	msr	daifset, #0xf
	mov	x19, x0
	ldr	x1, =__stack_top
	mov	sp, x1
	msr	tpidr_el1, xzr		/* cpu index 0 */
	ldr	x1, =vectors
	msr	vbar_el1, x1
	isb
	/* BSS is cleared with the MMU off: only aligned stores (Device memory). */
	ldr	x1, =__bss_start
	ldr	x2, =__bss_end
1:	cmp	x1, x2
	b.hs	2f
	stp	xzr, xzr, [x1], #16
	b	1b
2:	ldr	x1, =rt_entry_cntpct
	str	x20, [x1]
	mov	x0, x19
	bl	rt_start
3:	wfi
	b	3b

/* PSCI CPU_ON target: x0 = context_id = the cpu index. */
	.text
	.global secondary_entry
secondary_entry:
	msr	daifset, #0xf
	msr	tpidr_el1, x0
	mov	x19, x0
	ldr	x1, =secondary_stacks
	add	x2, x0, #1
	mov	x3, #SECONDARY_STACK_SIZE
	madd	x1, x2, x3, x1
	mov	sp, x1
	ldr	x1, =vectors
	msr	vbar_el1, x1
	isb
	mov	x0, x19
	bl	rt_secondary_start
4:	wfi
	b	4b

	.bss
	/*
	 * Page-aligned stacks: a hypercall argument struct in a frame near the
	 * top cannot then straddle a page for no reason (each straddle costs
	 * the hypervisor a second translation and mapping).
	 */
	.balign	4096
	.space	PRIMARY_STACK_SIZE
	.global __stack_top
__stack_top:
