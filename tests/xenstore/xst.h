/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the xenstore partition's store (guests/xenstore/xs_*.c):
 * clients are connections fed whole wire messages, replies are read back
 * from their output queues. The store is domain 1 (privileged); clients
 * are domains 2, 3 and 4; domain 5 is known but has no connection.
 */
#ifndef XST_H
#define XST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../../guests/xenstore/xs.h"

#define VERIFIES(...) /* requirement trace: __VA_ARGS__ */

#define XST_SELF 1U
#define XST_NCLIENTS 3U

struct xst_msg {
	uint32_t type;
	uint32_t req_id;
	uint32_t tx_id;
	uint32_t len;
	char data[XENSTORE_PAYLOAD_MAX + 1U];
};

extern struct xs_conn *xst_c[XST_NCLIENTS + 2U]; /* indexed by domid */
extern struct xst_msg xst_m;
extern uint32_t xst_next_req;

int xst_setup(void **state);
int xst_setup_q(const struct xs_quota *q);
/* Checks the store's bookkeeping (xs_check) after each test. */
int xst_teardown(void **state);

/* Send one message (payload parts joined), serve it; returns its req_id. */
uint32_t xst_send(uint16_t dom, uint32_t type, uint32_t tx, const void *payload, uint32_t len);
/* Next queued message of dom into xst_m; false when none. */
bool xst_recv(uint16_t dom);
/* Drop whatever dom has queued. */
void xst_drain(uint16_t dom);
uint32_t xst_pending(uint16_t dom);

/*
 * Request helpers: each sends, takes the reply and returns its payload as
 * a string ("OK", the value, or the error name for an ERROR reply). Watch
 * events queued before the reply are kept aside (xst_events / xst_event).
 */
const char *xst_req(uint16_t dom, uint32_t type, uint32_t tx, const void *payload, uint32_t len);
const char *xst_read(uint16_t dom, uint32_t tx, const char *path);
const char *xst_write(uint16_t dom, uint32_t tx, const char *path, const char *val);
const char *xst_mkdir(uint16_t dom, uint32_t tx, const char *path);
const char *xst_rm(uint16_t dom, uint32_t tx, const char *path);
const char *xst_dir(uint16_t dom, uint32_t tx, const char *path); /* children joined by ',' */
const char *xst_get_perms(uint16_t dom, uint32_t tx, const char *path); /* joined by ',' */
/* perms: comma-separated ("n2,r3"). */
const char *xst_set_perms(uint16_t dom, uint32_t tx, const char *path, const char *perms);
const char *xst_watch(uint16_t dom, const char *path, const char *token);
const char *xst_unwatch(uint16_t dom, const char *path, const char *token);
uint32_t xst_txn_start(uint16_t dom);  /* 0 on error (name in xst_m.data) */
const char *xst_txn_end(uint16_t dom, uint32_t tx, bool commit);

/* Watch events received so far for dom, as "path|token" strings; cleared by xst_events_clear. */
#define XST_MAX_EVENTS 64U
extern char xst_ev[XST_NCLIENTS + 2U][XST_MAX_EVENTS][256];
extern uint32_t xst_nev[XST_NCLIENTS + 2U];
void xst_events_clear(void);
/* Take whatever events dom has queued now. */
void xst_poll_events(uint16_t dom);
bool xst_has_event(uint16_t dom, const char *path_token);

#endif
