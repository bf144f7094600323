/* SPDX-License-Identifier: MIT */
/*
 * QEMU "virt" machine, virtualization=on.
 * Addresses from QEMU's hw/arm/virt.c memory map (base_memmap) and the
 * device tree QEMU generates (-machine dumpdtb=...).
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "qemu-virt",
	.nr_cpus = 4U,
	.mpidr = { 0x0U, 0x1U, 0x2U, 0x3U },
	.nr_banks = 1U,
	.banks = { { .base = 0x40000000U, .size = 0x40000000U } }, /* -m 1G */
#if CONFIG_GICV3
	.gic_version = 3U,
	.gicd_base = 0x08000000U,
	.gicr_base = 0x080a0000U,
#else
	.gic_version = 2U,
	.gicd_base = 0x08000000U,
	.gicc_base = 0x08010000U,
	.gich_base = 0x08030000U,
	.gicv_base = 0x08040000U,
#endif
	.uart_base = 0x09000000U,
	.uart_irq = 33U,
	.timer_freq_hz = 62500000U,
};
