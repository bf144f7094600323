/* SPDX-License-Identifier: MIT */
/*
 * Emulated MMIO regions of a partition (vGIC distributor, vPL011, ...).
 * A stage-2 data abort on an address with no RAM behind it comes here; a
 * region's handler emulates the access. Regions are registered while the
 * partition is built (boot or restart) into a static per-partition table
 * of CONFIG_MAX_MMIO_REGIONS, and only read afterwards.
 */
#ifndef BULKHEAD_MMIO_H
#define BULKHEAD_MMIO_H

#include <bulkhead/config.h>
#include <bulkhead/types.h>

struct vcpu;
struct domain;

struct mmio_ops {
	/* off is relative to the region base; size is 1, 2, 4 or 8. */
	int (*read)(struct vcpu *v, paddr_t off, unsigned int size, uint64_t *val, void *priv);
	int (*write)(struct vcpu *v, paddr_t off, unsigned int size, uint64_t val, void *priv);
};

/*
 * Register [base, base+size) of d. -EINVAL for an empty, wrapping or
 * overlapping region, -ENOSPC when the table is full.
 */
int mmio_register(struct domain *d, paddr_t base, paddr_t size, const struct mmio_ops *ops,
		  void *priv);
/* Forget every region of d (partition restart). */
void mmio_domain_reset(struct domain *d);
/*
 * Emulate one access of vCPU v at guest-physical gpa: -ENOENT when no
 * region covers it (a stage-2 fault), -EINVAL for a bad size or an access
 * straddling the region's end, else the handler's result. Reads return the
 * value truncated to size; writes pass it truncated.
 */
int mmio_dispatch(struct vcpu *v, paddr_t gpa, bool write, unsigned int size, uint64_t *val);
/*
 * mmio_dispatch of a write of 1 << sas bytes (sas 0-3: a data abort
 * syndrome's SAS), the value passed as it is: the trapped store's path
 * (v is the trapping vCPU, never NULL).
 */
int mmio_store(struct vcpu *v, paddr_t gpa, unsigned int sas, uint64_t val);

#endif
