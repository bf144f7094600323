/* SPDX-License-Identifier: MIT */
/* Sizes shared by the assembly start-up and the C runtime. */
#ifndef GUEST_LAYOUT_H
#define GUEST_LAYOUT_H

#define PRIMARY_STACK_SIZE   16384
#define SECONDARY_STACK_SIZE 8192
#define GUEST_MAX_CPUS       4

#endif
