/* SPDX-License-Identifier: MIT */
/*
 * Xilinx ZCU102 (Zynq UltraScale+ MPSoC ZU9EG): 4x Cortex-A53, GIC-400 with
 * 64 KiB aliased frames, Cadence UART0 console. The hardware comes from the
 * vendor tree (Linux arch/arm64/boot/dts/xilinx/zynqmp-zcu102-rev1.0.dts,
 * as Debian's kernel package ships it); see README.md.
 */
#include <bulkhead/board.h>

const struct board_desc board = {
	.name = "xilinx-zcu102",
	/* CNTFRQ is set by the boot chain (and QEMU); ZynqMP's IOU_SCNTRS counts at 100 MHz. */
	.timer_freq_hz = 100000000U,
	/* TF-A BL31 and the PMU firmware run from OCM (0xfffc0000), outside DDR. */
	.nr_reserved = 0U,
};
