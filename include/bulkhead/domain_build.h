/* SPDX-License-Identifier: MIT */
/* Partition image loading and device-tree generation (common/domain_build.c). */
#ifndef BULKHEAD_DOMAIN_BUILD_H
#define BULKHEAD_DOMAIN_BUILD_H

#include <bulkhead/types.h>

struct domain;

#define DOMAIN_DT_MAX U(8192)
#define DOMAIN_BUILD_COMPAT_LEN U(48)

/* GIC version of the partitions' vGIC, and the compatible of the boot CPU. */
void domain_build_init(uint32_t gic_version, const char *cpu_compat);
/* Write d's device tree into buf; returns its size or a negative FDT_ERR_*. */
int domain_build_dt(const struct domain *d, void *buf, size_t cap, paddr_t initrd_gpa);

#endif
