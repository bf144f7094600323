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

	/*
	 * The lean frame (x0 and x1 already saved): x2-x19 and x30 below SP_EL2,
	 * x19 its base across the call, then \handler(pcpu) on this CPU's stack
	 * and the hypercall's exit. x29 stays the guest's (C preserves it and the
	 * fast exit does not reload it): a panic backtrace follows only frame
	 * records inside this CPU's stack (hyp_backtrace), so it stops there.
	 */
	.macro	lean_call handler
	stp	x2, x3, [sp, #REGS_X(2) - REGS_SIZE]
	stp	x4, x5, [sp, #REGS_X(4) - REGS_SIZE]
	stp	x6, x7, [sp, #REGS_X(6) - REGS_SIZE]
	stp	x8, x9, [sp, #REGS_X(8) - REGS_SIZE]
	stp	x10, x11, [sp, #REGS_X(10) - REGS_SIZE]
	stp	x12, x13, [sp, #REGS_X(12) - REGS_SIZE]
	stp	x14, x15, [sp, #REGS_X(14) - REGS_SIZE]
	stp	x16, x17, [sp, #REGS_X(16) - REGS_SIZE]
	stp	x18, x19, [sp, #REGS_X(18) - REGS_SIZE]
	str	x30, [sp, #REGS_X(30) - REGS_SIZE]
	sub	x19, sp, #REGS_SIZE
	mrs	x0, tpidr_el2
	ldr	x1, [x0, #PCPU_STACK_TOP]
	mov	sp, x1
	bl	\handler
	b	guest_hypercall_exit
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
	/*
	 * Lower EL, AArch64, synchronous. A Xen hypercall (HVC #0xEA1) takes the
	 * lean path from the slot itself: it saves only what C may clobber
	 * (x0-x18 and x30; x19 too, as it becomes the frame pointer) and leaves
	 * x20-x29, SP_EL1, ELR_EL2 and SPSR_EL2 live in the CPU, which C
	 * preserves or does not touch. guest_hypercall (traps.c) decides whether
	 * the exit goes straight back (restore what was saved, ERET) or takes
	 * the full exit, which first completes the frame from those registers.
	 * Every other trap saves the full frame (guest_sync_full), but for an
	 * emulated data abort (guest_sync_other).
	 */
	.balign	0x80
guest_sync_slot:
	/* SP_EL2 is just past the frame: store below it, x19 becomes its base. */
	stp	x0, x1, [sp, #REGS_X(0) - REGS_SIZE]
	mrs	x0, esr_el2
	mov	w1, #ESR_XEN_HVC_LO
	movk	w1, #ESR_XEN_HVC_HI, lsl #16
	cmp	w0, w1
	b.ne	guest_sync_other
	lean_call guest_hypercall
	.if	(. - guest_sync_slot) > 0x80
	.error	"the lean hypercall entry overflows its vector slot"
	.endif
	/*
	 * Lower EL, AArch64, IRQ: the same lean frame (x0-x19, x30).
	 * guest_irq_lean (traps.c) handles the interrupts and says how to leave,
	 * as guest_hypercall does; x0 comes back as it was.
	 */
	.balign	0x80
guest_irq_slot:
	stp	x0, x1, [sp, #REGS_X(0) - REGS_SIZE]
	lean_call guest_irq_lean
	.if	(. - guest_irq_slot) > 0x80
	.error	"the lean IRQ entry overflows its vector slot"
	.endif
	ventry	guest_fiq
	ventry	guest_serror
	ventry	guest_sync32		/* lower EL, AArch32 (EL0 only: HCR_EL2.RW) */
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

/*
 * Every synchronous trap but a Xen hypercall, x0 = ESR_EL2 (x0 and x1 are
 * saved). A data abort with a syndrome whose transfer register is in the
 * lean frame (x0-x19, x30, xzr: not x20-x29, which C preserves and the lean
 * frame does not hold) takes the lean path, guest_dabt_lean (traps.c), and
 * the hypercall's exit; anything else the full frame.
 */
guest_sync_other:
	lsr	w1, w0, #26		/* ESR_EL2.EC */
	cmp	w1, #0x24		/* EC_DABT_LOW */
	b.ne	guest_sync_full
	tbz	w0, #24, guest_sync_full	/* ISV clear: not emulable */
	ubfx	w1, w0, #16, #5		/* SRT */
	sub	w1, w1, #20
	cmp	w1, #9
	b.ls	guest_sync_full		/* x20-x29 */
	lean_call guest_dabt_lean

/* Every other synchronous trap: x0 and x1 are saved, the rest follows. */
guest_sync32:
	stp	x0, x1, [sp, #REGS_X(0) - REGS_SIZE]
guest_sync_full:
	sub	sp, sp, #REGS_SIZE
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
	mrs	x0, sp_el1
	stp	x30, x0, [sp, #REGS_X(30)]
	mov	x0, sp
	mrs	x1, tpidr_el2
	ldr	x1, [x1, #PCPU_STACK_TOP]
	mov	sp, x1
	mov	x29, xzr
	bl	guest_sync_handler	/* the frame to go straight back to, or NULL */
	cbnz	x0, vcpu_enter
	b	guest_return

/*
 * After guest_hypercall, guest_irq_lean or guest_dabt_lean, x1: HC_EXIT_GUEST
 * straight back; HC_EXIT_FULL the full exit, the frame completed from the
 * registers C preserved (x20-x29) and the system registers nothing changed
 * meanwhile (a continuation rewinds ELR_EL2 itself, an emulated access moves
 * it on); HC_EXIT_RESET the full exit as it is: a reset during the call
 * rewrote the frame.
 */
guest_hypercall_exit:
	cbnz	x1, 1f
	ldr	x1, [x19, #REGS_X(1)]
	ldp	x2, x3, [x19, #REGS_X(2)]
	ldp	x4, x5, [x19, #REGS_X(4)]
	ldp	x6, x7, [x19, #REGS_X(6)]
	ldp	x8, x9, [x19, #REGS_X(8)]
	ldp	x10, x11, [x19, #REGS_X(10)]
	ldp	x12, x13, [x19, #REGS_X(12)]
	ldp	x14, x15, [x19, #REGS_X(14)]
	ldp	x16, x17, [x19, #REGS_X(16)]
	ldr	x30, [x19, #REGS_X(30)]
	add	sp, x19, #REGS_SIZE
	ldp	x18, x19, [x19, #REGS_X(18)]
	eret
	dsb	nsh			/* no speculation past the ERET */
	isb
1:	mov	sp, x19
	cmp	x1, #HC_EXIT_RESET
	b.eq	2f
	str	x0, [sp, #REGS_X(0)]
	stp	x20, x21, [sp, #REGS_X(20)]
	stp	x22, x23, [sp, #REGS_X(22)]
	stp	x24, x25, [sp, #REGS_X(24)]
	stp	x26, x27, [sp, #REGS_X(26)]
	stp	x28, x29, [sp, #REGS_X(28)]
	mrs	x0, sp_el1
	str	x0, [sp, #REGS_SP]
	mrs	x0, elr_el2
	mrs	x1, spsr_el2
	stp	x0, x1, [sp, #REGS_ELR]
2:	mrs	x1, tpidr_el2
	ldr	x1, [x1, #PCPU_STACK_TOP]
	mov	sp, x1
	mov	x29, xzr
	b	guest_return

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
