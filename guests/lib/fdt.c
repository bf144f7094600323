/* SPDX-License-Identifier: MIT */
/*
 * Flattened device tree reader: walks the structure block token by token.
 * Every length is bounded by the header's sizes, so a broken tree makes a
 * lookup fail instead of running off the blob.
 */
#include <guest/fdt.h>
#include <guest/rt.h>

#define FDT_MAGIC      0xd00dfeedU
#define FDT_BEGIN_NODE 1U
#define FDT_END_NODE   2U
#define FDT_PROP       3U
#define FDT_NOP        4U
#define FDT_END        9U
#define FDT_MAX_DEPTH  16

static uint32_t be32(const void *p)
{
	const uint8_t *b = p;

	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

uint64_t fdt_cells(const void *p, unsigned int cells)
{
	const uint8_t *b = p;

	return cells == 2U ? ((uint64_t)be32(b) << 32) | be32(b + 4) : be32(b);
}

static uint32_t hdr(const void *dtb, unsigned int idx)
{
	return be32((const uint8_t *)dtb + idx * 4U);
}

#define H_TOTALSIZE 1U
#define H_OFF_STRUCT 2U
#define H_OFF_STRINGS 3U
#define H_SIZE_STRINGS 8U
#define H_SIZE_STRUCT 9U

bool fdt_valid(const void *dtb)
{
	return dtb && ((uint64_t)dtb & 3U) == 0 && hdr(dtb, 0) == FDT_MAGIC &&
	       hdr(dtb, H_OFF_STRUCT) + hdr(dtb, H_SIZE_STRUCT) <= hdr(dtb, H_TOTALSIZE);
}

static const uint8_t *sblock(const void *dtb)
{
	return (const uint8_t *)dtb + hdr(dtb, H_OFF_STRUCT);
}

static uint32_t align4(uint32_t v)
{
	return (v + 3U) & ~3U;
}

/* Token at off; *next gets the offset of the following token. */
static uint32_t token(const void *dtb, uint32_t off, uint32_t *next)
{
	uint32_t end = hdr(dtb, H_SIZE_STRUCT), tag;
	const uint8_t *s = sblock(dtb);

	if (off + 4U > end)
		return FDT_END;
	tag = be32(s + off);
	off += 4U;
	if (tag == FDT_BEGIN_NODE) {
		while (off < end && s[off])
			off++;
		off = align4(off + 1U);
	} else if (tag == FDT_PROP) {
		if (off + 8U > end)
			return FDT_END;
		off = align4(off + 8U + be32(s + off));
	}
	*next = off;
	return off > end ? FDT_END : tag;
}

const char *fdt_name(const void *dtb, int node)
{
	return (const char *)sblock(dtb) + node + 4;
}

/* Does node name match path component c (len bytes)? "memory" matches "memory@40000000". */
static bool name_match(const char *name, const char *c, size_t len)
{
	size_t i;

	if (strncmp(name, c, len) != 0)
		return false;
	if (name[len] == '\0')
		return true;
	for (i = 0; i < len; i++)
		if (c[i] == '@')
			return false;
	return name[len] == '@';
}

#define MAX_COMPONENTS 8U

int fdt_path(const void *dtb, const char *path)
{
	const char *comp[MAX_COMPONENTS];
	size_t clen[MAX_COMPONENTS];
	unsigned int ncomp = 0, matched = 0;
	int level = -1;
	uint32_t off = 0, next, steps;

	if (!fdt_valid(dtb) || path[0] != '/')
		return -1;
	while (*path) {
		while (*path == '/')
			path++;
		if (!*path)
			break;
		if (ncomp == MAX_COMPONENTS)
			return -1;
		comp[ncomp] = path;
		while (*path && *path != '/')
			path++;
		clen[ncomp] = (size_t)(path - comp[ncomp]);
		ncomp++;
	}
	for (steps = 0; steps < hdr(dtb, H_SIZE_STRUCT); steps++, off = next) {
		uint32_t tag = token(dtb, off, &next);

		if (tag == FDT_END)
			return -1;
		if (tag == FDT_BEGIN_NODE) {
			level++;
			if (level == 0 && ncomp == 0)
				return (int)off;
			if (level >= 1 && (unsigned int)level == matched + 1U &&
			    name_match(fdt_name(dtb, (int)off), comp[level - 1], clen[level - 1])) {
				matched = (unsigned int)level;
				if (matched == ncomp)
					return (int)off;
			}
		} else if (tag == FDT_END_NODE) {
			if (level >= 1 && (unsigned int)level == matched)
				matched--;
			level--;
		}
	}
	return -1;
}

static bool prop_has_string(const char *list, uint32_t len, const char *str)
{
	uint32_t i = 0;

	while (i < len) {
		if (strcmp(list + i, str) == 0)
			return true;
		i += (uint32_t)strlen(list + i) + 1U;
	}
	return false;
}

int fdt_compatible(const void *dtb, int after, const char *compat)
{
	uint32_t off = after < 0 ? 0U : (uint32_t)after, next, steps;

	if (!fdt_valid(dtb))
		return -1;
	if (after >= 0)
		(void)token(dtb, off, &off);
	for (steps = 0; steps < hdr(dtb, H_SIZE_STRUCT); steps++, off = next) {
		uint32_t tag = token(dtb, off, &next), len;
		const char *c;

		if (tag == FDT_END)
			return -1;
		if (tag != FDT_BEGIN_NODE)
			continue;
		c = fdt_prop(dtb, (int)off, "compatible", &len);
		if (c && prop_has_string(c, len, compat))
			return (int)off;
	}
	return -1;
}

const void *fdt_prop(const void *dtb, int node, const char *name, uint32_t *len)
{
	const uint8_t *s = sblock(dtb);
	const char *strings = (const char *)dtb + hdr(dtb, H_OFF_STRINGS);
	uint32_t off, next, steps;

	if (node < 0 || token(dtb, (uint32_t)node, &off) != FDT_BEGIN_NODE)
		return NULL;
	for (steps = 0; steps < hdr(dtb, H_SIZE_STRUCT); steps++, off = next) {
		uint32_t tag = token(dtb, off, &next);

		if (tag == FDT_NOP)
			continue;
		if (tag != FDT_PROP)
			return NULL;  /* properties come before the first child */
		if (be32(s + off + 8U) < hdr(dtb, H_SIZE_STRINGS) &&
		    strcmp(strings + be32(s + off + 8U), name) == 0) {
			if (len)
				*len = be32(s + off + 4U);
			return s + off + 12U;
		}
	}
	return NULL;
}

unsigned int fdt_count_children(const void *dtb, int node, const char *prefix)
{
	uint32_t off, next, steps;
	unsigned int n = 0;
	int depth = 0;

	if (node < 0 || token(dtb, (uint32_t)node, &off) != FDT_BEGIN_NODE)
		return 0;
	for (steps = 0; steps < hdr(dtb, H_SIZE_STRUCT); steps++, off = next) {
		uint32_t tag = token(dtb, off, &next);

		if (tag == FDT_END)
			break;
		if (tag == FDT_BEGIN_NODE) {
			if (depth == 0 &&
			    strncmp(fdt_name(dtb, (int)off), prefix, strlen(prefix)) == 0)
				n++;
			depth++;
		} else if (tag == FDT_END_NODE) {
			if (depth == 0)
				break;
			depth--;
		}
	}
	return n;
}

int fdt_next_child(const void *dtb, int node, int prev)
{
	uint32_t off, next, steps;
	int depth = 0;
	bool found_prev = (prev < 0);

	if (node < 0 || token(dtb, (uint32_t)node, &off) != FDT_BEGIN_NODE)
		return -1;
	for (steps = 0; steps < hdr(dtb, H_SIZE_STRUCT); steps++, off = next) {
		uint32_t tag = token(dtb, off, &next);

		if (tag == FDT_END)
			break;
		if (tag == FDT_BEGIN_NODE) {
			if (depth == 0) {
				if (found_prev)
					return (int)off;
				found_prev = ((int)off == prev);
			}
			depth++;
		} else if (tag == FDT_END_NODE) {
			if (depth == 0)
				break;
			depth--;
		}
	}
	return -1;
}

bool fdt_reg(const void *dtb, int node, unsigned int idx, uint64_t *base, uint64_t *size)
{
	uint32_t len;
	const uint8_t *reg = fdt_prop(dtb, node, "reg", &len);

	if (!reg || (idx + 1U) * 16U > len)
		return false;
	*base = fdt_cells(reg + idx * 16U, 2);
	*size = fdt_cells(reg + idx * 16U + 8U, 2);
	return true;
}
