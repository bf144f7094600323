/* SPDX-License-Identifier: MIT */
/*
 * A xenstore client for test partitions, as Linux's xenbus talks to the
 * store: HVM_PARAM_STORE_EVTCHN / STORE_PFN (waiting for the store's event
 * while STORE_PFN is ~0, Linux's late init), the ring at that gfn, requests
 * written whole and the event sent, replies matched by req_id, watch events
 * kept aside. Polled (evt_setup() first); every wait has a timeout.
 */
#ifndef GUEST_XENBUS_H
#define GUEST_XENBUS_H

#include <stdbool.h>
#include <stdint.h>
#include <public/io/xs_wire.h>

struct xb_msg {
	struct xsd_sockmsg h;
	char data[XENSTORE_PAYLOAD_MAX + 1U];  /* nul added after len bytes */
};

/* Connect: 0, or -errno (-ENOENT: no xenstore, -ETIMEDOUT: no store event). */
long xb_init(uint64_t timeout_ms);
volatile struct xenstore_domain_interface *xb_ring(void);
/* Whether xb_init found STORE_PFN at ~0 and waited for the store's event. */
extern bool xb_late_init;
uint32_t xb_port(void);
/* Raw request: header (len = alen + blen) and payload; its req_id, or -errno. */
long xb_send(uint32_t type, uint32_t tx, const void *a, uint32_t alen, const void *b,
	     uint32_t blen);
/* Raw bytes into the request ring (malformed-client tests); notifies. */
long xb_send_raw(const void *p, uint32_t len);
/* Next message of any kind; false after timeout_ms. */
bool xb_recv(struct xb_msg *m, uint64_t timeout_ms);
/*
 * Request and its reply (watch events on the way are kept for xb_event).
 * Returns the reply payload (the error name of an ERROR reply, "TIMEOUT" if
 * none came); *type gets the reply type when type is not NULL.
 */
const char *xb_req(uint32_t type, uint32_t tx, const void *payload, uint32_t len, uint32_t *rlen,
		   uint32_t *rtype);
const char *xb_read(uint32_t tx, const char *path);
const char *xb_write(uint32_t tx, const char *path, const char *val);
const char *xb_mkdir(uint32_t tx, const char *path);
const char *xb_rm(uint32_t tx, const char *path);
const char *xb_dir(uint32_t tx, const char *path);       /* names joined by ',' */
const char *xb_get_perms(uint32_t tx, const char *path); /* joined by ',' */
const char *xb_set_perms(uint32_t tx, const char *path, const char *perms); /* "n2,r3" */
const char *xb_watch(const char *path, const char *token);
const char *xb_unwatch(const char *path, const char *token);
/* 0 on error. */
uint32_t xb_txn_start(void);
const char *xb_txn_end(uint32_t tx, bool commit);
/* Whether a watch event is kept or bytes wait in the response ring (xb_event then takes them). */
bool xb_event_ready(void);
/* Next watch event "path|token" into buf; false after timeout_ms. */
bool xb_event(char *buf, uint32_t len, uint64_t timeout_ms);
/* Guest-initiated reconnection (xenstore-ring.txt); 0 when connected again. */
long xb_reconnect(uint64_t timeout_ms);

#endif
