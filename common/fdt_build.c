/* SPDX-License-Identifier: MIT */
/*
 * Bounded flattened-device-tree writer: header, an empty reservation map,
 * the structure block as the caller emits it, then the strings block (kept
 * in the writer while building, de-duplicated, copied out by finish). It
 * never writes past cap; the first failure sticks.
 */
#include <bulkhead/fdt.h>
#include <bulkhead/lib.h>

#define FDT_W_RSVMAP U(40)
#define FDT_W_STRUCT (FDT_W_RSVMAP + U(16))

static void fdt_w_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static bool fdt_w_room(struct fdt_writer *w, uint32_t bytes)
{
	if (w->err != 0) {
		return false;
	}
	if ((bytes > w->cap) || (w->pos > w->cap - bytes)) {
		w->err = -FDT_ERR_NOSPACE;
		return false;
	}
	return true;
}

/* Append bytes padded with zeros to a multiple of 4. */
static void fdt_w_bytes(struct fdt_writer *w, const void *data, uint32_t len)
{
	uint32_t padded = (len + 3U) & ~3U;

	if ((len > padded) || !fdt_w_room(w, padded)) {
		w->err = (w->err != 0) ? w->err : -FDT_ERR_NOSPACE;
		return;
	}
	if (len != 0U) {
		(void)memcpy(&w->buf[w->pos], data, len);
	}
	(void)memset(&w->buf[w->pos + len], 0, padded - len);
	w->pos += padded;
}

static void fdt_w_token(struct fdt_writer *w, uint32_t tok)
{
	uint8_t b[4];

	fdt_w_put32(b, tok);
	fdt_w_bytes(w, b, 4U);
}

void fdt_w_init(struct fdt_writer *w, void *buf, size_t cap)
{
	(void)memset(w, 0, sizeof(*w));
	w->buf = buf;
	w->cap = (cap > U(0x7fffffff)) ? U(0x7fffffff) : (uint32_t)cap;
	if ((buf == NULL) || (w->cap < FDT_W_STRUCT)) {
		w->err = -FDT_ERR_NOSPACE;
		return;
	}
	(void)memset(w->buf, 0, FDT_W_STRUCT);
	w->pos = FDT_W_STRUCT;
}

void fdt_w_begin_node(struct fdt_writer *w, const char *name)
{
	size_t len = strnlen(name, FDT_MAX_NAME);

	if ((w->err == 0) && ((len >= FDT_MAX_NAME) || (w->depth > FDT_MAX_DEPTH))) {
		w->err = -FDT_ERR_BADVALUE;
	}
	fdt_w_token(w, FDT_BEGIN_NODE);
	fdt_w_bytes(w, name, (uint32_t)len + 1U);
	if (w->err == 0) {
		w->depth++;
	}
}

void fdt_w_end_node(struct fdt_writer *w)
{
	if ((w->err == 0) && (w->depth == 0U)) {
		w->err = -FDT_ERR_BADSTRUCT;
	}
	fdt_w_token(w, FDT_END_NODE);
	if (w->err == 0) {
		w->depth--;
	}
}

/* Offset of name in the strings table, adding it if new; -1 when full. */
static int fdt_w_string(struct fdt_writer *w, const char *name)
{
	size_t len = strnlen(name, FDT_MAX_NAME);
	uint32_t off = 0U;

	/* LOOP-BOUND: each round moves off past one string and its NUL (at least 1 byte) of the
	 * FDT_W_STRINGS-sized table. */
	while (off < w->strings_len) {
		size_t have = strnlen(&w->strings[off], w->strings_len - off);
		if ((have == len) && (memcmp(&w->strings[off], name, len) == 0)) {
			return (int)off;
		}
		off += (uint32_t)have + 1U;
	}
	if ((len >= FDT_MAX_NAME) || (len + 1U > FDT_W_STRINGS - w->strings_len)) {
		return -1;
	}
	off = w->strings_len;
	(void)memcpy(&w->strings[off], name, len + 1U);
	w->strings_len += (uint32_t)len + 1U;
	return (int)off;
}

void fdt_w_prop(struct fdt_writer *w, const char *name, const void *data, uint32_t len)
{
	uint8_t hdr[8];
	int nameoff;

	if (w->err != 0) {
		return;
	}
	if (w->depth == 0U) {
		w->err = -FDT_ERR_BADSTRUCT;
		return;
	}
	nameoff = fdt_w_string(w, name);
	if (nameoff < 0) {
		w->err = -FDT_ERR_NOSPACE;
		return;
	}
	fdt_w_put32(hdr, len);
	fdt_w_put32(&hdr[4], (uint32_t)nameoff);
	fdt_w_token(w, FDT_PROP);
	fdt_w_bytes(w, hdr, 8U);
	fdt_w_bytes(w, data, len);
}

void fdt_w_prop_empty(struct fdt_writer *w, const char *name)
{
	fdt_w_prop(w, name, NULL, 0U);
}

void fdt_w_prop_u32(struct fdt_writer *w, const char *name, uint32_t v)
{
	uint8_t b[4];

	fdt_w_put32(b, v);
	fdt_w_prop(w, name, b, 4U);
}

void fdt_w_prop_u64(struct fdt_writer *w, const char *name, uint64_t v)
{
	uint8_t b[8];

	fdt_w_put32(b, (uint32_t)(v >> 32));
	fdt_w_put32(&b[4], (uint32_t)v);
	fdt_w_prop(w, name, b, 8U);
}

void fdt_w_prop_string(struct fdt_writer *w, const char *name, const char *s)
{
	size_t len = strnlen(s, w->cap);

	fdt_w_prop(w, name, s, (uint32_t)len + 1U);
}

void fdt_w_prop_cells(struct fdt_writer *w, const char *name, const uint32_t *cells,
		      uint32_t n)
{
	uint32_t i;
	uint8_t b[4];
	uint8_t hdr[8];
	int nameoff;

	if (w->err != 0) {
		return;
	}
	if (w->depth == 0U) {
		w->err = -FDT_ERR_BADSTRUCT;
		return;
	}
	if (n > (w->cap / 4U)) {
		w->err = -FDT_ERR_NOSPACE;
		return;
	}
	nameoff = fdt_w_string(w, name);
	if (nameoff < 0) {
		w->err = -FDT_ERR_NOSPACE;
		return;
	}
	fdt_w_put32(hdr, n * 4U);
	fdt_w_put32(&hdr[4], (uint32_t)nameoff);
	fdt_w_token(w, FDT_PROP);
	fdt_w_bytes(w, hdr, 8U);
	for (i = 0U; i < n; i++) {
		fdt_w_put32(b, cells[i]);
		fdt_w_bytes(w, b, 4U);
	}
}

int fdt_w_finish(struct fdt_writer *w)
{
	uint32_t size_struct;
	uint32_t total;

	if ((w->err == 0) && (w->depth != 0U)) {
		w->err = -FDT_ERR_BADSTRUCT;
	}
	fdt_w_token(w, FDT_END);
	if ((w->err == 0) && !fdt_w_room(w, w->strings_len)) {
		return w->err;
	}
	if (w->err != 0) {
		return w->err;
	}
	size_struct = w->pos - FDT_W_STRUCT;
	(void)memcpy(&w->buf[w->pos], w->strings, w->strings_len);
	total = w->pos + w->strings_len;
	fdt_w_put32(&w->buf[0], FDT_MAGIC);
	fdt_w_put32(&w->buf[4], total);
	fdt_w_put32(&w->buf[8], FDT_W_STRUCT);
	fdt_w_put32(&w->buf[12], w->pos);
	fdt_w_put32(&w->buf[16], FDT_W_RSVMAP);
	fdt_w_put32(&w->buf[20], U(17));
	fdt_w_put32(&w->buf[24], U(16));
	fdt_w_put32(&w->buf[28], 0U);          /* boot_cpuid_phys */
	fdt_w_put32(&w->buf[32], w->strings_len);
	fdt_w_put32(&w->buf[36], size_struct);
	/* No more writes: a second finish would append a second FDT_END. */
	w->err = -FDT_ERR_BADSTRUCT;
	return (int)total;
}
