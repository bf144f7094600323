/* SPDX-License-Identifier: MIT */
/* Read-only walk of a flattened device tree (the partition's own). */
#ifndef GUEST_FDT_H
#define GUEST_FDT_H

#include <stdbool.h>
#include <stdint.h>

/* Check the header; false if dtb is not a device tree. */
bool fdt_valid(const void *dtb);
/*
 * Node offset for a path like "/hypervisor" or "/cpus/cpu@1"; a component
 * without '@' also matches a node with a unit address ("/memory"). -1 if none.
 */
int fdt_path(const void *dtb, const char *path);
/* First node after `after` (-1: from the start) listing compat; -1 if none. */
int fdt_compatible(const void *dtb, int after, const char *compat);
/* Property value and its length in bytes, or NULL. */
const void *fdt_prop(const void *dtb, int node, const char *name, uint32_t *len);
/* Name of the node at offset (with its unit address). */
const char *fdt_name(const void *dtb, int node);
/* Number of direct children of node whose name starts with prefix. */
unsigned int fdt_count_children(const void *dtb, int node, const char *prefix);
/* Direct child of node after prev (-1: the first), or -1 when there is none. */
int fdt_next_child(const void *dtb, int node, int prev);
/* Big-endian cells -> integer (cells = 1 or 2). */
uint64_t fdt_cells(const void *p, unsigned int cells);
/* reg entry idx of node using the parent's #address-cells / #size-cells = 2/2. */
bool fdt_reg(const void *dtb, int node, unsigned int idx, uint64_t *base, uint64_t *size);

#endif
