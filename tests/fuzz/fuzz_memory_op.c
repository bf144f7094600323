/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: memory_op with fuzzer-chosen arguments and guest memory. */
#include "fuzz_hypercall.h"
#include <public/xen.h>

const struct fuzz_target fuzz_target = { __HYPERVISOR_memory_op, FUZZ_CMD_PTR, 32U };
