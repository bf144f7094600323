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
#define VBD_MAX_INDIRECT U(256)
#define VBD_MAX_ORDER  U(3)
#define VBD_MAX_QUEUES U(4)
#define VBD_MAX_PERS   U(1024)
#define VBD_DEF_PERS   U(128)

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

static int vbd_name(struct d0l_ctx *c, int node, struct vbd_config *v)
{
	const char *s;
	int rc = fdt_prop_string(c->f, node, "virtual-device", &s);

	if ((rc != 0) || (strlen(s) != 4U) || (strncmp(s, "xvd", 3U) != 0) || (s[3] < 'a') ||
	    (s[3] > 'p')) {
		return d0l_err(c, node, rc, "virtual-device must be \"xvda\" .. \"xvdp\"");
	}
	(void)memcpy(v->name, s, 5U);
	v->devid = (U(202) << 8) | ((uint32_t)(s[3] - 'a') << 4);
	return 0;
}

static int vbd_features(struct d0l_ctx *c, int node, struct vbd_config *v)
{
	int rc = vbd_u32(c, node, "feature-max-indirect-segments", 0U, 0U, VBD_MAX_INDIRECT,
			 &v->max_indirect);

	if ((rc == 0) && (v->max_indirect != 0U) && (v->max_indirect <= U(11))) {
		/* Linux's blkfront uses indirect requests only beyond 11 segments. */
		return d0l_err(c, node, 0, "feature-max-indirect-segments = <%u>: 0 (none) or "
			       "12..%u", v->max_indirect, VBD_MAX_INDIRECT);
	}
	if (rc == 0) {
		rc = vbd_u32(c, node, "max-ring-page-order", 0U, 0U, VBD_MAX_ORDER,
			     &v->max_ring_order);
	}
	if (rc == 0) {
		rc = vbd_u32(c, node, "multi-queue-max-queues", 1U, 1U, VBD_MAX_QUEUES,
			     &v->max_queues);
	}
	if (rc == 0) {
		rc = vbd_u32(c, node, "max-persistent-grants", VBD_DEF_PERS, 1U, VBD_MAX_PERS,
			     &v->max_pers);
	}
	v->persistent = fdt_has_prop(c->f, node, "feature-persistent");
	v->readonly = fdt_has_prop(c->f, node, "read-only");
	return rc;
}

/* The serving partition of a disk: index of the xen,domain node its backend names. */
static int vbd_backend(struct d0l_ctx *c, uint32_t fi, int node, uint32_t *bi)
{
	uint32_t ph = 0U;
	int be;
	uint32_t i;

	if ((fdt_prop_u32(c->f, node, "backend", &ph) != 0) || (ph == 0U)) {
		return d0l_err(c, node, 0, "backend must be <&the xen,domain node serving it>");
	}
	be = fdt_node_by_phandle(c->f, ph);
	for (i = 0U; i < c->out->nr_domains; i++) {
		if ((be >= 0) && (c->out->node[i] == be)) {
			break;
		}
	}
	if (i == c->out->nr_domains) {
		return d0l_err(c, node, 0, "backend phandle 0x%x is not a xen,domain node", ph);
	}
	if (i == fi) {
		return d0l_err(c, node, 0, "backend is the partition that sees the disk");
	}
	*bi = i;
	return 0;
}

/* Both ends talk through xenstore: each needs xen,enhanced (and so the store). */
static int vbd_ends(struct d0l_ctx *c, int node, uint32_t fi, uint32_t bi)
{
	const struct domain_config *fe = &c->out->dom[fi];
	const struct domain_config *be = &c->out->dom[bi];

	if (!fe->enhanced) {
		return d0l_err(c, node, 0, "the partition that sees a virtual disk needs "
			       "xen,enhanced (xenstore, grant table, event channels)");
	}
	if (!be->enhanced) {
		return d0l_err(c, node, 0, "its backend %s needs xen,enhanced (xenstore, grant "
			       "table, event channels)", be->name);
	}
	if (be->direct_map) {
		/* Its disks are seen after its RAM, which direct-map puts at machine addresses. */
		return d0l_err(c, node, 0, "its backend %s is direct-map: it cannot serve virtual "
			       "disks", be->name);
	}
	return 0;
}

static int vbd_one(struct d0l_ctx *c, uint32_t fi, int node)
{
	struct vbd_config v;
	struct domain_config *be;
	uint32_t bi = 0U;
	uint32_t i;
	uint32_t j;
	int rc;

	(void)memset(&v, 0, sizeof(v));
	v.fe = (uint16_t)(fi + 1U);
	rc = vbd_backend(c, fi, node, &bi);
	if (rc == 0) {
		rc = vbd_ends(c, node, fi, bi);
	}
	if (rc == 0) {
		rc = vbd_name(c, node, &v);
	}
	if ((rc == 0) && ((fdt_prop_u64(c->f, node, "size", &v.bytes) != 0) || (v.bytes == 0U) ||
			  (PAGE_OFFSET_OF(v.bytes) != 0U))) {
		rc = d0l_err(c, node, 0, "size (bytes, <hi lo>) must be a non-zero multiple of 4 KiB");
	}
	if (rc == 0) {
		rc = vbd_features(c, node, &v);
	}
	if (rc != 0) {
		return rc;
	}
	/* One name per frontend: its xenstore node is device/vbd/<devid>. */
	for (i = 0U; i < c->out->nr_domains; i++) {
		const struct domain_config *d = &c->out->dom[i];
		for (j = 0U; j < d->nr_vbds; j++) {
			if ((d->vbd[j].fe == v.fe) && (d->vbd[j].devid == v.devid)) {
				return d0l_err(c, node, 0, "virtual-device \"%s\" given to %s twice",
					       v.name, c->out->dom[fi].name);
			}
		}
	}
	be = &c->out->dom[bi];
	if (be->nr_vbds >= DOMAIN_MAX_VBDS) {
		return d0l_err(c, node, 0, "%s serves more than %u virtual disks", be->name,
			       DOMAIN_MAX_VBDS);
	}
	v.offset = be->vbd_bytes;
	/* Its RAM, then its disks, in the guest RAM bank (docs/device-tree.md). */
	if ((v.bytes > GUEST_RAM0_SIZE) ||
	    (ROUND_UP(be->mem_bytes, VBD_ALIGN) + be->vbd_bytes + ROUND_UP(v.bytes, VBD_ALIGN) >
	     GUEST_RAM0_SIZE)) {
		return d0l_err(c, node, 0, "size: %s's RAM and virtual disks exceed the %llu KiB "
			       "guest RAM bank", be->name,
			       (unsigned long long)(GUEST_RAM0_SIZE >> 10));
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
	int rc;

	for (i = 0U; i < c->out->nr_domains; i++) {
		child = fdt_first_child(c->f, c->out->node[i]);
		for (steps = 0U; (child >= 0) && (steps <= c->f->size_struct / 4U); steps++) {
			if (fdt_node_compatible(c->f, child, "bulkhead,vbd")) {
				rc = vbd_one(c, i, child);
				if (rc != 0) {
					return rc;
				}
			}
			child = fdt_next_sibling(c->f, child);
		}
	}
	return 0;
}
