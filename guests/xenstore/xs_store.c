/* SPDX-License-Identifier: MIT */
/*
 * The store as a whole: creation (the root and the special watch nodes, as
 * Xen's xenstored makes them, owned by the store itself) and the
 * privileged operations the partition uses to build and prune the tree.
 */
#include "xs.h"


void xs_quota_default(struct xs_quota *q)
{
	q->nodes = 128U;
	q->memory = 96U * 1024U;
	q->watches = 32U;
	q->txns = 4U;
	q->txn_nodes = 64U;
	q->node_size = 2048U;
	q->perms = XS_MAX_PERMS;
	q->path_len = XENSTORE_REL_PATH_MAX;
}

static void special_node(const char *name)
{
	struct xs_node *n = xs_node_alloc(name, strlen(name), NULL, 0U);

	if (n == NULL) {
		return;
	}
	n->nperms = 1U;
	n->perms[0].dom = xs.self;
	n->perms[0].mode = XS_PERM_NONE;
	xs.gen++;
	n->gen = xs.gen;
	xs_node_hash_in(n);
	xs_account_node(n, 1);
}

void xs_init(uint16_t self_domid, const struct xs_quota *quota)
{
	(void)memset(xs.dom, 0, sizeof(xs.dom));
	(void)memset(xs.conn, 0, sizeof(xs.conn));
	(void)memset(&xs.stats, 0, sizeof(xs.stats));
	xs.self = self_domid;
	xs.gen = 0U;
	if (quota != NULL) {
		xs.quota = *quota;
	} else {
		xs_quota_default(&xs.quota);
	}
	if (xs.quota.perms > XS_MAX_PERMS) {
		xs.quota.perms = XS_MAX_PERMS;
	}
	if (xs.quota.path_len > XENSTORE_REL_PATH_MAX) {
		xs.quota.path_len = XENSTORE_REL_PATH_MAX;
	}
	xs_arena_init();
	xs_nodes_init();
	xs_watches_init();
	xs_txns_init();
	(void)xs_dom_add(self_domid);
	/* The store's own nodes are accounted like any (it has no quota). */
	special_node("/");
	special_node("@introduceDomain");
	special_node("@releaseDomain");
}

enum xs_err xs_store_write(const char *path, const void *val, uint32_t len,
			   const struct xs_perm *perms, uint32_t nperms)
{
	struct xs_view v = { 0 };
	struct xs_node *n;
	enum xs_err err = xs_view_write(&v, path, strlen(path), val, len, false, &n);

	if ((err == XS_OK) && (nperms != 0U)) {
		err = xs_view_set_perms(&v, n, perms, (nperms > XS_MAX_PERMS) ? XS_MAX_PERMS : nperms);
	}
	if (err == XS_OK) {
		xs_view_changed(&v, n, XS_MATCH_SUBTREE);
	}
	return err;
}

enum xs_err xs_store_mkdir(const char *path, const struct xs_perm *perms, uint32_t nperms)
{
	struct xs_view v = { 0 };
	struct xs_node *n;
	enum xs_err err = xs_view_write(&v, path, strlen(path), NULL, 0U, true, &n);

	if ((err == XS_OK) && (nperms != 0U)) {
		err = xs_view_set_perms(&v, n, perms, (nperms > XS_MAX_PERMS) ? XS_MAX_PERMS : nperms);
	}
	return err;
}

enum xs_err xs_store_rm(const char *path)
{
	struct xs_view v = { 0 };
	size_t len = strlen(path);

	if (xs_node_lookup(path, len, 0U) == NULL) {
		return XS_ENOENT;
	}
	return xs_view_rm(&v, path, len);
}

void xs_store_rm_owned(uint16_t domid)
{
	uint32_t i;

	/* A removed subtree's other slots are free when the scan reaches them. */
	for (i = 0U; i < XS_MAX_NODES; i++) {
		const struct xs_node *n = &xs.node[i];
		if ((n->kind == (uint8_t)XS_LIVE) && (n->txn == 0U) && (n->nperms != 0U) &&
		    (n->perms[0].dom == domid) && (xs_node_path(n)[0] == '/') &&
		    (n->path_len > 1U)) {
			(void)memcpy(xs.path2, xs_node_path(n), (size_t)n->path_len + 1U);
			(void)xs_store_rm(xs.path2);
		}
	}
}
