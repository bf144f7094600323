/* SPDX-License-Identifier: MIT */
/*
 * The xenstore partition: learns the partitions from its own device tree
 * (the /xenstore node the hypervisor writes, docs/xenstore.md) and builds
 * the initial tree from it.
 */
#include <guest/guest.h>
#include "xs.h"

#define DT_VERSION 1U

static struct xs_domain_info dinfo[XS_MAX_DOMS];
static unsigned int ndoms;

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

/* /xenstore: version, self, and one child per partition. */
static int read_dt(uint16_t *self)
{
	int xsn = fdt_path(rt.dtb, "/xenstore");
	uint32_t v = 0U;
	int child;

	if ((xsn < 0) || !prop_u32(xsn, "version", &v) || (v != DT_VERSION) ||
	    !prop_u32(xsn, "self", &v)) {
		printf("xenstore: no /xenstore node of version %u in the device tree\n",
		       DT_VERSION);
		return -1;
	}
	*self = (uint16_t)v;
	ndoms = 0U;
	for (child = fdt_next_child(rt.dtb, xsn, -1); (child >= 0) && (ndoms < XS_MAX_DOMS);
	     child = fdt_next_child(rt.dtb, xsn, child)) {
		struct xs_domain_info *d = &dinfo[ndoms];
		uint32_t len;
		uint32_t u;
		(void)memset(d, 0, sizeof(*d));
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
		d->client = fdt_prop(rt.dtb, child, "xenstore-client", &len) != NULL;
		if (d->client && (!prop_u32(child, "event-channel", &d->port) ||
				  !prop_u64(child, "ring-gfn", &d->ring_gfn))) {
			printf("xenstore: %s: a client without event-channel and ring-gfn\n",
			       fdt_name(rt.dtb, child));
			d->client = false;
		}
		ndoms++;
	}
	return 0;
}

int test_main(void)
{
	uint16_t self = 0U;
	unsigned int i;
	unsigned int clients = 0U;
	int rc;

	if (read_dt(&self) != 0) {
		return 1;
	}
	xs_init(self, NULL);
	for (i = 0U; i < ndoms; i++) {
		enum xs_err err = xs_tree_add_domain(&dinfo[i]);
		if (err != XS_OK) {
			printf("xenstore: d%u: initial tree: %s\n", dinfo[i].domid, xs_err_name(err));
		}
		clients += dinfo[i].client ? 1U : 0U;
	}
	rc = xs_check();
	printf("xenstore: d%u serves %u of %u partitions, %u nodes, check %d\n", self, clients,
	       ndoms, xs.nodes_used, rc);
	return (rc == 0) ? 0 : 2;
}
