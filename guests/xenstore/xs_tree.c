/* SPDX-License-Identifier: MIT */
/*
 * The initial tree of one partition, from what the device tree says of it,
 * under Xen's paths (docs/misc/xenstore-paths.pandoc): the nodes Xen's
 * dom0less set-up (tools/helpers/init-dom0less.c) writes for a domain,
 * all owned by the partition itself so that it reads and writes its whole
 * home and nobody else does. PV devices of later issues add their nodes
 * through the same xs_tree_node() calls. Not written: init-dom0less's
 * "vm" link and /vm/<uuid> (a partition has no UUID: its xen_version
 * guest_handle is zero) and /libxl (the toolstack's own).
 */
#include "xs.h"

static uint32_t home(uint16_t domid, char *buf)
{
	static const char prefix[] = "/local/domain/";
	uint32_t n = sizeof(prefix) - 1U;

	(void)memcpy(buf, prefix, n);
	n += xs_fmt_u32(&buf[n], domid);
	buf[n] = '\0';
	return n;
}

enum xs_err xs_tree_node(uint16_t domid, const char *rel, const char *val)
{
	char *p = xs.path2;
	uint32_t n = home(domid, p);
	size_t rl = strlen(rel);

	if (n + 1U + rl >= XS_PATH_MAX) {
		return XS_EINVAL;
	}
	p[n] = '/';
	(void)memcpy(&p[n + 1U], rel, rl + 1U);
	return xs_store_write(p, val, (uint32_t)strlen(val), NULL, 0U);
}

static enum xs_err node_u64(uint16_t domid, const char *rel, uint64_t v)
{
	char num[24];
	uint32_t n = xs_fmt_u64(num, v);

	num[n] = '\0';
	return xs_tree_node(domid, rel, num);
}

enum xs_err xs_tree_add_domain(const struct xs_domain_info *d)
{
	static const char *const fixed[][2] = {
		{ "device", "" },
		{ "device/suspend/event-channel", "" },
		{ "control/shutdown", "" },
		{ "control/feature-poweroff", "1" },
		{ "control/feature-reboot", "1" },
		{ "control/feature-suspend", "" },
		{ "control/sysrq", "" },
		{ "control/platform-feature-multiprocessor-suspend", "1" },
		{ "control/platform-feature-xs_reset_watches", "1" },
		{ "data", "" },
		{ "drivers", "" },
		{ "feature", "" },
		{ "attr", "" },
	};
	struct xs_perm own = { .dom = d->domid, .mode = XS_PERM_NONE };
	char rel[48];
	enum xs_err err;
	uint32_t i;

	if (!xs_dom_add(d->domid)) {
		return XS_ENOSPC;
	}
	(void)home(d->domid, xs.path2);
	err = xs_store_mkdir(xs.path2, &own, 1U);
	if (err == XS_OK) {
		err = xs_tree_node(d->domid, "name", d->name);
	}
	if (err == XS_OK) {
		err = node_u64(d->domid, "domid", d->domid);
	}
	for (i = 0U; (err == XS_OK) && (i < d->vcpus); i++) {
		uint32_t n = 4U;
		(void)memcpy(rel, "cpu/", 4U);
		n += xs_fmt_u32(&rel[n], i);
		(void)memcpy(&rel[n], "/availability", sizeof("/availability"));
		err = xs_tree_node(d->domid, rel, "online");
	}
	if (err == XS_OK) {
		err = node_u64(d->domid, "memory/static-max", d->memory_kib);
	}
	if (err == XS_OK) {
		err = node_u64(d->domid, "memory/target", d->memory_kib);
	}
	if (err == XS_OK) {
		err = xs_tree_node(d->domid, "memory/videoram", "-1");
	}
	for (i = 0U; (err == XS_OK) && (i < sizeof(fixed) / sizeof(fixed[0])); i++) {
		err = xs_tree_node(d->domid, fixed[i][0], fixed[i][1]);
	}
	if ((err == XS_OK) && d->client) {
		err = node_u64(d->domid, "store/port", d->port);
		if (err == XS_OK) {
			err = node_u64(d->domid, "store/ring-ref", d->ring_gfn);
		}
	}
	return err;
}

void xs_tree_remove_domain(uint16_t domid)
{
	(void)home(domid, xs.path2);
	(void)xs_store_rm(xs.path2);
	xs_store_rm_owned(domid);
	xs_fire_special("@releaseDomain");
}

/* "/local/domain/<a>/<mid><b>/<devid>" into buf; its length. */
static uint32_t vbd_path(char *buf, uint16_t a, const char *mid, int32_t b, uint32_t devid)
{
	uint32_t n = home(a, buf);
	size_t ml = strlen(mid);

	buf[n++] = '/';
	(void)memcpy(&buf[n], mid, ml);
	n += (uint32_t)ml;
	if (b >= 0) {
		n += xs_fmt_u32(&buf[n], (uint32_t)b);
		buf[n++] = '/';
	}
	n += xs_fmt_u32(&buf[n], devid);
	buf[n] = '\0';
	return n;
}

/* dir/rel = val, dir being a full path of length dl in a buffer of XS_PATH_MAX. */
static enum xs_err vbd_node(char *dir, uint32_t dl, const char *rel, const char *val)
{
	size_t rl = strlen(rel);
	enum xs_err err;

	if (dl + 1U + rl >= XS_PATH_MAX) {
		return XS_EINVAL;
	}
	dir[dl] = '/';
	(void)memcpy(&dir[dl + 1U], rel, rl + 1U);
	err = xs_store_write(dir, val, (uint32_t)strlen(val), NULL, 0U);
	dir[dl] = '\0';
	return err;
}

/* One end of one disk: its directory with the two domains' rights, then its nodes. */
static enum xs_err vbd_end(const struct xs_vbd *v, bool fe_end)
{
	static char dir[XS_PATH_MAX];
	static char other[XS_PATH_MAX];
	char num[12];
	uint16_t me = fe_end ? v->fe : v->be;
	uint16_t peer = fe_end ? v->be : v->fe;
	struct xs_perm perms[2] = { { .dom = me, .mode = XS_PERM_NONE },
				    { .dom = peer, .mode = XS_PERM_READ } };
	uint32_t dl;
	enum xs_err err;

	if (fe_end) {
		dl = vbd_path(dir, v->fe, "device/vbd/", -1, v->devid);
		(void)vbd_path(other, v->be, "backend/vbd/", (int32_t)v->fe, v->devid);
	} else {
		dl = vbd_path(dir, v->be, "backend/vbd/", (int32_t)v->fe, v->devid);
		(void)vbd_path(other, v->fe, "device/vbd/", -1, v->devid);
	}
	num[xs_fmt_u32(num, peer)] = '\0';
	err = xs_store_mkdir(dir, perms, 2U);
	if (err == XS_OK) {
		err = vbd_node(dir, dl, fe_end ? "backend" : "frontend", other);
	}
	if (err == XS_OK) {
		err = vbd_node(dir, dl, fe_end ? "backend-id" : "frontend-id", num);
	}
	if ((err == XS_OK) && fe_end) {
		num[xs_fmt_u32(num, v->devid)] = '\0';
		err = vbd_node(dir, dl, "virtual-device", num);
	}
	if ((err == XS_OK) && !fe_end) {
		err = vbd_node(dir, dl, "online", "1");
		if (err == XS_OK) {
			err = vbd_node(dir, dl, "removable", "0");
		}
		if (err == XS_OK) {
			err = vbd_node(dir, dl, "mode", v->readonly ? "r" : "w");
		}
	}
	if (err == XS_OK) {
		err = vbd_node(dir, dl, "device-type", "disk");
	}
	/* State last: the other end acts on it. */
	if (err == XS_OK) {
		err = vbd_node(dir, dl, "state", "1");
	}
	return err;
}

enum xs_err xs_tree_add_vbds(uint16_t domid, const struct xs_vbd *v, uint32_t n)
{
	enum xs_err err = XS_OK;
	uint32_t i;

	for (i = 0U; (i < n) && (err == XS_OK); i++) {
		if (v[i].fe == domid) {
			err = vbd_end(&v[i], true);
		}
		if ((err == XS_OK) && (v[i].be == domid)) {
			err = vbd_end(&v[i], false);
		}
	}
	return err;
}
