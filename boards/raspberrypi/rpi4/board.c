/* SPDX-License-Identifier: MIT */
/*
 * Raspberry Pi 4 Model B: BCM2711, 4x Cortex-A72, GIC-400, PL011 UART0.
 * The hardware comes from the device tree the firmware passes on
 * (bcm2711-rpi-4-b.dtb, /memory filled by the firmware); see README.md.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "raspberrypi-rpi4",
	.timer_freq_hz = 54000000U,		/* 54 MHz crystal (clk_osc) */
	.nr_reserved = 0U,			/* TF-A adds its own /memreserve/ */
};
