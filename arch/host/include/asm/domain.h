/* SPDX-License-Identifier: MIT */
/* Host build: the per-vCPU state a hypercall continuation needs. */
#ifndef ASM_DOMAIN_H
#define ASM_DOMAIN_H

#include <bulkhead/types.h>

struct arch_vcpu {
	regval_t args[5];
	bool continued;          /* set by arch_hypercall_continue() */
	unsigned int continuations; /* of the last host_hypercall() */
	uint64_t irqs_raised;    /* count of arch_vcpu_raise_irq() */
	uint32_t last_irq;
	uint64_t kicks;
};

struct arch_domain {
	uint64_t tlb_flushes;    /* counted, not executed */
};

#endif
