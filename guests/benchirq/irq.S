/* SPDX-License-Identifier: MIT */
/*
 * make bench-irq's time stamps (guests/benchirq). Under QEMU -icount
 * shift=0 one instruction is one nanosecond and CNTVCT one tick per 16, so
 * a read alone is 16 instructions coarse; each stamp here also counts the
 * rounds of a 4-instruction loop until the counter next changes, which
 * places it within a tick (benchirq.c does the arithmetic).
 *
 * The vector touches x0-x3 only, and the code it interrupts keeps what it
 * needs elsewhere: it interrupts nothing but bench_spin and bench_fire.
 */
	.text

/*
 * IRQ from EL1 (SPx): the handler's first instruction reads the counter.
 * Stores {tick, rounds} and the done flag, returns with IRQs masked.
 */
	.balign	2048
	.global bench_vectors
bench_vectors:
	.set	i, 0
	.rept	16
	.balign	128
	.if	i == 5
	b	bench_irq_entry
	.else
	b	vectors + (i * 128)
	.endif
	.set	i, i + 1
	.endr

bench_irq_entry:
	mrs	x0, cntvct_el0		/* the stamp: first instruction after the branch */
	mov	x2, #0
1:	mrs	x1, cntvct_el0
	add	x2, x2, #1
	cmp	x1, x0
	b.eq	1b
	ldr	x3, =bench_entry
	stp	x0, x2, [x3]
	mov	x1, #1
	str	x1, [x3, #16]
	mrs	x1, spsr_el1
	orr	x1, x1, #0x80
	msr	spsr_el1, x1
	eret

/* bench_spin(): IRQs on, wait for the vector's flag; returns with IRQs masked. */
	.global bench_spin
bench_spin:
	ldr	x9, =bench_entry
	msr	daifclr, #2
2:	ldr	x10, [x9, #16]
	cbz	x10, 2b
	ret

/*
 * bench_fire(kind, addr, val, x_arg): right after a counter change, one
 * trigger instruction: kind 0 stores val to addr (a device register), kind 1
 * is the Xen hypercall HVC #0xEA1 with x16 = addr, x0 = val, x1 = x_arg.
 * Stores {tick at the change, 0} in bench_source, then IRQs on until the
 * vector's flag.
 */
	.global bench_fire
bench_fire:
	mov	x9, x0
	mov	x10, x1
	mov	x11, x2
	mov	x12, x3
	ldr	x13, =bench_entry
	cbnz	x9, 5f
	mrs	x14, cntvct_el0
3:	mrs	x15, cntvct_el0
	cmp	x15, x14
	b.eq	3b
	str	w11, [x10]		/* the trigger */
	b	6f
5:	mov	x16, x10
	mrs	x14, cntvct_el0
4:	mrs	x15, cntvct_el0
	cmp	x15, x14
	b.eq	4b
	mov	x0, x11
	mov	x1, x12
	hvc	#0xea1			/* the trigger (x0 and x1 set after the change: see benchirq.c) */
6:	msr	daifclr, #2
7:	ldr	x17, [x13, #16]
	cbz	x17, 7b
	ldr	x13, =bench_source
	str	x15, [x13]
	ret
