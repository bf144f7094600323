/* SPDX-License-Identifier: MIT */
/*
 * The request types of docs/misc/xenstore.txt, each answered as Xen's
 * xenstored answers it: the same argument checks in the same order, the
 * same error names. Types only a control domain may send get EACCES (there
 * is no control domain); optional types the store does not offer, and
 * types a client must not send, get ENOSYS.
 */
#include "xs.h"


#define LOCAL_DOMAIN "/local/domain/"
#define LOCAL_DOMAIN_LEN 14U

struct req {
	struct xs_conn *c;
	const struct xsd_sockmsg *h;
	const char *p;       /* payload, nul-terminated one byte past len */
	uint32_t len;
	struct xs_view v;
};

static const char ok_reply[] = "OK";

static void ack(const struct req *r)
{
	xs_reply(r->c, r->h, r->h->type, ok_reply, sizeof(ok_reply));
}

/* Number of nul-terminated strings at the start of the payload. */
static uint32_t nr_strings(const struct req *r)
{
	uint32_t n = 0U;
	uint32_t i;

	for (i = 0U; i < r->len; i++) {
		if (r->p[i] == '\0') {
			n++;
		}
	}
	return n;
}

/* The one argument: a payload holding exactly one nul, its last byte. */
static const char *onearg(const struct req *r)
{
	if ((r->len == 0U) || (xs_memchr(r->p, 0, r->len) != &r->p[r->len - 1U])) {
		return NULL;
	}
	return r->p;
}

static bool valid_char(char ch)
{
	return ((ch >= 'a') && (ch <= 'z')) || ((ch >= 'A') && (ch <= 'Z')) ||
	       ((ch >= '0') && (ch <= '9')) || (ch == '-') || (ch == '/') || (ch == '_') ||
	       (ch == '@');
}

/* Bytes of "/local/domain/<id>/" at the start of path, else 0 (Xen's sscanf %5u). */
static size_t local_prefix(const char *path, size_t len)
{
	size_t i;

	if ((len <= LOCAL_DOMAIN_LEN) || (memcmp(path, LOCAL_DOMAIN, LOCAL_DOMAIN_LEN) != 0)) {
		return 0U;
	}
	for (i = LOCAL_DOMAIN_LEN; (i < len) && (i < LOCAL_DOMAIN_LEN + 5U) &&
				   (path[i] >= '0') && (path[i] <= '9'); i++) {
	}
	return ((i > LOCAL_DOMAIN_LEN) && (i < len) && (path[i] == '/')) ? i + 1U : 0U;
}

static uint32_t home_path(uint16_t domid, char *buf)
{
	uint32_t n = LOCAL_DOMAIN_LEN;

	(void)memcpy(buf, LOCAL_DOMAIN, LOCAL_DOMAIN_LEN);
	n += xs_fmt_u32(&buf[n], domid);
	return n;
}

/*
 * Xen's canonicalize(): legal characters, no '@' unless special paths are
 * allowed, relative paths below the client's home, no trailing or double
 * slash, and the part below /local/domain/<id>/ at most the path quota.
 */
static enum xs_err canonical(const struct req *r, const char *s, bool special, char *out,
			     size_t *outlen, uint16_t *prefix)
{
	size_t sl = xs_strnlen(s, XS_PATH_MAX);
	size_t n = 0U;
	size_t i;

	if (prefix != NULL) {
		*prefix = 0U;
	}
	if (sl >= XS_PATH_MAX) {
		return XS_EINVAL;
	}
	for (i = 0U; i < sl; i++) {
		if (!valid_char(s[i])) {
			return XS_EINVAL;
		}
	}
	if ((s[0] == '@') && !special) {
		return XS_EINVAL;
	}
	if ((s[0] != '/') && (s[0] != '@')) {
		n = home_path(r->c->domid, out);
		out[n] = '/';
		n++;
		if (prefix != NULL) {
			*prefix = (uint16_t)n;
		}
	}
	if (n + sl >= XS_PATH_MAX) {
		return XS_EINVAL;
	}
	(void)memcpy(&out[n], s, sl);
	n += sl;
	out[n] = '\0';
	if (((n > 1U) && (out[n - 1U] == '/')) || (n == 0U)) {
		return XS_EINVAL;
	}
	for (i = 1U; i < n; i++) {
		if ((out[i] == '/') && (out[i - 1U] == '/')) {
			return XS_EINVAL;
		}
	}
	if (n - local_prefix(out, n) > xs.quota.path_len) {
		return XS_EINVAL;
	}
	*outlen = n;
	return XS_OK;
}

/*
 * The node, if the client has perm on it. Otherwise ENOENT or EACCES, and
 * as in Xen the difference is told only to a client that may see the
 * nearest existing ancestor with that permission.
 */
static enum xs_err node_get(struct req *r, const char *path, size_t len, uint8_t perm,
			    struct xs_node **out)
{
	struct xs_node *n = xs_view_get(&r->v, path, len);
	const struct xs_node *a;

	*out = n;
	if (r->v.err != XS_OK) {
		return r->v.err;
	}
	if (n != NULL) {
		return ((xs_view_perm(&r->v, n) & perm) == perm) ? XS_OK : XS_EACCES;
	}
	a = xs_view_ancestor(&r->v, path, len);
	if (r->v.err != XS_OK) {
		return r->v.err;
	}
	return ((a != NULL) && ((xs_view_perm(&r->v, a) & perm) != 0U)) ? XS_ENOENT : XS_EACCES;
}

static enum xs_err do_read(struct req *r)
{
	const char *arg = onearg(r);
	struct xs_node *n;
	size_t len;
	enum xs_err err;

	if (arg == NULL) {
		return XS_EINVAL;
	}
	err = canonical(r, arg, false, xs.path, &len, NULL);
	if (err == XS_OK) {
		err = node_get(r, xs.path, len, XS_PERM_READ, &n);
	}
	if (err == XS_OK) {
		xs_reply(r->c, r->h, XS_READ, xs_node_value(n), n->val_len);
	}
	return err;
}

static enum xs_err do_write(struct req *r)
{
	const char *path = r->p;
	size_t plen = xs_strnlen(path, r->len);
	struct xs_node *n;
	uint32_t vlen;
	size_t len;
	enum xs_err err;

	if (plen >= r->len) {
		return XS_EINVAL; /* no nul: not even a path */
	}
	vlen = r->len - (uint32_t)plen - 1U;
	err = canonical(r, path, false, xs.path, &len, NULL);
	if (err == XS_OK) {
		err = node_get(r, xs.path, len, XS_PERM_WRITE, &n);
	}
	if (err == XS_ENOENT) {
		err = XS_OK; /* created below */
	}
	if ((err == XS_OK) && (vlen > xs.quota.node_size)) {
		err = XS_ENOSPC;
	}
	if (err == XS_OK) {
		err = xs_view_write(&r->v, xs.path, len, &path[plen + 1U], vlen, false, &n);
	}
	if (err == XS_OK) {
		xs_view_changed(&r->v, n, XS_MATCH_SUBTREE);
		ack(r);
	}
	return err;
}

static enum xs_err do_mkdir(struct req *r)
{
	const char *arg = onearg(r);
	struct xs_node *n;
	size_t len;
	enum xs_err err;

	if (arg == NULL) {
		return XS_EINVAL;
	}
	err = canonical(r, arg, false, xs.path, &len, NULL);
	if (err == XS_OK) {
		err = node_get(r, xs.path, len, XS_PERM_WRITE, &n);
		if (err == XS_ENOENT) {
			err = xs_view_write(&r->v, xs.path, len, NULL, 0U, true, &n);
			if (err == XS_OK) {
				xs_view_changed(&r->v, n, XS_MATCH_SUBTREE);
			}
		}
	}
	if (err == XS_OK) {
		ack(r);
	}
	return err;
}

static enum xs_err do_rm(struct req *r)
{
	const char *arg = onearg(r);
	struct xs_node *n;
	size_t len;
	enum xs_err err;

	if (arg == NULL) {
		return XS_EINVAL;
	}
	err = canonical(r, arg, false, xs.path, &len, NULL);
	if (err == XS_OK) {
		err = node_get(r, xs.path, len, XS_PERM_WRITE, &n);
	}
	if (err == XS_ENOENT) {
		/* Already gone: fine, if its parent is there. */
		size_t pl = xs_path_parent_len(xs.path, len);
		err = ((pl != 0U) && (xs_view_get(&r->v, xs.path, pl) != NULL)) ? XS_OK : XS_ENOENT;
		if ((err == XS_OK) && (r->v.err != XS_OK)) {
			err = r->v.err;
		}
		if (err == XS_OK) {
			ack(r);
		}
		return err;
	}
	if ((err == XS_OK) && (len == 1U)) {
		err = XS_EINVAL; /* not the root */
	}
	if (err == XS_OK) {
		err = xs_view_rm(&r->v, xs.path, len);
	}
	if (err == XS_OK) {
		ack(r);
	}
	return err;
}

static enum xs_err do_directory(struct req *r)
{
	const char *arg = onearg(r);
	struct xs_node *n;
	uint32_t used = 0U;
	size_t len;
	enum xs_err err;

	if (arg == NULL) {
		return XS_EINVAL;
	}
	err = canonical(r, arg, false, xs.path, &len, NULL);
	if (err == XS_OK) {
		err = node_get(r, xs.path, len, XS_PERM_READ, &n);
	}
	if (err == XS_OK) {
		err = xs_view_children(&r->v, xs.path, len, xs.reply, sizeof(xs.reply), &used);
	}
	if (err == XS_OK) {
		xs_reply(r->c, r->h, XS_DIRECTORY, xs.reply, used);
	}
	return err;
}

static enum xs_err do_get_perms(struct req *r)
{
	const char *arg = onearg(r);
	struct xs_node *n;
	size_t len;
	enum xs_err err;

	if (arg == NULL) {
		return XS_EINVAL;
	}
	err = canonical(r, arg, true, xs.path, &len, NULL);
	if (err == XS_OK) {
		err = node_get(r, xs.path, len, XS_PERM_READ, &n);
	}
	if (err == XS_OK) {
		uint32_t used = xs_perm_format(n->perms, n->nperms, (char *)xs.reply,
					       sizeof(xs.reply));
		xs_reply(r->c, r->h, XS_GET_PERMS, xs.reply, used);
	}
	return err;
}

static enum xs_err do_set_perms(struct req *r)
{
	static struct xs_perm perms[XS_MAX_PERMS];
	static struct xs_perm oldp[XS_MAX_PERMS];
	uint32_t num = nr_strings(r);
	size_t plen;
	struct xs_node *n;
	uint32_t noldp;
	size_t len;
	enum xs_err err;

	if (num < 2U) {
		return XS_EINVAL;
	}
	num--;
	if ((num > xs.quota.perms) || (num > XS_MAX_PERMS)) {
		return XS_ENOSPC;
	}
	plen = strlen(r->p);
	err = xs_perm_parse(&r->p[plen + 1U], r->len - plen - 1U, num, perms);
	if (err != XS_OK) {
		return err;
	}
	if ((perms[0].mode & XS_PERM_IGNORE) != 0U) {
		return XS_ENOENT; /* an owner the store does not know */
	}
	err = canonical(r, r->p, true, xs.path, &len, NULL);
	if (err == XS_OK) {
		err = node_get(r, xs.path, len, XS_PERM_WRITE | XS_PERM_OWNER, &n);
	}
	if (err != XS_OK) {
		return err;
	}
	if (perms[0].dom != n->perms[0].dom) {
		return XS_EPERM; /* only the store changes owners */
	}
	noldp = n->nperms;
	(void)memcpy(oldp, n->perms, sizeof(oldp));
	err = xs_view_set_perms(&r->v, n, perms, num);
	if (err != XS_OK) {
		return err;
	}
	if (r->v.t == NULL) {
		xs_fire(xs.path, len, XS_MATCH_SUBTREE, perms, num, oldp, noldp);
	} else {
		n = xs_view_get(&r->v, xs.path, len);
		if (n != NULL) {
			xs_view_changed(&r->v, n, XS_MATCH_SUBTREE);
		}
	}
	ack(r);
	return XS_OK;
}

static enum xs_err do_watch(struct req *r)
{
	uint32_t num = nr_strings(r);
	const char *path = r->p;
	const char *token;
	uint32_t depth = 0U;
	bool has_depth = false;
	uint16_t prefix;
	size_t len;
	size_t tlen;
	enum xs_err err;

	if (num == 3U) {
		const char *d = &r->p[strlen(path) + 1U];
		d = &d[strlen(d) + 1U];
		if (!xs_parse_u32(d, 0x7fffU, &depth)) {
			return XS_EINVAL;
		}
		has_depth = true;
	} else if (num != 2U) {
		return XS_EINVAL;
	} else {
		/* path and token */
	}
	token = &path[strlen(path) + 1U];
	tlen = strlen(token);
	err = canonical(r, path, true, xs.path, &len, &prefix);
	if (err != XS_OK) {
		return err;
	}
	err = xs_watch_add(r->c, xs.path, len, token, tlen, prefix,
			   has_depth ? (int)depth : -1);
	if (err != XS_OK) {
		return err;
	}
	ack(r);
	/* Fired once straight away, with the path as the client gave it. */
	(void)xs_send_event(r->c, &xs.path[prefix], len - prefix, token, tlen);
	return XS_OK;
}

static enum xs_err do_unwatch(struct req *r)
{
	const char *token;
	size_t len;
	enum xs_err err;

	if (nr_strings(r) != 2U) {
		return XS_EINVAL;
	}
	token = &r->p[strlen(r->p) + 1U];
	err = canonical(r, r->p, true, xs.path, &len, NULL);
	if (err == XS_OK) {
		err = xs_watch_del(r->c, xs.path, len, token, strlen(token));
	}
	if (err == XS_OK) {
		ack(r);
	}
	return err;
}

static enum xs_err do_txn_start(struct req *r)
{
	uint32_t id;
	uint32_t n;
	enum xs_err err;

	if (r->v.t != NULL) {
		return XS_EBUSY; /* no nested transactions */
	}
	err = xs_txn_start(r->c, &id);
	if (err == XS_OK) {
		n = xs_fmt_u32((char *)xs.reply, id);
		xs.reply[n] = 0U;
		xs_reply(r->c, r->h, XS_TRANSACTION_START, xs.reply, n + 1U);
	}
	return err;
}

static enum xs_err do_txn_end(struct req *r)
{
	const char *arg = onearg(r);
	enum xs_err err;

	if ((arg == NULL) || (((strcmp(arg, "T") != 0)) && (strcmp(arg, "F") != 0))) {
		return XS_EINVAL;
	}
	if (r->v.t == NULL) {
		return XS_ENOENT;
	}
	err = xs_txn_end(r->c, r->v.t, arg[0] == 'T');
	r->v.t = NULL;
	if (err == XS_OK) {
		ack(r);
	}
	return err;
}

static enum xs_err do_get_domain_path(struct req *r)
{
	const char *arg = onearg(r);
	uint32_t domid = 0U;
	uint32_t n;

	if (arg == NULL) {
		return XS_EINVAL;
	}
	/* Xen's parse_domid (strtoul, base 10): an empty string is domain 0. */
	if ((arg[0] != '\0') && !xs_parse_dec(arg, 0xffffU, &domid)) {
		return XS_EINVAL;
	}
	n = home_path((uint16_t)domid, (char *)xs.reply);
	xs.reply[n] = 0U;
	xs_reply(r->c, r->h, XS_GET_DOMAIN_PATH, xs.reply, n + 1U);
	return XS_OK;
}

static enum xs_err do_reset_watches(struct req *r)
{
	xs_watch_del_all(r->c);
	xs_txn_del_all(r->c);
	ack(r);
	return XS_OK;
}

static bool privileged_only(uint32_t type)
{
	switch (type) {
	case XS_CONTROL:
	case XS_INTRODUCE:
	case XS_RELEASE:
	case XS_IS_DOMAIN_INTRODUCED:
	case XS_RESUME:
	case XS_SET_TARGET:
	case XS_SET_FEATURE:
	case XS_GET_QUOTA:
	case XS_SET_QUOTA:
		return true;
	default:
		return false;
	}
}

enum xs_err xs_handle(struct xs_conn *c, const struct xsd_sockmsg *h, const uint8_t *payload)
{
	struct req r = { .c = c, .h = h, .p = (const char *)payload, .len = h->len };

	r.v.c = c;
	switch (h->type) {
	case XS_DIRECTORY: case XS_READ: case XS_GET_PERMS: case XS_WATCH: case XS_UNWATCH:
	case XS_TRANSACTION_START: case XS_TRANSACTION_END: case XS_GET_DOMAIN_PATH:
	case XS_WRITE: case XS_MKDIR: case XS_RM: case XS_SET_PERMS: case XS_RESET_WATCHES:
		break;
	default:
		return privileged_only(h->type) ? XS_EACCES : XS_ENOSYS;
	}
	if ((h->type != XS_WATCH) && (h->type != XS_UNWATCH) && (h->tx_id != 0U)) {
		r.v.t = xs_txn_find(c, h->tx_id);
		if (r.v.t == NULL) {
			return XS_ENOENT;
		}
	}
	switch (h->type) {
	case XS_READ:
		return do_read(&r);
	case XS_WRITE:
		return do_write(&r);
	case XS_MKDIR:
		return do_mkdir(&r);
	case XS_RM:
		return do_rm(&r);
	case XS_DIRECTORY:
		return do_directory(&r);
	case XS_GET_PERMS:
		return do_get_perms(&r);
	case XS_SET_PERMS:
		return do_set_perms(&r);
	case XS_WATCH:
		return do_watch(&r);
	case XS_UNWATCH:
		return do_unwatch(&r);
	case XS_TRANSACTION_START:
		return do_txn_start(&r);
	case XS_TRANSACTION_END:
		return do_txn_end(&r);
	case XS_GET_DOMAIN_PATH:
		return do_get_domain_path(&r);
	default:
		return do_reset_watches(&r);
	}
}
