/* SPDX-License-Identifier: MIT */
/*
 * NXP i.MX8QM MEK: 4x Cortex-A53 + 2x Cortex-A72, GICv3 (GIC-500), LPUART0
 * console. The hardware comes from the device tree (imx8qm-mek.dtb); the
 * timer frequency from U-Boot include/configs/imx8qm_mek.h and TF-A
 * plat/imx/imx8qm; see README.md.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "nxp-imx8qm-mek",
	.timer_freq_hz = 8000000U,
	/* TF-A BL31 at the base of RAM (plat/imx/imx8qm BL31_BASE), which the tree's
	 * memory@80000000 includes. */
	.nr_reserved = 1U,
	.reserved = { { .base = 0x80000000U, .size = 0x200000U } },
};
