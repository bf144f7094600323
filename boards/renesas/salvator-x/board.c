/* SPDX-License-Identifier: MIT */
/*
 * Renesas Salvator-X with R-Car H3 (R8A77951): 4x Cortex-A57 + 4x Cortex-A53,
 * GIC-400, SCIF2 console. The hardware comes from the device tree
 * (r8a77951-salvator-x.dts); timer frequency from U-Boot
 * include/configs/salvator-x.h; see README.md.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "renesas-salvator-x",
	.timer_freq_hz = 16666666U,
	.nr_reserved = 0U,			/* TF-A and OP-TEE sit below the first bank */
};
