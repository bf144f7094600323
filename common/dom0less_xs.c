/* SPDX-License-Identifier: MIT */
/*
 * The xenstore part of the dom0less binding. A partition asks for xenstore
 * with xen,enhanced = "enabled" (or the bare property), as on Xen; the one
 * that serves it carries Xen's capabilities property with
 * DOMAIN_CAPS_XENSTORE (public/bootfdt.h). Bulkhead has no control or
 * hardware domain, so no other capability is accepted. Messages name the
 * node, as the rest of the parser does.
 */
#include "dom0less_priv.h"
#include <public/bootfdt.h>

int d0l_capabilities(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	uint32_t caps = 0U;
	int rc = fdt_prop_u32(c->f, node, "capabilities", &caps);

	cfg->xs_server = false;
	if (rc == -FDT_ERR_NOTFOUND) {
		return 0;
	}
	if (rc != 0) {
		return d0l_err(c, node, rc, "capabilities must be one cell");
	}
	if ((caps & ~DOMAIN_CAPS_XENSTORE) != 0U) {
		return d0l_err(c, node, 0, "capabilities = <0x%x>: only DOMAIN_CAPS_XENSTORE (0x%x)",
			       caps, DOMAIN_CAPS_XENSTORE);
	}
	if (caps == 0U) {
		return 0;
	}
	if (!cfg->enhanced) {
		return d0l_err(c, node, 0, "DOMAIN_CAPS_XENSTORE needs xen,enhanced");
	}
	/* The store does not serve itself. */
	cfg->xs_server = true;
	cfg->xs_client = false;
	return 0;
}

int d0l_xenstore_check(struct d0l_ctx *c)
{
	const struct dom0less_config *o = c->out;
	int server = -1;
	int client = -1;
	uint32_t i;

	for (i = 0U; i < o->nr_domains; i++) {
		if (o->dom[i].xs_server) {
			if (server >= 0) {
				return d0l_err(c, o->node[i], 0, "a second xenstore partition (%s is one)",
					       o->dom[server].name);
			}
			server = (int)i;
		}
		if (o->dom[i].xs_client && (client < 0)) {
			client = (int)i;
		}
		if (o->dom[i].xs_client && o->dom[i].direct_map) {
			return d0l_err(c, o->node[i], 0, "xenstore client with direct-map: not supported");
		}
		if (o->dom[i].xs_client && (o->dom[i].mem_bytes <= PAGE_SIZE)) {
			return d0l_err(c, o->node[i], 0, "memory = <%llu KiB>: no room for the xenstore ring",
				       (unsigned long long)(o->dom[i].mem_bytes >> 10));
		}
	}
	if ((client >= 0) && (server < 0)) {
		return d0l_err(c, o->node[client], 0, "xenstore client, but no partition has "
			       "DOMAIN_CAPS_XENSTORE");
	}
	return 0;
}
