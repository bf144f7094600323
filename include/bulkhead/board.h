/* SPDX-License-Identifier: MIT */
/*
 * What the hypervisor needs to know of a board that its device tree cannot
 * say, in a few lines of C per board (boards/<vendor>/<board>/board.c).
 * The hardware itself (CPUs, RAM, GIC, timer, console) comes from the
 * system device tree at boot (include/bulkhead/hwdesc.h), the partitions
 * from its /chosen.
 */
#ifndef BULKHEAD_BOARD_H
#define BULKHEAD_BOARD_H

#include <bulkhead/config.h>
#include <bulkhead/types.h>

#define BOARD_MAX_RESERVED U(4)

struct board_mem_bank {
	paddr_t base;
	uint64_t size;
};

struct board_desc {
	const char *name;
	/* Generic timer frequency when CNTFRQ_EL0 reads 0 and the tree's timer has no
	 * clock-frequency (firmware sets CNTFRQ; trees rarely say). */
	uint32_t timer_freq_hz;
	/* RAM the firmware keeps (TF-A BL31, ...) where the board's usual tree lists it
	 * as memory: left out of the banks the tree gives. */
	uint32_t nr_reserved;
	struct board_mem_bank reserved[BOARD_MAX_RESERVED];
};

extern const struct board_desc board;

#endif
