/* SPDX-License-Identifier: MIT */
/*
 * Transactions. Each is a list of overlay entries, one per node it touched,
 * holding the main tree's generation it first saw. Commit checks every one
 * of them against the main tree: any change since (a write, a create or a
 * delete by anyone, a child added or removed) is a conflict, EAGAIN, as in
 * Xen's xenstored. Then the quota of every owner that grows is checked,
 * and only then is anything changed: written entries are relabelled into
 * the main tree (no allocation, so a commit cannot fail half-way) and the
 * watches they mark fire.
 */
#include "xs.h"


static struct xs_conn *txn_conn(const struct xs_txn *t)
{
	return &xs.conn[t->conn];
}

static uint8_t txn_tag(const struct xs_txn *t)
{
	return (uint8_t)((t - xs.txn) + 1);
}

void xs_txns_init(void)
{
	(void)memset(xs.txn, 0, sizeof(xs.txn));
}

struct xs_txn *xs_txn_find(const struct xs_conn *c, uint32_t id)
{
	uint8_t ci = (uint8_t)(c - xs.conn);
	uint32_t i;

	for (i = 0U; i < XS_MAX_TXNS; i++) {
		if ((xs.txn[i].id != 0U) && (xs.txn[i].id == id) && (xs.txn[i].conn == ci)) {
			return &xs.txn[i];
		}
	}
	return NULL;
}

static uint32_t conn_memory(const struct xs_conn *c)
{
	const struct xs_dom *d = xs_dom_find(c->domid);

	return c->memory + ((d != NULL) ? d->memory : 0U);
}

static uint32_t unit_bytes(size_t plen, uint32_t vlen)
{
	return (((uint32_t)plen + 1U + vlen + XS_UNIT - 1U) / XS_UNIT) * XS_UNIT;
}

struct xs_node *xs_txn_record(struct xs_txn *t, const char *path, size_t len, const void *val,
			      uint32_t vlen, enum xs_err *err)
{
	struct xs_conn *c = txn_conn(t);
	struct xs_node *n;

	if ((c->txn_nodes + 1U > xs.quota.txn_nodes) ||
	    (conn_memory(c) + unit_bytes(len, vlen) > xs.quota.memory)) {
		*err = XS_ENOSPC;
		return NULL;
	}
	n = xs_node_alloc(path, len, val, vlen);
	if (n == NULL) {
		*err = XS_ENOMEM;
		return NULL;
	}
	n->txn = txn_tag(t);
	xs_node_hash_in(n);
	n->tnext = t->head;
	t->head = xs_node_index(n);
	t->nodes++;
	t->memory += xs_node_bytes(n);
	c->txn_nodes++;
	c->memory += xs_node_bytes(n);
	*err = XS_OK;
	return n;
}

enum xs_err xs_txn_set_value(struct xs_txn *t, struct xs_node *e, const void *val, uint32_t vlen)
{
	struct xs_conn *c = txn_conn(t);
	uint32_t before = xs_node_bytes(e);
	uint32_t after = unit_bytes(e->path_len, vlen);

	if ((after > before) && (conn_memory(c) + (after - before) > xs.quota.memory)) {
		return XS_ENOSPC;
	}
	if (!xs_node_set_value(e, val, vlen)) {
		return XS_ENOMEM;
	}
	t->memory = t->memory - before + xs_node_bytes(e);
	c->memory = c->memory - before + xs_node_bytes(e);
	return XS_OK;
}

enum xs_err xs_txn_start(struct xs_conn *c, uint32_t *id)
{
	struct xs_txn *t = NULL;
	uint32_t i;
	uint32_t tries;

	if (c->txns >= xs.quota.txns) {
		return XS_ENOSPC;
	}
	for (i = 0U; i < XS_MAX_TXNS; i++) {
		if (xs.txn[i].id == 0U) {
			t = &xs.txn[i];
			break;
		}
	}
	if (t == NULL) {
		return XS_ENOSPC;
	}
	/* An id not in use on this connection: at most XS_MAX_TXNS are. */
	for (tries = 0U; tries <= XS_MAX_TXNS; tries++) {
		uint32_t cand = c->next_txid;
		c->next_txid++;
		if ((cand != 0U) && (xs_txn_find(c, cand) == NULL)) {
			(void)memset(t, 0, sizeof(*t));
			t->id = cand;
			t->conn = (uint8_t)(c - xs.conn);
			t->head = XS_NIL;
			c->txns++;
			*id = cand;
			return XS_OK;
		}
	}
	return XS_ENOSPC;
}

/* Give an entry back (its memory and count leave the connection). */
static void entry_drop(struct xs_txn *t, struct xs_node *e)
{
	struct xs_conn *c = txn_conn(t);

	c->memory -= xs_node_bytes(e);
	t->memory -= xs_node_bytes(e);
	xs_node_free(e);
}

static void txn_free(struct xs_txn *t)
{
	struct xs_conn *c = txn_conn(t);
	uint16_t i = t->head;
	uint32_t steps;

	for (steps = 0U; (i != XS_NIL) && (steps < XS_MAX_NODES); steps++) {
		struct xs_node *e = &xs.node[i];
		i = e->tnext;
		entry_drop(t, e);
	}
	c->txn_nodes -= t->nodes;
	c->txns--;
	(void)memset(t, 0, sizeof(*t));
}

static enum xs_err txn_check(const struct xs_txn *t)
{
	uint16_t i = t->head;
	uint32_t steps;

	for (steps = 0U; (i != XS_NIL) && (steps < XS_MAX_NODES); steps++) {
		const struct xs_node *e = &xs.node[i];
		const struct xs_node *m = xs_node_lookup(xs_node_path(e), e->path_len, 0U);
		uint64_t now = (m != NULL) ? m->gen : XS_GEN_NONE;
		if (now != e->base_gen) {
			return XS_EAGAIN;
		}
		i = e->tnext;
	}
	return XS_OK;
}

struct owner_delta {
	int64_t nodes[XS_MAX_DOMS];
	int64_t memory[XS_MAX_DOMS];
};

static void delta_add(struct owner_delta *d, const struct xs_node *n, int sign, uint32_t bytes)
{
	const struct xs_dom *dom = (n->nperms != 0U) ? xs_dom_find(n->perms[0].dom) : NULL;
	uint32_t k;

	if (dom == NULL) {
		return;
	}
	k = (uint32_t)(dom - xs.dom);
	d->nodes[k] += sign;
	d->memory[k] += (int64_t)sign * (int64_t)bytes;
}

/* What the owners would hold after the commit, against their quotas. */
static enum xs_err txn_quota(const struct xs_txn *t)
{
	static struct owner_delta d;
	const struct xs_conn *c = txn_conn(t);
	uint16_t i = t->head;
	uint32_t steps;
	uint32_t k;

	(void)memset(&d, 0, sizeof(d));
	for (steps = 0U; (i != XS_NIL) && (steps < XS_MAX_NODES); steps++) {
		const struct xs_node *e = &xs.node[i];
		const struct xs_node *m = xs_node_lookup(xs_node_path(e), e->path_len, 0U);
		if (e->kind == (uint8_t)XS_LIVE) {
			delta_add(&d, e, 1, xs_node_bytes(e));
		}
		if ((m != NULL) && (e->kind != (uint8_t)XS_SEEN)) {
			delta_add(&d, m, -1, xs_node_bytes(m));
		}
		i = e->tnext;
	}
	for (k = 0U; k < XS_MAX_DOMS; k++) {
		const struct xs_dom *dom = &xs.dom[k];
		const struct xs_conn *oc;
		int64_t mem;
		if (!dom->used || (dom->domid == xs.self)) {
			continue;
		}
		oc = xs_conn_of(dom->domid);
		mem = (int64_t)dom->memory + d.memory[k] + ((oc != NULL) ? (int64_t)oc->memory : 0);
		if (oc == c) {
			mem -= (int64_t)t->memory; /* the overlay goes away */
		}
		if (((d.nodes[k] > 0) && ((int64_t)dom->nodes + d.nodes[k] > (int64_t)xs.quota.nodes)) ||
		    ((d.memory[k] > 0) && (mem > (int64_t)xs.quota.memory))) {
			return XS_ENOSPC;
		}
	}
	return XS_OK;
}

static void parent_bump(const char *path, size_t len)
{
	size_t pl = xs_path_parent_len(path, len);
	struct xs_node *p = (pl != 0U) ? xs_node_lookup(path, pl, 0U) : NULL;

	if (p != NULL) {
		xs.gen++;
		p->gen = xs.gen;
	}
}

static void txn_apply(struct xs_txn *t)
{
	struct xs_conn *c = txn_conn(t);
	uint16_t i = t->head;
	uint32_t steps;

	for (steps = 0U; (i != XS_NIL) && (steps < XS_MAX_NODES); steps++) {
		struct xs_node *e = &xs.node[i];
		struct xs_node *m = xs_node_lookup(xs_node_path(e), e->path_len, 0U);
		uint8_t fire = e->fire;
		i = e->tnext;
		if (e->kind == (uint8_t)XS_LIVE) {
			static struct xs_perm oldp[XS_MAX_PERMS];
			uint32_t noldp = 0U;
			if (m != NULL) {
				noldp = m->nperms;
				(void)memcpy(oldp, m->perms, sizeof(oldp));
				xs_account_node(m, -1);
				xs_node_free(m);
			}
			/* Same path, same hash chain: only the tag changes. */
			c->memory -= xs_node_bytes(e);
			t->memory -= xs_node_bytes(e);
			e->txn = 0U;
			e->tnext = XS_NIL;
			e->fire = 0U;
			e->base_gen = 0U;
			xs.gen++;
			e->gen = xs.gen;
			xs_account_node(e, 1);
			if (m == NULL) {
				parent_bump(xs_node_path(e), e->path_len);
			}
			if (fire != 0U) {
				xs_fire(xs_node_path(e), e->path_len, fire, e->perms, e->nperms,
					(noldp != 0U) ? oldp : NULL, noldp);
			}
			continue;
		}
		if ((e->kind == (uint8_t)XS_TOMB) && (m != NULL)) {
			if (fire != 0U) {
				xs_fire(xs_node_path(m), m->path_len, fire, m->perms, m->nperms, NULL,
					0U);
			}
			parent_bump(xs_node_path(m), m->path_len);
			xs_account_node(m, -1);
			xs_node_free(m);
		}
		entry_drop(t, e);
	}
	t->head = XS_NIL;
}

enum xs_err xs_txn_end(struct xs_conn *c, struct xs_txn *t, bool commit)
{
	enum xs_err err = XS_OK;

	(void)c;
	if (commit) {
		if (t->failed) {
			err = XS_ENOMEM; /* a record was refused: Xen's answer */
		}
		if (err == XS_OK) {
			err = txn_check(t);
			if (err == XS_EAGAIN) {
				xs.stats.conflicts++;
			}
		}
		if (err == XS_OK) {
			err = txn_quota(t);
		}
		if (err == XS_OK) {
			txn_apply(t);
			xs.stats.commits++;
		}
	}
	txn_free(t);
	return err;
}

void xs_txn_del_all(struct xs_conn *c)
{
	uint8_t ci = (uint8_t)(c - xs.conn);
	uint32_t i;

	for (i = 0U; i < XS_MAX_TXNS; i++) {
		if ((xs.txn[i].id != 0U) && (xs.txn[i].conn == ci)) {
			txn_free(&xs.txn[i]);
		}
	}
}
