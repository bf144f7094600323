/* SPDX-License-Identifier: MIT */
/*
 * What the hypervisor needs to know of a board, in a few lines of C per
 * board (boards/<vendor>/<board>/board.c), like Bao's platform files. The
 * partitions themselves come from the device tree.
 */
#ifndef BULKHEAD_BOARD_H
#define BULKHEAD_BOARD_H

#include <bulkhead/config.h>
#include <bulkhead/types.h>

#define BOARD_MAX_BANKS U(4)

struct board_mem_bank {
	paddr_t base;
	uint64_t size;
};

struct board_desc {
	const char *name;
	uint32_t nr_cpus;
	uint64_t mpidr[CONFIG_NR_CPUS];        /* MPIDR_EL1 affinity of each CPU */
	uint32_t nr_banks;
	struct board_mem_bank banks[BOARD_MAX_BANKS];
	uint32_t gic_version;                  /* 2 or 3 */
	paddr_t gicd_base;
	paddr_t gicr_base;                     /* GICv3 redistributors */
	paddr_t gicc_base;                     /* GICv2 CPU interface */
	paddr_t gich_base;                     /* GICv2 virtual interface control */
	paddr_t gicv_base;                     /* GICv2 virtual CPU interface */
	paddr_t uart_base;
	uint32_t uart_irq;                     /* INTID */
	uint32_t timer_freq_hz;                /* used when CNTFRQ_EL0 reads 0 */
};

extern const struct board_desc board;

#endif
