/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer driver for one hypercall, shared by the fuzz_<op>.c harnesses.
 * Each input sets up two partitions afresh (as tests/unit/harness.c does),
 * lets the fuzzer write the guest memory the hypercall reads (and d2's
 * grant entries), then issues a short sequence of calls whose arguments the
 * fuzzer chooses: sub-op numbers, counts, and pointers either into the
 * guest window or anywhere. A hypervisor panic, a sanitizer report or a hang
 * is a failure; any return value is fine, since the point is that guest
 * input never takes the hypervisor down.
 */
#ifndef TESTS_FUZZ_HYPERCALL_H
#define TESTS_FUZZ_HYPERCALL_H

#include <stddef.h>
#include <stdint.h>
#include <bulkhead/types.h>

/* How the hypercall's register arguments are laid out. */
enum fuzz_layout {
	FUZZ_CMD_PTR,         /* a0 = cmd, a1 = guest pointer */
	FUZZ_CMD_PTR_COUNT,   /* a0 = cmd, a1 = guest pointer, a2 = count */
	FUZZ_CMD_ID_PTR,      /* a0 = cmd, a1 = vCPU id, a2 = guest pointer */
};

struct fuzz_target {
	regval_t nr;            /* __HYPERVISOR_* */
	enum fuzz_layout layout;
	unsigned int max_cmd;   /* sub-ops tried are 0..max_cmd (a few beyond the last) */
};

/* Defined by each harness. */
extern const struct fuzz_target fuzz_target;

#endif
