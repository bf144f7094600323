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
