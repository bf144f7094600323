/* SPDX-License-Identifier: MIT */
/*
 * The xenstore partition (docs/xenstore.md). It learns the partitions from
 * its own device tree (the /xenstore node the hypervisor writes), builds
 * the initial tree, then serves every client over its ring:
 *
 *  - introduction, as Xen's xenstored with init-dom0less: bind the client's
 *    store port (from the ring page's evtchn_port, else the device tree),
 *    reset the ring if the client asks for it (XENSTORE_RECONNECT, which a
 *    fresh client's page says), set HVM_PARAM_STORE_PFN to the ring's gfn
 *    and send the event Linux's late init waits for;
 *  - the ring is never mapped: every access is a GNTTABOP_copy through the
 *    client's grant reference 1, so a client that restarts under the store
 *    (its grants revoked) makes a copy fail, never a fault here;
 *  - VIRQ_DOM_EXC (and a periodic look) finds clients that went: the store's
 *    end of their channel is unbound again. Their nodes go, their home is
 *    built again and the new incarnation is introduced.
 *
 * Bootargs: tag=, quiet=1 (no per-connection lines), trace=1 (ring indices
 * at each round), delay_ms= (introduce late: clients wait), crash_on=<path>
 * (test: crash when a client writes that node, to show a store restart).
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <public/grant_table.h>
#include <public/hvm/params.h>
#include "xs.h"

#define DT_VERSION     1U
#define RING_IDX_OFF   2048U
#define RING_HDR_LEN   32U    /* req_cons .. evtchn_port */
#define BATCH          8U     /* messages per client per round: nobody starves */
#define LOOK_MS        100U   /* unprompted look for clients that went or came */
#define FEATURES       (XENSTORE_SERVER_FEATURE_RECONNECTION | XENSTORE_SERVER_FEATURE_ERROR | \
			XENSTORE_SERVER_FEATURE_WATCHDEPTH)

struct ring_hdr {
	uint32_t req_cons;
	uint32_t req_prod;
	uint32_t rsp_cons;
	uint32_t rsp_prod;
	uint32_t features;
	uint32_t connection;
	uint32_t error;
	uint32_t evtchn_port;
};
_Static_assert(sizeof(struct ring_hdr) == RING_HDR_LEN, "ring header");

struct client {
	struct xs_domain_info *info;
	struct xs_conn *c;
	evtchn_port_t lport;     /* our end, 0 while not introduced */
	bool introduced;
	bool dirty;              /* stopped with work it can do now: serve again */
	bool out_blocked;        /* its response queue was full: wait for its event */
	bool in_left;            /* requests it sent that are not taken yet */
	uint64_t serves;
};

/* One page per client for its copies, and its view of the ring. */
static uint8_t buf[XS_MAX_CLIENTS][4096] __attribute__((aligned(4096)));
static struct xs_domain_info dinfo[XS_MAX_DOMS];
static struct client client[XS_MAX_CLIENTS];
static struct xs_vbd vbd[XS_MAX_VBDS];
static uint32_t nvbds;
static unsigned int ndoms;
static unsigned int nclients;
static evtchn_port_t virq_port;
static bool quiet;
static bool trace;
static char crash_on[64];

static void say(const char *fmt, uint32_t a, uint32_t b)
{
	if (!quiet) {
		printf(fmt, a, b);
	}
}

/* ------------------------------------------------------------ device tree */

static bool prop_u32(int node, const char *name, uint32_t *v)
{
	uint32_t len;
	const void *p = fdt_prop(rt.dtb, node, name, &len);

	if ((p == NULL) || (len != 4U)) {
		return false;
	}
	*v = (uint32_t)fdt_cells(p, 1U);
	return true;
}

static bool prop_u64(int node, const char *name, uint64_t *v)
{
	uint32_t len;
	const void *p = fdt_prop(rt.dtb, node, name, &len);

	if ((p == NULL) || ((len != 4U) && (len != 8U))) {
		return false;
	}
	*v = fdt_cells(p, len / 4U);
	return true;
}

/* The disks a partition serves: vbds = <frontend virtual-device read-only> each. */
static void read_vbds(int node, uint16_t be)
{
	uint32_t len = 0U;
	const uint8_t *p = fdt_prop(rt.dtb, node, "vbds", &len);
	uint32_t i;

	for (i = 0U; (p != NULL) && (i + 12U <= len); i += 12U) {
		uint32_t fe = (uint32_t)fdt_cells(&p[i], 1U);
		if ((nvbds >= XS_MAX_VBDS) || (fe == 0U) || (fe >= DOMID_FIRST_RESERVED)) {
			printf("xenstore: d%u: disk %u of d%u not kept\n", be, i / 12U, fe);
			continue;
		}
		vbd[nvbds] = (struct xs_vbd){ .be = be, .fe = (uint16_t)fe,
					      .devid = (uint32_t)fdt_cells(&p[i + 4U], 1U),
					      .readonly = fdt_cells(&p[i + 8U], 1U) != 0U };
		nvbds++;
	}
}

static int read_dt(uint16_t *self)
{
	int xsn = fdt_path(rt.dtb, "/xenstore");
	uint32_t v = 0U;
	int child;

	if ((xsn < 0) || !prop_u32(xsn, "version", &v) || (v != DT_VERSION) ||
	    !prop_u32(xsn, "self", &v)) {
		printf("xenstore: no /xenstore node of version %u in the device tree\n", DT_VERSION);
		return -1;
	}
	*self = (uint16_t)v;
	for (child = fdt_next_child(rt.dtb, xsn, -1); (child >= 0) && (ndoms < XS_MAX_DOMS);
	     child = fdt_next_child(rt.dtb, xsn, child)) {
		struct xs_domain_info *d = &dinfo[ndoms];
		uint32_t len;
		uint32_t u;
		if (!prop_u32(child, "domid", &u) || (u == 0U) || (u >= DOMID_FIRST_RESERVED)) {
			printf("xenstore: %s: no domid\n", fdt_name(rt.dtb, child));
			continue;
		}
		d->domid = (uint16_t)u;
		d->name = fdt_prop(rt.dtb, child, "name", &len);
		if ((d->name == NULL) || (len == 0U) || (d->name[len - 1U] != '\0')) {
			d->name = "";
		}
		(void)prop_u32(child, "cpus", &d->vcpus);
		(void)prop_u64(child, "memory", &d->memory_kib);
		d->client = (fdt_prop(rt.dtb, child, "xenstore-client", &len) != NULL) &&
			    (d->domid != v);
		if (d->client && (!prop_u32(child, "event-channel", &d->port) ||
				  !prop_u64(child, "ring-gfn", &d->ring_gfn))) {
			printf("xenstore: d%u: a client without event-channel and ring-gfn\n", u);
			d->client = false;
		}
		read_vbds(child, d->domid);
		ndoms++;
	}
	return 0;
}

/* ------------------------------------------------------------- the ring */

static uint64_t gfn_of(const void *p)
{
	return (uint64_t)(uintptr_t)p >> 12;
}

/*
 * GNTTABOP_copy of up to three pieces between the client's ring page
 * (grant ref 1) and our page; to_ring picks the direction. All or nothing:
 * a refused piece (the client is restarting) fails the whole exchange.
 */
struct piece {
	uint16_t ring_off;
	uint16_t buf_off;
	uint16_t len;
};

static bool ring_copy(struct client *cl, const struct piece *p, unsigned int n, bool to_ring)
{
	struct gnttab_copy op[3];
	unsigned int i;
	unsigned int k = 0U;
	long rc;

	for (i = 0U; (i < n) && (i < 3U); i++) {
		struct gnttab_copy_ptr ring = { .u.ref = GNTTAB_RESERVED_XENSTORE,
						.domid = cl->info->domid,
						.offset = p[i].ring_off };
		struct gnttab_copy_ptr mine = { .u.gmfn = gfn_of(buf[cl - client]),
						.domid = DOMID_SELF, .offset = p[i].buf_off };
		if (p[i].len == 0U) {
			continue;
		}
		op[k].source = to_ring ? mine : ring;
		op[k].dest = to_ring ? ring : mine;
		op[k].len = p[i].len;
		op[k].flags = to_ring ? GNTCOPY_dest_gref : GNTCOPY_source_gref;
		op[k].status = 0;
		k++;
	}
	if (k == 0U) {
		return true;
	}
	rc = HYPERVISOR_grant_table_op(GNTTABOP_copy, op, k);
	for (i = 0U; (rc == 0) && (i < k); i++) {
		rc = op[i].status;
	}
	return rc == 0;
}

static struct ring_hdr *hdr_of(struct client *cl)
{
	return (struct ring_hdr *)(void *)&buf[cl - client][RING_IDX_OFF];
}

static bool read_hdr(struct client *cl)
{
	struct piece p = { RING_IDX_OFF, RING_IDX_OFF, RING_HDR_LEN };
	bool ok = ring_copy(cl, &p, 1U, false);

	__asm__ volatile("dmb ish" ::: "memory");
	return ok;
}

/* One u32 field of the header, written alone (each field has one writer). */
static bool write_field(struct client *cl, uint32_t *field)
{
	uint16_t off = (uint16_t)((uint8_t *)field - buf[cl - client]);
	struct piece p = { off, off, 4U };

	return ring_copy(cl, &p, 1U, true);
}

/* Pieces covering [idx, idx + len) of a 1 KiB queue at base, wrapping. */
static unsigned int queue_pieces(uint16_t base, uint32_t idx, uint32_t len, struct piece *p)
{
	uint32_t at = MASK_XENSTORE_IDX(idx);
	uint32_t first = (len < XENSTORE_RING_SIZE - at) ? len : (XENSTORE_RING_SIZE - at);

	p[0] = (struct piece){ (uint16_t)(base + at), (uint16_t)(base + at), (uint16_t)first };
	p[1] = (struct piece){ base, base, (uint16_t)(len - first) };
	return 2U;
}

static void notify(struct client *cl)
{
	if (cl->lport != 0U) {
		(void)evt_send(cl->lport);
	}
}

/* Stop serving a client that broke the ring protocol; the error field says why. */
static void ring_error(struct client *cl, uint32_t err)
{
	struct ring_hdr *h = hdr_of(cl);

	cl->c->error = (uint8_t)err;
	h->error = err;
	(void)write_field(cl, &h->error);
	notify(cl);
	say("xenstore: d%u: ring error %u, connection stopped\n", cl->info->domid, err);
}

/*
 * The ring reset of xenstore-ring.txt: drop partial packets, empty both
 * queues, forget watches and transactions, then connection 0 and an event.
 */
static bool ring_reset(struct client *cl)
{
	struct ring_hdr *h = hdr_of(cl);
	struct piece p = { RING_IDX_OFF, RING_IDX_OFF, 28U };

	xs_conn_reset(cl->c);
	h->req_cons = 0U;
	h->req_prod = 0U;
	h->rsp_cons = 0U;
	h->rsp_prod = 0U;
	h->features = FEATURES;
	h->connection = XENSTORE_RECONNECT;
	h->error = XENSTORE_ERROR_NONE;
	if (!ring_copy(cl, &p, 1U, true)) {
		return false;
	}
	__asm__ volatile("dmb ish" ::: "memory");
	h->connection = XENSTORE_CONNECTED;
	if (!write_field(cl, &h->connection)) {
		return false;
	}
	notify(cl);
	return true;
}

/* Whether the queue's producer is at most one ring ahead of its consumer. */
static bool sane(uint32_t prod, uint32_t cons)
{
	return (uint32_t)(prod - cons) <= XENSTORE_RING_SIZE;
}

static bool take_input(struct client *cl, struct ring_hdr *h, bool *moved)
{
	uint8_t *page = buf[cl - client];
	static uint8_t in[XENSTORE_RING_SIZE];
	struct piece p[2];
	uint32_t avail = h->req_prod - h->req_cons;
	uint32_t done = 0U;
	unsigned int msgs;

	cl->in_left = false;

	if (avail == 0U) {
		return true;
	}
	/*
	 * Everything there is, partial messages too, as xenstored does: Linux
	 * notifies only when it writes into a ring the store has emptied.
	 */
	(void)queue_pieces(0U, h->req_cons, avail, p);
	if (!ring_copy(cl, p, 2U, false)) {
		return false;
	}
	__asm__ volatile("dmb ish" ::: "memory");
	(void)memcpy(in, &page[p[0].buf_off], p[0].len);
	(void)memcpy(&in[p[0].len], page, p[1].len);
	for (msgs = 0U; (msgs < BATCH) && (done < avail); msgs++) {
		size_t k = xs_conn_input(cl->c, &in[done], avail - done);
		if (k == 0U) {
			break; /* blocked on its own replies */
		}
		done += (uint32_t)k;
	}
	/* More to take: now if it has room, else once its replies have gone. */
	cl->in_left = (done < avail);
	if (done != 0U) {
		h->req_cons += done;
		*moved = true;
	}
	return true;
}

static bool give_output(struct client *cl, struct ring_hdr *h, bool *moved)
{
	uint8_t *page = buf[cl - client];
	uint32_t room = XENSTORE_RING_SIZE - (h->rsp_prod - h->rsp_cons);
	uint32_t len = xs_conn_out_len(cl->c);
	uint32_t n = (len < room) ? len : room;
	uint32_t done = 0U;
	struct piece p[2];

	cl->out_blocked = (len > room);
	if (n == 0U) {
		return true;
	}
	(void)queue_pieces(XENSTORE_RING_SIZE, h->rsp_prod, n, p);
	/* Lay the bytes out where they go in the ring, then copy them there. */
	while (done < n) {
		uint32_t run;
		const uint8_t *q = xs_conn_out_peek(cl->c, &run);
		uint32_t k = (run < n - done) ? run : (n - done);
		uint32_t at = MASK_XENSTORE_IDX(h->rsp_prod + done);
		uint32_t room1 = XENSTORE_RING_SIZE - at;
		k = (k < room1) ? k : room1;
		(void)memcpy(&page[XENSTORE_RING_SIZE + at], q, k);
		xs_conn_out_consume(cl->c, k);
		done += k;
	}
	if (!ring_copy(cl, p, 2U, true)) {
		return false;
	}
	__asm__ volatile("dmb ish" ::: "memory");
	h->rsp_prod += n;
	*moved = true;
	return true;
}

static void serve(struct client *cl)
{
	struct ring_hdr *h = hdr_of(cl);
	bool moved = false;
	uint32_t cons0;

	cl->dirty = false;
	cl->serves++;
	if (!read_hdr(cl)) {
		return; /* ref 1 refused: the client is restarting; VIRQ_DOM_EXC follows */
	}
	if (h->connection == XENSTORE_RECONNECT) {
		(void)ring_reset(cl);
		return;
	}
	if (cl->c->error != 0U) {
		return;
	}
	if (!sane(h->req_prod, h->req_cons) || !sane(h->rsp_prod, h->rsp_cons)) {
		ring_error(cl, XENSTORE_ERROR_RINGIDX);
		return;
	}
	cons0 = h->req_cons;
	if (trace) {
		printf("xenstore: trace d%u req %u..%u rsp %u..%u conn %u\n", cl->info->domid,
		       h->req_cons, h->req_prod, h->rsp_cons, h->rsp_prod, h->connection);
	}
	if (!take_input(cl, h, &moved)) {
		return;
	}
	if (cl->c->error != 0U) {
		ring_error(cl, cl->c->error);
		return;
	}
	if (!give_output(cl, h, &moved)) {
		return;
	}
	cl->dirty = cl->in_left && xs_conn_can_serve(cl->c);
	if (!moved) {
		return;
	}
	/* Replies before their requests leave the ring. */
	if ((!write_field(cl, &h->rsp_prod)) ||
	    ((h->req_cons != cons0) && !write_field(cl, &h->req_cons))) {
		return;
	}
	notify(cl);
	/*
	 * Look again once more: a client writing while the ring was not yet
	 * empty (Linux writes a header and its payload apart) sends no event
	 * for what it added, as with xenstored, which looks until idle.
	 */
	if (h->req_cons != cons0) {
		cl->dirty = true;
	}
}

/* ----------------------------------------------------------- connections */

static void introduce(struct client *cl)
{
	struct ring_hdr *h = hdr_of(cl);
	struct xen_hvm_param a = { .domid = cl->info->domid, .index = HVM_PARAM_STORE_PFN,
				   .value = cl->info->ring_gfn };
	evtchn_port_t rport;
	long rc;

	if (!read_hdr(cl)) {
		return; /* not ready yet (ref 1 not seeded) */
	}
	rport = (h->evtchn_port != 0U) ? h->evtchn_port : cl->info->port;
	rc = evt_bind_interdomain(cl->info->domid, rport, &cl->lport);
	if (rc != 0) {
		cl->lport = 0U;
		return;
	}
	/* Binding leaves our new port pending. */
	evt_clear(cl->lport);
	if (h->connection == XENSTORE_RECONNECT) {
		if (!ring_reset(cl)) {
			return;
		}
	} else {
		/* Connected before (the store restarted): resume where the ring is. */
		h->features = FEATURES;
		(void)write_field(cl, &h->features);
	}
	rc = xen_hypercall(__HYPERVISOR_hvm_op, HVMOP_set_param, (uint64_t)(uintptr_t)&a, 0, 0, 0);
	if (rc != 0) {
		printf("xenstore: d%u: set STORE_PFN: %ld\n", cl->info->domid, rc);
	}
	cl->introduced = true;
	notify(cl);
	xs_fire_special("@introduceDomain");
	say("xenstore: d%u introduced, port %u\n", cl->info->domid, rport);
	serve(cl);
}

/* The client went (restart or reset): its nodes go, its home is made again. */
static void release(struct client *cl)
{
	uint16_t dom = cl->info->domid;
	int ci;

	(void)evt_close(cl->lport);
	cl->lport = 0U;
	cl->introduced = false;
	xs_conn_close(cl->c);
	xs_tree_remove_domain(dom);
	(void)xs_tree_add_domain(cl->info);
	(void)xs_tree_add_vbds(dom, vbd, nvbds);
	ci = xs_conn_open(dom);
	cl->c = (ci >= 0) ? &xs.conn[ci] : NULL;
	say("xenstore: d%u went, nodes released\n", dom, 0U);
}

static void look(void)
{
	unsigned int i;

	for (i = 0U; i < nclients; i++) {
		struct client *cl = &client[i];
		if (cl->c == NULL) {
			continue;
		}
		if (cl->introduced && (evt_status(cl->lport) != EVTCHNSTAT_interdomain)) {
			release(cl);
		}
		if (!cl->introduced) {
			introduce(cl);
		}
	}
}

/* Test hook: a write of the crash_on node by a client ends the store (restart test). */
static void check_crash(void)
{
	struct xs_view v = { 0 };

	if ((crash_on[0] != '\0') && (xs_view_get(&v, crash_on, strlen(crash_on)) != NULL)) {
		printf("xenstore: %s written: crashing as asked\n", crash_on);
		rt_exit(3);
	}
}

static void loop(void)
{
	static evtchn_port_t ports[XS_MAX_CLIENTS + 1U];
	uint64_t next_look = cntvct() + timer_us_to_ticks(LOOK_MS * 1000U);
	unsigned int i;
	unsigned int n;

	/* LOOP-BOUND: the service loop; the partition ends only by crashing or shutdown. */
	for (;;) {
		bool busy = false;
		n = 0U;
		if (virq_port != 0U) {
			ports[n++] = virq_port;
		}
		for (i = 0U; i < nclients; i++) {
			if (client[i].lport != 0U) {
				ports[n++] = client[i].lport;
			}
			busy = busy || client[i].dirty;
		}
		if (!busy) {
			(void)evt_poll(ports, n, timer_us_to_ticks(LOOK_MS * 1000U));
		}
		if (((virq_port != 0U) && evt_pending(virq_port)) || (cntvct() >= next_look)) {
			if (virq_port != 0U) {
				evt_clear(virq_port);
			}
			look();
			next_look = cntvct() + timer_us_to_ticks(LOOK_MS * 1000U);
		}
		for (i = 0U; i < nclients; i++) {
			struct client *cl = &client[i];
			if (!cl->introduced) {
				continue;
			}
			if (evt_pending(cl->lport)) {
				evt_clear(cl->lport);
				cl->out_blocked = false;
				serve(cl);
			} else if (cl->dirty) {
				serve(cl);
			} else {
				/* Nothing from it. */
			}
		}
		/* Events queued for clients by others' changes. */
		for (i = 0U; i < nclients; i++) {
			struct client *cl = &client[i];
			if (cl->introduced && (cl->c != NULL) && !cl->out_blocked &&
			    (xs_conn_out_len(cl->c) != 0U)) {
				serve(cl);
			}
		}
		check_crash();
	}
}

int test_main(void)
{
	struct evtchn_bind_virq bv = { .virq = VIRQ_DOM_EXC, .vcpu = 0 };
	uint16_t self = 0U;
	char q[4];
	unsigned int i;
	long rc;

	quiet = rt_arg("quiet", q, sizeof(q)) && (q[0] == '1');
	trace = rt_arg("trace", q, sizeof(q)) && (q[0] == '1');
	(void)rt_arg("crash_on", crash_on, sizeof(crash_on));
	if (read_dt(&self) != 0) {
		return 1;
	}
	xs_init(self, NULL);
	for (i = 0U; i < ndoms; i++) {
		enum xs_err err = xs_tree_add_domain(&dinfo[i]);
		if (err != XS_OK) {
			printf("xenstore: d%u: initial tree: %s\n", dinfo[i].domid, xs_err_name(err));
		}
		if (dinfo[i].client && (nclients < XS_MAX_CLIENTS)) {
			int ci = xs_conn_open(dinfo[i].domid);
			client[nclients].info = &dinfo[i];
			client[nclients].c = (ci >= 0) ? &xs.conn[ci] : NULL;
			nclients++;
		}
	}
	/* Disks once every home is there: each end names the other partition. */
	for (i = 0U; i < ndoms; i++) {
		enum xs_err err = xs_tree_add_vbds(dinfo[i].domid, vbd, nvbds);
		if (err != XS_OK) {
			printf("xenstore: d%u: disk nodes: %s\n", dinfo[i].domid, xs_err_name(err));
		}
	}
	rc = evt_setup(false);
	if (rc != 0) {
		printf("xenstore: event channels: %ld\n", rc);
		return 1;
	}
	if (HYPERVISOR_event_channel_op(EVTCHNOP_bind_virq, &bv) == 0) {
		virq_port = bv.port;
	}
	printf("xenstore: d%u serves %u of %u partitions, %u disks, %u nodes, check %d\n", self,
	       nclients, ndoms, nvbds, xs.nodes_used, xs_check());
	/* Test: introduce late, so clients take the STORE_PFN ~0 path. */
	mdelay(rt_arg_u64("delay_ms", 0));
	look();
	loop();
	return 0;
}
