/* SPDX-License-Identifier: MIT */
/*
 * Self-check of the store's bookkeeping, for the tests and the fuzzer
 * (and the partition's debug output): every count recomputed from the
 * tables. Returns the number of the first broken rule, 0 when sound.
 */
#include "xs.h"

static uint32_t owner_slot(const struct xs_node *n)
{
	const struct xs_dom *d = (n->nperms != 0U) ? xs_dom_find(n->perms[0].dom) : NULL;

	return (d != NULL) ? (uint32_t)(d - xs.dom) : XS_MAX_DOMS;
}

static int check_nodes(uint32_t *units)
{
	static uint32_t nodes[XS_MAX_DOMS + 1U];
	static uint32_t mem[XS_MAX_DOMS + 1U];
	uint32_t used = 0U;
	uint32_t i;

	for (i = 0U; i <= XS_MAX_DOMS; i++) {
		nodes[i] = 0U;
		mem[i] = 0U;
	}
	for (i = 0U; i < XS_MAX_NODES; i++) {
		const struct xs_node *n = &xs.node[i];
		const char *p;
		if (n->kind == (uint8_t)XS_FREE) {
			continue;
		}
		used++;
		*units += n->units;
		p = xs_node_path(n);
		if ((n->path_len == 0U) || (p[n->path_len] != '\0') ||
		    ((uint32_t)n->path_len + 1U + n->val_len > (uint32_t)n->units * XS_UNIT)) {
			return 1;
		}
		if (xs_node_lookup(p, n->path_len, n->txn) != n) {
			return 2; /* not findable, or a second entry for the same key */
		}
		if (n->txn == 0U) {
			size_t pl = xs_path_parent_len(p, n->path_len);
			if (n->kind != (uint8_t)XS_LIVE) {
				return 3;
			}
			if ((p[0] == '/') && (pl != 0U) && (xs_node_lookup(p, pl, 0U) == NULL)) {
				return 4; /* an orphan */
			}
			if ((n->nperms == 0U) || (n->gen == 0U) || (n->gen > xs.gen)) {
				return 5;
			}
			nodes[owner_slot(n)]++;
			mem[owner_slot(n)] += xs_node_bytes(n);
		} else if ((n->txn > XS_MAX_TXNS) || (xs.txn[n->txn - 1U].id == 0U)) {
			return 6; /* an entry of no transaction */
		} else {
			/* A transaction entry: counted below with its transaction. */
		}
	}
	if (used != xs.nodes_used) {
		return 7;
	}
	for (i = 0U; i < XS_MAX_DOMS; i++) {
		if (xs.dom[i].used && ((xs.dom[i].nodes != nodes[i]) || (xs.dom[i].memory != mem[i]))) {
			return 8;
		}
	}
	return 0;
}

static int check_conns(uint32_t *units)
{
	uint32_t ci;

	for (ci = 0U; ci < XS_MAX_CLIENTS; ci++) {
		const struct xs_conn *c = &xs.conn[ci];
		uint32_t watches = 0U;
		uint32_t txns = 0U;
		uint32_t tnodes = 0U;
		uint32_t mem = 0U;
		uint32_t i;
		if (!c->active) {
			continue;
		}
		for (i = 0U; i < XS_MAX_WATCHES; i++) {
			if (xs.watch[i].conn == ci + 1U) {
				watches++;
				mem += (uint32_t)xs.watch[i].units * XS_UNIT;
				*units += xs.watch[i].units;
			}
		}
		for (i = 0U; i < XS_MAX_TXNS; i++) {
			const struct xs_txn *t = &xs.txn[i];
			uint16_t e = t->head;
			uint32_t n = 0U;
			uint32_t tm = 0U;
			uint32_t steps;
			if ((t->id == 0U) || (t->conn != ci)) {
				continue;
			}
			txns++;
			for (steps = 0U; (e != XS_NIL) && (steps < XS_MAX_NODES); steps++) {
				if (xs.node[e].txn != i + 1U) {
					return 20;
				}
				n++;
				tm += xs_node_bytes(&xs.node[e]);
				e = xs.node[e].tnext;
			}
			if ((n != t->nodes) || (tm != t->memory)) {
				return 21;
			}
			tnodes += n;
			mem += tm;
		}
		if ((watches != c->watches) || (txns != c->txns) || (tnodes != c->txn_nodes) ||
		    (mem != c->memory)) {
			return 22;
		}
		if (xs_conn_out_len(c) > XS_OUT_BYTES) {
			return 23;
		}
	}
	return 0;
}

int xs_check(void)
{
	uint32_t units = 0U;
	uint32_t bits = 0U;
	uint32_t i;
	int rc = check_nodes(&units);

	if (rc == 0) {
		rc = check_conns(&units);
	}
	if (rc != 0) {
		return rc;
	}
	for (i = 0U; i < XS_ARENA_BYTES / XS_UNIT / 64U; i++) {
		bits += (uint32_t)__builtin_popcountll(xs.arena_map[i]);
	}
	if ((bits != xs.arena_used) || (units != xs.arena_used)) {
		return 30;
	}
	return 0;
}
