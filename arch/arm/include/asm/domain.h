/* SPDX-License-Identifier: MIT */
/* AArch64 per-vCPU and per-partition state (see docs/arch-arm.md). */
#ifndef ASM_DOMAIN_H
#define ASM_DOMAIN_H

#include <bulkhead/types.h>
#include <asm/regs.h>

/*
 * EL1 system registers of a vCPU. A physical CPU hosts one vCPU (1:1
 * pinning), so these are loaded when the vCPU is (re)started on its CPU
 * and saved when it parks, not on every trap.
 */
struct el1_sysregs {
	uint64_t sctlr, ttbr0, ttbr1, tcr, mair, amair, vbar, contextidr;
	uint64_t tpidr_el0, tpidrro_el0, tpidr_el1, sp_el0;
	uint64_t esr, far, afsr0, afsr1, par, cpacr, csselr;
	uint64_t elr, spsr, cntkctl, cntv_ctl, cntv_cval, mdscr;
};

struct vgic_cpu;

struct arch_vcpu {
	struct cpu_regs regs;     /* first: SP_EL2 points past it in guest mode */
	struct el1_sysregs sys;
	uint64_t vmpidr;
	uint32_t reset_gen;       /* bumped by arch_vcpu_reset: a trap's result is void */
	bool sys_dirty;           /* reset, re-init: full vcpu_load on the next entry */
	struct vgic_cpu *vgic;    /* its vGIC state, set by vgic_domain_init (exit paths) */
} __attribute__((aligned(16)));

struct arch_domain {
	uint64_t cntvoff;         /* guest virtual time starts at 0 on (re)start */
};

#endif
