/* SPDX-License-Identifier: MIT */
/*
 * The xenstore partition's store: the node database, permissions, watches,
 * transactions, quotas and the wire protocol (Xen docs/misc/xenstore.txt).
 * Freestanding C with static pools sized here, built twice: into the
 * partition (main.c adds rings and hypercalls) and for the host, where the
 * unit tests and the fuzzer drive it through xs_conn_input().
 *
 * Design: nodes live in one table keyed by full path (hash chains), their
 * path and value in a bitmap-allocated arena. Children are found by a scan
 * of the table (bounded by XS_MAX_NODES): directory listings are rare,
 * lookups are not. A transaction is an overlay of entries in the same table
 * (tagged with the transaction) recording each node it touched with the
 * generation it saw; commit checks those generations (EAGAIN on a change)
 * and then relabels its written entries into the main tree, so a commit
 * never allocates.
 */
#ifndef XS_H
#define XS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <public/io/xs_wire.h>
#ifdef XS_HOST
#include <string.h>
#else
#include <guest/rt.h> /* the runtime's memcpy, memset, memcmp, strlen, strcmp */
#endif

/* ------------------------------------------------------------ limits */
#ifndef XS_MAX_CLIENTS
#define XS_MAX_CLIENTS  8U      /* connections (client partitions) */
#endif
#define XS_MAX_DOMS     16U     /* partitions the store knows (clients, itself, others) */
#ifndef XS_MAX_NODES
#define XS_MAX_NODES    2048U   /* main tree + transaction overlays */
#endif
#ifndef XS_ARENA_BYTES
#define XS_ARENA_BYTES  (1024U * 1024U)
#endif
#define XS_UNIT         32U     /* arena allocation unit */
#define XS_HASH_BUCKETS 1024U
#define XS_MAX_WATCHES  256U
#define XS_MAX_TXNS     32U
#define XS_MAX_PERMS    5U      /* entries per node (Xen's default quota) */
#define XS_OUT_BYTES    16384U  /* queued replies and events per connection */
#define XS_PATH_MAX     (XENSTORE_REL_PATH_MAX + 32U) /* canonical path + nul */

/* Per-client quotas (Xen's names in brackets); exceeding one is ENOSPC. */
struct xs_quota {
	uint32_t nodes;      /* nodes the client owns [nodes] */
	uint32_t memory;     /* arena bytes: owned nodes, watches, overlays [memory] */
	uint32_t watches;    /* [watches] */
	uint32_t txns;       /* open transactions [transactions] */
	uint32_t txn_nodes;  /* entries in all its open transactions [transaction-nodes] */
	uint32_t node_size;  /* value bytes [node-size] */
	uint32_t perms;      /* permission entries SET_PERMS may give [permissions] */
	uint32_t path_len;   /* bytes after /local/domain/<id>/ [path-max] */
};

/* ----------------------------------------------------------- errors */
/* Xen's error names (xs_wire.h's table); the string goes on the wire. */
enum xs_err {
	XS_OK = 0,
	XS_EINVAL,
	XS_EACCES,
	XS_EEXIST,
	XS_EISDIR,
	XS_ENOENT,
	XS_ENOMEM,
	XS_ENOSPC,
	XS_EIO,
	XS_ENOTEMPTY,
	XS_ENOSYS,
	XS_EROFS,
	XS_EBUSY,
	XS_EAGAIN,
	XS_EISCONN,
	XS_E2BIG,
	XS_EPERM,
	XS_NR_ERRS
};
const char *xs_err_name(enum xs_err e);

/* ------------------------------------------------------ permissions */
#define XS_PERM_NONE   0U
#define XS_PERM_READ   1U
#define XS_PERM_WRITE  2U
#define XS_PERM_OWNER  8U   /* never stored: the owner's implicit right */
#define XS_PERM_IGNORE 16U  /* an entry naming a domain the store does not know */

struct xs_perm {
	uint16_t dom;
	uint8_t mode;
};

/* ------------------------------------------------------------ nodes */
enum xs_kind {
	XS_FREE = 0,
	XS_LIVE,      /* main tree node, or a transaction's written node */
	XS_TOMB,      /* transaction: deleted */
	XS_SEEN,      /* transaction: read (or found absent), value in the main tree */
};

#define XS_GEN_NONE 0U /* "did not exist" in a transaction record */
#define XS_NIL      0xffffU

struct xs_node {
	uint32_t off;            /* arena: path, nul, value */
	uint16_t path_len;
	uint16_t val_len;
	uint16_t units;          /* arena units held */
	uint16_t hnext;          /* hash chain (index), XS_NIL at the end */
	uint16_t tnext;          /* transaction's list of entries */
	uint8_t kind;
	uint8_t txn;             /* 0: main tree, else transaction slot + 1 */
	uint8_t nperms;
	uint8_t fire;            /* transaction: watch match to fire at commit (0: none) */
	uint32_t hash;
	uint64_t gen;            /* main: last change (value, perms, children) */
	uint64_t base_gen;       /* transaction: main generation first seen (GEN_NONE: absent) */
	struct xs_perm perms[XS_MAX_PERMS];
};

/* ---------------------------------------------------------- watches */
struct xs_watch {
	uint32_t off;            /* arena: canonical path, nul, token */
	uint16_t units;
	uint16_t path_len;
	uint16_t token_len;
	uint16_t prefix;         /* bytes to strip from event paths (relative watch) */
	int16_t depth;           /* -1: unlimited */
	uint8_t conn;            /* owner + 1; 0: free */
};

/* ----------------------------------------------------- transactions */
struct xs_txn {
	uint32_t id;             /* 0: free */
	uint8_t conn;            /* owner connection index */
	bool failed;             /* an overlay could not be recorded: commit fails */
	uint16_t head;           /* first entry */
	uint16_t nodes;
	uint32_t memory;
};

/* ------------------------------------------------------- connections */
struct xs_conn {
	bool active;
	uint8_t error;           /* XENSTORE_ERROR_*: nothing is served while set */
	uint16_t domid;
	uint32_t next_txid;
	/* Input: the message being assembled. */
	struct xsd_sockmsg in_hdr;
	uint32_t in_used;        /* bytes of header + payload received */
	uint8_t in_buf[XENSTORE_PAYLOAD_MAX + 1U];
	/* Output: a byte queue of whole messages, free-running indices. */
	uint32_t out_head;       /* next byte to send */
	uint32_t out_tail;       /* next byte to queue */
	uint8_t out[XS_OUT_BYTES];
	/* Accounting. */
	uint32_t watches;
	uint32_t txns;
	uint32_t txn_nodes;
	uint32_t memory;         /* watches and overlays; owned nodes are per domain */
	uint64_t requests;
	uint64_t errors;
	uint64_t events_dropped;
};

struct xs_dom {
	uint16_t domid;
	bool used;
	uint32_t nodes;          /* nodes it owns in the main tree */
	uint32_t memory;         /* their arena bytes */
};

struct xs_stats {
	uint64_t requests;
	uint64_t errors;
	uint64_t commits;
	uint64_t conflicts;
	uint64_t events;
};

struct xs_store {
	uint16_t self;           /* the store's own domid: the privileged one */
	uint64_t gen;
	struct xs_quota quota;
	uint16_t hash[XS_HASH_BUCKETS];
	uint16_t free_node;      /* lowest index that may be free (hint) */
	uint32_t nodes_used;
	uint32_t arena_used;     /* units */
	uint32_t arena_hint;     /* no free unit in the bitmap words below */
	uint64_t arena_map[XS_ARENA_BYTES / XS_UNIT / 64U];
	uint8_t arena[XS_ARENA_BYTES] __attribute__((aligned(8)));
	struct xs_node node[XS_MAX_NODES];
	struct xs_watch watch[XS_MAX_WATCHES];
	struct xs_txn txn[XS_MAX_TXNS];
	struct xs_conn conn[XS_MAX_CLIENTS];
	struct xs_dom dom[XS_MAX_DOMS];
	struct xs_stats stats;
	/* Scratch for one reply payload and for the request being served. */
	uint8_t reply[XENSTORE_PAYLOAD_MAX];
	char path[XS_PATH_MAX];
	char path2[XS_PATH_MAX];
};

extern struct xs_store xs;

/* ------------------------------------------------------------ setup */
/* Empty store with the root node and the two special watch nodes. */
void xs_init(uint16_t self_domid, const struct xs_quota *quota);
/* Defaults above, as xs_init(self, NULL) uses them. */
void xs_quota_default(struct xs_quota *q);
/* Make domid known (it may then own nodes and appear in permissions). */
bool xs_dom_add(uint16_t domid);
struct xs_dom *xs_dom_find(uint16_t domid);

/* Internal (privileged) writes for the initial tree: path absolute. */
enum xs_err xs_store_write(const char *path, const void *val, uint32_t len,
			   const struct xs_perm *perms, uint32_t nperms);
enum xs_err xs_store_mkdir(const char *path, const struct xs_perm *perms, uint32_t nperms);
/* Remove path and everything below it, firing watches (a client going away). */
enum xs_err xs_store_rm(const char *path);
/* Remove every main-tree node owned by domid (with its subtree). */
void xs_store_rm_owned(uint16_t domid);
/* Fire a special watch (@introduceDomain, @releaseDomain). */
void xs_fire_special(const char *name);

/* What the device tree says of one partition (xs_tree.c). */
struct xs_domain_info {
	uint16_t domid;
	const char *name;
	uint32_t vcpus;
	uint64_t memory_kib;
	bool client;             /* connected to the store */
	uint32_t port;           /* its end of the store channel */
	uint64_t ring_gfn;       /* where its ring page is */
};
/* Its home /local/domain/<id> with Xen's nodes, owned by it. */
enum xs_err xs_tree_add_domain(const struct xs_domain_info *d);
/* Node rel (below its home) with value val, as the store (privileged) writes it. */
enum xs_err xs_tree_node(uint16_t domid, const char *rel, const char *val);
/* Its home and every node it owns go; @releaseDomain fires. */
void xs_tree_remove_domain(uint16_t domid);

/* A virtual disk (docs/blkif.md): be serves it to fe as Xen's vdev number devid. */
struct xs_vbd {
	uint16_t be;
	uint16_t fe;
	uint32_t devid;
	bool readonly;
};
#define XS_MAX_VBDS 16U
/*
 * The toolstack's half of every disk domid serves or sees, as libxl writes
 * it: device/vbd/<devid> in the frontend's home (owned by it, readable by
 * the backend), backend/vbd/<fe>/<devid> in the backend's (owned by it,
 * readable by the frontend), each with state 1 (Initialising). After
 * xs_tree_add_domain(), at start and whenever the home is built again.
 */
enum xs_err xs_tree_add_vbds(uint16_t domid, const struct xs_vbd *v, uint32_t n);

/* -------------------------------------------------------- connections */
/* Connection for client domid (known by xs_dom_add); index or -1. */
int xs_conn_open(uint16_t domid);
/* Forget everything of the connection: input, output, watches, transactions. */
void xs_conn_reset(struct xs_conn *c);
void xs_conn_close(struct xs_conn *c);
struct xs_conn *xs_conn_of(uint16_t domid);
/*
 * Feed up to n bytes of the client's request stream. Returns the bytes
 * taken (fewer when a message completed and was served, so the caller can
 * interleave clients, or when the output queue has no room for a largest
 * reply). A protocol violation (payload over XENSTORE_PAYLOAD_MAX) sets
 * c->error; nothing more is taken until xs_conn_reset().
 */
size_t xs_conn_input(struct xs_conn *c, const uint8_t *buf, size_t n);
/* Bytes queued for the client, and the contiguous run at the head. */
uint32_t xs_conn_out_len(const struct xs_conn *c);
const uint8_t *xs_conn_out_peek(const struct xs_conn *c, uint32_t *run);
void xs_conn_out_consume(struct xs_conn *c, uint32_t n);
/* Whether one more request could be served now (room for a largest reply). */
bool xs_conn_can_serve(const struct xs_conn *c);

/* Recount every table: 0 when the bookkeeping is sound, else the rule broken. */
int xs_check(void);

/* ------------------------------------------------- internals (xs_*.c) */
/* util */
size_t xs_strnlen(const char *s, size_t max);
const void *xs_memchr(const void *s, int c, size_t n);
uint32_t xs_fmt_u32(char *buf, uint32_t v); /* decimal, no nul; returns length */
uint32_t xs_fmt_u64(char *buf, uint64_t v);
bool xs_parse_u32(const char *s, uint32_t max, uint32_t *out);
bool xs_parse_dec(const char *s, uint32_t max, uint32_t *out); /* decimal digits only */
uint32_t xs_hash(const char *s, size_t n);

/* arena */
void xs_arena_init(void);
bool xs_arena_alloc(uint32_t bytes, uint32_t *off, uint16_t *units);
void xs_arena_free(uint32_t off, uint16_t units);
static inline uint8_t *xs_arena_ptr(uint32_t off)
{
	return &xs.arena[off];
}

/* nodes */
void xs_nodes_init(void);
static inline const char *xs_node_path(const struct xs_node *n)
{
	return (const char *)xs_arena_ptr(n->off);
}
static inline const uint8_t *xs_node_value(const struct xs_node *n)
{
	return xs_arena_ptr(n->off + n->path_len + 1U);
}
struct xs_node *xs_node_lookup(const char *path, size_t len, uint8_t txn);
/* New table entry holding path and value (not yet hashed in); NULL if full. */
struct xs_node *xs_node_alloc(const char *path, size_t len, const void *val, uint32_t vlen);
void xs_node_hash_in(struct xs_node *n);
void xs_node_hash_out(struct xs_node *n);
void xs_node_free(struct xs_node *n);   /* hash out, arena back, slot free */
/* Replace the value (path kept); false when the arena is full. */
bool xs_node_set_value(struct xs_node *n, const void *val, uint32_t vlen);
static inline uint16_t xs_node_index(const struct xs_node *n)
{
	return (uint16_t)(n - xs.node);
}
static inline uint32_t xs_node_bytes(const struct xs_node *n)
{
	return (uint32_t)n->units * XS_UNIT;
}
/* Whether child is exactly one level below parent (both canonical). */
bool xs_path_is_child(const char *parent, size_t plen, const char *child, size_t clen);
/* Whether p is parent or below it ("/" holds everything). */
bool xs_path_under(const char *p, size_t plen, const char *parent, size_t parlen);
/* Length of path's parent ("/a/b" -> 2, "/a" -> 1 for "/"). */
size_t xs_path_parent_len(const char *path, size_t len);

/* perms */
uint8_t xs_perm_for(const struct xs_conn *c, const struct xs_perm *p, uint32_t n);
/* Parse n permission strings at s (SET_PERMS); XS_OK or XS_EINVAL. */
enum xs_err xs_perm_parse(const char *s, size_t len, uint32_t n, struct xs_perm *out);
/* Format the perms of a node as nul-terminated strings into buf. */
uint32_t xs_perm_format(const struct xs_perm *p, uint32_t n, char *buf, uint32_t cap);

/* A client's view of the tree: the main one, or inside a transaction. */
struct xs_view {
	struct xs_conn *c;      /* NULL: the store itself (privileged, no quotas) */
	struct xs_txn *t;       /* NULL: outside any transaction */
	enum xs_err err;        /* a transaction record failed (the request fails) */
};
/* The node at path as the view sees it, or NULL (absence recorded in a transaction). */
struct xs_node *xs_view_get(struct xs_view *v, const char *path, size_t len);
/* Perms of the nearest existing ancestor of path (for creation and errors). */
struct xs_node *xs_view_ancestor(struct xs_view *v, const char *path, size_t len);
enum xs_err xs_view_write(struct xs_view *v, const char *path, size_t len, const void *val,
			  uint32_t vlen, bool keep_value, struct xs_node **out);
enum xs_err xs_view_set_perms(struct xs_view *v, struct xs_node *n, const struct xs_perm *p,
			      uint32_t np);
enum xs_err xs_view_rm(struct xs_view *v, const char *path, size_t len);
/* Directory: leaf names of the children, nul-terminated, into buf. */
enum xs_err xs_view_children(struct xs_view *v, const char *path, size_t len, uint8_t *buf,
			     uint32_t cap, uint32_t *used);
uint8_t xs_view_perm(const struct xs_view *v, const struct xs_node *n);
/* A change at n: fire now (main tree) or at the commit (transaction). */
void xs_view_changed(struct xs_view *v, struct xs_node *n, uint8_t match);
/* Quota accounting of main-tree nodes (the owner pays). */
void xs_account_node(const struct xs_node *n, int sign);

/* watches */
void xs_watches_init(void);
enum xs_err xs_watch_add(struct xs_conn *c, const char *path, size_t plen, const char *token,
			 size_t tlen, uint16_t prefix, int depth);
enum xs_err xs_watch_del(struct xs_conn *c, const char *path, size_t plen, const char *token,
			 size_t tlen);
void xs_watch_del_all(struct xs_conn *c);
#define XS_MATCH_EXACT   1U
#define XS_MATCH_SUBTREE 2U
/* A change at path (canonical) with these perms (old perms too, when changed). */
void xs_fire(const char *path, size_t len, uint8_t match, const struct xs_perm *p, uint32_t np,
	     const struct xs_perm *oldp, uint32_t noldp);
/* Queue a WATCH_EVENT on c; false when its queue is full (the event is dropped). */
bool xs_send_event(struct xs_conn *c, const char *path, size_t plen, const char *token,
		   size_t tlen);

/* transactions */
void xs_txns_init(void);
struct xs_txn *xs_txn_find(const struct xs_conn *c, uint32_t id);
enum xs_err xs_txn_start(struct xs_conn *c, uint32_t *id);
enum xs_err xs_txn_end(struct xs_conn *c, struct xs_txn *t, bool commit);
void xs_txn_del_all(struct xs_conn *c);
/* Record an entry in t (its memory and node counts checked); NULL: ENOSPC/ENOMEM. */
struct xs_node *xs_txn_record(struct xs_txn *t, const char *path, size_t len, const void *val,
			      uint32_t vlen, enum xs_err *err);
/* Change the value of t's entry e, keeping t's memory count. */
enum xs_err xs_txn_set_value(struct xs_txn *t, struct xs_node *e, const void *val, uint32_t vlen);

/* request handlers (xs_ops.c) */
enum xs_err xs_handle(struct xs_conn *c, const struct xsd_sockmsg *h, const uint8_t *payload);
/* Reply to the current request with xs.reply[0..len). */
void xs_reply(struct xs_conn *c, const struct xsd_sockmsg *h, uint32_t type, const void *buf,
	      uint32_t len);

#endif
