/* SPDX-License-Identifier: MIT */
/*
 * regs_exit(seed, kind, addr, out): fill x0-x30 with seed + n and SP with
 * a value of its own, take one exit to the hypervisor, then store x0-x30
 * into out[0..30] and SP into out[31]. The caller masks interrupts, so any
 * change is the hypervisor's. kind: 0 hypercall (xen_version), 1 MMIO load
 * from addr, 2 WFE, 3 PSCI VERSION over SMC #0.
 */
	.macro	fill
	.irp	n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
	add	x\n, x0, #\n
	.endr
	.endm

	.text
	.global	regs_exit
regs_exit:
	stp	x29, x30, [sp, #-96]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	adrp	x4, regs_save
	add	x4, x4, :lo12:regs_save
	mov	x5, sp
	stp	x3, x5, [x4]		/* out, SP before */
	str	x2, [x4, #16]		/* MMIO address */
	/* A scratch area below the frame; its SP is the value checked. */
	sub	sp, sp, #512
	cmp	x1, #1
	b.eq	1f
	cmp	x1, #2
	b.eq	2f
	cmp	x1, #3
	b.eq	3f
	fill
	mov	x0, #0			/* XENVER_version */
	mov	x1, #0
	mov	x16, #17		/* __HYPERVISOR_xen_version */
	hvc	#0xea1
	b	9f
1:	fill
	adrp	x0, regs_save
	ldr	x0, [x0, #:lo12:regs_save + 16]
	ldr	w0, [x0]
	b	9f
2:	fill
	wfe
	b	9f
3:	fill
	movz	x0, #0x8400, lsl #16	/* PSCI VERSION */
	smc	#0
9:	stp	x0, x1, [sp]
	adrp	x0, regs_save
	ldr	x0, [x0, #:lo12:regs_save]
	.irp	n, 2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
	str	x\n, [x0, #(\n * 8)]
	.endr
	ldp	x2, x3, [sp]
	stp	x2, x3, [x0]
	mov	x2, sp
	str	x2, [x0, #248]
	adrp	x1, regs_save
	ldr	x2, [x1, #:lo12:regs_save + 8]
	mov	sp, x2
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret

	.bss
	.balign	16
	.global	regs_save
regs_save:
	.space	32
