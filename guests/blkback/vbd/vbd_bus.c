/* SPDX-License-Identifier: MIT */
/*
 * The xenbus side of one virtual disk, as Xen's blkback does it
 * (drivers/block/xen-blkback/xenbus.c behaviour, docs/misc/xenstore-paths):
 *
 *   start        features written to backend/vbd/<fe>/<id>, state InitWait;
 *   frontend Initialised or Connected
 *                its ring-ref(N) / queue-N/..., event-channel(s), protocol,
 *                feature-persistent read and checked, rings mapped, channels
 *                bound; sectors, info, sector sizes written; Connected. A
 *                frontend already Connected when we start is one a previous
 *                incarnation of this backend served: we take its rings over
 *                where that one's published responses end (vbd_ring.c), and
 *                Linux, seeing Connected again, only rereads the size;
 *   frontend Closing / Closed
 *                everything unmapped and unbound; Closing / Closed;
 *   frontend Initialising after Closed, or its node gone and back (the
 *                frontend partition restarted): InitWait again.
 *
 * A frontend that asks for what was not offered, or names rings that do not
 * map, gets Xen's xenbus_dev_fatal: an error node and Closing. Only this
 * disk is affected; the others go on.
 */
#include "vbd.h"

static const char *const state_name[] = { "Unknown", "Initialising", "InitWait",
					  "Initialised", "Connected", "Closing", "Closed",
					  "Reconfiguring", "Reconfigured" };

static const char *sname(enum xenbus_state s)
{
	return ((unsigned int)s < sizeof(state_name) / sizeof(state_name[0])) ? state_name[s] : "?";
}

uint32_t vbd_vdev_of(const char *name)
{
	if ((strlen(name) != 4U) || (memcmp(name, "xvd", 3U) != 0) || (name[3] < 'a') ||
	    (name[3] > 'p')) {
		return 0U;
	}
	return (202U << 8) | ((uint32_t)(name[3] - 'a') << 4);
}

/* Decimal digits only, at most max: what xenbus_read_unsigned accepts from Linux. */
static bool parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v = 0U;
	unsigned int i;

	if (s[0] == '\0') {
		return false;
	}
	for (i = 0U; s[i] != '\0'; i++) {
		if ((s[i] < '0') || (s[i] > '9') || (i >= 10U)) {
			return false;
		}
		v = v * 10U + (uint64_t)(s[i] - '0');
	}
	if (v > max) {
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

static bool join(char *out, const char *base, const char *rel)
{
	int n = snprintf(out, VBD_PATH_MAX, "%s/%s", base, rel);

	return (n > 0) && ((size_t)n < VBD_PATH_MAX);
}

static bool rd(const char *base, const char *rel, char *buf)
{
	char p[VBD_PATH_MAX];

	return join(p, base, rel) && vbd_plat_read(p, buf, VBD_VAL_MAX);
}

/* A number node: its value, def when absent, false when present but not a number <= max. */
static bool rd_u32(const char *base, const char *rel, uint32_t def, uint32_t max, uint32_t *v)
{
	char buf[VBD_VAL_MAX];

	if (!rd(base, rel, buf)) {
		*v = def;
		return true;
	}
	return parse_u32(buf, max, v);
}

static int wr(const char *base, const char *rel, const char *val)
{
	char p[VBD_PATH_MAX];

	return join(p, base, rel) ? vbd_plat_write(p, val) : -1;
}

static int wr_u64(const char *base, const char *rel, uint64_t v)
{
	char num[24];

	(void)snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	return wr(base, rel, num);
}

static void set_state(struct vbd_dev *d, enum xenbus_state s)
{
	if (wr_u64(d->be_path, "state", (uint64_t)s) != 0) {
		vbd_log("%s: d%u %s: cannot write state %s\n", vbd_plat_tag(), d->fe, d->name,
			sname(s));
	}
	if (s != d->state) {
		vbd_log("%s: d%u %s: %s -> %s (frontend %s)\n", vbd_plat_tag(), d->fe, d->name,
			sname(d->state), sname(s), sname(d->fe_state));
	}
	d->state = s;
}

/* Xen's xenbus_dev_fatal: error/<nodename>/error = "<errno> <what>", then Closing. */
static void fatal(struct vbd_dev *d, int err, const char *what)
{
	char p[VBD_PATH_MAX];
	char v[VBD_VAL_MAX];
	int n = snprintf(p, sizeof(p), "/local/domain/%u/error/backend/vbd/%u/%u", d->self, d->fe,
			 d->devid);

	(void)snprintf(v, sizeof(v), "%d %s", err, what);
	vbd_log("%s: d%u %s: %s\n", vbd_plat_tag(), d->fe, d->name, v);
	if ((n > 0) && ((size_t)n < sizeof(p))) {
		(void)wr(p, "error", v);
	}
	d->connect_errors++;
	vbd_dev_disconnect(d);
	set_state(d, XenbusStateClosing);
}

static int write_features(struct vbd_dev *d)
{
	int rc = wr_u64(d->be_path, "feature-flush-cache", 1U);

	rc |= wr_u64(d->be_path, "feature-persistent", d->offer.persistent ? 1U : 0U);
	if (d->offer.max_indirect != 0U) {
		rc |= wr_u64(d->be_path, "feature-max-indirect-segments", d->offer.max_indirect);
	}
	rc |= wr_u64(d->be_path, "max-ring-page-order", d->offer.max_ring_order);
	rc |= wr_u64(d->be_path, "multi-queue-max-queues", d->offer.max_queues);
	return rc;
}

static int write_disk(struct vbd_dev *d)
{
	int rc = wr_u64(d->be_path, "sectors", d->disk.sectors);

	rc |= wr_u64(d->be_path, "info", d->disk.readonly ? VDISK_READONLY : 0U);
	rc |= wr_u64(d->be_path, "sector-size", BLKIF_SECTOR_SIZE);
	rc |= wr_u64(d->be_path, "physical-sector-size", 4096U);
	return rc;
}

int vbd_dev_start(struct vbd_dev *d)
{
	char want[VBD_PATH_MAX];
	char got[VBD_VAL_MAX];
	char p[VBD_PATH_MAX];
	char tok[8];
	unsigned int i;

	d->state = XenbusStateInitialising;
	d->fe_state = XenbusStateUnknown;
	d->nr_rings = 0U;
	for (i = 0U; i < VBD_MAX_QUEUES; i++) {
		d->ring[i].dev = d;
		d->ring[i].idx = i;
		d->ring[i].win = -1;
		d->ring[i].pers_win = -1;
	}
	(void)snprintf(d->be_path, sizeof(d->be_path), "/local/domain/%u/backend/vbd/%u/%u",
		       d->self, d->fe, d->devid);
	(void)snprintf(want, sizeof(want), "/local/domain/%u/device/vbd/%u", d->fe, d->devid);
	/* The store wrote the toolstack's half of the node; it must name this frontend. */
	if (!rd(d->be_path, "frontend", got) || (strcmp(got, want) != 0)) {
		vbd_log("%s: d%u %s: %s/frontend is not %s\n", vbd_plat_tag(), d->fe, d->name,
			d->be_path, want);
		d->state = XenbusStateClosed;
		return -1;
	}
	(void)snprintf(d->fe_path, sizeof(d->fe_path), "%s", want);
	if ((write_features(d) != 0) || (write_disk(d) != 0) || !join(p, d->fe_path, "state")) {
		vbd_log("%s: d%u %s: the store refused the backend's nodes\n", vbd_plat_tag(), d->fe,
			d->name);
		d->state = XenbusStateClosed;
		return -1;
	}
	(void)snprintf(tok, sizeof(tok), "%u", d->idx);
	d->watching = vbd_plat_watch(p, tok) == 0;
	set_state(d, XenbusStateInitWait);
	return d->watching ? 0 : -1;
}

/* Read queue i's ring references and channel from base (the frontend's node or queue-i). */
static int read_ring(struct vbd_dev *d, struct vbd_ring *r, const char *base, uint32_t order)
{
	uint32_t i;

	r->pages = 1U << order;
	if (!rd_u32(base, "event-channel", 0U, 0xffffffffU, &r->rport) || (r->rport == 0U)) {
		return -1;
	}
	for (i = 0U; i < r->pages; i++) {
		char key[24];
		bool ok;
		if (order == 0U) {
			(void)snprintf(key, sizeof(key), "ring-ref");
		} else {
			(void)snprintf(key, sizeof(key), "ring-ref%u", i);
		}
		ok = rd_u32(base, key, 0xffffffffU, 0xffffffffU, &r->gref[i]);
		if (!ok || (r->gref[i] == 0xffffffffU)) {
			return -1;
		}
	}
	(void)d;
	return 0;
}

static void connect(struct vbd_dev *d)
{
	char proto[VBD_VAL_MAX];
	uint32_t fe_pers = 0U;
	uint32_t order = 0U;
	uint32_t nq = 1U;
	uint32_t i;

	if (rd(d->fe_path, "protocol", proto) && (strcmp(proto, XEN_IO_PROTO_ABI_NATIVE) != 0)) {
		fatal(d, -22, "unknown fe protocol");  /* -EINVAL, as Xen's message */
		return;
	}
	if (!rd_u32(d->fe_path, "feature-persistent", 0U, 1U, &fe_pers)) {
		fe_pers = 0U;
	}
	d->persistent = d->offer.persistent && (fe_pers == 1U) && (d->offer.max_pers != 0U);
	if (!rd_u32(d->fe_path, "ring-page-order", 0U, d->offer.max_ring_order, &order)) {
		fatal(d, -22, "ring-page-order beyond max-ring-page-order");
		return;
	}
	if (!rd_u32(d->fe_path, "multi-queue-num-queues", 1U, d->offer.max_queues, &nq) ||
	    (nq == 0U)) {
		fatal(d, -22, "multi-queue-num-queues beyond multi-queue-max-queues");
		return;
	}
	d->nr_rings = nq;
	for (i = 0U; i < nq; i++) {
		char base[VBD_PATH_MAX];
		int n = snprintf(base, sizeof(base), "%s/queue-%u", d->fe_path, i);
		if ((n <= 0) || ((size_t)n >= sizeof(base)) ||
		    (read_ring(d, &d->ring[i], (nq == 1U) ? d->fe_path : base, order) != 0)) {
			fatal(d, -22, "reading ring-ref and event-channel");
			return;
		}
	}
	for (i = 0U; i < nq; i++) {
		if (vbd_ring_connect(&d->ring[i]) != 0) {
			fatal(d, -12, "mapping ring-ref and binding event-channel"); /* -ENOMEM */
			return;
		}
	}
	if (write_disk(d) != 0) {
		fatal(d, -5, "writing the disk's size"); /* -EIO */
		return;
	}
	d->connects++;
	/* Connected already: a previous incarnation of this backend served it. */
	d->taken_over = d->fe_state == XenbusStateConnected;
	vbd_log("%s: d%u %s: connected: %u queue%s of %u page%s, persistent grants %s, "
		"indirect %u, %llu sectors%s\n", vbd_plat_tag(), d->fe, d->name, nq,
		(nq == 1U) ? "" : "s", 1U << order, (order == 0U) ? "" : "s",
		d->persistent ? "on" : "off", d->offer.max_indirect,
		(unsigned long long)d->disk.sectors,
		d->taken_over ? ", taken over from a previous backend" : "");
	set_state(d, XenbusStateConnected);
}

void vbd_dev_stats(const struct vbd_dev *d, struct vbd_stats *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0U; i < VBD_MAX_QUEUES; i++) {
		const struct vbd_stats *s = &d->ring[i].st;
		out->reqs += s->reqs;
		out->errors += s->errors;
		out->unsupported += s->unsupported;
		out->indirect += s->indirect;
		out->flushes += s->flushes;
		out->maps += s->maps;
		out->unmaps += s->unmaps;
		out->pers_hits += s->pers_hits;
		out->copies += s->copies;
		out->notifies += s->notifies;
		out->ring_errors += s->ring_errors;
	}
}

void vbd_dev_disconnect(struct vbd_dev *d)
{
	struct vbd_stats s;
	unsigned int i;
	bool any = false;

	for (i = 0U; i < VBD_MAX_QUEUES; i++) {
		any = any || d->ring[i].connected;
		vbd_ring_disconnect(&d->ring[i]);
	}
	if (!any) {
		return;
	}
	vbd_dev_stats(d, &s);
	vbd_log("%s: d%u %s: disconnected, everything unmapped: %llu requests, %llu errors, "
		"%llu indirect, %llu flushes, %llu maps = %llu unmaps, %llu persistent hits\n",
		vbd_plat_tag(), d->fe, d->name, (unsigned long long)s.reqs,
		(unsigned long long)s.errors, (unsigned long long)s.indirect,
		(unsigned long long)s.flushes, (unsigned long long)s.maps,
		(unsigned long long)s.unmaps, (unsigned long long)s.pers_hits);
}

static bool connected(const struct vbd_dev *d)
{
	return d->ring[0].connected;
}

void vbd_dev_changed(struct vbd_dev *d)
{
	char buf[VBD_VAL_MAX];
	uint32_t v = 0U;
	enum xenbus_state prev = d->fe_state;
	enum xenbus_state fs = XenbusStateUnknown;

	if (rd(d->fe_path, "state", buf) && parse_u32(buf, XenbusStateReconfigured, &v)) {
		fs = (enum xenbus_state)v;
	}
	d->fe_state = fs;
	if ((fs == prev) && (fs != XenbusStateInitialised) && (fs != XenbusStateConnected)) {
		return;
	}
	switch (fs) {
	case XenbusStateUnknown:
		/* Its node went: the frontend partition stopped or restarts. */
		vbd_dev_disconnect(d);
		if (d->state != XenbusStateInitWait) {
			set_state(d, XenbusStateInitWait);
		}
		break;
	case XenbusStateInitialising:
		/* A new start (after Closed, or a restarted frontend we did not see go). */
		vbd_dev_disconnect(d);
		if (d->state != XenbusStateInitWait) {
			set_state(d, XenbusStateInitWait);
		}
		break;
	case XenbusStateInitialised:
	case XenbusStateConnected:
		if (connected(d) && (fs == XenbusStateInitialised) && (prev != fs)) {
			/* Rings made again without a close we saw: drop the old ones first. */
			vbd_dev_disconnect(d);
		}
		if (!connected(d) && (d->state != XenbusStateClosing) &&
		    (d->state != XenbusStateClosed)) {
			connect(d);
		}
		break;
	case XenbusStateClosing:
		vbd_dev_disconnect(d);
		set_state(d, XenbusStateClosing);
		break;
	case XenbusStateClosed:
		vbd_dev_disconnect(d);
		set_state(d, XenbusStateClosed);
		break;
	default:
		break;
	}
}

bool vbd_dev_serve(struct vbd_dev *d)
{
	bool busy = false;
	unsigned int i;

	for (i = 0U; i < d->nr_rings; i++) {
		busy = vbd_ring_serve(&d->ring[i]) || busy;
	}
	return busy;
}
