/* SPDX-License-Identifier: MIT */
/* Fake hypervisor, store and Linux-like frontend for the backend's host tests (vbdt.h). */
#include "vbdt.h"
#include <sys/mman.h>
#include <unistd.h>
#include <public/io/protocols.h>

/* ------------------------------------------------------------ store */
#define ST_MAX 1024U
#define W_MAX 16U
#define EV_MAX 256U

struct st_node {
	bool used;
	char path[128];
	char val[128];
};

static struct st_node st[ST_MAX];
static struct {
	bool used;
	char path[128];
	unsigned int token;
} watch[W_MAX];
static unsigned int ev[EV_MAX];
static unsigned int nev;
bool vbdt_store_refuses;

static struct vbd_dev devs[VBD_MAX_DEVS];
uint8_t vbdt_disk[VBD_MAX_DEVS][VBDT_DISK_SECTORS * 512U];

static struct st_node *st_find(const char *path)
{
	unsigned int i;

	for (i = 0U; i < ST_MAX; i++) {
		if (st[i].used && (strcmp(st[i].path, path) == 0)) {
			return &st[i];
		}
	}
	return NULL;
}

/* A watch fires for its path and anything below it. */
static void fire(const char *path)
{
	unsigned int i;

	for (i = 0U; i < W_MAX; i++) {
		size_t n = strlen(watch[i].path);
		if (watch[i].used && (strncmp(path, watch[i].path, n) == 0) &&
		    ((path[n] == '\0') || (path[n] == '/')) && (nev < EV_MAX)) {
			ev[nev++] = watch[i].token;
		}
	}
}

static void st_set(const char *path, const char *val)
{
	struct st_node *n = st_find(path);
	unsigned int i;

	for (i = 0U; (n == NULL) && (i < ST_MAX); i++) {
		if (!st[i].used) {
			n = &st[i];
			n->used = true;
			snprintf(n->path, sizeof(n->path), "%s", path);
		}
	}
	assert_non_null(n);
	snprintf(n->val, sizeof(n->val), "%s", val);
	fire(path);
}

const char *vbdt_read(const char *path)
{
	struct st_node *n = st_find(path);

	return (n != NULL) ? n->val : NULL;
}

void vbdt_write(const char *path, const char *val)
{
	st_set(path, val);
}

void vbdt_rm(const char *path)
{
	size_t len = strlen(path);
	unsigned int i;

	for (i = 0U; i < ST_MAX; i++) {
		if (st[i].used && (strncmp(st[i].path, path, len) == 0) &&
		    ((st[i].path[len] == '\0') || (st[i].path[len] == '/'))) {
			st[i].used = false;
		}
	}
	fire(path);
	/* Xen also fires the watches of nodes the removal took with it. */
	for (i = 0U; i < W_MAX; i++) {
		if (watch[i].used && (strncmp(watch[i].path, path, len) == 0) &&
		    (watch[i].path[len] == '/') && (nev < EV_MAX)) {
			ev[nev++] = watch[i].token;
		}
	}
}

unsigned int vbdt_dispatch(void)
{
	unsigned int done = 0U;

	/* Bounded: a dispatch may queue more, but never more than the queue holds. */
	while ((nev != 0U) && (done < 4U * EV_MAX)) {
		unsigned int t = ev[0];
		memmove(ev, &ev[1], (nev - 1U) * sizeof(ev[0]));
		nev--;
		assert_true(t < VBD_MAX_DEVS);
		vbd_dev_changed(&devs[t]);
		done++;
	}
	return done;
}

bool vbd_plat_read(const char *path, char *buf, size_t len)
{
	const char *v = vbdt_read(path);

	if (v == NULL) {
		return false;
	}
	snprintf(buf, len, "%s", v);
	return true;
}

int vbd_plat_write(const char *path, const char *val)
{
	char own[64];

	if (vbdt_store_refuses) {
		return -1;
	}
	/* The backend writes only below its own home. */
	snprintf(own, sizeof(own), "/local/domain/%u/", VBDT_BE);
	assert_int_equal(strncmp(path, own, strlen(own)), 0);
	st_set(path, val);
	return 0;
}

int vbd_plat_watch(const char *path, const char *token)
{
	unsigned int i;

	for (i = 0U; i < W_MAX; i++) {
		if (!watch[i].used) {
			watch[i].used = true;
			snprintf(watch[i].path, sizeof(watch[i].path), "%s", path);
			watch[i].token = (unsigned int)atoi(token);
			/* Xen fires a new watch once at once. */
			if (nev < EV_MAX) {
				ev[nev++] = watch[i].token;
			}
			return 0;
		}
	}
	return -1;
}

void vbd_plat_unwatch(const char *path, const char *token)
{
	unsigned int i;

	for (i = 0U; i < W_MAX; i++) {
		if (watch[i].used && (strcmp(watch[i].path, path) == 0) &&
		    (watch[i].token == (unsigned int)atoi(token))) {
			watch[i].used = false;
		}
	}
}

const char *vbd_plat_tag(void)
{
	return "BE";
}

/* ------------------------------------------------------- hypervisor */
struct gnt {
	bool granted;
	bool ro;
	uint16_t dom;
	uint32_t page;
	unsigned int maps;
};

static int memfd[2] = { -1, -1 };
static uint8_t *fe_mem[2];
static uint8_t *win;
static struct gnt gnt[2][VBDT_GREFS];
static uint32_t next_gref[2];
static uint32_t slot_ref[VBDT_WIN];   /* gref + 1 mapped at a slot, 0: none */
static uint8_t slot_fe[VBDT_WIN];
static uint8_t win_used[VBDT_WIN];
static unsigned int mapped;
static unsigned int maps_made;
unsigned int vbdt_maptrack_max = 100000U;
static struct {
	bool unbound;
	bool bound;
} port[2][64];
static unsigned int nport[2];
static unsigned int notified[2];

static unsigned int fi(uint16_t dom)
{
	assert_true((dom == VBDT_FE) || (dom == VBDT_FE2));
	return dom - VBDT_FE;
}

uint8_t *vbdt_fe_page(uint16_t dom, uint32_t page)
{
	assert_true(page < VBDT_PAGES);
	return &fe_mem[fi(dom)][(size_t)page * 4096U];
}

uint32_t vbdt_grant(uint16_t dom, uint32_t page, bool ro)
{
	unsigned int f = fi(dom);
	uint32_t i;

	for (i = 0U; i < VBDT_GREFS; i++) {
		uint32_t r = (next_gref[f] + i) % VBDT_GREFS;
		if ((r >= 8U) && !gnt[f][r].granted) {
			gnt[f][r] = (struct gnt){ .granted = true, .ro = ro, .dom = VBDT_BE,
						  .page = page };
			next_gref[f] = r + 1U;
			return r;
		}
	}
	fail_msg("frontend out of grant references");
	return VBDT_NOREF;
}

bool vbdt_revoke(uint16_t dom, uint32_t gref)
{
	struct gnt *g = &gnt[fi(dom)][gref];

	assert_true(g->granted);
	if (g->maps != 0U) {
		return false;
	}
	g->granted = false;
	return true;
}

unsigned int vbdt_mapped(void)
{
	return mapped;
}

unsigned int vbdt_maps_made(void)
{
	return maps_made;
}

void vbd_plat_map(struct vbd_map *m, unsigned int n)
{
	unsigned int i;

	for (i = 0U; i < n; i++) {
		struct gnt *g;
		void *at;

		m[i].va = NULL;
		if ((m[i].dom != VBDT_FE) && (m[i].dom != VBDT_FE2)) {
			m[i].status = GNTST_bad_domain;
			continue;
		}
		g = (m[i].gref < VBDT_GREFS) ? &gnt[fi(m[i].dom)][m[i].gref] : NULL;
		assert_true(m[i].slot < VBDT_WIN);
		/* Mapping over a live mapping would be a backend bug. */
		assert_int_equal(slot_ref[m[i].slot], 0U);
		assert_true(win_used[m[i].slot]);
		if ((g == NULL) || !g->granted || (g->dom != VBDT_BE)) {
			m[i].status = GNTST_bad_gntref;
			continue;
		}
		if (g->ro && !m[i].ro) {
			m[i].status = GNTST_permission_denied;
			continue;
		}
		if (mapped >= vbdt_maptrack_max) {
			m[i].status = GNTST_no_space;
			continue;
		}
		at = mmap(&win[(size_t)m[i].slot * 4096U], 4096U,
			  PROT_READ | (m[i].ro ? 0 : PROT_WRITE), MAP_SHARED | MAP_FIXED,
			  memfd[fi(m[i].dom)], (off_t)g->page * 4096);
		assert_ptr_equal(at, &win[(size_t)m[i].slot * 4096U]);
		g->maps++;
		slot_ref[m[i].slot] = m[i].gref + 1U;
		slot_fe[m[i].slot] = (uint8_t)fi(m[i].dom);
		m[i].va = at;
		m[i].handle = m[i].slot;
		m[i].status = GNTST_okay;
		mapped++;
		maps_made++;
	}
}

void vbd_plat_unmap(struct vbd_map *m, unsigned int n)
{
	unsigned int i;

	for (i = 0U; i < n; i++) {
		uint32_t s = m[i].handle;
		void *at;

		assert_true(s < VBDT_WIN);
		assert_int_not_equal(slot_ref[s], 0U);
		assert_ptr_equal(m[i].va, &win[(size_t)s * 4096U]);
		gnt[slot_fe[s]][slot_ref[s] - 1U].maps--;
		slot_ref[s] = 0U;
		at = mmap(&win[(size_t)s * 4096U], 4096U, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		assert_ptr_equal(at, &win[(size_t)s * 4096U]);
		mapped--;
	}
}

int vbd_plat_copy_from(uint16_t dom, uint32_t gref, uint16_t off, void *buf, uint16_t len)
{
	struct gnt *g;

	if (((dom != VBDT_FE) && (dom != VBDT_FE2)) || (gref >= VBDT_GREFS)) {
		return GNTST_bad_gntref;
	}
	g = &gnt[fi(dom)][gref];
	if (!g->granted || ((uint32_t)off + len > 4096U)) {
		return GNTST_bad_gntref;
	}
	memcpy(buf, vbdt_fe_page(dom, g->page) + off, len);
	return GNTST_okay;
}

uint32_t vbdt_port(uint16_t dom)
{
	unsigned int f = fi(dom);
	uint32_t p = ++nport[f];

	assert_true(p < 64U);
	port[f][p].unbound = true;
	return p;
}

long vbd_plat_bind(uint16_t dom, uint32_t rport, uint32_t *lport)
{
	unsigned int f;

	if (((dom != VBDT_FE) && (dom != VBDT_FE2)) || (rport >= 64U)) {
		return -22;
	}
	f = fi(dom);
	if (!port[f][rport].unbound || port[f][rport].bound) {
		return -22;
	}
	port[f][rport].bound = true;
	*lport = 100U * (f + 1U) + rport;
	return 0;
}

void vbd_plat_unbind(uint32_t lport)
{
	unsigned int f = lport / 100U - 1U;

	assert_true(port[f][lport % 100U].bound);
	port[f][lport % 100U].bound = false;
}

void vbd_plat_notify(uint32_t lport)
{
	unsigned int f = lport / 100U - 1U;

	assert_true(port[f][lport % 100U].bound);
	notified[f]++;
}

unsigned int vbdt_notified(uint16_t dom)
{
	return notified[fi(dom)];
}

unsigned int vbdt_bound(void)
{
	unsigned int n = 0U;
	unsigned int f;
	unsigned int p;

	for (f = 0U; f < 2U; f++) {
		for (p = 0U; p < 64U; p++) {
			n += port[f][p].bound ? 1U : 0U;
		}
	}
	return n;
}

int vbd_plat_win_alloc(unsigned int n)
{
	unsigned int i;
	unsigned int run = 0U;

	for (i = 0U; (i < VBDT_WIN) && (n != 0U); i++) {
		run = win_used[i] ? 0U : run + 1U;
		if (run == n) {
			memset(&win_used[i + 1U - n], 1, n);
			return (int)(i + 1U - n);
		}
	}
	return -1;
}

void vbd_plat_win_free(unsigned int first, unsigned int n)
{
	unsigned int i;

	for (i = first; i < first + n; i++) {
		assert_true(win_used[i]);
		/* Nothing may stay mapped in pages given back. */
		assert_int_equal(slot_ref[i], 0U);
		win_used[i] = 0U;
	}
}

/* ------------------------------------------------------------- reset */

void vbdt_reset(void)
{
	unsigned int f;

	for (f = 0U; f < 2U; f++) {
		if (memfd[f] < 0) {
			memfd[f] = memfd_create("vbdt-fe", 0);
			assert_true(memfd[f] >= 0);
			assert_int_equal(ftruncate(memfd[f], (off_t)VBDT_PAGES * 4096), 0);
			fe_mem[f] = mmap(NULL, (size_t)VBDT_PAGES * 4096U, PROT_READ | PROT_WRITE,
					 MAP_SHARED, memfd[f], 0);
			assert_true(fe_mem[f] != MAP_FAILED);
		}
		memset(fe_mem[f], 0, (size_t)VBDT_PAGES * 4096U);
	}
	if (win == NULL) {
		win = mmap(NULL, (size_t)VBDT_WIN * 4096U, PROT_NONE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		assert_true(win != MAP_FAILED);
	}
	/* What a failed test left mapped goes with the rest. */
	assert_true(mmap(win, (size_t)VBDT_WIN * 4096U, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == win);
	mapped = 0U;
	memset(st, 0, sizeof(st));
	memset(watch, 0, sizeof(watch));
	nev = 0U;
	vbdt_store_refuses = false;
	memset(gnt, 0, sizeof(gnt));
	memset(next_gref, 0, sizeof(next_gref));
	memset(slot_ref, 0, sizeof(slot_ref));
	memset(win_used, 0, sizeof(win_used));
	memset(port, 0, sizeof(port));
	memset(nport, 0, sizeof(nport));
	memset(notified, 0, sizeof(notified));
	maps_made = 0U;
	vbdt_maptrack_max = 100000U;
	memset(devs, 0, sizeof(devs));
	memset(vbdt_disk, 0, sizeof(vbdt_disk));
	vbd_ring_init();
}

void vbdt_store_be_nodes(uint16_t fe, uint32_t devid)
{
	char p[128];
	char v[128];

	snprintf(p, sizeof(p), "/local/domain/%u/backend/vbd/%u/%u/frontend", VBDT_BE, fe, devid);
	snprintf(v, sizeof(v), "/local/domain/%u/device/vbd/%u", fe, devid);
	st_set(p, v);
	snprintf(p, sizeof(p), "/local/domain/%u/backend/vbd/%u/%u/state", VBDT_BE, fe, devid);
	st_set(p, "1");
}

void vbdt_store_nodes(uint16_t fe, uint32_t devid)
{
	char p[128];
	char v[128];

	vbdt_store_be_nodes(fe, devid);
	snprintf(p, sizeof(p), "/local/domain/%u/device/vbd/%u/backend", fe, devid);
	snprintf(v, sizeof(v), "/local/domain/%u/backend/vbd/%u/%u", VBDT_BE, fe, devid);
	st_set(p, v);
	snprintf(p, sizeof(p), "/local/domain/%u/device/vbd/%u/state", fe, devid);
	st_set(p, "1");
}

static const char *p_frontend(uint16_t fe, uint32_t devid)
{
	static char p[128];

	snprintf(p, sizeof(p), "/local/domain/%u/backend/vbd/%u/%u/frontend", VBDT_BE, fe, devid);
	return p;
}

struct vbd_dev *vbdt_dev(unsigned int idx, uint16_t fe, const char *name,
			 const struct vbd_offer *o)
{
	struct vbd_dev *d = &devs[idx];

	memset(d, 0, sizeof(*d));
	d->idx = idx;
	d->self = VBDT_BE;
	d->fe = fe;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->devid = vbd_vdev_of(name);
	d->disk.base = vbdt_disk[idx];
	d->disk.sectors = VBDT_DISK_SECTORS;
	d->offer = *o;
	if (vbdt_read(p_frontend(fe, d->devid)) == NULL) {
		vbdt_store_nodes(fe, d->devid);
	}
	return d;
}

enum xenbus_state vbdt_be_state(uint16_t fe, uint32_t devid)
{
	char p[128];
	const char *v;

	snprintf(p, sizeof(p), "/local/domain/%u/backend/vbd/%u/%u/state", VBDT_BE, fe, devid);
	v = vbdt_read(p);
	return (v == NULL) ? XenbusStateUnknown : (enum xenbus_state)atoi(v);
}

/* --------------------------------------------------- the frontend */

void vbdt_pattern(uint8_t *buf, uint32_t bytes, unsigned int seed)
{
	uint32_t x = seed * 2654435761U + 1U;
	uint32_t i;

	for (i = 0U; i < bytes; i++) {
		x = x * 1103515245U + 12345U;
		buf[i] = (uint8_t)(x >> 16);
	}
}

static void fe_key(struct vbdt_fe *f, const char *rel, const char *fmt, ...)
{
	char p[160];
	char v[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	snprintf(p, sizeof(p), "%s/%s", f->path, rel);
	vbdt_write(p, v);
}

static unsigned int be_u(struct vbdt_fe *f, const char *key, unsigned int def)
{
	char p[160];
	const char *v;

	snprintf(p, sizeof(p), "%s/%s", f->be_path, key);
	v = vbdt_read(p);
	return (v == NULL) ? def : (unsigned int)strtoul(v, NULL, 10);
}

void vbdt_fe_state(struct vbdt_fe *f, enum xenbus_state s)
{
	fe_key(f, "state", "%u", (unsigned int)s);
}

void vbdt_fe_init(struct vbdt_fe *f, uint16_t dom, uint32_t devid, unsigned int order,
		  unsigned int nq, bool persistent)
{
	unsigned int i;
	unsigned int k;

	memset(f, 0, sizeof(*f));
	f->dom = dom;
	f->devid = devid;
	f->order = order;
	f->nq = nq;
	f->persistent = persistent;
	f->next_page = 16U;
	snprintf(f->path, sizeof(f->path), "/local/domain/%u/device/vbd/%u", dom, devid);
	snprintf(f->be_path, sizeof(f->be_path), "/local/domain/%u/backend/vbd/%u/%u", VBDT_BE,
		 dom, devid);
	for (i = 0U; i < nq; i++) {
		struct vbdt_queue *q = &f->q[i];
		char base[24];

		q->page = f->next_page;
		f->next_page += 1U << order;
		q->sring = (struct xen_sring_header *)(void *)vbdt_fe_page(dom, q->page);
		q->slot = (union blkif_sring_entry *)(void *)((uint8_t *)q->sring + 64);
		/* SHARED_RING_INIT */
		q->sring->req_event = 1U;
		q->sring->rsp_event = 1U;
		q->size = blkif_ring_size(1U << order);
		for (k = 0U; k < (1U << order); k++) {
			q->gref[k] = vbdt_grant(dom, q->page + k, false);
		}
		q->port = vbdt_port(dom);
		for (k = 0U; k < VBDT_POOL; k++) {
			q->pool[k].gref = VBDT_NOREF;
			q->pool[k].page = f->next_page++;
			q->list[k] = &q->pool[k];
		}
		q->nlist = VBDT_POOL;
		if (nq == 1U) {
			base[0] = '\0';
		} else {
			snprintf(base, sizeof(base), "queue-%u/", i);
		}
		for (k = 0U; k < (1U << order); k++) {
			char key[64];
			if (order == 0U) {
				snprintf(key, sizeof(key), "%sring-ref", base);
			} else {
				snprintf(key, sizeof(key), "%sring-ref%u", base, k);
			}
			fe_key(f, key, "%u", q->gref[k]);
		}
		{
			char key[48];
			snprintf(key, sizeof(key), "%sevent-channel", base);
			fe_key(f, key, "%u", q->port);
		}
	}
	if (order != 0U) {
		fe_key(f, "ring-page-order", "%u", order);
	}
	if (nq > 1U) {
		fe_key(f, "multi-queue-num-queues", "%u", nq);
	}
	fe_key(f, "protocol", "%s", XEN_IO_PROTO_ABI_NATIVE);
	fe_key(f, "feature-persistent", "%u", persistent ? 1U : 0U);
	vbdt_fe_state(f, XenbusStateInitialised);
}

void vbdt_fe_connected(struct vbdt_fe *f)
{
	unsigned int ind = be_u(f, "feature-max-indirect-segments", 0U);

	f->pers_on = f->persistent && (be_u(f, "feature-persistent", 0U) == 1U);
	/* xen_blkif_max_segments: Linux's default is 32. */
	f->max_indirect = (ind > 32U) ? 32U : ind;
	f->max_indirect = (f->max_indirect <= BLKIF_MAX_SEGMENTS_PER_REQUEST) ? 0U : f->max_indirect;
}

/* get_free_grant + get_grant: a pool grant, granted now if it has no ref. */
static struct vbdt_grant *fe_grant(struct vbdt_fe *f, struct vbdt_queue *q, bool ro)
{
	struct vbdt_grant *g;

	if (!f->pers_on) {
		/* Without persistence Linux grants the data page for this request only. */
		g = q->list[--q->nlist];
		g->gref = vbdt_grant(f->dom, g->page, ro);
		return g;
	}
	assert_true(q->nlist > 0U);
	g = q->list[0];
	memmove(&q->list[0], &q->list[1], (q->nlist - 1U) * sizeof(q->list[0]));
	q->nlist--;
	if (g->gref == VBDT_NOREF) {
		g->gref = vbdt_grant(f->dom, g->page, false);
	} else {
		q->persistent_c--;
	}
	return g;
}

int vbdt_fe_submit(struct vbdt_fe *f, unsigned int qi, uint8_t op, uint64_t sector,
		   uint32_t bytes, const uint8_t *data)
{
	struct vbdt_queue *q = &f->q[qi];
	union blkif_sring_entry *e = &q->slot[q->req_prod_pvt % q->size];
	unsigned int nseg = bytes / 4096U;
	unsigned int id;
	struct vbdt_req *r;
	unsigned int i;

	for (id = 0U; (id < q->size) && q->shadow[id].busy; id++) {
	}
	assert_true(id < q->size);
	r = &q->shadow[id];
	memset(r, 0, sizeof(*r));
	r->busy = true;
	r->op = op;
	r->inner = (op == BLKIF_OP_FLUSH_DISKCACHE) ? (uint8_t)BLKIF_OP_WRITE : op;
	r->sector = sector;
	r->bytes = bytes;
	memset(e, 0, sizeof(*e));
	if (nseg > BLKIF_MAX_SEGMENTS_PER_REQUEST) {
		struct vbdt_grant *ig;
		struct blkif_request_segment *segs;

		assert_true((f->max_indirect != 0U) && (nseg <= f->max_indirect));
		r->op = BLKIF_OP_INDIRECT;
		ig = fe_grant(f, q, true);
		r->g[r->ngrants++] = ig;
		segs = (struct blkif_request_segment *)(void *)vbdt_fe_page(f->dom, ig->page);
		for (i = 0U; i < nseg; i++) {
			struct vbdt_grant *g = fe_grant(f, q, op == BLKIF_OP_WRITE);
			if (op == BLKIF_OP_WRITE) {
				memcpy(vbdt_fe_page(f->dom, g->page), &data[i * 4096U], 4096U);
			}
			segs[i] = (struct blkif_request_segment){ .gref = g->gref, .first_sect = 0,
								  .last_sect = 7 };
			r->g[r->ngrants++] = g;
		}
		e->ind.operation = BLKIF_OP_INDIRECT;
		e->ind.indirect_op = op;
		e->ind.nr_segments = (uint16_t)nseg;
		e->ind.id = id;
		e->ind.sector_number = sector;
		e->ind.indirect_grefs[0] = ig->gref;
	} else {
		for (i = 0U; i < nseg; i++) {
			struct vbdt_grant *g = fe_grant(f, q, r->inner == BLKIF_OP_WRITE);
			if (r->inner == BLKIF_OP_WRITE) {
				memcpy(vbdt_fe_page(f->dom, g->page), &data[i * 4096U], 4096U);
			}
			e->req.seg[i] = (struct blkif_request_segment){ .gref = g->gref, .first_sect = 0,
									.last_sect = 7 };
			r->g[r->ngrants++] = g;
		}
		e->req.operation = op;
		e->req.nr_segments = (uint8_t)nseg;
		e->req.id = id;
		e->req.sector_number = sector;
	}
	q->req_prod_pvt++;
	return (int)id;
}

bool vbdt_fe_push(struct vbdt_fe *f, unsigned int qi)
{
	struct vbdt_queue *q = &f->q[qi];
	RING_IDX old = q->sring->req_prod;
	RING_IDX new = q->req_prod_pvt;
	bool notify;

	__atomic_store_n(&q->sring->req_prod, new, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	notify = (RING_IDX)(new - q->sring->req_event) < (RING_IDX)(new - old);
	q->kicks += notify ? 1U : 0U;
	return notify;
}

/* blkif_completion: keep what the backend still maps, revoke the rest. */
static void fe_finish(struct vbdt_fe *f, struct vbdt_queue *q, struct vbdt_req *r)
{
	unsigned int i;

	for (i = 0U; i < r->ngrants; i++) {
		struct vbdt_grant *g = r->g[i];
		bool revoked = vbdt_revoke(f->dom, g->gref);

		if (!f->pers_on) {
			/* "backed has not unmapped grant": Linux stops the device. */
			assert_true(revoked);
			g->gref = VBDT_NOREF;
			q->list[q->nlist++] = g;
			continue;
		}
		if (!revoked) {
			memmove(&q->list[1], &q->list[0], q->nlist * sizeof(q->list[0]));
			q->list[0] = g;
			q->persistent_c++;
		} else {
			g->gref = VBDT_NOREF;
			q->list[q->nlist] = g;
		}
		q->nlist++;
	}
}

unsigned int vbdt_fe_complete(struct vbdt_fe *f, unsigned int qi)
{
	struct vbdt_queue *q = &f->q[qi];
	RING_IDX rp = __atomic_load_n(&q->sring->rsp_prod, __ATOMIC_ACQUIRE);
	unsigned int n = 0U;

	/* Linux: "illegal number of responses". */
	assert_true((RING_IDX)(rp - q->rsp_cons) <= q->size);
	while (q->rsp_cons != rp) {
		struct blkif_response rsp;
		struct vbdt_req *r;

		memcpy(&rsp, &q->slot[q->rsp_cons % q->size].rsp, sizeof(rsp));
		q->rsp_cons++;
		assert_true(rsp.id < q->size);
		r = &q->shadow[rsp.id];
		assert_true(r->busy && !r->done);
		/* The response says the request's op; for indirect ones the inner op. */
		assert_int_equal(rsp.operation, (r->op == BLKIF_OP_INDIRECT) ? r->inner : r->op);
		r->status = rsp.status;
		r->done = true;
		if (rsp.status == BLKIF_RSP_OKAY) {
			f->completed++;
		} else {
			f->failed++;
		}
		fe_finish(f, q, r);
		n++;
	}
	/* RING_FINAL_CHECK_FOR_RESPONSES */
	q->sring->rsp_event = q->rsp_cons + 1U;
	return n;
}

void vbdt_fe_data(struct vbdt_fe *f, unsigned int qi, int id, uint8_t *buf)
{
	struct vbdt_req *r = &f->q[qi].shadow[id];
	unsigned int first = (r->op == BLKIF_OP_INDIRECT) ? 1U : 0U;
	unsigned int i;

	assert_true(r->done);
	for (i = first; i < r->ngrants; i++) {
		memcpy(&buf[(i - first) * 4096U], vbdt_fe_page(f->dom, r->g[i]->page), 4096U);
	}
	r->busy = false;
}

bool vbdt_fe_roundtrip(struct vbd_dev *d, struct vbdt_fe *f, unsigned int qi, uint64_t sector,
		       uint32_t bytes, unsigned int seed)
{
	static uint8_t out[VBD_MAX_INDIRECT_SEGS * 4096U];
	static uint8_t in[VBD_MAX_INDIRECT_SEGS * 4096U];
	int w;
	int r;

	vbdt_pattern(out, bytes, seed);
	w = vbdt_fe_submit(f, qi, BLKIF_OP_WRITE, sector, bytes, out);
	(void)vbdt_fe_push(f, qi);
	while (vbd_dev_serve(d)) {
	}
	assert_int_equal(vbdt_fe_complete(f, qi), 1U);
	if (f->q[qi].shadow[w].status != BLKIF_RSP_OKAY) {
		f->q[qi].shadow[w].busy = false;
		return false;
	}
	f->q[qi].shadow[w].busy = false;
	r = vbdt_fe_submit(f, qi, BLKIF_OP_READ, sector, bytes, NULL);
	(void)vbdt_fe_push(f, qi);
	while (vbd_dev_serve(d)) {
	}
	assert_int_equal(vbdt_fe_complete(f, qi), 1U);
	if (f->q[qi].shadow[r].status != BLKIF_RSP_OKAY) {
		f->q[qi].shadow[r].busy = false;
		return false;
	}
	memset(in, 0, bytes);
	vbdt_fe_data(f, qi, r, in);
	/* And the disk has it where the sector says. */
	return (memcmp(in, out, bytes) == 0) &&
	       (memcmp(&d->disk.base[sector * 512U], out, bytes) == 0);
}
