/* SPDX-License-Identifier: MIT */
/*
 * QEMU "virt" machine, virtualization=on. The hardware comes from the
 * device tree QEMU generates (-machine dumpdtb=...); see README.md.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "qemu-virt",
	.timer_freq_hz = 62500000U,		/* QEMU's generic timer (CNTFRQ is set) */
	.nr_reserved = 0U,
};
