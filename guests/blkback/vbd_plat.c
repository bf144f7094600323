/* SPDX-License-Identifier: MIT */
/*
 * The partition's side of the xenbus block backend (vbd/vbd.h): the disks
 * from its device tree (one bulkhead,vbd-backend node each, its bytes at
 * the node's reg: the region the hypervisor keeps across this partition's
 * restarts), grant mappings in the grant window, event channels, and a
 * xenstore client (guest/xenbus.h) for the nodes and the watches.
 *
 * Bootargs: tag=, maptrack= (grant mappings the hypervisor gives this
 * partition, CONFIG_GNTTAB_MAPTRACK_ENTRIES, default 256: persistent grants
 * are bounded so that every ring's and one request's mappings fit),
 * crash_after=N (test: a backend that connected its frontends fresh
 * crashes once it has served N requests; one that took a connection over
 * from a previous incarnation does not, so a restarted backend runs on),
 * stats_ms= (a statistics line per disk this often, 0: none).
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xen_gnttab.h>
#include <guest/xenbus.h>
#include "blkback.h"
#include "vbd/vbd.h"

#define WIN_BASE    0x38100000ULL /* grant window pages from here ... */
#define WIN_PAGES   3840U         /* ... up to GUEST_MAGIC_BASE */
#define WAIT_MS     100U          /* longest sleep: watches come as events anyway */
#define XS_WAIT_MS  600000U       /* for the store to introduce us */

static uint8_t win_used[WIN_PAGES];
static struct vbd_dev devs[VBD_MAX_DEVS];
static unsigned int ndevs;
static struct gnttab_map_grant_ref mop[VBD_TMP_PAGES];
static struct gnttab_unmap_grant_ref uop[VBD_TMP_PAGES];
static uint8_t bounce[4096] __attribute__((aligned(4096)));

/* ------------------------------------------------------------ grants */

void vbd_plat_map(struct vbd_map *m, unsigned int n)
{
	unsigned int done = 0U;
	unsigned int i;

	/* LOOP-BOUND: n / VBD_TMP_PAGES + 1 batches. */
	while (done < n) {
		unsigned int k = ((n - done) < VBD_TMP_PAGES) ? (n - done) : VBD_TMP_PAGES;
		long rc;

		for (i = 0U; i < k; i++) {
			const struct vbd_map *e = &m[done + i];
			mop[i] = (struct gnttab_map_grant_ref){
				.host_addr = WIN_BASE + (uint64_t)e->slot * 4096U,
				.flags = GNTMAP_host_map | (e->ro ? GNTMAP_readonly : 0U),
				.ref = e->gref,
				.dom = e->dom,
			};
		}
		rc = HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, mop, k);
		for (i = 0U; i < k; i++) {
			struct vbd_map *e = &m[done + i];
			e->status = (rc != 0) ? (int16_t)GNTST_general_error : mop[i].status;
			e->handle = mop[i].handle;
			e->va = (e->status == GNTST_okay) ?
				(void *)(uintptr_t)(WIN_BASE + (uint64_t)e->slot * 4096U) : NULL;
		}
		done += k;
	}
}

void vbd_plat_unmap(struct vbd_map *m, unsigned int n)
{
	unsigned int done = 0U;
	unsigned int i;

	/* LOOP-BOUND: n / VBD_TMP_PAGES + 1 batches. */
	while (done < n) {
		unsigned int k = ((n - done) < VBD_TMP_PAGES) ? (n - done) : VBD_TMP_PAGES;
		long rc;

		for (i = 0U; i < k; i++) {
			uop[i] = (struct gnttab_unmap_grant_ref){
				.host_addr = (uint64_t)(uintptr_t)m[done + i].va,
				.handle = m[done + i].handle,
			};
		}
		rc = HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref, uop, k);
		for (i = 0U; i < k; i++) {
			if ((rc != 0) || (uop[i].status != GNTST_okay)) {
				printf("%s: unmap of d%u gref %u: %ld/%d\n", rt_tag(), m[done + i].dom,
				       m[done + i].gref, rc, uop[i].status);
			}
		}
		done += k;
	}
}

int vbd_plat_copy_from(uint16_t dom, uint32_t gref, uint16_t off, void *buf, uint16_t len)
{
	int st;

	if (len > sizeof(bounce)) {
		return GNTST_general_error;
	}
	/* Into a page of our own (a copy's destination is one frame), then where it goes. */
	st = gnt_copy_from(dom, gref, off, (uint64_t)(uintptr_t)bounce >> 12, 0U, len);
	if (st == GNTST_okay) {
		memcpy(buf, bounce, len);
	}
	return st;
}

int vbd_plat_win_alloc(unsigned int n)
{
	unsigned int i;
	unsigned int run = 0U;

	for (i = 0U; (i < WIN_PAGES) && (n != 0U); i++) {
		run = (win_used[i] != 0U) ? 0U : (run + 1U);
		if (run == n) {
			unsigned int first = i + 1U - n;
			memset(&win_used[first], 1, n);
			return (int)first;
		}
	}
	return -1;
}

void vbd_plat_win_free(unsigned int first, unsigned int n)
{
	if ((first < WIN_PAGES) && (n <= WIN_PAGES - first)) {
		memset(&win_used[first], 0, n);
	}
}

/* ----------------------------------------------------- event channels */

long vbd_plat_bind(uint16_t dom, uint32_t rport, uint32_t *lport)
{
	evtchn_port_t p = 0U;
	long rc = evt_bind_interdomain(dom, rport, &p);

	*lport = p;
	return rc;
}

void vbd_plat_unbind(uint32_t lport)
{
	(void)evt_close(lport);
}

void vbd_plat_notify(uint32_t lport)
{
	(void)evt_send(lport);
}

/* ----------------------------------------------------------- xenstore */

bool vbd_plat_read(const char *path, char *buf, size_t len)
{
	uint32_t rlen = 0U;
	uint32_t type = XS_INVALID;
	const char *r = xb_req(XS_READ, 0U, path, (uint32_t)strlen(path) + 1U, &rlen, &type);

	if ((type != XS_READ) || (len == 0U)) {
		return false;
	}
	rlen = (rlen < len - 1U) ? rlen : (uint32_t)(len - 1U);
	memcpy(buf, r, rlen);
	buf[rlen] = '\0';
	return true;
}

int vbd_plat_write(const char *path, const char *val)
{
	return (strcmp(xb_write(0U, path, val), "OK") == 0) ? 0 : -1;
}

int vbd_plat_watch(const char *path, const char *token)
{
	return (strcmp(xb_watch(path, token), "OK") == 0) ? 0 : -1;
}

void vbd_plat_unwatch(const char *path, const char *token)
{
	(void)xb_unwatch(path, token);
}

const char *vbd_plat_tag(void)
{
	return rt_tag();
}

/* ------------------------------------------------------------- disks */

static uint32_t cell(const uint8_t *p, unsigned int i)
{
	return (uint32_t)fdt_cells(&p[4U * i], 1U);
}

/* One disk per bulkhead,vbd-backend node: <fe devid persistent indirect order queues pers ro>. */
static unsigned int find_disks(uint16_t self)
{
	int node = -1;
	unsigned int n = 0U;

	for (node = fdt_compatible(rt.dtb, node, "bulkhead,vbd-backend");
	     (node >= 0) && (n < VBD_MAX_DEVS);
	     node = fdt_compatible(rt.dtb, node, "bulkhead,vbd-backend")) {
		struct vbd_dev *d = &devs[n];
		uint32_t len = 0U;
		const uint8_t *p = fdt_prop(rt.dtb, node, "bulkhead,vbd", &len);
		uint64_t base = 0U;
		uint64_t size = 0U;

		if ((p == NULL) || (len != 32U) || !fdt_reg(rt.dtb, node, 0U, &base, &size) ||
		    (size < BLKIF_SECTOR_SIZE)) {
			printf("%s: %s: not a disk\n", rt_tag(), fdt_name(rt.dtb, node));
			continue;
		}
		memset(d, 0, sizeof(*d));
		d->idx = n;
		d->self = self;
		d->fe = (uint16_t)cell(p, 0U);
		d->devid = cell(p, 1U);
		d->offer = (struct vbd_offer){ .persistent = cell(p, 2U) != 0U,
					       .max_indirect = cell(p, 3U),
					       .max_ring_order = cell(p, 4U),
					       .max_queues = cell(p, 5U),
					       .max_pers = cell(p, 6U) };
		d->disk = (struct vbd_disk){ .base = (uint8_t *)(uintptr_t)base,
					     .sectors = size / BLKIF_SECTOR_SIZE,
					     .readonly = cell(p, 7U) != 0U };
		(void)snprintf(d->name, sizeof(d->name), "xvd%c", (char)('a' + ((d->devid >> 4) & 15U)));
		if ((d->offer.max_ring_order > VBD_MAX_RING_ORDER) || (d->offer.max_queues == 0U) ||
		    (d->offer.max_queues > VBD_MAX_QUEUES) ||
		    (d->offer.max_indirect > VBD_MAX_INDIRECT_SEGS) ||
		    (d->offer.max_pers > VBD_MAX_PERS)) {
			printf("%s: d%u %s: offer out of range\n", rt_tag(), d->fe, d->name);
			continue;
		}
		n++;
	}
	return n;
}

static void stats_line(const struct vbd_dev *d)
{
	struct vbd_stats s;

	vbd_dev_stats(d, &s);
	printf("%s: d%u %s: %llu requests, %llu errors, %llu unsupported, %llu indirect, "
	       "%llu flushes, %llu maps, %llu unmaps, %llu persistent hits, %u ring errors\n",
	       rt_tag(), d->fe, d->name, (unsigned long long)s.reqs, (unsigned long long)s.errors,
	       (unsigned long long)s.unsupported, (unsigned long long)s.indirect,
	       (unsigned long long)s.flushes, (unsigned long long)s.maps,
	       (unsigned long long)s.unmaps, (unsigned long long)s.pers_hits, s.ring_errors);
}

static uint64_t total_reqs(void)
{
	struct vbd_stats s;
	uint64_t t = 0U;
	unsigned int i;

	for (i = 0U; i < ndevs; i++) {
		vbd_dev_stats(&devs[i], &s);
		t += s.reqs;
	}
	return t;
}

/* Watch events: "path|token", the token a disk's index. */
static void watches(void)
{
	char ev[160];
	unsigned int guard;

	for (guard = 0U; (guard < 64U) && xb_event_ready(); guard++) {
		const char *bar;
		unsigned int idx;
		if (!xb_event(ev, sizeof(ev), 200U)) {
			break;
		}
		bar = ev;
		while ((*bar != '\0') && (*bar != '|')) {
			bar++;
		}
		if ((bar[0] != '|') || (bar[1] < '0') || (bar[1] > '9') || (bar[2] != '\0')) {
			continue;
		}
		idx = (unsigned int)(bar[1] - '0');
		if (idx < ndevs) {
			vbd_dev_changed(&devs[idx]);
		}
	}
}

int vbd_main(void)
{
	char num[16];
	uint16_t self;
	uint64_t crash_after = rt_arg_u64("crash_after", 0);
	uint64_t stats_ticks = timer_us_to_ticks(rt_arg_u64("stats_ms", 0) * 1000U);
	uint64_t next_stats = cntvct() + stats_ticks;
	bool took_over = false;
	unsigned int i;
	long rc;

	if (evt_setup(false) != 0) {
		printf("%s: FAIL event channels\n", rt_tag());
		return 1;
	}
	rc = xb_init(XS_WAIT_MS);
	if (rc != 0) {
		printf("%s: FAIL no xenstore (%ld)\n", rt_tag(), rc);
		return 1;
	}
	if (!vbd_plat_read("domid", num, sizeof(num))) {
		printf("%s: FAIL cannot read its domid\n", rt_tag());
		return 1;
	}
	self = 0U;
	for (i = 0U; (num[i] >= '0') && (num[i] <= '9') && (i < 5U); i++) {
		self = (uint16_t)((self * 10U) + (uint16_t)(num[i] - '0'));
	}
	ndevs = find_disks(self);
	(void)vbd_fit_maptrack(devs, ndevs, (unsigned int)rt_arg_u64("maptrack", 256));
	vbd_ring_init();
	printf("%s: d%u serves %u virtual disk%s over xenbus\n", rt_tag(), self, ndevs,
	       (ndevs == 1U) ? "" : "s");
	for (i = 0U; i < ndevs; i++) {
		struct vbd_dev *d = &devs[i];
		printf("%s: d%u %s: %llu sectors%s, persistent %s (%u per ring), indirect %u, "
		       "ring order %u, queues %u\n", rt_tag(), d->fe, d->name,
		       (unsigned long long)d->disk.sectors, d->disk.readonly ? " read-only" : "",
		       d->offer.persistent ? "offered" : "not offered", d->offer.max_pers,
		       d->offer.max_indirect, d->offer.max_ring_order, d->offer.max_queues);
		if (vbd_dev_start(d) != 0) {
			printf("%s: d%u %s: not started\n", rt_tag(), d->fe, d->name);
		}
	}
	/* LOOP-BOUND: the service loop; the partition ends only by crashing or shutdown. */
	for (;;) {
		evtchn_port_t ports[1U + VBD_MAX_DEVS * VBD_MAX_QUEUES];
		unsigned int n = 0U;
		bool busy = false;

		evt_clear(xb_port());
		watches();
		ports[n++] = xb_port();
		for (i = 0U; i < ndevs; i++) {
			unsigned int q;
			for (q = 0U; q < devs[i].nr_rings; q++) {
				struct vbd_ring *r = &devs[i].ring[q];
				if (r->connected) {
					/* Cleared before the look: a request pushed after it wakes us. */
					evt_clear(r->lport);
					ports[n++] = r->lport;
				}
			}
			took_over = took_over || devs[i].taken_over;
			busy = vbd_dev_serve(&devs[i]) || busy;
		}
		if ((crash_after != 0U) && !took_over && (total_reqs() >= crash_after)) {
			printf("%s: crashing after %llu requests, as asked\n", rt_tag(),
			       (unsigned long long)total_reqs());
			rt_exit(3);
		}
		if ((stats_ticks != 0U) && (cntvct() >= next_stats)) {
			for (i = 0U; i < ndevs; i++) {
				stats_line(&devs[i]);
			}
			next_stats = cntvct() + stats_ticks;
		}
		if (!busy && !xb_event_ready()) {
			(void)evt_poll(ports, n, timer_us_to_ticks(WAIT_MS * 1000U));
		}
	}
	return 0;
}
