/* SPDX-License-Identifier: MIT */
/*
 * Bounded flattened-device-tree reader. fdt_open() validates the whole
 * structure block once (every token, name, value and string offset, the
 * nesting depth, the closing FDT_END), so later walks can rely on a
 * well-formed tree; they still check each offset they read, because a
 * check that costs a compare is cheaper than an argument about why it is
 * not needed. No recursion: depth is tracked in a counter or a fixed stack.
 */
#include <bulkhead/fdt.h>
#include <bulkhead/lib.h>

#define FDT_VERSION       U(17)
#define FDT_ALIGN4(x)     (((x) + 3U) & ~3U)
/* Blobs are addressed with int offsets, as in libfdt. */
#define FDT_MAX_TOTALSIZE U(0x7ffffff0)

uint32_t fdt_be32(const void *p)
{
	const uint8_t *b = p;

	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) |
	       (uint32_t)b[3];
}

uint64_t fdt_be64(const void *p)
{
	const uint8_t *b = p;

	return ((uint64_t)fdt_be32(b) << 32) | fdt_be32(&b[4]);
}

const char *fdt_strerror(int err)
{
	static const char *const msg[FDT_ERR_NOSPACE + 1] = {
		[0] = "ok",
		[FDT_ERR_NOTFOUND] = "not found",
		[FDT_ERR_BADHEADER] = "bad header",
		[FDT_ERR_TRUNCATED] = "truncated",
		[FDT_ERR_BADSTRUCT] = "bad structure",
		[FDT_ERR_DEPTH] = "nested too deep",
		[FDT_ERR_BADVALUE] = "bad value",
		[FDT_ERR_NOSPACE] = "no space",
	};
	unsigned int e = (err < 0) ? (unsigned int)-err : (unsigned int)err;

	return (e < ARRAY_SIZE(msg)) ? msg[e] : "unknown error";
}

uint32_t fdt_header_size(const void *blob)
{
	const uint8_t *h = blob;

	return (fdt_be32(h) == FDT_MAGIC) ? fdt_be32(&h[4]) : 0U;
}

/* One token at struct offset off: its kind and the offset after it. */
struct fdt_tok {
	uint32_t tag;
	uint32_t next;
	uint32_t len;      /* FDT_PROP: value length */
	uint32_t nameoff;  /* FDT_PROP: name in the strings block */
};

static const uint8_t *fdt_st(const struct fdt *f, uint32_t off)
{
	return &f->blob[f->off_struct + off];
}

/* Length of a NUL-terminated string in [p, p+max), or max if unterminated. */
static uint32_t fdt_strlen_in(const uint8_t *p, uint32_t max)
{
	uint32_t i;

	for (i = 0U; i < max; i++) {
		if (p[i] == 0U) {
			break;
		}
	}
	return i;
}

static int fdt_tok_read(const struct fdt *f, uint32_t off, struct fdt_tok *t)
{
	uint32_t room;

	if (((off & 3U) != 0U) || (off >= f->size_struct) || ((f->size_struct - off) < 4U)) {
		return -FDT_ERR_TRUNCATED;
	}
	t->tag = fdt_be32(fdt_st(f, off));
	room = f->size_struct - off - 4U;
	switch (t->tag) {
	case FDT_BEGIN_NODE: {
		uint32_t n = fdt_strlen_in(fdt_st(f, off + 4U), MIN(room, FDT_MAX_NAME));
		if ((n >= room) || (n >= FDT_MAX_NAME)) {
			return -FDT_ERR_TRUNCATED;
		}
		t->next = off + 4U + FDT_ALIGN4(n + 1U);
		break;
	}
	case FDT_PROP: {
		uint32_t slen;
		if (room < 8U) {
			return -FDT_ERR_TRUNCATED;
		}
		t->len = fdt_be32(fdt_st(f, off + 4U));
		t->nameoff = fdt_be32(fdt_st(f, off + 8U));
		if ((t->len > (room - 8U)) || (t->nameoff >= f->size_strings)) {
			return -FDT_ERR_TRUNCATED;
		}
		/* The terminating NUL of each name was found by fdt_open(). */
		if (!f->validated) {
			slen = fdt_strlen_in(&f->blob[f->off_strings + t->nameoff],
					     f->size_strings - t->nameoff);
			if (slen >= (f->size_strings - t->nameoff)) {
				return -FDT_ERR_TRUNCATED;
			}
		}
		t->next = off + 12U + FDT_ALIGN4(t->len);
		break;
	}
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		t->next = off + 4U;
		break;
	default:
		return -FDT_ERR_BADSTRUCT;
	}
	/* Padding may end exactly at the block end, never past it. */
	if (t->next > f->size_struct) {
		return -FDT_ERR_TRUNCATED;
	}
	return 0;
}

/* Walk every token once: balanced, bounded in depth, ends with FDT_END. */
static int fdt_validate_struct(const struct fdt *f)
{
	struct fdt_tok t;
	uint32_t off = 0U;
	uint32_t steps;
	int depth = 0;
	bool seen_root = false;
	int rc;

	for (steps = 0U; steps <= (f->size_struct / 4U); steps++) {
		rc = fdt_tok_read(f, off, &t);
		if (rc != 0) {
			return rc;
		}
		switch (t.tag) {
		case FDT_BEGIN_NODE:
			if ((depth == 0) && seen_root) {
				return -FDT_ERR_BADSTRUCT; /* a second root */
			}
			if ((depth == 0) && (off != 0U)) {
				return -FDT_ERR_BADSTRUCT; /* root must come first */
			}
			seen_root = true;
			depth++;
			if (depth > (int)FDT_MAX_DEPTH + 1) {
				return -FDT_ERR_DEPTH;
			}
			break;
		case FDT_END_NODE:
			depth--;
			if (depth < 0) {
				return -FDT_ERR_BADSTRUCT;
			}
			break;
		case FDT_PROP:
			if (depth == 0) {
				return -FDT_ERR_BADSTRUCT;
			}
			break;
		case FDT_END:
			return ((depth == 0) && seen_root) ? 0 : -FDT_ERR_BADSTRUCT;
		default:
			break;
		}
		off = t.next;
	}
	return -FDT_ERR_TRUNCATED;
}

int fdt_open(struct fdt *f, const void *blob, size_t buf_size)
{
	const uint8_t *h = blob;
	uint32_t version;
	uint32_t last_comp;
	int rc;

	(void)memset(f, 0, sizeof(*f));
	if ((blob == NULL) || (buf_size < FDT_HEADER_SIZE) || (fdt_be32(h) != FDT_MAGIC)) {
		return -FDT_ERR_BADHEADER;
	}
	f->blob = h;
	f->totalsize = fdt_be32(&h[4]);
	f->off_struct = fdt_be32(&h[8]);
	f->off_strings = fdt_be32(&h[12]);
	f->off_rsvmap = fdt_be32(&h[16]);
	version = fdt_be32(&h[20]);
	last_comp = fdt_be32(&h[24]);
	f->size_strings = fdt_be32(&h[32]);
	f->size_struct = fdt_be32(&h[36]);

	if ((f->totalsize > buf_size) || (f->totalsize < FDT_HEADER_SIZE) ||
	    (f->totalsize > FDT_MAX_TOTALSIZE) || (version < FDT_VERSION) ||
	    (last_comp > FDT_VERSION)) {
		return -FDT_ERR_BADHEADER;
	}
	/* Each block inside the blob (64-bit sums: no wrap-around). */
	if (((uint64_t)f->off_struct + f->size_struct > f->totalsize) ||
	    ((uint64_t)f->off_strings + f->size_strings > f->totalsize) ||
	    (f->off_struct < FDT_HEADER_SIZE) || (f->off_strings < FDT_HEADER_SIZE) ||
	    (f->off_rsvmap < FDT_HEADER_SIZE) || (f->off_rsvmap >= f->totalsize) ||
	    ((f->off_struct & 3U) != 0U) || ((f->off_rsvmap & 7U) != 0U) ||
	    (f->size_struct < 4U)) {
		return -FDT_ERR_BADHEADER;
	}
	rc = fdt_validate_struct(f);
	f->validated = (rc == 0);
	return rc;
}

int fdt_mem_rsv(const struct fdt *f, unsigned int i, uint64_t *addr, uint64_t *size)
{
	unsigned int k;

	if (i >= FDT_MAX_RSV) {
		return -FDT_ERR_NOTFOUND;
	}
	/* Entries up to i must all be present; the list ends with a zero entry. */
	for (k = 0U; k <= i; k++) {
		uint64_t off = (uint64_t)f->off_rsvmap + ((uint64_t)k * 16U);
		if (off + 16U > f->totalsize) {
			return -FDT_ERR_TRUNCATED;
		}
		*addr = fdt_be64(&f->blob[off]);
		*size = fdt_be64(&f->blob[off + 8U]);
		if ((*addr == 0U) && (*size == 0U)) {
			return -FDT_ERR_NOTFOUND;
		}
	}
	return 0;
}

static int fdt_check_node(const struct fdt *f, int node, struct fdt_tok *t)
{
	int rc;

	if (node < 0) {
		return -FDT_ERR_NOTFOUND;
	}
	rc = fdt_tok_read(f, (uint32_t)node, t);
	if (rc != 0) {
		return rc;
	}
	return (t->tag == FDT_BEGIN_NODE) ? 0 : -FDT_ERR_BADSTRUCT;
}

int fdt_next_node(const struct fdt *f, int node, int *depth)
{
	struct fdt_tok t;
	uint32_t off;
	uint32_t steps;
	int rc;

	rc = fdt_check_node(f, node, &t);
	if (rc != 0) {
		return rc;
	}
	off = t.next;
	for (steps = 0U; steps <= (f->size_struct / 4U); steps++) {
		rc = fdt_tok_read(f, off, &t);
		if (rc != 0) {
			return rc;
		}
		switch (t.tag) {
		case FDT_BEGIN_NODE:
			(*depth)++;
			return (int)off;
		case FDT_END_NODE:
			(*depth)--;
			break;
		case FDT_END:
			return -FDT_ERR_NOTFOUND;
		default:
			break;
		}
		off = t.next;
	}
	return -FDT_ERR_TRUNCATED;
}

int fdt_first_child(const struct fdt *f, int node)
{
	int depth = 0;
	int n = fdt_next_node(f, node, &depth);

	if (n < 0) {
		return n;
	}
	return (depth == 1) ? n : -FDT_ERR_NOTFOUND;
}

int fdt_next_sibling(const struct fdt *f, int node)
{
	int depth = 0;
	int n = node;
	uint32_t steps;

	for (steps = 0U; steps <= (f->size_struct / 4U); steps++) {
		n = fdt_next_node(f, n, &depth);
		if (n < 0) {
			return n;
		}
		if (depth <= 0) {
			return (depth == 0) ? n : -FDT_ERR_NOTFOUND;
		}
	}
	return -FDT_ERR_TRUNCATED;
}

/*
 * Walk from the root until node, keeping the offset of each ancestor in a
 * fixed stack. Returns the depth of node, or a negative error.
 */
int fdt_ancestors(const struct fdt *f, int node, int stack[FDT_MAX_DEPTH + 2U])
{
	int depth = 0;
	int n = 0;
	uint32_t steps;

	if (node < 0) {
		return -FDT_ERR_NOTFOUND;
	}
	stack[0] = 0;
	for (steps = 0U; (steps <= (f->size_struct / 4U)) && (n != node); steps++) {
		n = fdt_next_node(f, n, &depth);
		if (n < 0) {
			return n;
		}
		if ((depth < 0) || (depth > (int)FDT_MAX_DEPTH)) {
			return (depth < 0) ? -FDT_ERR_NOTFOUND : -FDT_ERR_DEPTH;
		}
		stack[depth] = n;
	}
	return (n == node) ? depth : -FDT_ERR_NOTFOUND;
}

int fdt_parent(const struct fdt *f, int node)
{
	int stack[FDT_MAX_DEPTH + 2U];
	int depth = fdt_ancestors(f, node, stack);

	if (depth < 0) {
		return depth;
	}
	return (depth == 0) ? -FDT_ERR_NOTFOUND : stack[depth - 1];
}

const char *fdt_node_name(const struct fdt *f, int node)
{
	struct fdt_tok t;

	if (fdt_check_node(f, node, &t) != 0) {
		return NULL;
	}
	return (const char *)fdt_st(f, (uint32_t)node + 4U);
}

static bool fdt_name_matches(const char *have, const char *want, size_t wlen)
{
	bool unit = false;
	size_t i;

	if (strncmp(have, want, wlen) != 0) {
		return false;
	}
	for (i = 0U; i < wlen; i++) {
		unit = unit || (want[i] == '@');
	}
	/* "memory" matches "memory@40000000" unless the caller gave a unit. */
	return (have[wlen] == '\0') || ((have[wlen] == '@') && !unit);
}

static int fdt_subnode_n(const struct fdt *f, int parent, const char *name, size_t len)
{
	int n = fdt_first_child(f, parent);
	uint32_t steps;

	for (steps = 0U; (steps <= (f->size_struct / 4U)) && (n >= 0); steps++) {
		const char *nm = fdt_node_name(f, n);
		if ((nm != NULL) && fdt_name_matches(nm, name, len)) {
			return n;
		}
		n = fdt_next_sibling(f, n);
	}
	return (n < 0) ? n : -FDT_ERR_NOTFOUND;
}

int fdt_subnode(const struct fdt *f, int parent, const char *name)
{
	return fdt_subnode_n(f, parent, name, strnlen(name, FDT_MAX_NAME));
}

int fdt_path(const struct fdt *f, const char *path)
{
	size_t i = 0U;
	int node = 0;

	if (path[0] != '/') {
		return -FDT_ERR_NOTFOUND;
	}
	/* LOOP-BOUND: i grows by at least 1 each round and stops at FDT_MAX_NAME * FDT_MAX_DEPTH.
	 * */
	while ((path[i] == '/') && (i < FDT_MAX_NAME * FDT_MAX_DEPTH)) {
		size_t len = 0U;
		i++;
		while ((path[i + len] != '\0') && (path[i + len] != '/') && (len < FDT_MAX_NAME)) {
			len++;
		}
		if (len == 0U) {
			break;
		}
		node = fdt_subnode_n(f, node, &path[i], len);
		if (node < 0) {
			return node;
		}
		i += len;
	}
	return node;
}

int fdt_node_path(const struct fdt *f, int node, char *buf, size_t size)
{
	int stack[FDT_MAX_DEPTH + 2U];
	int depth = fdt_ancestors(f, node, stack);
	size_t pos = 0U;
	int d;

	if (depth < 0) {
		return depth;
	}
	if (size < 2U) {
		return -FDT_ERR_NOSPACE;
	}
	buf[0] = '/';
	buf[1] = '\0';
	pos = (depth == 0) ? (size_t)1U : (size_t)0U;
	for (d = 1; d <= depth; d++) {
		const char *nm = fdt_node_name(f, stack[d]);
		size_t len = (nm != NULL) ? strnlen(nm, FDT_MAX_NAME) : 0U;
		if (pos + len + 2U > size) {
			return -FDT_ERR_NOSPACE;
		}
		buf[pos] = '/';
		(void)memcpy(&buf[pos + 1U], nm, len);
		pos += len + 1U;
		buf[pos] = '\0';
	}
	return (int)pos;
}

static int fdt_skip_nops(const struct fdt *f, uint32_t off)
{
	struct fdt_tok t;
	uint32_t cur = off;
	uint32_t steps;
	int rc;

	for (steps = 0U; steps <= (f->size_struct / 4U); steps++) {
		rc = fdt_tok_read(f, cur, &t);
		if (rc != 0) {
			return rc;
		}
		if (t.tag == FDT_PROP) {
			return (int)cur;
		}
		if (t.tag != FDT_NOP) {
			return -FDT_ERR_NOTFOUND;
		}
		cur = t.next;
	}
	return -FDT_ERR_TRUNCATED;
}

int fdt_first_prop(const struct fdt *f, int node)
{
	struct fdt_tok t;
	int rc = fdt_check_node(f, node, &t);

	return (rc != 0) ? rc : fdt_skip_nops(f, t.next);
}

int fdt_next_prop(const struct fdt *f, int prop)
{
	struct fdt_tok t;
	int rc;

	if (prop < 0) {
		return -FDT_ERR_NOTFOUND;
	}
	rc = fdt_tok_read(f, (uint32_t)prop, &t);
	if (rc != 0) {
		return rc;
	}
	if (t.tag != FDT_PROP) {
		return -FDT_ERR_BADSTRUCT;
	}
	return fdt_skip_nops(f, t.next);
}

int fdt_prop_at(const struct fdt *f, int prop, const char **name, const void **data,
		uint32_t *len)
{
	struct fdt_tok t;
	int rc;

	if (prop < 0) {
		return -FDT_ERR_NOTFOUND;
	}
	rc = fdt_tok_read(f, (uint32_t)prop, &t);
	if (rc != 0) {
		return rc;
	}
	if (t.tag != FDT_PROP) {
		return -FDT_ERR_BADSTRUCT;
	}
	*name = (const char *)&f->blob[f->off_strings + t.nameoff];
	*data = fdt_st(f, (uint32_t)prop + 12U);
	*len = t.len;
	return 0;
}

const void *fdt_getprop(const struct fdt *f, int node, const char *name, int *len)
{
	int p = fdt_first_prop(f, node);
	uint32_t steps;

	for (steps = 0U; (steps <= (f->size_struct / 4U)) && (p >= 0); steps++) {
		const char *nm;
		const void *data;
		uint32_t l;
		if (fdt_prop_at(f, p, &nm, &data, &l) != 0) {
			break;
		}
		if (strcmp(nm, name) == 0) {
			*len = (int)l;
			return data;
		}
		p = fdt_next_prop(f, p);
	}
	*len = -FDT_ERR_NOTFOUND;
	return NULL;
}

bool fdt_has_prop(const struct fdt *f, int node, const char *name)
{
	int len;

	return fdt_getprop(f, node, name, &len) != NULL;
}

int fdt_prop_u32(const struct fdt *f, int node, const char *name, uint32_t *val)
{
	int len;
	const void *p = fdt_getprop(f, node, name, &len);

	if (p == NULL) {
		return len;
	}
	if (len != 4) {
		return -FDT_ERR_BADVALUE;
	}
	*val = fdt_be32(p);
	return 0;
}

int fdt_prop_u64(const struct fdt *f, int node, const char *name, uint64_t *val)
{
	int len;
	const void *p = fdt_getprop(f, node, name, &len);

	if (p == NULL) {
		return len;
	}
	if ((len != 4) && (len != 8)) {
		return -FDT_ERR_BADVALUE;
	}
	*val = fdt_read_cells(p, (uint32_t)len / 4U);
	return 0;
}

int fdt_prop_string(const struct fdt *f, int node, const char *name, const char **s)
{
	int len;
	const char *p = fdt_getprop(f, node, name, &len);

	if (p == NULL) {
		return len;
	}
	if ((len < 1) || (p[len - 1] != '\0') || (strnlen(p, (size_t)len) != (size_t)len - 1U)) {
		return -FDT_ERR_BADVALUE;
	}
	*s = p;
	return 0;
}

bool fdt_stringlist_has(const void *data, int len, const char *str)
{
	const char *p = data;
	size_t want = strnlen(str, FDT_MAX_NAME);
	size_t pos = 0U;

	if ((data == NULL) || (len <= 0)) {
		return false;
	}
	/* LOOP-BOUND: each round moves pos past one string and its NUL (at least 1 byte) of a
	 * property of length len. */
	while (pos < (size_t)len) {
		size_t n = strnlen(&p[pos], (size_t)len - pos);
		if (n == (size_t)len - pos) {
			return false; /* unterminated last string */
		}
		if ((n == want) && (memcmp(&p[pos], str, n) == 0)) {
			return true;
		}
		pos += n + 1U;
	}
	return false;
}

bool fdt_node_compatible(const struct fdt *f, int node, const char *compat)
{
	int len;
	const void *p = fdt_getprop(f, node, "compatible", &len);

	return fdt_stringlist_has(p, len, compat);
}

uint64_t fdt_read_cells(const void *p, uint32_t n)
{
	return (n == 2U) ? fdt_be64(p) : (uint64_t)fdt_be32(p);
}

static int fdt_cells(const struct fdt *f, int node, const char *name, uint32_t dflt)
{
	uint32_t v = 0U;
	int rc = fdt_prop_u32(f, node, name, &v);

	if (rc == -FDT_ERR_NOTFOUND) {
		return (int)dflt;
	}
	if (rc != 0) {
		return rc;
	}
	/* 0 is valid for #size-cells (cpus); more than 2 is nothing we use. */
	return (v <= 2U) ? (int)v : -FDT_ERR_BADVALUE;
}

int fdt_address_cells(const struct fdt *f, int node)
{
	return fdt_cells(f, node, "#address-cells", 2U);
}

int fdt_size_cells(const struct fdt *f, int node)
{
	return fdt_cells(f, node, "#size-cells", 1U);
}

int fdt_reg(const struct fdt *f, int parent, int node, unsigned int idx, uint64_t *addr,
	    uint64_t *size)
{
	int ac = fdt_address_cells(f, parent);
	int sc = fdt_size_cells(f, parent);
	const uint8_t *p;
	uint32_t entry;
	size_t at;
	int len;

	if (ac < 0) {
		return ac;
	}
	if (sc < 0) {
		return sc;
	}
	if (ac == 0) {
		return -FDT_ERR_BADVALUE;
	}
	p = fdt_getprop(f, node, "reg", &len);
	if (p == NULL) {
		return len;
	}
	entry = ((uint32_t)ac + (uint32_t)sc) * 4U;
	if (((uint32_t)len % entry) != 0U) {
		return -FDT_ERR_BADVALUE;
	}
	if (((uint64_t)idx + 1U) * entry > (uint32_t)len) {
		return -FDT_ERR_NOTFOUND;
	}
	at = (size_t)idx * entry;
	*addr = fdt_read_cells(&p[at], (uint32_t)ac);
	*size = (sc == 0) ? 0U : fdt_read_cells(&p[at + ((size_t)ac * 4U)], (uint32_t)sc);
	return 0;
}

int fdt_node_by_phandle(const struct fdt *f, uint32_t phandle)
{
	int depth = 0;
	int n = 0;
	uint32_t steps;

	if ((phandle == 0U) || (phandle == ~0U)) {
		return -FDT_ERR_NOTFOUND;
	}
	for (steps = 0U; (steps <= (f->size_struct / 4U)) && (n >= 0); steps++) {
		uint32_t v;
		if (((fdt_prop_u32(f, n, "phandle", &v) == 0) ||
		     (fdt_prop_u32(f, n, "linux,phandle", &v) == 0)) && (v == phandle)) {
			return n;
		}
		n = fdt_next_node(f, n, &depth);
	}
	return -FDT_ERR_NOTFOUND;
}
