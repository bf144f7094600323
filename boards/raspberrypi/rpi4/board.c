/* SPDX-License-Identifier: MIT */
/*
 * Raspberry Pi 4 Model B: BCM2711, 4x Cortex-A72, GIC-400, PL011 UART0.
 * Addresses from Linux arch/arm/boot/dts/broadcom/bcm2711.dtsi (soc ranges:
 * bus 0x7e000000 -> 0xfe000000, ARM-local 0x40000000 -> 0xff800000) and
 * bcm2711-rpi-4-b.dts; see README.md. RAM: the firmware fills /memory; the
 * banks below are those of a 4 GiB board with gpu_mem=64.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "raspberrypi-rpi4",
	.nr_cpus = 4U,
	.mpidr = { 0x0U, 0x1U, 0x2U, 0x3U },
	.nr_banks = 2U,
	.banks = {
		{ .base = 0x00000000U, .size = 0x3b400000U },
		{ .base = 0x40000000U, .size = 0xbc000000U },
	},
	.gic_version = 2U,
	.gicd_base = 0xff841000U,
	.gicc_base = 0xff842000U,
	.gich_base = 0xff844000U,
	.gicv_base = 0xff846000U,
	.uart_base = 0xfe201000U,
	.uart_irq = 153U,			/* GIC_SPI 121 */
	.timer_freq_hz = 54000000U,		/* 54 MHz crystal (clk_osc) */
};
