/* SPDX-License-Identifier: MIT */
/*
 * simd_exit(seed, op, out): fill the 32 SIMD registers with seed + n (both
 * halves: seed + n and ~(seed + n)), issue GNTTABOP_copy of the one op at
 * op, then store v0-v31 to out[0..63] (two words each) and return the
 * hypercall's result. The caller masks interrupts and enables FP/SIMD at
 * EL1, so any change is the hypervisor's (its 4 KiB copy uses SIMD).
 */
	.text
	.global	simd_exit
simd_exit:
	stp	x29, x30, [sp, #-32]!
	stp	x19, x20, [sp, #16]
	mov	x19, x2
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	add	x3, x0, #\n
	mvn	x4, x3
	fmov	d\n, x3
	mov	v\n\().d[1], x4
	.endr
	mov	x0, #5			/* GNTTABOP_copy */
	mov	x2, #1
	mov	x16, #20		/* __HYPERVISOR_grant_table_op */
	hvc	#0xea1
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	str	q\n, [x19, #(\n * 16)]
	.endr
	ldp	x19, x20, [sp, #16]
	ldp	x29, x30, [sp], #32
	ret
