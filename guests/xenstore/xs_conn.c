/* SPDX-License-Identifier: MIT */
/*
 * Connections: one per client partition. The request stream is cut into
 * messages here (header, then at most XENSTORE_PAYLOAD_MAX bytes: a longer
 * one is a protocol violation and the connection is stopped, as Xen's
 * xenstored does), each served as soon as it is whole; replies and events
 * go to a bounded queue of whole messages. A request is only taken when a
 * largest reply fits behind what is queued, so a client that does not read
 * its replies stalls itself and nobody else.
 */
#include "xs.h"


#define HDR_LEN ((uint32_t)sizeof(struct xsd_sockmsg))
#define MAX_MSG (HDR_LEN + XENSTORE_PAYLOAD_MAX)

struct xs_conn *xs_conn_of(uint16_t domid)
{
	uint32_t i;

	for (i = 0U; i < XS_MAX_CLIENTS; i++) {
		if (xs.conn[i].active && (xs.conn[i].domid == domid)) {
			return &xs.conn[i];
		}
	}
	return NULL;
}

int xs_conn_open(uint16_t domid)
{
	uint32_t i;

	if ((domid == xs.self) || (xs_dom_find(domid) == NULL) || (xs_conn_of(domid) != NULL)) {
		return -1;
	}
	for (i = 0U; i < XS_MAX_CLIENTS; i++) {
		struct xs_conn *c = &xs.conn[i];
		if (!c->active) {
			(void)memset(c, 0, sizeof(*c));
			c->active = true;
			c->domid = domid;
			c->next_txid = 1U;
			return (int)i;
		}
	}
	return -1;
}

void xs_conn_reset(struct xs_conn *c)
{
	xs_watch_del_all(c);
	xs_txn_del_all(c);
	c->in_used = 0U;
	c->out_head = 0U;
	c->out_tail = 0U;
	c->error = 0U;
}

void xs_conn_close(struct xs_conn *c)
{
	xs_conn_reset(c);
	c->active = false;
}

uint32_t xs_conn_out_len(const struct xs_conn *c)
{
	return c->out_tail - c->out_head;
}

static uint32_t out_free(const struct xs_conn *c)
{
	return XS_OUT_BYTES - xs_conn_out_len(c);
}

bool xs_conn_can_serve(const struct xs_conn *c)
{
	return c->active && (c->error == 0U) && (out_free(c) >= MAX_MSG);
}

const uint8_t *xs_conn_out_peek(const struct xs_conn *c, uint32_t *run)
{
	uint32_t at = c->out_head % XS_OUT_BYTES;
	uint32_t len = xs_conn_out_len(c);

	*run = (len < XS_OUT_BYTES - at) ? len : (XS_OUT_BYTES - at);
	return &c->out[at];
}

void xs_conn_out_consume(struct xs_conn *c, uint32_t n)
{
	uint32_t len = xs_conn_out_len(c);

	c->out_head += (n < len) ? n : len;
}

static void out_put(struct xs_conn *c, const void *data, uint32_t n)
{
	const uint8_t *p = data;
	uint32_t at = c->out_tail % XS_OUT_BYTES;
	uint32_t first = (n < XS_OUT_BYTES - at) ? n : (XS_OUT_BYTES - at);

	(void)memcpy(&c->out[at], p, first);
	if (first < n) {
		(void)memcpy(c->out, &p[first], n - first);
	}
	c->out_tail += n;
}

/* A whole message, or nothing when it does not fit. */
static bool out_msg(struct xs_conn *c, uint32_t type, uint32_t req_id, uint32_t tx_id,
		    const void *a, uint32_t alen, const void *b, uint32_t blen)
{
	struct xsd_sockmsg h = { .type = type, .req_id = req_id, .tx_id = tx_id, .len = alen + blen };

	if (out_free(c) < HDR_LEN + alen + blen) {
		return false;
	}
	out_put(c, &h, HDR_LEN);
	if (alen != 0U) {
		out_put(c, a, alen);
	}
	if (blen != 0U) {
		out_put(c, b, blen);
	}
	return true;
}

void xs_reply(struct xs_conn *c, const struct xsd_sockmsg *h, uint32_t type, const void *buf,
	      uint32_t len)
{
	/* xs_conn_can_serve() made room for a largest reply before the request was taken. */
	(void)out_msg(c, type, h->req_id, h->tx_id, buf, len, NULL, 0U);
}

bool xs_send_event(struct xs_conn *c, const char *path, size_t plen, const char *token,
		   size_t tlen)
{
	static const uint8_t nul = 0U;
	uint8_t tmp[2];

	if (plen + tlen + 2U > XENSTORE_PAYLOAD_MAX) {
		return false; /* as Xen: an over-long event is not sent */
	}
	/* Path and its nul, then token and its nul: build the tail in two pieces. */
	if (out_free(c) < HDR_LEN + (uint32_t)(plen + tlen + 2U)) {
		c->events_dropped++;
		return false;
	}
	{
		struct xsd_sockmsg h = { .type = XS_WATCH_EVENT, .len = (uint32_t)(plen + tlen + 2U) };
		out_put(c, &h, HDR_LEN);
	}
	out_put(c, path, (uint32_t)plen);
	out_put(c, &nul, 1U);
	out_put(c, token, (uint32_t)tlen);
	tmp[0] = 0U;
	out_put(c, tmp, 1U);
	xs.stats.events++;
	return true;
}

static void serve(struct xs_conn *c)
{
	const struct xsd_sockmsg *h = &c->in_hdr;
	enum xs_err err;

	c->requests++;
	xs.stats.requests++;
	/* Handlers may treat the payload as a string: it is always nul-terminated here. */
	c->in_buf[h->len] = 0U;
	err = xs_handle(c, h, c->in_buf);
	if (err != XS_OK) {
		const char *name = xs_err_name(err);
		c->errors++;
		xs.stats.errors++;
		(void)out_msg(c, XS_ERROR, h->req_id, h->tx_id, name, (uint32_t)strlen(name) + 1U,
			      NULL, 0U);
	}
	c->in_used = 0U;
}

size_t xs_conn_input(struct xs_conn *c, const uint8_t *buf, size_t n)
{
	size_t taken = 0U;

	/* One message at most per call; each round takes at least one byte or stops. */
	while ((taken < n) && (c->error == 0U) && c->active) {
		uint32_t want;
		uint32_t k;
		if (c->in_used < HDR_LEN) {
			want = HDR_LEN - c->in_used;
			k = (uint32_t)(((n - taken) < want) ? (n - taken) : want);
			(void)memcpy((uint8_t *)&c->in_hdr + c->in_used, &buf[taken], k);
			c->in_used += k;
			taken += k;
			if (c->in_used < HDR_LEN) {
				break;
			}
			if (c->in_hdr.len > XENSTORE_PAYLOAD_MAX) {
				c->error = (uint8_t)XENSTORE_ERROR_PROTO;
				break;
			}
		}
		want = HDR_LEN + c->in_hdr.len - c->in_used;
		if (want != 0U) {
			k = (uint32_t)(((n - taken) < want) ? (n - taken) : want);
			/* The last byte waits until a largest reply has room. */
			if ((k == want) && !xs_conn_can_serve(c)) {
				k--;
			}
			(void)memcpy(&c->in_buf[c->in_used - HDR_LEN], &buf[taken], k);
			c->in_used += k;
			taken += k;
			if (k < want) {
				break;
			}
		} else if (!xs_conn_can_serve(c)) {
			/* Empty payload: the header's last byte waits instead. */
			c->in_used--;
			taken--;
			break;
		} else {
			/* Empty payload, room for the reply. */
		}
		serve(c);
		break;
	}
	return taken;
}
