/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: grant_table_op with fuzzer-chosen arguments and guest memory. */
#include "fuzz_hypercall.h"
#include <public/xen.h>

const struct fuzz_target fuzz_target = { __HYPERVISOR_grant_table_op, FUZZ_CMD_PTR_COUNT, 16U };
