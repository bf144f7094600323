/* SPDX-License-Identifier: MIT */
/*
 * Everything a test partition needs. A test is `int test_main(void)`: the
 * runtime has set up the stack, the MMU, the vectors and the console, and
 * turns the return value into the partition's exit (0 = poweroff, else
 * crash with the status printed).
 */
#ifndef GUEST_GUEST_H
#define GUEST_GUEST_H

#include <guest/rt.h>
#include <guest/console.h>
#include <guest/hypercall.h>
#include <guest/fdt.h>
#include <guest/timer.h>
#include <guest/gic.h>
#include <guest/psci.h>
#include <guest/dev.h>

int test_main(void);

#endif
