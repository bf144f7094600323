/* SPDX-License-Identifier: MIT */
/* xenstore client for test partitions (guest/xenbus.h). */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xenbus.h>
#include <public/hvm/params.h>

#define XB_EVENTS 16U
#define XB_EVENT_LEN 160U

static volatile struct xenstore_domain_interface *ring;
static uint32_t port;
static uint32_t next_req = 1U;
static char events[XB_EVENTS][XB_EVENT_LEN];
static unsigned int ev_head;
static unsigned int ev_tail;
static struct xb_msg reply;
bool xb_late_init;

static uint64_t ms_ticks(uint64_t ms)
{
	return timer_us_to_ticks(ms * 1000U);
}

static long hvm_get(uint32_t index, uint64_t *v)
{
	struct xen_hvm_param a = { .domid = DOMID_SELF, .index = index };
	long rc = xen_hypercall(__HYPERVISOR_hvm_op, HVMOP_get_param, (uint64_t)(uintptr_t)&a, 0,
				0, 0);

	*v = a.value;
	return rc;
}

/* Wait for an event on the store port or the deadline (0: none); true if one came. */
static bool wait_event(uint64_t deadline)
{
	uint64_t now = cntvct();

	if ((deadline != 0U) && (now >= deadline)) {
		return false;
	}
	if (evt_poll(&port, 1U, (deadline != 0U) ? (deadline - now) : ms_ticks(100U))) {
		evt_clear(port);
		return true;
	}
	return false;
}

long xb_init(uint64_t timeout_ms)
{
	uint64_t deadline = cntvct() + ms_ticks(timeout_ms);
	uint64_t pfn = 0U;
	uint64_t ev = 0U;
	long rc;

	rc = hvm_get(HVM_PARAM_STORE_EVTCHN, &ev);
	if (rc == 0) {
		rc = hvm_get(HVM_PARAM_STORE_PFN, &pfn);
	}
	if ((rc != 0) || (pfn == 0U) || (ev == 0U)) {
		return (rc != 0) ? rc : -XEN_ENOENT;
	}
	port = (uint32_t)ev;
	xb_late_init = (pfn == ~(uint64_t)0U);
	/* Late init, as Linux: ~0 until the store has introduced us, then its event. */
	while (pfn == ~(uint64_t)0U) {
		if (!wait_event(deadline) && (cntvct() >= deadline)) {
			return -110; /* ETIMEDOUT */
		}
		(void)hvm_get(HVM_PARAM_STORE_PFN, &pfn);
	}
	ring = (volatile struct xenstore_domain_interface *)(uintptr_t)(pfn << 12);
	while (ring->connection != XENSTORE_CONNECTED) {
		if (!wait_event(deadline) && (cntvct() >= deadline)) {
			return -110;
		}
	}
	return 0;
}

volatile struct xenstore_domain_interface *xb_ring(void)
{
	return ring;
}

uint32_t xb_port(void)
{
	return port;
}

static void put_bytes(const uint8_t *p, uint32_t len)
{
	uint32_t done = 0U;
	uint64_t deadline = cntvct() + ms_ticks(2000U);

	while (done < len) {
		uint32_t prod = ring->req_prod;
		uint32_t cons = __atomic_load_n(&ring->req_cons, __ATOMIC_ACQUIRE);
		uint32_t room = XENSTORE_RING_SIZE - (prod - cons);
		uint32_t k = (room < len - done) ? room : (len - done);
		uint32_t i;

		if (room > XENSTORE_RING_SIZE) {
			return; /* a broken ring: give up */
		}
		for (i = 0U; i < k; i++) {
			ring->req[MASK_XENSTORE_IDX(prod + i)] = (char)p[done + i];
		}
		done += k;
		__atomic_store_n(&ring->req_prod, prod + k, __ATOMIC_RELEASE);
		(void)evt_send(port);
		if ((done < len) && !wait_event(deadline) && (cntvct() >= deadline)) {
			return;
		}
	}
}

long xb_send_raw(const void *p, uint32_t len)
{
	put_bytes(p, len);
	return 0;
}

long xb_send(uint32_t type, uint32_t tx, const void *a, uint32_t alen, const void *b,
	     uint32_t blen)
{
	struct xsd_sockmsg h = { .type = type, .req_id = next_req, .tx_id = tx, .len = alen + blen };

	next_req++;
	put_bytes((const uint8_t *)&h, sizeof(h));
	if (alen != 0U) {
		put_bytes(a, alen);
	}
	if (blen != 0U) {
		put_bytes(b, blen);
	}
	return (long)h.req_id;
}

/* Take n bytes of the response ring; false after the deadline. */
static bool get_bytes(uint8_t *p, uint32_t n, uint64_t deadline)
{
	uint32_t done = 0U;

	while (done < n) {
		uint32_t cons = ring->rsp_cons;
		uint32_t prod = __atomic_load_n(&ring->rsp_prod, __ATOMIC_ACQUIRE);
		uint32_t avail = prod - cons;
		uint32_t k = (avail < n - done) ? avail : (n - done);
		uint32_t i;

		if (avail > XENSTORE_RING_SIZE) {
			return false;
		}
		for (i = 0U; i < k; i++) {
			p[done + i] = (uint8_t)ring->rsp[MASK_XENSTORE_IDX(cons + i)];
		}
		done += k;
		if (k != 0U) {
			__atomic_store_n(&ring->rsp_cons, cons + k, __ATOMIC_RELEASE);
			(void)evt_send(port); /* room for the store again */
		}
		if ((done < n) && !wait_event(deadline) && (cntvct() >= deadline)) {
			return false;
		}
	}
	return true;
}

bool xb_recv(struct xb_msg *m, uint64_t timeout_ms)
{
	uint64_t deadline = cntvct() + ms_ticks(timeout_ms);

	if (!get_bytes((uint8_t *)&m->h, sizeof(m->h), deadline) ||
	    (m->h.len > XENSTORE_PAYLOAD_MAX) ||
	    !get_bytes((uint8_t *)m->data, m->h.len, deadline)) {
		return false;
	}
	m->data[m->h.len] = '\0';
	return true;
}

static void keep_event(const struct xb_msg *m)
{
	const char *path = m->data;
	size_t pl = strlen(path);
	const char *tok = (pl + 1U < m->h.len) ? &m->data[pl + 1U] : "";
	char *e = events[ev_tail % XB_EVENTS];
	size_t i = 0U;
	size_t j;

	for (j = 0U; (path[j] != '\0') && (i + 2U < XB_EVENT_LEN); j++) {
		e[i++] = path[j];
	}
	e[i++] = '|';
	for (j = 0U; (tok[j] != '\0') && (i + 1U < XB_EVENT_LEN); j++) {
		e[i++] = tok[j];
	}
	e[i] = '\0';
	if (ev_tail - ev_head < XB_EVENTS) {
		ev_tail++;
	}
}

static const char *joined(void)
{
	uint32_t i;

	if (reply.h.type == XS_ERROR) {
		return reply.data;
	}
	for (i = 0U; i + 1U < reply.h.len; i++) {
		if (reply.data[i] == '\0') {
			reply.data[i] = ',';
		}
	}
	return reply.data;
}

const char *xb_req(uint32_t type, uint32_t tx, const void *payload, uint32_t len, uint32_t *rlen,
		   uint32_t *rtype)
{
	long id = xb_send(type, tx, payload, len, NULL, 0U);
	unsigned int guard;

	for (guard = 0U; guard < 256U; guard++) {
		if (!xb_recv(&reply, 3000U)) {
			break;
		}
		if (reply.h.type == XS_WATCH_EVENT) {
			keep_event(&reply);
			continue;
		}
		if (reply.h.req_id != (uint32_t)id) {
			continue;
		}
		if (rlen != NULL) {
			*rlen = reply.h.len;
		}
		if (rtype != NULL) {
			*rtype = reply.h.type;
		}
		return reply.data;
	}
	if (rtype != NULL) {
		*rtype = XS_INVALID;
	}
	return "TIMEOUT";
}

static const char *one(uint32_t type, uint32_t tx, const char *path)
{
	return xb_req(type, tx, path, (uint32_t)strlen(path) + 1U, NULL, NULL);
}

const char *xb_read(uint32_t tx, const char *path)
{
	return one(XS_READ, tx, path);
}

const char *xb_write(uint32_t tx, const char *path, const char *val)
{
	static char p[XENSTORE_PAYLOAD_MAX];
	size_t pl = strlen(path);
	size_t vl = strlen(val);

	if (pl + 1U + vl > sizeof(p)) {
		return "E2BIG";
	}
	(void)memcpy(p, path, pl + 1U);
	(void)memcpy(&p[pl + 1U], val, vl);
	return xb_req(XS_WRITE, tx, p, (uint32_t)(pl + 1U + vl), NULL, NULL);
}

const char *xb_mkdir(uint32_t tx, const char *path)
{
	return one(XS_MKDIR, tx, path);
}

const char *xb_rm(uint32_t tx, const char *path)
{
	return one(XS_RM, tx, path);
}

const char *xb_dir(uint32_t tx, const char *path)
{
	(void)one(XS_DIRECTORY, tx, path);
	return joined();
}

const char *xb_get_perms(uint32_t tx, const char *path)
{
	(void)one(XS_GET_PERMS, tx, path);
	return joined();
}

const char *xb_set_perms(uint32_t tx, const char *path, const char *perms)
{
	static char p[512];
	size_t pl = strlen(path);
	size_t n = strlen(perms);
	size_t i;

	if (pl + n + 2U > sizeof(p)) {
		return "E2BIG";
	}
	(void)memcpy(p, path, pl + 1U);
	(void)memcpy(&p[pl + 1U], perms, n + 1U);
	for (i = pl + 1U; i < pl + 1U + n; i++) {
		if (p[i] == ',') {
			p[i] = '\0';
		}
	}
	return xb_req(XS_SET_PERMS, tx, p, (uint32_t)(pl + n + 2U), NULL, NULL);
}

static const char *two(uint32_t type, const char *path, const char *token)
{
	static char p[512];
	size_t pl = strlen(path);
	size_t tl = strlen(token);

	if (pl + tl + 2U > sizeof(p)) {
		return "E2BIG";
	}
	(void)memcpy(p, path, pl + 1U);
	(void)memcpy(&p[pl + 1U], token, tl + 1U);
	return xb_req(type, 0U, p, (uint32_t)(pl + tl + 2U), NULL, NULL);
}

const char *xb_watch(const char *path, const char *token)
{
	return two(XS_WATCH, path, token);
}

const char *xb_unwatch(const char *path, const char *token)
{
	return two(XS_UNWATCH, path, token);
}

uint32_t xb_txn_start(void)
{
	uint32_t t;
	const char *r = xb_req(XS_TRANSACTION_START, 0U, "", 1U, NULL, &t);
	uint32_t id = 0U;
	size_t i;

	if (t != XS_TRANSACTION_START) {
		return 0U;
	}
	for (i = 0U; (r[i] >= '0') && (r[i] <= '9'); i++) {
		id = (id * 10U) + (uint32_t)(r[i] - '0');
	}
	return id;
}

const char *xb_txn_end(uint32_t tx, bool commit)
{
	return xb_req(XS_TRANSACTION_END, tx, commit ? "T" : "F", 2U, NULL, NULL);
}

bool xb_event_ready(void)
{
	return (ev_head != ev_tail) ||
	       (__atomic_load_n(&ring->rsp_prod, __ATOMIC_ACQUIRE) != ring->rsp_cons);
}

bool xb_event(char *buf, uint32_t len, uint64_t timeout_ms)
{
	uint64_t deadline = cntvct() + ms_ticks(timeout_ms);
	unsigned int guard;

	for (guard = 0U; (ev_head == ev_tail) && (guard < 4096U); guard++) {
		uint64_t now = cntvct();
		if (now >= deadline) {
			return false;
		}
		if (!xb_recv(&reply, (deadline - now) / ms_ticks(1U) + 1U)) {
			return false;
		}
		if (reply.h.type == XS_WATCH_EVENT) {
			keep_event(&reply);
		}
	}
	if (ev_head == ev_tail) {
		return false;
	}
	{
		const char *e = events[ev_head % XB_EVENTS];
		uint32_t i;
		for (i = 0U; (i + 1U < len) && (e[i] != '\0'); i++) {
			buf[i] = e[i];
		}
		buf[i] = '\0';
	}
	ev_head++;
	return true;
}

long xb_reconnect(uint64_t timeout_ms)
{
	uint64_t deadline = cntvct() + ms_ticks(timeout_ms);

	if ((ring->server_features & XENSTORE_SERVER_FEATURE_RECONNECTION) == 0U) {
		return -XEN_EOPNOTSUPP;
	}
	__atomic_store_n(&ring->connection, XENSTORE_RECONNECT, __ATOMIC_RELEASE);
	(void)evt_send(port);
	while (__atomic_load_n(&ring->connection, __ATOMIC_ACQUIRE) != XENSTORE_CONNECTED) {
		if (!wait_event(deadline) && (cntvct() >= deadline)) {
			return -110;
		}
	}
	ev_head = ev_tail;
	return 0;
}
