/* SPDX-License-Identifier: MIT */
/*
 * Entry at EL2: arm64 Image header (QEMU -kernel, U-Boot booti), boot CPU
 * set-up (stack, BSS, MMU) and the secondary CPUs' entry for PSCI CPU_ON.
 */
#include <generated/autoconf.h>
#include <asm/regs.h>
#include <asm/sysregs.h>
#include <asm/mmu.h>

	.section .text.head, "ax"
	.global _start
_start:
	b	primary_entry		/* code0 */
	.long	0			/* code1 */
	.quad	CONFIG_HYP_TEXT_OFFSET
	.quad	_image_size		/* loaders reserve BSS too */
	.quad	0xa			/* little endian, 4 KiB pages, anywhere */
	.quad	0, 0, 0
	.ascii	"ARM\x64"
	.long	0

primary_entry:
	msr	daifset, #0xf
	mov	x19, x0			/* DTB */
	mrs	x1, CurrentEL
	cmp	x1, #(2 << 2)
	b.ne	park
	/* EL2 runs identity mapped at its link address: refuse anything else. */
	adr	x1, _start
	ldr	x2, =_start
	cmp	x1, x2
	b.ne	park
	bl	el2_init_early
	ldr	x0, =_bss_start
	ldr	x1, =_bss_end
1:	cmp	x0, x1
	b.hs	2f
	stp	xzr, xzr, [x0], #16
	b	1b
2:	/* Written with the caches off: drop any stale line over BSS. */
	ldr	x0, =_bss_start
	bl	dcache_inval_to_bss_end
	ldr	x0, =hyp_stacks
	ldr	x1, =CONFIG_STACK_SIZE
	add	sp, x0, x1
	mov	x29, xzr
	mov	x0, x19
	bl	mmu_setup_tables
	bl	mmu_enable
	mov	x0, x19
	bl	arch_setup
park:
	wfe
	b	park

/* PSCI CPU_ON entry: x0 = CPU index, MMU and caches off. */
	.global secondary_entry
secondary_entry:
	msr	daifset, #0xf
	mov	x19, x0
	bl	el2_init_early
	bl	mmu_enable
	ldr	x0, =hyp_stacks
	ldr	x1, =CONFIG_STACK_SIZE
	add	x2, x19, #1
	madd	x0, x2, x1, x0
	mov	sp, x0
	mov	x29, xzr
	mov	x0, x19
	bl	secondary_start
	b	park

/* x0 = start; invalidates up to _bss_end. Leaf, no stack. */
dcache_inval_to_bss_end:
	ldr	x1, =_bss_end
	mrs	x2, ctr_el0
	ubfx	x2, x2, #16, #4		/* DminLine: log2(words) */
	mov	x3, #4
	lsl	x3, x3, x2
	sub	x4, x3, #1
	bic	x0, x0, x4
3:	cmp	x0, x1
	b.hs	4f
	dc	ivac, x0
	add	x0, x0, x3
	b	3b
4:	dsb	sy
	ret

/* EL2 control registers every CPU needs before C. Leaf, no stack. */
el2_init_early:
	ldr	x0, =SCTLR_EL2_RES1
	msr	sctlr_el2, x0
	isb
	ldr	x0, =hyp_vectors
	msr	vbar_el2, x0
	ldr	x0, =HCR_RW
	msr	hcr_el2, x0
	ldr	x0, =CPTR_EL2_RES1
	msr	cptr_el2, x0
	mov	x0, #CNTHCTL_EL1PCTEN
	msr	cnthctl_el2, x0
	msr	cntvoff_el2, xzr
	msr	cnthp_ctl_el2, xzr
	msr	vttbr_el2, xzr
	mrs	x0, midr_el1
	msr	vpidr_el2, x0
	mrs	x0, mpidr_el1
	msr	vmpidr_el2, x0
	isb
	ret

/* Turn on the EL2 MMU with the tables mmu_setup_tables built. No stack. */
	.global mmu_enable
mmu_enable:
	ldr	x0, =MAIR_EL2_VALUE
	msr	mair_el2, x0
	ldr	x0, =TCR_EL2_VALUE
	msr	tcr_el2, x0
	ldr	x0, =hyp_pt_root
	msr	ttbr0_el2, x0
	isb
	tlbi	alle2
	dsb	nsh
	isb
	ldr	x0, =(SCTLR_EL2_RES1 | SCTLR_M | SCTLR_C | SCTLR_SA | SCTLR_I | SCTLR_WXN)
	msr	sctlr_el2, x0
	isb
	ic	iallu
	dsb	nsh
	isb
	ret
