/* SPDX-License-Identifier: MIT */
/*
 * The node table: slots, hash chains by full path, arena storage of path
 * and value; path arithmetic on canonical paths; permissions (Xen's model:
 * the first entry names the owner, who may do anything, and gives everyone
 * else's default; later entries give one domain each its own access).
 */
#include "xs.h"


struct xs_store xs;

void xs_nodes_init(void)
{
	uint32_t i;

	for (i = 0U; i < XS_HASH_BUCKETS; i++) {
		xs.hash[i] = XS_NIL;
	}
	(void)memset(xs.node, 0, sizeof(xs.node));
	xs.free_node = 0U;
	xs.nodes_used = 0U;
}

struct xs_node *xs_node_lookup(const char *path, size_t len, uint8_t txn)
{
	uint32_t h = xs_hash(path, len);
	uint16_t i = xs.hash[h % XS_HASH_BUCKETS];
	uint32_t steps;

	/* A chain holds at most every slot once. */
	for (steps = 0U; (i != XS_NIL) && (steps < XS_MAX_NODES); steps++) {
		struct xs_node *n = &xs.node[i];
		if ((n->hash == h) && (n->txn == txn) && (n->path_len == len) &&
		    (memcmp(xs_node_path(n), path, len) == 0)) {
			return n;
		}
		i = n->hnext;
	}
	return NULL;
}

struct xs_node *xs_node_alloc(const char *path, size_t len, const void *val, uint32_t vlen)
{
	struct xs_node *n = NULL;
	uint32_t i;
	uint8_t *p;

	if ((len >= XS_PATH_MAX) || (vlen > XENSTORE_PAYLOAD_MAX)) {
		return NULL;
	}
	for (i = xs.free_node; i < XS_MAX_NODES; i++) {
		if (xs.node[i].kind == (uint8_t)XS_FREE) {
			n = &xs.node[i];
			break;
		}
	}
	if (n == NULL) {
		return NULL;
	}
	(void)memset(n, 0, sizeof(*n));
	if (!xs_arena_alloc((uint32_t)len + 1U + vlen, &n->off, &n->units)) {
		return NULL;
	}
	xs.free_node = (uint16_t)(i + 1U);
	xs.nodes_used++;
	p = xs_arena_ptr(n->off);
	(void)memcpy(p, path, len);
	p[len] = 0U;
	if (vlen != 0U) {
		(void)memcpy(&p[len + 1U], val, vlen);
	}
	n->path_len = (uint16_t)len;
	n->val_len = (uint16_t)vlen;
	n->hash = xs_hash(path, len);
	n->hnext = XS_NIL;
	n->tnext = XS_NIL;
	n->kind = (uint8_t)XS_LIVE;
	return n;
}

void xs_node_hash_in(struct xs_node *n)
{
	uint32_t b = n->hash % XS_HASH_BUCKETS;

	n->hnext = xs.hash[b];
	xs.hash[b] = xs_node_index(n);
}

void xs_node_hash_out(struct xs_node *n)
{
	uint32_t b = n->hash % XS_HASH_BUCKETS;
	uint16_t idx = xs_node_index(n);
	uint16_t *link = &xs.hash[b];
	uint32_t steps;

	for (steps = 0U; (*link != XS_NIL) && (steps < XS_MAX_NODES); steps++) {
		if (*link == idx) {
			*link = n->hnext;
			n->hnext = XS_NIL;
			return;
		}
		link = &xs.node[*link].hnext;
	}
}

void xs_node_free(struct xs_node *n)
{
	uint16_t idx = xs_node_index(n);

	xs_node_hash_out(n);
	xs_arena_free(n->off, n->units);
	(void)memset(n, 0, sizeof(*n));
	xs.nodes_used--;
	if (idx < xs.free_node) {
		xs.free_node = idx;
	}
}

bool xs_node_set_value(struct xs_node *n, const void *val, uint32_t vlen)
{
	uint32_t off;
	uint16_t units;
	uint32_t need = (uint32_t)n->path_len + 1U + vlen;
	uint8_t *p;

	if (need <= (uint32_t)n->units * XS_UNIT) {
		/* Fits where it is; shrinking keeps the units (freed with the node). */
		p = xs_arena_ptr(n->off);
		if (vlen != 0U) {
			(void)memcpy(&p[n->path_len + 1U], val, vlen);
		}
		n->val_len = (uint16_t)vlen;
		return true;
	}
	if (!xs_arena_alloc(need, &off, &units)) {
		return false;
	}
	p = xs_arena_ptr(off);
	(void)memcpy(p, xs_node_path(n), (size_t)n->path_len + 1U);
	(void)memcpy(&p[n->path_len + 1U], val, vlen);
	xs_arena_free(n->off, n->units);
	n->off = off;
	n->units = units;
	n->val_len = (uint16_t)vlen;
	return true;
}

/* ------------------------------------------------------------- paths */

size_t xs_path_parent_len(const char *path, size_t len)
{
	size_t i;

	if ((len <= 1U) || (path[0] != '/')) {
		return (path[0] == '@') ? 1U : 0U;
	}
	for (i = len - 1U; i > 0U; i--) {
		if (path[i] == '/') {
			return i;
		}
	}
	return 1U;
}

bool xs_path_is_child(const char *parent, size_t plen, const char *child, size_t clen)
{
	size_t start;
	size_t i;

	if (plen == 1U) {
		if ((parent[0] != '/') || (clen < 2U) || (child[0] != '/')) {
			return false;
		}
		start = 1U;
	} else {
		if ((clen <= plen + 1U) || (memcmp(parent, child, plen) != 0) ||
		    (child[plen] != '/')) {
			return false;
		}
		start = plen + 1U;
	}
	for (i = start; i < clen; i++) {
		if (child[i] == '/') {
			return false;
		}
	}
	return true;
}

bool xs_path_under(const char *p, size_t plen, const char *parent, size_t parlen)
{
	if ((parlen == 1U) && (parent[0] == '/')) {
		return (plen >= 1U) && (p[0] == '/');
	}
	if ((plen < parlen) || (memcmp(p, parent, parlen) != 0)) {
		return false;
	}
	return (plen == parlen) || (p[parlen] == '/');
}

/* ------------------------------------------------------- permissions */

uint8_t xs_perm_for(const struct xs_conn *c, const struct xs_perm *p, uint32_t n)
{
	uint32_t i;

	if ((c == NULL) || (n == 0U)) {
		return (c == NULL) ? (uint8_t)(XS_PERM_READ | XS_PERM_WRITE | XS_PERM_OWNER) : 0U;
	}
	if (p[0].dom == c->domid) {
		return (uint8_t)(XS_PERM_READ | XS_PERM_WRITE | XS_PERM_OWNER);
	}
	for (i = 1U; i < n; i++) {
		if (((p[i].mode & XS_PERM_IGNORE) == 0U) && (p[i].dom == c->domid)) {
			return (uint8_t)(p[i].mode & (XS_PERM_READ | XS_PERM_WRITE));
		}
	}
	return (uint8_t)(p[0].mode & (XS_PERM_READ | XS_PERM_WRITE));
}

enum xs_err xs_perm_parse(const char *s, size_t len, uint32_t n, struct xs_perm *out)
{
	size_t pos = 0U;
	uint32_t i;

	for (i = 0U; i < n; i++) {
		size_t sl;
		uint32_t dom;
		if (pos >= len) {
			return XS_EINVAL;
		}
		sl = xs_strnlen(&s[pos], len - pos);
		if ((pos + sl >= len) || (sl < 2U)) {
			return XS_EINVAL; /* no terminating nul, or no domid */
		}
		switch (s[pos]) {
		case XS_PERM_CHAR_NONE:
			out[i].mode = XS_PERM_NONE;
			break;
		case XS_PERM_CHAR_READ:
			out[i].mode = XS_PERM_READ;
			break;
		case XS_PERM_CHAR_WRITE:
			out[i].mode = XS_PERM_WRITE;
			break;
		case XS_PERM_CHAR_BOTH:
			out[i].mode = XS_PERM_READ | XS_PERM_WRITE;
			break;
		default:
			return XS_EINVAL;
		}
		if (!xs_parse_u32(&s[pos + 1U], 0xffffU, &dom)) {
			return XS_EINVAL;
		}
		out[i].dom = (uint16_t)dom;
		if (xs_dom_find((uint16_t)dom) == NULL) {
			out[i].mode |= XS_PERM_IGNORE;
		}
		pos += sl + 1U;
	}
	return XS_OK;
}

uint32_t xs_perm_format(const struct xs_perm *p, uint32_t n, char *buf, uint32_t cap)
{
	static const char letter[4] = { 'n', 'r', 'w', 'b' };
	uint32_t used = 0U;
	uint32_t i;

	for (i = 0U; (i < n) && (used + 8U <= cap); i++) {
		buf[used] = letter[p[i].mode & 3U];
		used++;
		used += xs_fmt_u32(&buf[used], p[i].dom);
		buf[used] = '\0';
		used++;
	}
	return used;
}

/* ------------------------------------------------------------ domains */

bool xs_dom_add(uint16_t domid)
{
	uint32_t i;

	if (xs_dom_find(domid) != NULL) {
		return true;
	}
	for (i = 0U; i < XS_MAX_DOMS; i++) {
		if (!xs.dom[i].used) {
			(void)memset(&xs.dom[i], 0, sizeof(xs.dom[i]));
			xs.dom[i].used = true;
			xs.dom[i].domid = domid;
			return true;
		}
	}
	return false;
}

struct xs_dom *xs_dom_find(uint16_t domid)
{
	uint32_t i;

	for (i = 0U; i < XS_MAX_DOMS; i++) {
		if (xs.dom[i].used && (xs.dom[i].domid == domid)) {
			return &xs.dom[i];
		}
	}
	return NULL;
}

void xs_account_node(const struct xs_node *n, int sign)
{
	struct xs_dom *d = (n->nperms != 0U) ? xs_dom_find(n->perms[0].dom) : NULL;

	if (d == NULL) {
		return;
	}
	if (sign > 0) {
		d->nodes++;
		d->memory += xs_node_bytes(n);
	} else {
		d->nodes--;
		d->memory -= xs_node_bytes(n);
	}
}
