/* SPDX-License-Identifier: MIT */
/*
 * Flattened device tree (DTB, devicetree specification v0.4, version 17)
 * reader and writer. Hand-written because libfdt is not packaged for a
 * freestanding AArch64 EL2 build, and because the reader is fed untrusted
 * blobs (the fuzzer, a corrupt boot loader): it checks every offset and
 * length against the blob, walks the tree without recursion, and bounds
 * the depth by FDT_MAX_DEPTH.
 *
 * Nodes and properties are named by their offset in the structure block,
 * as in libfdt. Errors are negative FDT_ERR_* values.
 */
#ifndef BULKHEAD_FDT_H
#define BULKHEAD_FDT_H

#include <bulkhead/types.h>

#define FDT_MAGIC        U(0xd00dfeed)
#define FDT_HEADER_SIZE  U(40)
#define FDT_MAX_DEPTH    U(16)      /* root is depth 0 */
#define FDT_MAX_RSV      U(64)      /* memory reservation entries read */
#define FDT_MAX_NAME     U(256)     /* node or property name, with its NUL */

#define FDT_BEGIN_NODE U(1)
#define FDT_END_NODE   U(2)
#define FDT_PROP       U(3)
#define FDT_NOP        U(4)
#define FDT_END        U(9)

/* Error codes, returned negated as int like every other result of this API. */
#define FDT_ERR_NOTFOUND  1    /* no such node or property */
#define FDT_ERR_BADHEADER 2    /* magic, version or block bounds */
#define FDT_ERR_TRUNCATED 3    /* a token, name or value runs past its block */
#define FDT_ERR_BADSTRUCT 4    /* unexpected token */
#define FDT_ERR_DEPTH     5    /* nested deeper than FDT_MAX_DEPTH */
#define FDT_ERR_BADVALUE  6    /* property of the wrong length or form */
#define FDT_ERR_NOSPACE   7    /* writer: buffer full */

/* A validated blob: block bounds are checked once, in fdt_open(). */
struct fdt {
	const uint8_t *blob;
	uint32_t totalsize;
	uint32_t off_struct;
	uint32_t size_struct;
	uint32_t off_strings;
	uint32_t size_strings;
	uint32_t off_rsvmap;
	bool validated;        /* every property name offset checked once */
};

uint32_t fdt_be32(const void *p);
uint64_t fdt_be64(const void *p);
const char *fdt_strerror(int err);

/* Check the header against buf_size (bytes readable at blob). */
int fdt_open(struct fdt *f, const void *blob, size_t buf_size);
/* totalsize from a header, 0 if the magic is wrong: to size a mapping. */
uint32_t fdt_header_size(const void *blob);

/* Memory reservation map (/memreserve/): entry i, or -FDT_ERR_NOTFOUND. */
int fdt_mem_rsv(const struct fdt *f, unsigned int i, uint64_t *addr, uint64_t *size);

/*
 * Depth-first walk: the next node after node (0 = root), with *depth
 * updated (pass the depth of node). Returns -FDT_ERR_NOTFOUND at the end.
 */
int fdt_next_node(const struct fdt *f, int node, int *depth);
int fdt_first_child(const struct fdt *f, int node);
int fdt_next_sibling(const struct fdt *f, int node);
/* Parent by a bounded walk from the root (the blob keeps no back links). */
int fdt_parent(const struct fdt *f, int node);
/*
 * Every ancestor of node in one walk: stack[0] is the root, stack[d] the node
 * itself at depth d, which is returned (or a negative error).
 */
int fdt_ancestors(const struct fdt *f, int node, int stack[FDT_MAX_DEPTH + 2U]);
/* Child of parent named name (full name, or name before '@' if unique). */
int fdt_subnode(const struct fdt *f, int parent, const char *name);
/* Absolute path such as "/chosen/domU1". */
int fdt_path(const struct fdt *f, const char *path);
int fdt_node_by_phandle(const struct fdt *f, uint32_t phandle);
/* Node name (unit address included); NULL on error. */
const char *fdt_node_name(const struct fdt *f, int node);
/* Write the node's path into buf; returns its length or a negative error. */
int fdt_node_path(const struct fdt *f, int node, char *buf, size_t size);

/* Property iteration over one node. */
int fdt_first_prop(const struct fdt *f, int node);
int fdt_next_prop(const struct fdt *f, int prop);
int fdt_prop_at(const struct fdt *f, int prop, const char **name, const void **data,
		uint32_t *len);

/* Value of property name of node, or NULL (with *len = negative error). */
const void *fdt_getprop(const struct fdt *f, int node, const char *name, int *len);
bool fdt_has_prop(const struct fdt *f, int node, const char *name);
/* One 32-bit cell. */
int fdt_prop_u32(const struct fdt *f, int node, const char *name, uint32_t *val);
/* A number of 1 or 2 cells (the property's length decides). */
int fdt_prop_u64(const struct fdt *f, int node, const char *name, uint64_t *val);
/* A NUL-terminated single string. */
int fdt_prop_string(const struct fdt *f, int node, const char *name, const char **s);
/* Whether a string list (compatible) holds str. */
bool fdt_stringlist_has(const void *data, int len, const char *str);
bool fdt_node_compatible(const struct fdt *f, int node, const char *compat);

/* Read n (1 or 2) big-endian cells as one number. */
uint64_t fdt_read_cells(const void *p, uint32_t n);
/* #address-cells / #size-cells a node sets for its children (2 and 1 if absent). */
int fdt_address_cells(const struct fdt *f, int node);
int fdt_size_cells(const struct fdt *f, int node);
/*
 * Entry idx of node's reg, decoded with the cells of parent (the caller
 * knows it, which saves a walk). Cells above 2 are rejected.
 */
int fdt_reg(const struct fdt *f, int parent, int node, unsigned int idx, uint64_t *addr,
	    uint64_t *size);

/* ---------------------------------------------------------------- writer */

#define FDT_W_STRINGS U(1024)

/*
 * Sequential writer into a caller-given buffer. The first error sticks:
 * later calls do nothing and fdt_w_finish() returns it, so a builder can
 * check once at the end.
 */
struct fdt_writer {
	uint8_t *buf;
	uint32_t cap;
	uint32_t pos;          /* end of the structure block so far */
	uint32_t depth;
	int err;
	uint32_t strings_len;
	char strings[FDT_W_STRINGS];
};

void fdt_w_init(struct fdt_writer *w, void *buf, size_t cap);
void fdt_w_begin_node(struct fdt_writer *w, const char *name);
void fdt_w_end_node(struct fdt_writer *w);
void fdt_w_prop(struct fdt_writer *w, const char *name, const void *data, uint32_t len);
void fdt_w_prop_empty(struct fdt_writer *w, const char *name);
void fdt_w_prop_u32(struct fdt_writer *w, const char *name, uint32_t v);
void fdt_w_prop_u64(struct fdt_writer *w, const char *name, uint64_t v);
void fdt_w_prop_string(struct fdt_writer *w, const char *name, const char *s);
void fdt_w_prop_cells(struct fdt_writer *w, const char *name, const uint32_t *cells,
		      uint32_t n);
/* Close the tree; returns the blob's total size or a negative error. */
int fdt_w_finish(struct fdt_writer *w);

#endif
