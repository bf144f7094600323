/* SPDX-License-Identifier: MIT */
/*
 * Layout of a saved guest (or EL2) register frame, shared by the vectors
 * (assembly) and C. While a vCPU runs, SP_EL2 points just past its frame in
 * struct arch_vcpu, so the vectors save the guest straight into the vCPU.
 */
#ifndef ASM_REGS_H
#define ASM_REGS_H

#include <bulkhead/types.h>

#define REGS_X(n)    ((n) * U(8))
#define REGS_SP      U(248)   /* SP_EL1 of a guest, SP of an EL2 frame */
#define REGS_ELR     U(256)
#define REGS_SPSR    U(264)
#define REGS_SIZE    U(272)

/*
 * ESR_EL2 of HVC #0xEA1 from AArch64 (EC 0x16, IL, ISS = the immediate):
 * the vectors' test for the lean hypercall path, in two 16-bit halves.
 */
#define ESR_XEN_HVC_HI 0x5a00
#define ESR_XEN_HVC_LO 0x0ea1
/* How a lean trap leaves (traps.c lean_exit, answered to the vectors). */
#define HC_EXIT_GUEST  U(0)
#define HC_EXIT_FULL   U(1)
#define HC_EXIT_RESET  U(2)

#define PCPU_CURRENT   U(0)
#define PCPU_STACK_TOP U(8)

/* SPSR_EL2 modes and masks. */
#define PSR_MODE_MASK  U(0x1f)
#define PSR_MODE_EL0t  U(0x00)
#define PSR_MODE_EL1t  U(0x04)
#define PSR_MODE_EL1h  U(0x05)
#define PSR_MODE_EL2h  U(0x09)
#define PSR_AARCH32    U(0x10)
#define PSR_DAIF_MASK  U(0x3c0)
#define PSR_GUEST_INIT (PSR_DAIF_MASK | PSR_MODE_EL1h)

#ifndef __ASSEMBLER__
struct cpu_regs {
	uint64_t x[31];
	uint64_t sp;      /* SP_EL1 (guest) or the interrupted SP (EL2 frame) */
	uint64_t elr;
	uint64_t spsr;
} __attribute__((aligned(16)));

BUILD_ASSERT(sizeof(struct cpu_regs) == REGS_SIZE);
BUILD_ASSERT(offsetof(struct cpu_regs, sp) == REGS_SP);
BUILD_ASSERT(offsetof(struct cpu_regs, elr) == REGS_ELR);
BUILD_ASSERT(offsetof(struct cpu_regs, spsr) == REGS_SPSR);
#endif

#endif
