/* SPDX-License-Identifier: MIT */
/*
 * EL1 exception vectors. Every entry saves the full register frame so the
 * C handler can report a fault precisely and an IRQ handler can run any C.
 */
#define FRAME_SIZE 272	/* x0-x30, elr, spsr, padding to 16 */

.macro	ventry kind
	.balign	128
	sub	sp, sp, #FRAME_SIZE
	stp	x0, x1, [sp, #0]
	mov	x1, #\kind
	b	vsave
.endm

	.section .vectors, "ax"
	.global vectors
	.balign	2048
vectors:
	ventry	0	/* current EL, SP0: sync */
	ventry	1	/* irq */
	ventry	2	/* fiq */
	ventry	3	/* serror */
	ventry	0	/* current EL, SPx */
	ventry	1
	ventry	2
	ventry	3
	ventry	4	/* lower EL: never used by a test partition */
	ventry	4
	ventry	4
	ventry	4
	ventry	4
	ventry	4
	ventry	4
	ventry	4

vsave:
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	mrs	x2, elr_el1
	mrs	x3, spsr_el1
	stp	x30, x2, [sp, #240]
	str	x3, [sp, #256]
	mov	x0, sp		/* x1 still holds the kind */
	bl	rt_exception
	ldp	x30, x2, [sp, #240]
	ldr	x3, [sp, #256]
	msr	elr_el1, x2
	msr	spsr_el1, x3
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	add	sp, sp, #FRAME_SIZE
	eret
