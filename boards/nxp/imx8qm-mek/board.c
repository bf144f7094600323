/* SPDX-License-Identifier: MIT */
/*
 * NXP i.MX8QM MEK: 4x Cortex-A53 + 2x Cortex-A72, GICv3 (GIC-500), LPUART0
 * console. Addresses from Linux arch/arm64/boot/dts/freescale/imx8qm.dtsi,
 * imx8-ss-dma.dtsi / imx8qm-ss-dma.dtsi and imx8qm-mek.dts; timer frequency
 * from U-Boot include/configs/imx8qm_mek.h and TF-A plat/imx/imx8qm; see
 * README.md.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "nxp-imx8qm-mek",
	.nr_cpus = 6U,
	/* Boot CPU (A53 core 0) first: CPU numbers follow this order. */
	.mpidr = { 0x000U, 0x001U, 0x002U, 0x003U, 0x100U, 0x101U },
	.nr_banks = 1U,
	/* The first 2 MiB hold TF-A BL31 (0x80000000) on i.MX8: left out. */
	.banks = { { .base = 0x80200000U, .size = 0x3fe00000U } },
	.gic_version = 3U,
	.gicd_base = 0x51a00000U,
	.gicr_base = 0x51b00000U,
	.uart_base = 0x5a060000U,
	.uart_irq = 377U,			/* GIC_SPI 345 */
	.timer_freq_hz = 8000000U,
};
