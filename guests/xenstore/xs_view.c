/* SPDX-License-Identifier: MIT */
/*
 * Reads and changes of the tree as one client sees it: directly in the
 * main tree, or inside a transaction, where every node touched is recorded
 * with the generation the transaction first saw (xs_txn.c checks them at
 * commit) and changes go to overlay entries only. Creation makes missing
 * parents (empty values), each inheriting its parent's permissions, owned
 * by the client that creates it as in Xen. Quotas are charged to the owner.
 */
#include "xs.h"


static bool view_priv(const struct xs_view *v)
{
	return v->c == NULL;
}

static uint8_t txn_tag(const struct xs_view *v)
{
	return (uint8_t)((v->t - xs.txn) + 1);
}

/* Memory a client uses: the nodes it owns, its watches and its overlays. */
static uint32_t client_memory(uint16_t domid)
{
	const struct xs_dom *d = xs_dom_find(domid);
	const struct xs_conn *c = xs_conn_of(domid);

	return ((d != NULL) ? d->memory : 0U) + ((c != NULL) ? c->memory : 0U);
}

/* Whether domid may own dnodes more nodes and dmem more arena bytes. */
static enum xs_err quota_check(uint16_t owner, int64_t dnodes, int64_t dmem)
{
	const struct xs_dom *d = xs_dom_find(owner);

	if ((owner == xs.self) || (d == NULL)) {
		return XS_OK;
	}
	if ((dnodes > 0) && ((int64_t)d->nodes + dnodes > (int64_t)xs.quota.nodes)) {
		return XS_ENOSPC;
	}
	if ((dmem > 0) && ((int64_t)client_memory(owner) + dmem > (int64_t)xs.quota.memory)) {
		return XS_ENOSPC;
	}
	return XS_OK;
}

static uint32_t bytes_for(size_t plen, uint32_t vlen)
{
	return (((uint32_t)plen + 1U + vlen + XS_UNIT - 1U) / XS_UNIT) * XS_UNIT;
}

uint8_t xs_view_perm(const struct xs_view *v, const struct xs_node *n)
{
	return xs_perm_for(v->c, n->perms, n->nperms);
}

/* The transaction's entry for path, if it has one. */
static struct xs_node *txn_entry(const struct xs_view *v, const char *path, size_t len)
{
	return (v->t != NULL) ? xs_node_lookup(path, len, txn_tag(v)) : NULL;
}

struct xs_node *xs_view_get(struct xs_view *v, const char *path, size_t len)
{
	struct xs_node *m;
	struct xs_node *e;
	enum xs_err err = XS_OK;

	if (v->t == NULL) {
		return xs_node_lookup(path, len, 0U);
	}
	e = txn_entry(v, path, len);
	if (e != NULL) {
		if (e->kind == (uint8_t)XS_LIVE) {
			return e;
		}
		return (e->kind == (uint8_t)XS_TOMB) ? NULL : xs_node_lookup(path, len, 0U);
	}
	m = xs_node_lookup(path, len, 0U);
	/* First touch: remember what was seen, absent included. */
	e = xs_txn_record(v->t, path, len, NULL, 0U, &err);
	if (e == NULL) {
		v->t->failed = true;
		v->err = err;
		return m;
	}
	e->kind = (uint8_t)XS_SEEN;
	e->base_gen = (m != NULL) ? m->gen : XS_GEN_NONE;
	return m;
}

struct xs_node *xs_view_ancestor(struct xs_view *v, const char *path, size_t len)
{
	size_t l = len;
	uint32_t steps;

	/* Each step removes at least one byte of the path. */
	for (steps = 0U; steps <= len; steps++) {
		struct xs_node *n;
		l = xs_path_parent_len(path, l);
		if ((l == 0U) || (path[0] == '@')) {
			break;
		}
		n = xs_view_get(v, path, l);
		if (n != NULL) {
			return n;
		}
		if (l == 1U) {
			break;
		}
	}
	return xs_node_lookup("/", 1U, 0U);
}

/* Perms a new node below parent gets: the parent's, owned by the creator. */
static void inherit(const struct xs_view *v, const struct xs_node *parent, struct xs_node *n)
{
	n->nperms = parent->nperms;
	(void)memcpy(n->perms, parent->perms, sizeof(n->perms));
	if (!view_priv(v)) {
		n->perms[0].dom = v->c->domid;
	}
}

static void bump(struct xs_node *n)
{
	xs.gen++;
	n->gen = xs.gen;
}

/* Main tree: the parent of a created or removed node changed its children. */
static void bump_parent(const char *path, size_t len)
{
	size_t pl = xs_path_parent_len(path, len);
	struct xs_node *p = (pl != 0U) ? xs_node_lookup(path, pl, 0U) : NULL;

	if (p != NULL) {
		bump(p);
	}
}

/* Length of the next level of path after l ("/a/b/c", 2 -> 4). */
static size_t next_level(const char *path, size_t len, size_t l)
{
	size_t i = (l == 1U) ? 1U : l + 1U;

	for (; (i < len) && (path[i] != '/'); i++) {
	}
	return i;
}

/* Undo a partial creation in the main tree: the levels after alen. */
static void create_undo(const char *path, size_t len, size_t alen)
{
	size_t l = alen;
	uint32_t steps;

	for (steps = 0U; (l < len) && (steps < len); steps++) {
		struct xs_node *n;
		l = next_level(path, len, l);
		n = xs_node_lookup(path, l, 0U);
		if (n != NULL) {
			xs_account_node(n, -1);
			xs_node_free(n);
		}
	}
}

/* Create path and its missing parents below the existing ancestor anc. */
static enum xs_err view_create(struct xs_view *v, const char *path, size_t len, const void *val,
			       uint32_t vlen, struct xs_node *anc, struct xs_node **out)
{
	size_t alen = anc->path_len;
	size_t l = alen;
	uint32_t levels = 0U;
	uint32_t bytes = 0U;
	struct xs_node *parent = anc;
	uint16_t owner = view_priv(v) ? anc->perms[0].dom : v->c->domid;
	enum xs_err err;
	uint32_t steps;

	if ((alen == 1U) && (xs_node_path(anc)[0] == '/')) {
		l = 1U;
	}
	/* Count what will be made, for the quota. */
	for (steps = 0U; (l < len) && (steps < len); steps++) {
		l = next_level(path, len, l);
		levels++;
		bytes += bytes_for(l, (l == len) ? vlen : 0U);
	}
	if (!view_priv(v) && (v->t == NULL)) {
		err = quota_check(owner, (int64_t)levels, (int64_t)bytes);
		if (err != XS_OK) {
			return err;
		}
	}
	l = (alen == 1U) ? 1U : alen;
	for (steps = 0U; (l < len) && (steps < len); steps++) {
		struct xs_node *n;
		bool last;
		l = next_level(path, len, l);
		last = (l == len);
		if (v->t == NULL) {
			n = xs_node_alloc(path, l, last ? val : NULL, last ? vlen : 0U);
			if (n == NULL) {
				create_undo(path, len, alen);
				return XS_ENOMEM;
			}
			inherit(v, parent, n);
			bump(n);
			xs_node_hash_in(n);
			xs_account_node(n, 1);
			if (parent == anc) {
				bump(anc);
			}
		} else {
			struct xs_node *e = txn_entry(v, path, l);
			/* A failure leaves the transaction failed: nothing to undo. */
			if (e != NULL) {
				/* An absent record (or a tombstone): written now. */
				err = xs_txn_set_value(v->t, e, last ? val : NULL, last ? vlen : 0U);
			} else {
				e = xs_txn_record(v->t, path, l, last ? val : NULL, last ? vlen : 0U,
						  &err);
				if (e != NULL) {
					e->base_gen = XS_GEN_NONE;
				}
			}
			if ((e == NULL) || (err != XS_OK)) {
				v->t->failed = true;
				return err;
			}
			e->kind = (uint8_t)XS_LIVE;
			e->val_len = (uint16_t)(last ? vlen : 0U);
			inherit(v, parent, e);
			n = e;
		}
		parent = n;
	}
	*out = parent;
	return XS_OK;
}

/* The transaction's own copy of main node m, made writable. */
static struct xs_node *txn_claim(struct xs_view *v, struct xs_node *m, const void *val,
				 uint32_t vlen, enum xs_err *err)
{
	struct xs_node *e = txn_entry(v, xs_node_path(m), m->path_len);

	if (e == NULL) {
		e = xs_txn_record(v->t, xs_node_path(m), m->path_len, val, vlen, err);
		if (e == NULL) {
			v->t->failed = true;
			return NULL;
		}
		e->base_gen = m->gen;
	} else {
		/* The record of an earlier read becomes the written entry. */
		*err = xs_txn_set_value(v->t, e, val, vlen);
		if (*err != XS_OK) {
			v->t->failed = true;
			return NULL;
		}
	}
	e->kind = (uint8_t)XS_LIVE;
	e->nperms = m->nperms;
	(void)memcpy(e->perms, m->perms, sizeof(e->perms));
	return e;
}

enum xs_err xs_view_write(struct xs_view *v, const char *path, size_t len, const void *val,
			  uint32_t vlen, bool keep_value, struct xs_node **out)
{
	struct xs_node *n = xs_view_get(v, path, len);
	enum xs_err err = XS_OK;

	if (v->err != XS_OK) {
		return v->err;
	}
	if (n == NULL) {
		return view_create(v, path, len, val, vlen, xs_view_ancestor(v, path, len), out);
	}
	*out = n;
	if (keep_value) {
		return XS_OK;
	}
	if (v->t == NULL) {
		int64_t dmem = (int64_t)bytes_for(len, vlen) - (int64_t)xs_node_bytes(n);
		if (!view_priv(v)) {
			err = quota_check(n->perms[0].dom, 0, dmem);
			if (err != XS_OK) {
				return err;
			}
		}
		xs_account_node(n, -1);
		if (!xs_node_set_value(n, val, vlen)) {
			xs_account_node(n, 1);
			return XS_ENOMEM;
		}
		xs_account_node(n, 1);
		bump(n);
		return XS_OK;
	}
	if (n->txn != 0U) {
		return xs_txn_set_value(v->t, n, val, vlen);
	}
	n = txn_claim(v, n, val, vlen, &err);
	if (n == NULL) {
		return err;
	}
	*out = n;
	return XS_OK;
}

enum xs_err xs_view_set_perms(struct xs_view *v, struct xs_node *n, const struct xs_perm *p,
			      uint32_t np)
{
	enum xs_err err = XS_OK;

	if (v->t == NULL) {
		/* Only the store changes owners, and it has no quota. */
		xs_account_node(n, -1);
		(void)memset(n->perms, 0, sizeof(n->perms));
		(void)memcpy(n->perms, p, sizeof(*p) * np);
		n->nperms = (uint8_t)np;
		xs_account_node(n, 1);
		bump(n);
		return XS_OK;
	}
	if (n->txn == 0U) {
		n = txn_claim(v, n, xs_node_value(n), n->val_len, &err);
		if (n == NULL) {
			return err;
		}
	}
	(void)memset(n->perms, 0, sizeof(n->perms));
	(void)memcpy(n->perms, p, sizeof(*p) * np);
	n->nperms = (uint8_t)np;
	return XS_OK;
}

void xs_view_changed(struct xs_view *v, struct xs_node *n, uint8_t match)
{
	if (v->t == NULL) {
		xs_fire(xs_node_path(n), n->path_len, match, n->perms, n->nperms, NULL, 0U);
	} else if (match > n->fire) {
		n->fire = match;
	} else {
		/* A subtree event already covers an exact one. */
	}
}

static enum xs_err rm_main(struct xs_view *v, const char *path, size_t len)
{
	uint32_t i;

	/* Events first, while the nodes and their permissions are still there. */
	for (i = 0U; i < XS_MAX_NODES; i++) {
		struct xs_node *n = &xs.node[i];
		if ((n->kind == (uint8_t)XS_LIVE) && (n->txn == 0U) &&
		    xs_path_under(xs_node_path(n), n->path_len, path, len)) {
			xs_view_changed(v, n, (n->path_len == len) ? XS_MATCH_SUBTREE : XS_MATCH_EXACT);
		}
	}
	for (i = 0U; i < XS_MAX_NODES; i++) {
		struct xs_node *n = &xs.node[i];
		if ((n->kind == (uint8_t)XS_LIVE) && (n->txn == 0U) &&
		    xs_path_under(xs_node_path(n), n->path_len, path, len)) {
			xs_account_node(n, -1);
			xs_node_free(n);
		}
	}
	bump_parent(path, len);
	return XS_OK;
}

/* Tombstone one node of the transaction's view. */
static enum xs_err rm_txn_one(struct xs_view *v, const char *p, size_t l, const struct xs_node *m,
			      uint8_t match)
{
	struct xs_node *e = txn_entry(v, p, l);
	enum xs_err err = XS_OK;

	if (e == NULL) {
		e = xs_txn_record(v->t, p, l, NULL, 0U, &err);
		if (e == NULL) {
			v->t->failed = true;
			return err;
		}
		e->base_gen = (m != NULL) ? m->gen : XS_GEN_NONE;
	} else if (e->kind == (uint8_t)XS_TOMB) {
		return XS_OK;
	} else {
		(void)xs_txn_set_value(v->t, e, NULL, 0U);
	}
	if (m != NULL) {
		e->nperms = m->nperms;
		(void)memcpy(e->perms, m->perms, sizeof(e->perms));
	}
	e->kind = (uint8_t)XS_TOMB;
	xs_view_changed(v, e, match);
	return XS_OK;
}

static enum xs_err rm_txn(struct xs_view *v, const char *path, size_t len)
{
	uint8_t tag = txn_tag(v);
	enum xs_err err;
	uint32_t i;

	for (i = 0U; i < XS_MAX_NODES; i++) {
		struct xs_node *n = &xs.node[i];
		uint8_t match;
		if ((n->kind == (uint8_t)XS_FREE) ||
		    !xs_path_under(xs_node_path(n), n->path_len, path, len)) {
			continue;
		}
		match = (n->path_len == len) ? XS_MATCH_SUBTREE : XS_MATCH_EXACT;
		if ((n->txn == 0U) && (n->kind == (uint8_t)XS_LIVE)) {
			err = rm_txn_one(v, xs_node_path(n), n->path_len, n, match);
		} else if ((n->txn == tag) && (n->kind == (uint8_t)XS_LIVE) &&
			   (xs_node_lookup(xs_node_path(n), n->path_len, 0U) == NULL)) {
			/* Made in this transaction only. */
			n->kind = (uint8_t)XS_TOMB;
			xs_view_changed(v, n, match);
			err = XS_OK;
		} else {
			err = XS_OK;
		}
		if (err != XS_OK) {
			return err;
		}
	}
	return XS_OK;
}

enum xs_err xs_view_rm(struct xs_view *v, const char *path, size_t len)
{
	return (v->t == NULL) ? rm_main(v, path, len) : rm_txn(v, path, len);
}

static enum xs_err add_leaf(size_t len, const struct xs_node *n, uint8_t *buf,
			    uint32_t cap, uint32_t *used)
{
	size_t skip = (len == 1U) ? 1U : len + 1U;
	size_t leaf = (size_t)n->path_len - skip;

	if (*used + leaf + 1U > cap) {
		return XS_E2BIG;
	}
	(void)memcpy(&buf[*used], &xs_node_path(n)[skip], leaf);
	buf[*used + leaf] = 0U;
	*used += (uint32_t)leaf + 1U;
	return XS_OK;
}

enum xs_err xs_view_children(struct xs_view *v, const char *path, size_t len, uint8_t *buf,
			     uint32_t cap, uint32_t *used)
{
	uint8_t tag = (v->t != NULL) ? txn_tag(v) : 0U;
	uint32_t i;

	*used = 0U;
	for (i = 0U; i < XS_MAX_NODES; i++) {
		const struct xs_node *n = &xs.node[i];
		const struct xs_node *e;
		if ((n->kind != (uint8_t)XS_LIVE) || ((n->txn != 0U) && (n->txn != tag)) ||
		    !xs_path_is_child(path, len, xs_node_path(n), n->path_len)) {
			continue;
		}
		if ((n->txn == 0U) && (tag != 0U)) {
			e = xs_node_lookup(xs_node_path(n), n->path_len, tag);
			if ((e != NULL) && (e->kind == (uint8_t)XS_TOMB)) {
				continue; /* removed in this transaction */
			}
		}
		if ((n->txn != 0U) && (xs_node_lookup(xs_node_path(n), n->path_len, 0U) != NULL)) {
			continue; /* listed with the main tree's node */
		}
		if (add_leaf(len, n, buf, cap, used) != XS_OK) {
			return XS_E2BIG;
		}
	}
	return XS_OK;
}
