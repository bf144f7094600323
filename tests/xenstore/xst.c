/* SPDX-License-Identifier: MIT */
/* Client side of the store's host tests (xst.h). */
#include "xst.h"

struct xs_conn *xst_c[XST_NCLIENTS + 2U];
struct xst_msg xst_m;
uint32_t xst_next_req = 100U;
char xst_ev[XST_NCLIENTS + 2U][XST_MAX_EVENTS][256];
uint32_t xst_nev[XST_NCLIENTS + 2U];

static uint8_t buf[sizeof(struct xsd_sockmsg) + XENSTORE_PAYLOAD_MAX + 64U];

int xst_setup_q(const struct xs_quota *q)
{
	uint16_t d;

	xs_init(XST_SELF, q);
	(void)memset(xst_c, 0, sizeof(xst_c));
	for (d = 2U; d <= XST_NCLIENTS + 2U; d++) {
		assert_true(xs_dom_add(d));
	}
	for (d = 2U; d <= XST_NCLIENTS + 1U; d++) {
		int i = xs_conn_open(d);
		assert_true(i >= 0);
		xst_c[d] = &xs.conn[i];
	}
	/* Each client's home, as the partition builds it: owned by the client. */
	for (d = 2U; d <= XST_NCLIENTS + 2U; d++) {
		char path[32];
		struct xs_perm p = { .dom = d, .mode = XS_PERM_NONE };
		(void)snprintf(path, sizeof(path), "/local/domain/%u", d);
		assert_int_equal(xs_store_mkdir(path, &p, 1U), XS_OK);
	}
	xst_events_clear();
	return 0;
}

int xst_setup(void **state)
{
	(void)state;
	return xst_setup_q(NULL);
}

int xst_teardown(void **state)
{
	(void)state;
	assert_int_equal(xs_check(), 0);
	return 0;
}

void xst_events_clear(void)
{
	(void)memset(xst_nev, 0, sizeof(xst_nev));
}

uint32_t xst_send(uint16_t dom, uint32_t type, uint32_t tx, const void *payload, uint32_t len)
{
	struct xsd_sockmsg h = { .type = type, .req_id = xst_next_req, .tx_id = tx, .len = len };
	size_t total = sizeof(h) + len;
	size_t done = 0U;
	int guard;

	assert_true(len <= XENSTORE_PAYLOAD_MAX + 64U);
	(void)memcpy(buf, &h, sizeof(h));
	if (len != 0U) {
		(void)memcpy(&buf[sizeof(h)], payload, len);
	}
	for (guard = 0; (done < total) && (guard < 4); guard++) {
		done += xs_conn_input(xst_c[dom], &buf[done], total - done);
	}
	assert_int_equal(done, total);
	return xst_next_req++;
}

uint32_t xst_pending(uint16_t dom)
{
	return xs_conn_out_len(xst_c[dom]);
}

static void out_read(struct xs_conn *c, void *dst, uint32_t n)
{
	uint8_t *d = dst;
	uint32_t got = 0U;

	while (got < n) {
		uint32_t run;
		const uint8_t *p = xs_conn_out_peek(c, &run);
		uint32_t k = (run < n - got) ? run : (n - got);
		assert_true(k > 0U);
		(void)memcpy(&d[got], p, k);
		xs_conn_out_consume(c, k);
		got += k;
	}
}

bool xst_recv(uint16_t dom)
{
	struct xs_conn *c = xst_c[dom];
	struct xsd_sockmsg h;

	if (xs_conn_out_len(c) == 0U) {
		return false;
	}
	assert_true(xs_conn_out_len(c) >= sizeof(h));
	out_read(c, &h, sizeof(h));
	assert_true(h.len <= XENSTORE_PAYLOAD_MAX);
	assert_true(xs_conn_out_len(c) >= h.len);
	xst_m.type = h.type;
	xst_m.req_id = h.req_id;
	xst_m.tx_id = h.tx_id;
	xst_m.len = h.len;
	out_read(c, xst_m.data, h.len);
	xst_m.data[h.len] = '\0';
	return true;
}

void xst_drain(uint16_t dom)
{
	while (xst_recv(dom)) {
	}
}

static void keep_event(uint16_t dom)
{
	const char *path = xst_m.data;
	const char *token = &xst_m.data[strlen(path) + 1U];

	assert_int_equal(xst_m.req_id, 0U);
	assert_int_equal(xst_m.tx_id, 0U);
	assert_int_equal(xst_m.len, strlen(path) + strlen(token) + 2U);
	if (xst_nev[dom] < XST_MAX_EVENTS) {
		char *e = xst_ev[dom][xst_nev[dom]];
		size_t pl = strnlen(path, 200U);
		(void)memcpy(e, path, pl);
		e[pl] = '|';
		(void)snprintf(&e[pl + 1U], sizeof(xst_ev[0][0]) - pl - 1U, "%.50s", token);
		xst_nev[dom]++;
	}
}

void xst_poll_events(uint16_t dom)
{
	while (xst_recv(dom)) {
		assert_int_equal(xst_m.type, XS_WATCH_EVENT);
		keep_event(dom);
	}
}

bool xst_has_event(uint16_t dom, const char *path_token)
{
	uint32_t i;

	xst_poll_events(dom);
	for (i = 0U; i < xst_nev[dom]; i++) {
		if (strcmp(xst_ev[dom][i], path_token) == 0) {
			return true;
		}
	}
	return false;
}

const char *xst_req(uint16_t dom, uint32_t type, uint32_t tx, const void *payload, uint32_t len)
{
	uint32_t id = xst_send(dom, type, tx, payload, len);
	uint32_t guard;

	for (guard = 0U; guard < 4096U; guard++) {
		assert_true(xst_recv(dom));
		if (xst_m.type == XS_WATCH_EVENT) {
			keep_event(dom);
			continue;
		}
		assert_int_equal(xst_m.req_id, id);
		assert_int_equal(xst_m.tx_id, tx);
		assert_true((xst_m.type == type) || (xst_m.type == XS_ERROR));
		if (xst_m.type == XS_ERROR) {
			/* The error name with its nul, nothing else. */
			assert_int_equal(xst_m.len, strlen(xst_m.data) + 1U);
		}
		return xst_m.data;
	}
	fail_msg("no reply");
	return NULL;
}

static const char *one_path(uint16_t dom, uint32_t type, uint32_t tx, const char *path)
{
	return xst_req(dom, type, tx, path, (uint32_t)strlen(path) + 1U);
}

const char *xst_read(uint16_t dom, uint32_t tx, const char *path)
{
	return one_path(dom, XS_READ, tx, path);
}

const char *xst_write(uint16_t dom, uint32_t tx, const char *path, const char *val)
{
	static char p[XENSTORE_PAYLOAD_MAX + 64U];
	size_t pl = strlen(path);
	size_t vl = strlen(val);

	(void)memcpy(p, path, pl + 1U);
	(void)memcpy(&p[pl + 1U], val, vl);
	return xst_req(dom, XS_WRITE, tx, p, (uint32_t)(pl + 1U + vl));
}

const char *xst_mkdir(uint16_t dom, uint32_t tx, const char *path)
{
	return one_path(dom, XS_MKDIR, tx, path);
}

const char *xst_rm(uint16_t dom, uint32_t tx, const char *path)
{
	return one_path(dom, XS_RM, tx, path);
}

/* nul-separated list -> comma-separated, in place. */
static const char *joined(void)
{
	uint32_t i;

	if (xst_m.type == XS_ERROR) {
		return xst_m.data;
	}
	for (i = 0U; i + 1U < xst_m.len; i++) {
		if (xst_m.data[i] == '\0') {
			xst_m.data[i] = ',';
		}
	}
	if ((xst_m.len != 0U) && (xst_m.data[xst_m.len - 1U] == '\0')) {
		xst_m.data[xst_m.len - 1U] = '\0';
	}
	return xst_m.data;
}

const char *xst_dir(uint16_t dom, uint32_t tx, const char *path)
{
	(void)one_path(dom, XS_DIRECTORY, tx, path);
	return joined();
}

const char *xst_get_perms(uint16_t dom, uint32_t tx, const char *path)
{
	(void)one_path(dom, XS_GET_PERMS, tx, path);
	return joined();
}

const char *xst_set_perms(uint16_t dom, uint32_t tx, const char *path, const char *perms)
{
	static char p[1024];
	size_t pl = strlen(path);
	size_t n = strlen(perms);
	size_t i;

	(void)memcpy(p, path, pl + 1U);
	(void)memcpy(&p[pl + 1U], perms, n + 1U);
	for (i = pl + 1U; i < pl + 1U + n; i++) {
		if (p[i] == ',') {
			p[i] = '\0';
		}
	}
	return xst_req(dom, XS_SET_PERMS, tx, p, (uint32_t)(pl + n + 2U));
}

static const char *path_token(uint16_t dom, uint32_t type, const char *path, const char *token)
{
	static char p[1024];
	size_t pl = strlen(path);
	size_t tl = strlen(token);

	(void)memcpy(p, path, pl + 1U);
	(void)memcpy(&p[pl + 1U], token, tl + 1U);
	return xst_req(dom, type, 0U, p, (uint32_t)(pl + tl + 2U));
}

const char *xst_watch(uint16_t dom, const char *path, const char *token)
{
	return path_token(dom, XS_WATCH, path, token);
}

const char *xst_unwatch(uint16_t dom, const char *path, const char *token)
{
	return path_token(dom, XS_UNWATCH, path, token);
}

uint32_t xst_txn_start(uint16_t dom)
{
	const char *r = xst_req(dom, XS_TRANSACTION_START, 0U, "", 1U);

	if (xst_m.type == XS_ERROR) {
		return 0U;
	}
	assert_int_equal(xst_m.len, strlen(r) + 1U);
	return (uint32_t)strtoul(r, NULL, 10);
}

const char *xst_txn_end(uint16_t dom, uint32_t tx, bool commit)
{
	return xst_req(dom, XS_TRANSACTION_END, tx, commit ? "T" : "F", 2U);
}
