/* SPDX-License-Identifier: MIT */
/*
 * void arch_copy_blocks(void *dst, const void *src, size_t blocks)
 *
 * Copies blocks x 512 bytes (blocks >= 1) with the Advanced SIMD
 * registers: one LD1/ST1 of four Q registers moves 64 bytes, four times as
 * much as an LDP/STP of X registers, so a 4 KiB grant copy is 128 loads and
 * stores instead of 512. The hypervisor's C never uses SIMD
 * (-mgeneral-regs-only) and does not switch FP state (one vCPU per pCPU), so
 * v0-v3 hold the running guest's values: they are saved on the stack and
 * restored. CPTR_EL2.TFP is clear (head.S), so EL2 may use them; FPCR and
 * FPSR are not touched (no arithmetic). Any alignment: LD1/ST1 of bytes.
 */
	.text
	.balign	16
	.global	arch_copy_blocks
	.type	arch_copy_blocks, %function
arch_copy_blocks:
	sub	sp, sp, #64
	st1	{v0.16b-v3.16b}, [sp]
1:	ld1	{v0.16b-v3.16b}, [x1], #64
	st1	{v0.16b-v3.16b}, [x0], #64
	ld1	{v0.16b-v3.16b}, [x1], #64
	st1	{v0.16b-v3.16b}, [x0], #64
	ld1	{v0.16b-v3.16b}, [x1], #64
	st1	{v0.16b-v3.16b}, [x0], #64
	ld1	{v0.16b-v3.16b}, [x1], #64
	st1	{v0.16b-v3.16b}, [x0], #64
	ld1	{v0.16b-v3.16b}, [x1], #64
	st1	{v0.16b-v3.16b}, [x0], #64
	ld1	{v0.16b-v3.16b}, [x1], #64
	st1	{v0.16b-v3.16b}, [x0], #64
	ld1	{v0.16b-v3.16b}, [x1], #64
	st1	{v0.16b-v3.16b}, [x0], #64
	ld1	{v0.16b-v3.16b}, [x1], #64
	st1	{v0.16b-v3.16b}, [x0], #64
	subs	x2, x2, #1
	b.ne	1b
	ld1	{v0.16b-v3.16b}, [sp]
	add	sp, sp, #64
	ret
	.size	arch_copy_blocks, . - arch_copy_blocks
