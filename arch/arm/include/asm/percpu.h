/* SPDX-License-Identifier: MIT */
/* Per physical CPU data, reached through TPIDR_EL2. */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

#include <bulkhead/config.h>
#include <asm/regs.h>
#include <asm/sysregs.h>

struct vcpu;

struct pcpu {
	struct vcpu *cur_vcpu;    /* PCPU_CURRENT: vCPU in guest mode or in a trap */
	uint64_t stack_top;       /* PCPU_STACK_TOP: the vectors switch to it */
	struct vcpu *sys_loaded;  /* whose EL1 registers and EL2 guest controls the CPU holds */
	uint32_t id;
	uint32_t map_used;        /* busy temporary mapping slots (XPFO) */
	uint64_t *map_ptes;       /* this CPU's slot entries in the EL2 tables (XPFO) */
	uint64_t map_va;          /* the address of its first slot (XPFO) */
	uint64_t *scratch_pte;    /* its scratch slots' entries (XPFO, arch_map_scratch) */
	uint64_t scratch_va;      /* the first scratch slot's address (XPFO) */
	bool online;
} __cacheline_aligned;

extern struct pcpu pcpu_data[CONFIG_NR_CPUS];
extern uint8_t hyp_stacks[CONFIG_NR_CPUS][CONFIG_STACK_SIZE];

static inline struct pcpu *this_pcpu(void)
{
	return (struct pcpu *)sysreg_read(tpidr_el2);
}

void percpu_init(unsigned int cpu);

#endif
