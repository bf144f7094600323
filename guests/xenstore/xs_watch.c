/* SPDX-License-Identifier: MIT */
/*
 * Watches: a change at a path is an event for every watch on that path or
 * above it (optionally limited in depth), sent only to clients that may
 * read the node (or, as in Xen, its parent, or the node under its old
 * permissions). Events of a relative watch carry the relative path. A
 * client whose queue is full loses the event; the others do not notice.
 */
#include "xs.h"


void xs_watches_init(void)
{
	(void)memset(xs.watch, 0, sizeof(xs.watch));
}

static const char *watch_path(const struct xs_watch *w)
{
	return (const char *)xs_arena_ptr(w->off);
}

static const char *watch_token(const struct xs_watch *w)
{
	return (const char *)xs_arena_ptr(w->off + w->path_len + 1U);
}

static uint8_t conn_tag(const struct xs_conn *c)
{
	return (uint8_t)((c - xs.conn) + 1);
}

static struct xs_watch *watch_find(const struct xs_conn *c, const char *path, size_t plen,
				   const char *token, size_t tlen)
{
	uint32_t i;

	for (i = 0U; i < XS_MAX_WATCHES; i++) {
		struct xs_watch *w = &xs.watch[i];
		if ((w->conn == conn_tag(c)) && (w->path_len == plen) && (w->token_len == tlen) &&
		    (memcmp(watch_path(w), path, plen) == 0) &&
		    (memcmp(watch_token(w), token, tlen) == 0)) {
			return w;
		}
	}
	return NULL;
}

enum xs_err xs_watch_add(struct xs_conn *c, const char *path, size_t plen, const char *token,
			 size_t tlen, uint16_t prefix, int depth)
{
	const struct xs_dom *d = xs_dom_find(c->domid);
	struct xs_watch *w = NULL;
	uint32_t bytes = (((uint32_t)(plen + tlen + 2U) + XS_UNIT - 1U) / XS_UNIT) * XS_UNIT;
	uint8_t *p;
	uint32_t i;

	if (watch_find(c, path, plen, token, tlen) != NULL) {
		return XS_EEXIST;
	}
	if ((c->watches >= xs.quota.watches) ||
	    (c->memory + ((d != NULL) ? d->memory : 0U) + bytes > xs.quota.memory)) {
		return XS_ENOSPC;
	}
	for (i = 0U; i < XS_MAX_WATCHES; i++) {
		if (xs.watch[i].conn == 0U) {
			w = &xs.watch[i];
			break;
		}
	}
	if (w == NULL) {
		return XS_ENOSPC;
	}
	if (!xs_arena_alloc((uint32_t)(plen + tlen + 2U), &w->off, &w->units)) {
		return XS_ENOMEM;
	}
	p = xs_arena_ptr(w->off);
	(void)memcpy(p, path, plen);
	p[plen] = 0U;
	(void)memcpy(&p[plen + 1U], token, tlen);
	p[plen + 1U + tlen] = 0U;
	w->path_len = (uint16_t)plen;
	w->token_len = (uint16_t)tlen;
	w->prefix = prefix;
	w->depth = (int16_t)depth;
	w->conn = conn_tag(c);
	c->watches++;
	c->memory += (uint32_t)w->units * XS_UNIT;
	return XS_OK;
}

static void watch_free(struct xs_conn *c, struct xs_watch *w)
{
	c->watches--;
	c->memory -= (uint32_t)w->units * XS_UNIT;
	xs_arena_free(w->off, w->units);
	(void)memset(w, 0, sizeof(*w));
}

enum xs_err xs_watch_del(struct xs_conn *c, const char *path, size_t plen, const char *token,
			 size_t tlen)
{
	struct xs_watch *w = watch_find(c, path, plen, token, tlen);

	if (w == NULL) {
		return XS_ENOENT;
	}
	watch_free(c, w);
	return XS_OK;
}

void xs_watch_del_all(struct xs_conn *c)
{
	uint32_t i;

	for (i = 0U; i < XS_MAX_WATCHES; i++) {
		if (xs.watch[i].conn == conn_tag(c)) {
			watch_free(c, &xs.watch[i]);
		}
	}
}

/* Xen's is_child() with depth: path at or below wpath, at most depth levels. */
static bool watch_matches(const struct xs_watch *w, const char *path, size_t len, uint8_t match)
{
	const char *wp = watch_path(w);
	size_t wl = w->path_len;
	uint32_t levels;
	size_t i;

	if (match == XS_MATCH_EXACT) {
		return (wl == len) && (memcmp(wp, path, len) == 0);
	}
	if (!xs_path_under(path, len, wp, wl)) {
		return false;
	}
	if ((w->depth < 0) || (len == wl)) {
		return true;
	}
	levels = (wl == 1U) ? 1U : 0U;
	for (i = wl; i < len; i++) {
		if (path[i] == '/') {
			levels++;
		}
	}
	return levels <= (uint32_t)w->depth;
}

static bool watch_permitted(const struct xs_conn *c, const char *path, size_t len,
			    const struct xs_perm *p, uint32_t np, const struct xs_perm *oldp,
			    uint32_t noldp)
{
	const struct xs_node *parent;
	size_t pl;

	if ((xs_perm_for(c, p, np) & XS_PERM_READ) != 0U) {
		return true;
	}
	if ((oldp != NULL) && ((xs_perm_for(c, oldp, noldp) & XS_PERM_READ) != 0U)) {
		return true;
	}
	pl = xs_path_parent_len(path, len);
	parent = ((pl != 0U) && (path[0] == '/')) ? xs_node_lookup(path, pl, 0U) : NULL;
	return (parent != NULL) && ((xs_perm_for(c, parent->perms, parent->nperms) & XS_PERM_READ) != 0U);
}

void xs_fire(const char *path, size_t len, uint8_t match, const struct xs_perm *p, uint32_t np,
	     const struct xs_perm *oldp, uint32_t noldp)
{
	uint32_t i;

	for (i = 0U; i < XS_MAX_WATCHES; i++) {
		const struct xs_watch *w = &xs.watch[i];
		struct xs_conn *c;
		size_t skip;
		if ((w->conn == 0U) || !watch_matches(w, path, len, match)) {
			continue;
		}
		c = &xs.conn[w->conn - 1U];
		if (!c->active || (c->error != 0U) ||
		    !watch_permitted(c, path, len, p, np, oldp, noldp)) {
			continue;
		}
		skip = (len > w->prefix) ? w->prefix : 0U;
		(void)xs_send_event(c, &path[skip], len - skip, watch_token(w), w->token_len);
	}
}

void xs_fire_special(const char *name)
{
	size_t len = strlen(name);
	const struct xs_node *n = xs_node_lookup(name, len, 0U);
	uint32_t i;

	if (n == NULL) {
		return;
	}
	for (i = 0U; i < XS_MAX_WATCHES; i++) {
		const struct xs_watch *w = &xs.watch[i];
		struct xs_conn *c;
		if ((w->conn == 0U) || (w->path_len != len) || (memcmp(watch_path(w), name, len) != 0)) {
			continue;
		}
		c = &xs.conn[w->conn - 1U];
		if (c->active && (c->error == 0U) &&
		    ((xs_perm_for(c, n->perms, n->nperms) & XS_PERM_READ) != 0U)) {
			(void)xs_send_event(c, name, len, watch_token(w), w->token_len);
		}
	}
}
