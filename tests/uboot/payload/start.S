/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for the hypervisor while testing the U-Boot path: an arm64 Image
 * (same header and load address as bulkhead.bin) that reports how it was
 * entered, so the FIT/boot.scr pipeline is checked on its own.
 */
	.section .text.head, "ax"
	.globl _start
_start:
	b	entry				/* code0 */
	.long	0				/* code1 */
	.quad	0x200000			/* text_offset */
	.quad	_end - _start			/* image_size */
	.quad	0xa				/* flags: LE, 4K, anywhere */
	.quad	0, 0, 0
	.ascii	"ARM\x64"			/* magic */
	.long	0

entry:
	mov	x19, x0
	mov	x20, x1
	msr	daifset, #0xf
	adr	x1, __bss_start
	adr	x2, _end
1:	cmp	x1, x2
	b.hs	2f
	strb	wzr, [x1], #1
	b	1b
2:	adr	x1, stack_top
	mov	sp, x1
	mov	x0, x19
	mov	x1, x20
	bl	payload_main
3:	wfi
	b	3b

	.bss
	.balign	16
	.space	8192
stack_top:
