/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: vcpu_op with fuzzer-chosen arguments and guest memory. */
#include "fuzz_hypercall.h"
#include <public/xen.h>

const struct fuzz_target fuzz_target = { __HYPERVISOR_vcpu_op, FUZZ_CMD_ID_PTR, 16U };
