/* SPDX-License-Identifier: MIT */
/*
 * Renesas Salvator-X with R-Car H3 (R8A77951): 4x Cortex-A57 + 4x Cortex-A53,
 * GIC-400, SCIF2 console. Addresses from Linux
 * arch/arm64/boot/dts/renesas/r8a77951.dtsi and r8a77951-salvator-x.dts;
 * timer frequency from U-Boot include/configs/salvator-x.h; see README.md.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "renesas-salvator-x",
	.nr_cpus = 8U,
	/* Boot CPU (A57 core 0) first: CPU numbers follow this order. */
	.mpidr = { 0x000U, 0x001U, 0x002U, 0x003U, 0x100U, 0x101U, 0x102U, 0x103U },
	.nr_banks = 4U,
	.banks = {
		{ .base = 0x048000000ULL, .size = 0x38000000U },
		{ .base = 0x500000000ULL, .size = 0x40000000U },
		{ .base = 0x600000000ULL, .size = 0x40000000U },
		{ .base = 0x700000000ULL, .size = 0x40000000U },
	},
	.gic_version = 2U,
	.gicd_base = 0xf1010000U,
	.gicc_base = 0xf1020000U,
	.gich_base = 0xf1040000U,
	.gicv_base = 0xf1060000U,
	.uart_base = 0xe6e88000U,
	.uart_irq = 196U,			/* GIC_SPI 164 */
	.timer_freq_hz = 16666666U,
};
