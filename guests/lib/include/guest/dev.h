/* SPDX-License-Identifier: MIT */
/* Devices a partition was given (its device tree's /passthrough nodes). */
#ifndef GUEST_DEV_H
#define GUEST_DEV_H

#include <stdbool.h>
#include <stdint.h>

struct dev_info {
	uint64_t base;          /* guest address of its first reg range */
	uint64_t size;
	unsigned int intid;     /* its first interrupt (GIC specifier), 0 when none */
	bool edge;
};

/* The first node compatible with compat; false when the tree has none. */
bool dev_find(const char *compat, struct dev_info *d);
/* A PrimeCell's peripheral ID (0xfe0..0xfec) and PrimeCell ID (0xff0..0xffc). */
uint32_t dev_periph_id(uint64_t base);
uint32_t dev_cell_id(uint64_t base);

#endif
