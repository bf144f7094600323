/* SPDX-License-Identifier: MIT */
/*
 * Virtual disks in the dom0less binding (docs/device-tree.md, "Virtual
 * disks"): a child of the frontend's xen,domain node
 *
 *	xvda {
 *		compatible = "bulkhead,vbd";
 *		backend = <&be>;            the xen,domain node serving it
 *		virtual-device = "xvda";    xvda..xvdp
 *		size = <0 0x1000000>;       bytes, a multiple of 4 KiB
 *		feature-persistent;         what the backend offers, by xenstore name
 *		feature-max-indirect-segments = <32>;
 *		max-ring-page-order = <2>;
 *		multi-queue-max-queues = <2>;
 *		max-persistent-grants = <128>;
 *		read-only;
 *	};
 *
 * becomes a vbd_config of the serving partition, its bytes at an offset
 * of that partition's disk region (2 MiB aligned, so each disk is block
 * mapped). Xen ignores the node (it is not a module or an event channel),
 * so the tree still boots there, without the disk.
 */
#include "dom0less_priv.h"
#include <bulkhead/lib.h>
#include <public/arch-arm.h>

#define VBD_ALIGN      (UL(2) << 20)

static int vbd_u32(struct d0l_ctx *c, int node, const char *name, uint32_t def, uint32_t lo,
		   uint32_t hi, uint32_t *v)
{
	int rc = fdt_prop_u32(c->f, node, name, v);

	if (rc == -FDT_ERR_NOTFOUND) {
		*v = def;
		return 0;
	}
	if ((rc != 0) || (*v < lo) || (*v > hi)) {
		return d0l_err(c, node, rc, "%s must be one cell, %u..%u", name, lo, hi);
	}
	return 0;
}

/* The serving partition: the xen,domain node the backend phandle names, not fi itself. */
static int vbd_backend(struct d0l_ctx *c, uint32_t fi, int node, uint32_t *bi)
{
	uint32_t ph = 0U;
	int be = -1;
	uint32_t i;

	if (fdt_prop_u32(c->f, node, "backend", &ph) == 0) {
		be = fdt_node_by_phandle(c->f, ph);
	}
	for (i = 0U; (be >= 0) && (i < c->out->nr_domains); i++) {
		if ((c->out->node[i] == be) && (i != fi)) {
			*bi = i;
			return 0;
		}
	}
	return d0l_err(c, node, 0, "backend must be <&another xen,domain node>");
}

static int vbd_one(struct d0l_ctx *c, uint32_t fi, int node)
{
	static const char *const cells[] = { "feature-max-indirect-segments", "max-ring-page-order",
					     "multi-queue-max-queues", "max-persistent-grants" };
	/* Default, lowest, highest of each: indirect 0 (none) or 12..256 (Linux uses
	 * indirect requests only beyond the 11 segments of a direct one). */
	static const uint32_t lim[][3] = { { 0U, 0U, 256U }, { 0U, 0U, 3U }, { 1U, 1U, 4U },
					   { 128U, 1U, 1024U } };
	struct domain_config *fe = &c->out->dom[fi];
	struct domain_config *be;
	struct vbd_config v;
	uint32_t *val[] = { &v.max_indirect, &v.max_ring_order, &v.max_queues, &v.max_pers };
	const char *s = "";
	uint32_t bi = 0U;
	uint32_t i;
	uint32_t j;
	int rc;

	(void)memset(&v, 0, sizeof(v));
	rc = vbd_backend(c, fi, node, &bi);
	if (rc != 0) {
		return rc;
	}
	be = &c->out->dom[bi];
	/* Both ends talk through xenstore; the disks are seen after the backend's RAM. */
	if (!fe->xs_client || !be->xs_client || be->direct_map) {
		return d0l_err(c, node, 0, "needs xen,enhanced in %s and %s, a backend not "
			       "direct-map", fe->name, be->name);
	}
	(void)fdt_prop_string(c->f, node, "virtual-device", &s);
	if ((strlen(s) != 4U) || (strncmp(s, "xvd", 3U) != 0) || (s[3] < 'a') || (s[3] > 'p')) {
		return d0l_err(c, node, 0, "virtual-device must be \"xvda\" .. \"xvdp\"");
	}
	(void)memcpy(v.name, s, 5U);
	/* Xen's vdev: 202 << 8 | disk << 4 */
	v.devid = U(51712) + (U(16) * ((uint32_t)(uint8_t)s[3] - U(97)));
	v.fe = (uint16_t)(fi + 1U);
	if ((fdt_prop_u64(c->f, node, "size", &v.bytes) != 0) || (v.bytes == 0U) ||
	    (PAGE_OFFSET_OF(v.bytes) != 0U)) {
		return d0l_err(c, node, 0, "size must be <hi lo> bytes, a multiple of 4 KiB");
	}
	for (i = 0U; (i < 4U) && (rc == 0); i++) {
		rc = vbd_u32(c, node, cells[i], lim[i][0], lim[i][1], lim[i][2], val[i]);
	}
	if ((rc == 0) && (v.max_indirect != 0U) && (v.max_indirect <= U(11))) {
		rc = d0l_err(c, node, 0, "%s must be one cell, %u..%u", cells[0], 12U, 256U);
	}
	if (rc != 0) {
		return rc;
	}
	v.persistent = fdt_has_prop(c->f, node, "feature-persistent");
	v.readonly = fdt_has_prop(c->f, node, "read-only");
	/* One name per frontend: its xenstore node is device/vbd/<devid>. */
	for (i = 0U; i < c->out->nr_domains; i++) {
		for (j = 0U; j < c->out->dom[i].nr_vbds; j++) {
			if ((c->out->dom[i].vbd[j].fe == v.fe) &&
			    (c->out->dom[i].vbd[j].devid == v.devid)) {
				return d0l_err(c, node, 0, "virtual-device \"%s\" given to %s twice",
					       v.name, fe->name);
			}
		}
	}
	if (be->nr_vbds >= DOMAIN_MAX_VBDS) {
		return d0l_err(c, node, 0, "%s serves more than %u virtual disks", be->name,
			       DOMAIN_MAX_VBDS);
	}
	/* Its RAM, then its disks, in the guest RAM bank (docs/device-tree.md). */
	v.offset = be->vbd_bytes;
	if ((v.bytes > GUEST_RAM0_SIZE) ||
	    (ROUND_UP(be->mem_bytes, VBD_ALIGN) + be->vbd_bytes + ROUND_UP(v.bytes, VBD_ALIGN) >
	     GUEST_RAM0_SIZE)) {
		return d0l_err(c, node, 0, "size: %s's RAM and disks exceed 3 GiB", be->name);
	}
	be->vbd_bytes += ROUND_UP(v.bytes, VBD_ALIGN);
	be->vbd[be->nr_vbds] = v;
	be->nr_vbds++;
	return 0;
}

int d0l_all_vbds(struct d0l_ctx *c)
{
	uint32_t i;
	uint32_t steps;
	int child;
	int rc = 0;

	for (i = 0U; (i < c->out->nr_domains) && (rc == 0); i++) {
		child = fdt_first_child(c->f, c->out->node[i]);
		for (steps = 0U; (child >= 0) && (rc == 0) && (steps <= c->f->size_struct / 4U);
		     steps++) {
			if (fdt_node_compatible(c->f, child, "bulkhead,vbd")) {
				rc = vbd_one(c, i, child);
			}
			child = fdt_next_sibling(c->f, child);
		}
	}
	return rc;
}
