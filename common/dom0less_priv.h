/* SPDX-License-Identifier: MIT */
/*
 * Parser state shared by the halves of the dom0less binding: partitions
 * (dom0less.c) and the devices assigned to them (dom0less_dev.c).
 */
#ifndef COMMON_DOM0LESS_PRIV_H
#define COMMON_DOM0LESS_PRIV_H

#include <bulkhead/dom0less.h>

struct d0l_ctx {
	const struct fdt *f;
	const struct dom0less_limits *lim;
	struct dom0less_config *out;
	char *err;
	size_t errlen;
	uint32_t avail_cpus;
	int gic_node;                        /* the system tree's GIC, or negative */
	/* Host nodes (xen,path) each partition has been given so far. */
	uint32_t nr_dev_nodes[CONFIG_MAX_DOMAINS];
	int dev_node[CONFIG_MAX_DOMAINS][DOMAIN_MAX_IOMEM];
};

/* "<path of node>: <message>" into c->err; returns rc if negative, else -FDT_ERR_BADVALUE. */
int d0l_err(struct d0l_ctx *c, int node, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The partial device tree of partition di (module node mod): devices, /gic. */
int d0l_devices(struct d0l_ctx *c, uint32_t di, int mod);
/* Xen's capabilities property of a domain node (dom0less_xs.c). */
int d0l_capabilities(struct d0l_ctx *c, int node, struct domain_config *cfg);
/* One xenstore partition at most, and one whenever a partition asks for xenstore. */
int d0l_xenstore_check(struct d0l_ctx *c);
/* Every partition's bulkhead,vbd children, once all partitions are known. */
int d0l_all_vbds(struct d0l_ctx *c);
/* Every partition's static shared memory (dom0less_shm.c), after its disks. */
int d0l_all_shm(struct d0l_ctx *c);
/*
 * The window of the guest's fixed layout (vGIC, grant window, with vpl011
 * its UART) that [base, base+size) overlaps, or NULL.
 */
const char *d0l_guest_window(paddr_t base, uint64_t size, bool vpl011);
/* The system tree's interrupt controller (a GIC), or a negative error. */
int d0l_find_gic(const struct fdt *f);

#endif
