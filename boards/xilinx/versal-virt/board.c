/* SPDX-License-Identifier: MIT */
/*
 * QEMU's Xilinx Versal "virt" machine (xlnx-versal-virt): 2x Cortex-A72,
 * GICv3, PL011 UART0 console, RAM at 0. The hardware comes from the tree
 * QEMU builds for it (-machine dumpdtb); see README.md.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "xilinx-versal-virt",
	.timer_freq_hz = 62500000U,		/* QEMU's generic timer (CNTFRQ is set) */
	.nr_reserved = 0U,
};
