/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's part of xenstore (include/bulkhead/xenstore.h), as
 * Xen's dom0less build does it for a domain with xen,enhanced = "enabled":
 * a ring page at GUEST_MAGIC_BASE + 1 page, an event channel unbound for
 * the xenstore domain (HVM_PARAM_STORE_EVTCHN), grant reference 1
 * (GNTTAB_RESERVED_XENSTORE) seeded for it, and HVM_PARAM_STORE_PFN at ~0
 * until the store introduces the client (Linux's late-init path). The
 * ring page is the client's own: the last page of its RAM, moved in its
 * stage 2 to the magic gfn, so it is scrubbed with the rest of its RAM on
 * a restart and owned by it for XPFO. Everything else the xenstore
 * partition does itself, through the guest ABI.
 */
#include <bulkhead/xenstore.h>
#include <bulkhead/domain.h>
#include <bulkhead/dom0less.h>
#include <bulkhead/fdt.h>
#include <bulkhead/mm.h>
#include <bulkhead/lib.h>
#include <bulkhead/console.h>
#include <public/io/xs_wire.h>
#include <public/hvm/params.h>
#include <public/grant_table.h>
#include <public/errno.h>

/* The configuration, kept by the caller for the system's life (boot_config). */
static struct {
	const struct dom0less_config *conf;
	domid_t server;
} xs_boot;

uint32_t xenstore_port_of(const struct domain_config *cfg)
{
	uint32_t port;
	uint32_t i;

	/* At most DOMAIN_MAX_STATIC_EVTCHN ports are taken: one of the first ones is free. */
	for (port = 1U; port <= DOMAIN_MAX_STATIC_EVTCHN + 1U; port++) {
		bool used = false;
		for (i = 0U; i < cfg->nr_static_evtchn; i++) {
			used = used || (cfg->static_evtchn[i].local_port == port);
		}
		if (!used) {
			break;
		}
	}
	return port;
}

void xenstore_configure(const struct dom0less_config *c)
{
	uint32_t i;

	xs_boot.conf = c;
	xs_boot.server = 0U;
	for (i = 0U; (i < c->nr_domains) && (i < CONFIG_MAX_DOMAINS); i++) {
		if (c->dom[i].xs_server) {
			xs_boot.server = (domid_t)(i + 1U);
		}
	}
}

domid_t xenstore_server(void)
{
	return xs_boot.server;
}

uint64_t domain_guest_ram(const struct domain *d)
{
	return d->ram_bytes - (d->cfg.xs_client ? PAGE_SIZE : 0U);
}

static paddr_t ring_maddr(const struct domain *d)
{
	return domain_ram_maddr(d, d->ram_bytes - PAGE_SIZE);
}

int xenstore_map_ring(struct domain *d)
{
	if (!d->cfg.xs_client) {
		return 0;
	}
	return p2m_map_range(&d->p2m, XENSTORE_RING_GFN, maddr_to_mfn(ring_maddr(d)), 1U,
			     p2m_ram_rw);
}

static void ring_init(const struct domain *d, uint32_t port)
{
	struct xenstore_domain_interface *ring = map_domain_page(maddr_to_mfn(ring_maddr(d)));

	(void)memset(ring, 0, PAGE_SIZE);
	/* The store resets the ring and sets CONNECTED when it introduces the client. */
	ring->connection = XENSTORE_RECONNECT;
	ring->evtchn_port = port;
	unmap_domain_page(ring);
}

void xenstore_domain_stopped(const struct domain *d)
{
	struct domain *s = domain_by_id(xs_boot.server);

	if ((s != NULL) && (s != d) && (read_atomic(&s->state) == DOMAIN_RUNNING)) {
		evtchn_send_virq(&s->vcpu[0], VIRQ_DOM_EXC);
	}
}

int xenstore_domain_setup(struct domain *d)
{
	uint32_t port;
	int rc;

	if (!d->cfg.xs_client || (xs_boot.server == 0U)) {
		return 0;
	}
	port = xenstore_port_of(&d->cfg);
	/*
	 * ~0 first: the store may only bind and introduce once the port
	 * below exists, so its STORE_PFN is never overwritten by this set-up.
	 */
	write_atomic(&d->xs_store_pfn, XENSTORE_PFN_LATE);
	write_atomic(&d->xs_port, 0U);
	ring_init(d, port);
	gnttab_seed_entry(d, GNTTAB_RESERVED_XENSTORE, xs_boot.server, XENSTORE_RING_GFN);
	rc = evtchn_alloc_unbound_port(d, port, xs_boot.server);
	if (rc != 0) {
		printk("bulkhead: %s (d%u): xenstore port %u: error %d\n", d->cfg.name,
		       d->domain_id, port, rc);
		return rc;
	}
	write_atomic(&d->xs_port, port);
	xenstore_domain_stopped(d);
	return 0;
}

int xenstore_setup_all(void)
{
	domid_t id;
	int rc = 0;

	for (id = 1U; (id <= CONFIG_MAX_DOMAINS) && (rc == 0); id++) {
		struct domain *d = domain_by_id(id);
		if (d != NULL) {
			rc = xenstore_domain_setup(d);
		}
	}
	return rc;
}

void xenstore_write_dt(struct fdt_writer *w, const struct domain *d)
{
	const struct dom0less_config *c = xs_boot.conf;
	uint32_t i;
	char name[24];

	if (!d->cfg.xs_server || (c == NULL)) {
		return;
	}
	fdt_w_begin_node(w, "xenstore");
	fdt_w_prop_string(w, "compatible", "bulkhead,xenstore");
	fdt_w_prop_u32(w, "version", XENSTORE_DT_VERSION);
	fdt_w_prop_u32(w, "self", d->domain_id);
	for (i = 0U; (i < c->nr_domains) && (i < CONFIG_MAX_DOMAINS); i++) {
		const struct domain_config *p = &c->dom[i];
		(void)bh_snprintf(name, sizeof(name), "domain@%u", i + 1U);
		fdt_w_begin_node(w, name);
		fdt_w_prop_u32(w, "domid", i + 1U);
		fdt_w_prop_string(w, "name", p->name);
		fdt_w_prop_u32(w, "cpus", p->nr_vcpus);
		/* What it has: a client's ring page is not RAM (Linux's balloon target). */
		fdt_w_prop_u64(w, "memory", (p->mem_bytes - (p->xs_client ? PAGE_SIZE : 0U)) >> 10);
		if (p->xs_client) {
			fdt_w_prop_empty(w, "xenstore-client");
			fdt_w_prop_u32(w, "event-channel", xenstore_port_of(p));
			fdt_w_prop_u64(w, "ring-gfn", XENSTORE_RING_GFN);
		}
		/* The disks it serves: <frontend virtual-device read-only> each (docs/xenstore.md). */
		if (p->nr_vbds != 0U) {
			uint32_t cells[3U * DOMAIN_MAX_VBDS];
			uint32_t j;
			for (j = 0U; (j < p->nr_vbds) && (j < DOMAIN_MAX_VBDS); j++) {
				cells[3U * j] = p->vbd[j].fe;
				cells[(3U * j) + 1U] = p->vbd[j].devid;
				cells[(3U * j) + 2U] = p->vbd[j].readonly ? 1U : 0U;
			}
			fdt_w_prop_cells(w, "vbds", cells, 3U * j);
		}
		fdt_w_end_node(w);
	}
	fdt_w_end_node(w);
}

int xenstore_hvm_param(const struct domain *caller, struct domain *d, bool set, uint32_t index,
		       uint64_t *value)
{
	bool store = caller->cfg.xs_server && (caller != d) && d->cfg.xs_client;

	if ((index != HVM_PARAM_STORE_PFN) && (index != HVM_PARAM_STORE_EVTCHN)) {
		return 1;
	}
	if ((caller != d) && !store) {
		return -XEN_EPERM;
	}
	if (set) {
		/* Only the store sets, only a client's STORE_PFN, only to its ring. */
		if (!store || (index != HVM_PARAM_STORE_PFN)) {
			return -XEN_EPERM;
		}
		if (*value != XENSTORE_RING_GFN) {
			return -XEN_EINVAL;
		}
		write_atomic(&d->xs_store_pfn, *value);
		return 0;
	}
	if (!d->cfg.xs_client || (xs_boot.server == 0U)) {
		*value = 0U; /* no xenstore: Linux skips xenbus, as on Xen with "no-xenstore" */
	} else if (index == HVM_PARAM_STORE_PFN) {
		*value = read_atomic(&d->xs_store_pfn);
	} else {
		*value = read_atomic(&d->xs_port);
	}
	return 0;
}
