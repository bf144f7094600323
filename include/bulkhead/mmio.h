/* SPDX-License-Identifier: MIT */
/*
 * Emulated MMIO regions of a partition (stage-2 data aborts on addresses
 * with no mapping are dispatched here). Contract from INTERFACES.md.
 */
#ifndef BULKHEAD_MMIO_H
#define BULKHEAD_MMIO_H

#include <bulkhead/types.h>

struct vcpu;
struct domain;

struct mmio_ops {
	int (*read)(struct vcpu *v, paddr_t off, unsigned int size, uint64_t *val, void *priv);
	int (*write)(struct vcpu *v, paddr_t off, unsigned int size, uint64_t val, void *priv);
};

int mmio_register(struct domain *d, paddr_t base, paddr_t size, const struct mmio_ops *ops,
		  void *priv);
/* -ENOENT: no region -> stage-2 fault. */
int mmio_dispatch(struct vcpu *v, paddr_t gpa, bool write, unsigned int size, uint64_t *val);

#endif
