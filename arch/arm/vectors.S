/* SPDX-License-Identifier: MIT */
/*
 * EL2 exception vectors and the guest entry/exit paths.
 *
 * While a vCPU runs, SP_EL2 points just past v->arch.regs (struct
 * cpu_regs), so an exit from the guest saves x0-x30, SP_EL1, ELR_EL2 and
 * SPSR_EL2 directly into the vCPU, then switches to this CPU's stack
 * (pcpu->stack_top via TPIDR_EL2). Exceptions taken at EL2 itself save a
 * frame on the hypervisor stack.
 */
#include <asm/regs.h>

	.macro	ventry label
	.balign	0x80
	b	\label
	.endm

	.section .text.vectors, "ax"
	.balign	0x800
	.global	hyp_vectors
hyp_vectors:
	ventry	hyp_bad_exception	/* EL2t */
	ventry	hyp_bad_exception
	ventry	hyp_bad_exception
	ventry	hyp_bad_exception
	ventry	hyp_sync		/* EL2h */
	ventry	hyp_irq
	ventry	hyp_bad_exception
	ventry	hyp_serror
	ventry	guest_sync		/* lower EL, AArch64 */
	ventry	guest_irq
	ventry	guest_fiq
	ventry	guest_serror
	ventry	guest_sync		/* lower EL, AArch32 (EL0 only: HCR_EL2.RW) */
	ventry	guest_irq
	ventry	guest_fiq
	ventry	guest_serror

	/* Save a full frame at sp (already lowered by REGS_SIZE). */
	.macro	save_frame
	stp	x0, x1, [sp, #REGS_X(0)]
	stp	x2, x3, [sp, #REGS_X(2)]
	stp	x4, x5, [sp, #REGS_X(4)]
	stp	x6, x7, [sp, #REGS_X(6)]
	stp	x8, x9, [sp, #REGS_X(8)]
	stp	x10, x11, [sp, #REGS_X(10)]
	stp	x12, x13, [sp, #REGS_X(12)]
	stp	x14, x15, [sp, #REGS_X(14)]
	stp	x16, x17, [sp, #REGS_X(16)]
	stp	x18, x19, [sp, #REGS_X(18)]
	stp	x20, x21, [sp, #REGS_X(20)]
	stp	x22, x23, [sp, #REGS_X(22)]
	stp	x24, x25, [sp, #REGS_X(24)]
	stp	x26, x27, [sp, #REGS_X(26)]
	stp	x28, x29, [sp, #REGS_X(28)]
	mrs	x0, elr_el2
	mrs	x1, spsr_el2
	stp	x0, x1, [sp, #REGS_ELR]
	.endm

	.macro	restore_gprs
	ldp	x2, x3, [sp, #REGS_X(2)]
	ldp	x4, x5, [sp, #REGS_X(4)]
	ldp	x6, x7, [sp, #REGS_X(6)]
	ldp	x8, x9, [sp, #REGS_X(8)]
	ldp	x10, x11, [sp, #REGS_X(10)]
	ldp	x12, x13, [sp, #REGS_X(12)]
	ldp	x14, x15, [sp, #REGS_X(14)]
	ldp	x16, x17, [sp, #REGS_X(16)]
	ldp	x18, x19, [sp, #REGS_X(18)]
	ldp	x20, x21, [sp, #REGS_X(20)]
	ldp	x22, x23, [sp, #REGS_X(22)]
	ldp	x24, x25, [sp, #REGS_X(24)]
	ldp	x26, x27, [sp, #REGS_X(26)]
	ldp	x28, x29, [sp, #REGS_X(28)]
	ldp	x0, x1, [sp, #REGS_X(0)]
	.endm

	/* Guest exit: frame into the vCPU, then onto this CPU's stack. */
	.macro	guest_exit handler
	sub	sp, sp, #REGS_SIZE
	save_frame
	mrs	x0, sp_el1
	stp	x30, x0, [sp, #REGS_X(30)]
	mov	x0, sp
	mrs	x1, tpidr_el2
	ldr	x1, [x1, #PCPU_STACK_TOP]
	mov	sp, x1
	mov	x29, xzr		/* the backtrace stops here */
	bl	\handler
	b	guest_return
	.endm

guest_sync:
	guest_exit guest_sync_handler
guest_irq:
	guest_exit guest_irq_handler
guest_fiq:
	guest_exit guest_fiq_handler
guest_serror:
	guest_exit guest_serror_handler

guest_return:
	bl	guest_resume		/* regs to enter, or NULL: this CPU idles */
	cbnz	x0, vcpu_enter
	mrs	x1, tpidr_el2
	ldr	x1, [x1, #PCPU_STACK_TOP]
	mov	sp, x1
	mov	x29, xzr
	bl	arch_cpu_loop
	b	.

/* void vcpu_enter(struct cpu_regs *regs): load the guest and ERET. */
	.global	vcpu_enter
vcpu_enter:
	mov	sp, x0
	ldp	x0, x1, [sp, #REGS_ELR]
	msr	elr_el2, x0
	msr	spsr_el2, x1
	ldp	x30, x0, [sp, #REGS_X(30)]
	msr	sp_el1, x0
	restore_gprs
	add	sp, sp, #REGS_SIZE
	eret
	dsb	nsh			/* no speculation past the ERET */
	isb

/* Exceptions at EL2: frame on the hypervisor stack. */
	.macro	hyp_frame
	sub	sp, sp, #REGS_SIZE
	save_frame
	add	x0, sp, #REGS_SIZE
	stp	x30, x0, [sp, #REGS_X(30)]
	mov	x0, sp
	.endm

hyp_sync:
	hyp_frame
	bl	hyp_sync_handler	/* returns only for a handled semihosting trap */
	b	hyp_restore
hyp_irq:
	hyp_frame
	bl	hyp_irq_handler
	b	hyp_restore
hyp_serror:
	hyp_frame
	mov	x1, #1
	bl	hyp_fatal_handler
hyp_bad_exception:
	hyp_frame
	mov	x1, #0
	bl	hyp_fatal_handler

hyp_restore:
	ldp	x0, x1, [sp, #REGS_ELR]
	msr	elr_el2, x0
	msr	spsr_el2, x1
	ldr	x30, [sp, #REGS_X(30)]
	restore_gprs
	add	sp, sp, #REGS_SIZE
	eret
	dsb	nsh
	isb
