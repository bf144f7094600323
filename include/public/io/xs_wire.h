/* SPDX-License-Identifier: MIT */
/*
 * Xenstore wire protocol: message types, the message header and the ring
 * page shared between a domain and its xenstore server. Written from Xen's
 * docs/misc/xenstore.txt and docs/misc/xenstore-ring.txt; the numbering and
 * the offsets are the ABI every xenstore client (Linux's xenbus) relies on,
 * so each is checked at compile time.
 */
#ifndef PUBLIC_IO_XS_WIRE_H
#define PUBLIC_IO_XS_WIRE_H

#include "../xen.h"

/* Message types (xsd_sockmsg.type). */
#define XS_CONTROL              0U   /* DEBUG is its old name */
#define XS_DIRECTORY            1U
#define XS_READ                 2U
#define XS_GET_PERMS            3U
#define XS_WATCH                4U
#define XS_UNWATCH              5U
#define XS_TRANSACTION_START    6U
#define XS_TRANSACTION_END      7U
#define XS_INTRODUCE            8U
#define XS_RELEASE              9U
#define XS_GET_DOMAIN_PATH      10U
#define XS_WRITE                11U
#define XS_MKDIR                12U
#define XS_RM                   13U
#define XS_SET_PERMS            14U
#define XS_WATCH_EVENT          15U  /* server to client only */
#define XS_ERROR                16U  /* server to client only */
#define XS_IS_DOMAIN_INTRODUCED 17U
#define XS_RESUME               18U
#define XS_SET_TARGET           19U
/* 20 was RESTRICT: removed, an invalid type. */
#define XS_RESET_WATCHES        21U
#define XS_DIRECTORY_PART       22U
#define XS_GET_FEATURE          23U
#define XS_SET_FEATURE          24U
#define XS_GET_QUOTA            25U
#define XS_SET_QUOTA            26U
#define XS_TYPE_COUNT           27U
#define XS_INVALID              0xffffU

/* Every message, both directions: this header, then len bytes of payload. */
struct xsd_sockmsg {
	uint32_t type;
	uint32_t req_id;   /* echoed in the reply */
	uint32_t tx_id;    /* transaction, 0 for none */
	uint32_t len;      /* payload bytes */
};
XEN_ABI_ASSERT(sizeof(struct xsd_sockmsg) == 16U);
XEN_ABI_ASSERT(offsetof(struct xsd_sockmsg, tx_id) == 8U);
XEN_ABI_ASSERT(offsetof(struct xsd_sockmsg, len) == 12U);

/* Payload of a WATCH_EVENT: path then token, each nul-terminated. */
#define XS_WATCH_PATH  0U
#define XS_WATCH_TOKEN 1U

/* Payload limit in either direction; a longer message ends the connection. */
#define XENSTORE_PAYLOAD_MAX  4096U
/* Path limits: longer ones get EINVAL. */
#define XENSTORE_ABS_PATH_MAX 3072U
#define XENSTORE_REL_PATH_MAX 2048U

/* The ring page: one byte queue each way plus the signalling words. */
#define XENSTORE_RING_SIZE 1024U
typedef uint32_t XENSTORE_RING_IDX;
#define MASK_XENSTORE_IDX(idx) ((idx) & (XENSTORE_RING_SIZE - 1U))

struct xenstore_domain_interface {
	char req[XENSTORE_RING_SIZE];   /* client to server */
	char rsp[XENSTORE_RING_SIZE];   /* replies and watch events */
	XENSTORE_RING_IDX req_cons;
	XENSTORE_RING_IDX req_prod;
	XENSTORE_RING_IDX rsp_cons;
	XENSTORE_RING_IDX rsp_prod;
	uint32_t server_features;       /* XENSTORE_SERVER_FEATURE_*, only ever set */
	uint32_t connection;            /* XENSTORE_CONNECTED / _RECONNECT */
	uint32_t error;                 /* XENSTORE_ERROR_* */
	uint32_t evtchn_port;           /* the client's store port, when non-zero */
};
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, rsp) == 1024U);
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, req_cons) == 2048U);
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, req_prod) == 2052U);
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, rsp_cons) == 2056U);
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, rsp_prod) == 2060U);
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, server_features) == 2064U);
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, connection) == 2068U);
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, error) == 2072U);
XEN_ABI_ASSERT(offsetof(struct xenstore_domain_interface, evtchn_port) == 2076U);
XEN_ABI_ASSERT(sizeof(struct xenstore_domain_interface) == 2080U);
XEN_ABI_ASSERT(sizeof(struct xenstore_domain_interface) <= XEN_PAGE_SIZE);

/* server_features bits */
#define XENSTORE_SERVER_FEATURE_RECONNECTION 1U
#define XENSTORE_SERVER_FEATURE_ERROR        2U
#define XENSTORE_SERVER_FEATURE_WATCHDEPTH   4U
#define XENSTORE_SERVER_FEATURE_DOMID_ANY    8U

/* connection */
#define XENSTORE_CONNECTED 0U   /* steady state */
#define XENSTORE_RECONNECT 1U   /* set by the client (or the builder); cleared by the server */

/* error */
#define XENSTORE_ERROR_NONE    0U
#define XENSTORE_ERROR_COMM    1U
#define XENSTORE_ERROR_RINGIDX 2U
#define XENSTORE_ERROR_PROTO   3U

/* Node permissions as strings: one letter, then the domid in decimal. */
#define XS_PERM_CHAR_NONE  'n'
#define XS_PERM_CHAR_READ  'r'
#define XS_PERM_CHAR_WRITE 'w'
#define XS_PERM_CHAR_BOTH  'b'

#endif
