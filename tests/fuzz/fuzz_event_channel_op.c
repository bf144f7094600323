/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: event_channel_op with fuzzer-chosen arguments and guest memory. */
#include "fuzz_hypercall.h"
#include <public/xen.h>

const struct fuzz_target fuzz_target = { __HYPERVISOR_event_channel_op, FUZZ_CMD_PTR, 16U };
