/* SPDX-License-Identifier: MIT */
/*
 * Xen dom0less binding -> struct domain_config, with every check the
 * hypervisor relies on later: counts against Kconfig, 1:1 CPU pinning,
 * memory and module placement, static event channels. Messages name the
 * node and the limit so the build-time checker and the boot print the same
 * line. Properties Bulkhead adds are prefixed "bulkhead," (docs/device-tree.md).
 */
#include "dom0less_priv.h"
#include <bulkhead/console.h>
#include <bulkhead/lib.h>
#include <public/arch-arm.h>

#define D0L_PATH_LEN U(128)
#define KIB U(1024)

int d0l_err(struct d0l_ctx *c, int node, int rc, const char *fmt, ...)
{
	char path[D0L_PATH_LEN];
	va_list ap;
	int n;

	if (fdt_node_path(c->f, node, path, sizeof(path)) < 0) {
		(void)bh_snprintf(path, sizeof(path), "(node at %d)", node);
	}
	n = bh_snprintf(c->err, c->errlen, "%s: ", path);
	if ((n >= 0) && ((size_t)n < c->errlen)) {
		va_start(ap, fmt);
		(void)bh_vsnprintf(&c->err[n], c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return (rc < 0) ? rc : -FDT_ERR_BADVALUE;
}

bool mem_range_overlap(paddr_t a, uint64_t asz, paddr_t b, uint64_t bsz)
{
	return (asz != 0U) && (bsz != 0U) && (a < b + bsz) && (b < a + asz);
}

bool mem_range_in_banks(const struct mem_range *banks, uint32_t n, paddr_t base, uint64_t size)
{
	uint32_t i;

	if (base + size < base) {
		return false;
	}
	for (i = 0U; i < n; i++) {
		if ((base >= banks[i].base) && (base + size <= banks[i].base + banks[i].size)) {
			return true;
		}
	}
	return false;
}

void dom0less_default_limits(struct dom0less_limits *lim)
{
	(void)memset(lim, 0, sizeof(*lim));
	lim->max_domains = CONFIG_MAX_DOMAINS;
	lim->max_vcpus = CONFIG_MAX_VCPUS;
	lim->nr_cpus = CONFIG_NR_CPUS;
#ifdef CONFIG_VGIC_NR_SPIS
	lim->vgic_nr_spis = CONFIG_VGIC_NR_SPIS;
#else
	lim->vgic_nr_spis = U(32);
#endif
#ifdef CONFIG_EVTCHN_MAX_PORTS
	lim->evtchn_ports = CONFIG_EVTCHN_MAX_PORTS;
#else
	lim->evtchn_ports = U(4096);
#endif
	lim->gnttab_frames = CONFIG_GNTTAB_MAX_FRAMES;
	lim->maptrack_entries = CONFIG_GNTTAB_MAPTRACK_ENTRIES;
	lim->shm_regions = CONFIG_STATIC_SHM_REGIONS;
#ifdef CONFIG_P2M_POOL_PAGES
	lim->p2m_pool_pages = CONFIG_P2M_POOL_PAGES;
#endif
}

bool dom0less_add_hyp_ram(struct dom0less_limits *lim, paddr_t base, uint64_t size,
			  const char *what)
{
	if ((size == 0U) || (lim->nr_hyp_ram >= DOM0LESS_MAX_HYP_RAM)) {
		return false;
	}
	lim->hyp_ram[lim->nr_hyp_ram] = (struct dom0less_hyp_dev){
		.base = base, .size = size, .intid = 0U, .node = -1, .what = what };
	lim->nr_hyp_ram++;
	return true;
}

void dom0less_hyp_ram_from_dt(const struct fdt *f, struct dom0less_limits *lim)
{
	int rm = fdt_path(f, "/reserved-memory");
	int n = (rm >= 0) ? fdt_first_child(f, rm) : rm;
	uint32_t i;
	uint64_t a;
	uint64_t s;

	/* LOOP-BOUND: fdt_mem_rsv() fails past the reservation block, inside the checked blob. */
	for (i = 0U; fdt_mem_rsv(f, i, &a, &s) == 0; i++) {
		(void)dom0less_add_hyp_ram(lim, a, s, "/memreserve/");
	}
	for (i = 0U; (n >= 0) && (i < f->size_struct / 4U); i++) {
		if (fdt_reg(f, rm, n, 0U, &a, &s) == 0) {
			(void)dom0less_add_hyp_ram(lim, a, s, "/reserved-memory");
		}
		n = fdt_next_sibling(f, n);
	}
}

void dom0less_limits_from_dt(const struct fdt *f, struct dom0less_limits *lim)
{
	int cpus = fdt_path(f, "/cpus");
	int n;
	uint32_t ncpu = 0U;
	uint32_t nbank = 0U;
	struct mem_range banks[DOM0LESS_MAX_BANKS];
	uint32_t steps;

	n = (cpus >= 0) ? fdt_first_child(f, cpus) : cpus;
	for (steps = 0U; (n >= 0) && (steps < U(4096)); steps++) {
		const char *dt;
		if ((fdt_prop_string(f, n, "device_type", &dt) == 0) && (strcmp(dt, "cpu") == 0)) {
			ncpu++;
		}
		n = fdt_next_sibling(f, n);
	}
	/* The tree may describe fewer CPUs than the board (QEMU -smp). */
	if ((ncpu != 0U) && ((lim->board_cpus == 0U) || (ncpu < lim->board_cpus))) {
		lim->board_cpus = ncpu;
	}
	/* Every /memory node (device_type "memory"), every reg entry. */
	n = fdt_first_child(f, 0);
	for (steps = 0U; (n >= 0) && (steps < U(4096)); steps++) {
		const char *dt;
		unsigned int i;
		if ((fdt_prop_string(f, n, "device_type", &dt) == 0) &&
		    (strcmp(dt, "memory") == 0)) {
			for (i = 0U; (i < DOM0LESS_MAX_BANKS) && (nbank < DOM0LESS_MAX_BANKS); i++) {
				uint64_t a;
				uint64_t s;
				if (fdt_reg(f, 0, n, i, &a, &s) != 0) {
					break;
				}
				if (s != 0U) {
					banks[nbank].base = a;
					banks[nbank].size = s;
					nbank++;
				}
			}
		}
		n = fdt_next_sibling(f, n);
	}
	/* The board's banks, when the caller has them, are authoritative. */
	if ((nbank != 0U) && (lim->nr_banks == 0U)) {
		lim->nr_banks = nbank;
		(void)memcpy(lim->banks, banks, sizeof(banks[0]) * nbank);
	}
}

/* ------------------------------------------------------------- modules */

enum d0l_mod { MOD_NONE, MOD_KERNEL, MOD_RAMDISK, MOD_DTB };

static enum d0l_mod d0l_module_kind(const struct fdt *f, int node)
{
	if (fdt_node_compatible(f, node, "multiboot,kernel") ||
	    fdt_node_compatible(f, node, "xen,linux-zimage")) {
		return MOD_KERNEL;
	}
	if (fdt_node_compatible(f, node, "multiboot,ramdisk") ||
	    fdt_node_compatible(f, node, "xen,linux-initrd")) {
		return MOD_RAMDISK;
	}
	if (fdt_node_compatible(f, node, "multiboot,device-tree")) {
		return MOD_DTB;
	}
	return MOD_NONE;
}

static int d0l_module(struct d0l_ctx *c, int dom, int node, struct domain_config *cfg)
{
	static const char *const kind_name[] = { "", "multiboot,kernel", "multiboot,ramdisk",
						 "multiboot,device-tree" };
	enum d0l_mod kind = d0l_module_kind(c->f, node);
	struct boot_module *m;
	uint64_t a;
	uint64_t s;
	int rc;

	m = (kind == MOD_KERNEL) ? &cfg->kernel : (kind == MOD_RAMDISK) ? &cfg->ramdisk :
									  &cfg->dtb;
	if (m->size != 0U) {
		return d0l_err(c, node, 0, "a second %s module (one per partition)",
			       kind_name[kind]);
	}
	rc = fdt_reg(c->f, dom, node, 0U, &a, &s);
	if (rc != 0) {
		return d0l_err(c, node, rc, "reg: %s (#address-cells/#size-cells of the domain)",
			       fdt_strerror(rc));
	}
	if (s == 0U) {
		return d0l_err(c, node, 0, "reg: empty %s module", kind_name[kind]);
	}
	if ((a + s < a) || ((c->lim->nr_banks != 0U) &&
			    !mem_range_in_banks(c->lim->banks, c->lim->nr_banks, a, s))) {
		return d0l_err(c, node, 0, "module 0x%llx-0x%llx is outside RAM",
			       (unsigned long long)a, (unsigned long long)(a + s - 1U));
	}
	m->start = a;
	m->size = s;
	if (kind == MOD_KERNEL) {
		const char *args;
		rc = fdt_prop_string(c->f, node, "bootargs", &args);
		if (rc == 0) {
			size_t len = strnlen(args, DOMAIN_BOOTARGS_LEN);
			if (len >= DOMAIN_BOOTARGS_LEN) {
				return d0l_err(c, node, 0, "bootargs longer than %u bytes",
					       DOMAIN_BOOTARGS_LEN - 1U);
			}
			(void)memcpy(cfg->bootargs, args, len + 1U);
		} else if (rc != -FDT_ERR_NOTFOUND) {
			return d0l_err(c, node, rc, "bootargs: not a string");
		} else {
			/* No bootargs: the kernel's own defaults. */
		}
	}
	return 0;
}

/* ------------------------------------------------------------ evtchn */

static int d0l_evtchn_prop(struct d0l_ctx *c, int node, uint32_t *port, uint32_t *phandle)
{
	int len;
	const uint8_t *p = fdt_getprop(c->f, node, "xen,evtchn", &len);

	if ((p == NULL) || (len != 8)) {
		return d0l_err(c, node, 0, "xen,evtchn must be <local-port &peer-node>");
	}
	*port = fdt_be32(p);
	*phandle = fdt_be32(&p[4]);
	if ((*port == 0U) || (*port >= c->lim->evtchn_ports)) {
		return d0l_err(c, node, 0, "xen,evtchn port %u out of range 1..%u, "
			       "CONFIG_EVTCHN_MAX_PORTS=%u", *port, c->lim->evtchn_ports - 1U,
			       c->lim->evtchn_ports);
	}
	return 0;
}

static int d0l_domain_index(const struct d0l_ctx *c, int node, uint32_t nr)
{
	uint32_t i;

	for (i = 0U; i < nr; i++) {
		if (c->out->node[i] == node) {
			return (int)i;
		}
	}
	return -1;
}

/* After every domain is parsed: resolve each channel's peer by phandle. */
static int d0l_evtchn(struct d0l_ctx *c, uint32_t di, int node)
{
	struct domain_config *cfg = &c->out->dom[di];
	uint32_t port;
	uint32_t peer_ph;
	uint32_t back_ph;
	uint32_t self_ph = 0U;
	uint32_t peer_port;
	int peer;
	int peer_dom;
	uint32_t i;
	int rc;

	rc = d0l_evtchn_prop(c, node, &port, &peer_ph);
	if (rc != 0) {
		return rc;
	}
	if (cfg->nr_static_evtchn >= DOMAIN_MAX_STATIC_EVTCHN) {
		return d0l_err(c, node, 0, "more than %u static event channels in one partition",
			       DOMAIN_MAX_STATIC_EVTCHN);
	}
	for (i = 0U; i < cfg->nr_static_evtchn; i++) {
		if (cfg->static_evtchn[i].local_port == port) {
			return d0l_err(c, node, 0, "local port %u used twice", port);
		}
	}
	peer = fdt_node_by_phandle(c->f, peer_ph);
	if ((peer < 0) || !fdt_node_compatible(c->f, peer, "xen,evtchn-v1")) {
		return d0l_err(c, node, 0, "xen,evtchn peer phandle 0x%x is not a "
			       "xen,evtchn-v1 node", peer_ph);
	}
	peer_dom = d0l_domain_index(c, fdt_parent(c->f, peer), c->out->nr_domains);
	if (peer_dom < 0) {
		return d0l_err(c, node, 0, "xen,evtchn peer is not inside a xen,domain node");
	}
	if ((uint32_t)peer_dom == di) {
		return d0l_err(c, node, 0, "xen,evtchn peer is in the same partition");
	}
	rc = d0l_evtchn_prop(c, peer, &peer_port, &back_ph);
	if (rc != 0) {
		return rc;
	}
	(void)fdt_prop_u32(c->f, node, "phandle", &self_ph);
	if ((self_ph == 0U) || (back_ph != self_ph)) {
		return d0l_err(c, node, 0, "xen,evtchn peer does not link back to this node");
	}
	cfg->static_evtchn[cfg->nr_static_evtchn].local_port = port;
	cfg->static_evtchn[cfg->nr_static_evtchn].remote_domid = (uint16_t)peer_dom + 1U;
	cfg->static_evtchn[cfg->nr_static_evtchn].remote_port = peer_port;
	cfg->nr_static_evtchn++;
	return 0;
}

/* ------------------------------------------------------------ domains */

static int d0l_enhanced(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	int len;
	const char *v = fdt_getprop(c->f, node, "xen,enhanced", &len);

	cfg->enhanced = false;
	if (v == NULL) {
		return 0;
	}
	/* Bare, "enabled" (and Xen's "legacy"): PV interfaces with xenstore (dom0less_xs.c). */
	if ((len == 0) || fdt_stringlist_has(v, len, "enabled") ||
	    fdt_stringlist_has(v, len, "legacy")) {
		cfg->enhanced = true;
		cfg->xs_client = true;
		return 0;
	}
	if (fdt_stringlist_has(v, len, "no-xenstore")) {
		cfg->enhanced = true;
		return 0;
	}
	if (fdt_stringlist_has(v, len, "disabled")) {
		return 0;
	}
	return d0l_err(c, node, 0, "xen,enhanced must be \"enabled\", \"no-xenstore\" or "
		       "\"disabled\"");
}

static int d0l_restart(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	const char *v;
	int rc = fdt_prop_string(c->f, node, "bulkhead,restart", &v);

	cfg->restart = RESTART_NEVER;
	if (rc == -FDT_ERR_NOTFOUND) {
		return 0;
	}
	if ((rc == 0) && (strcmp(v, "never") == 0)) {
		return 0;
	}
	if ((rc == 0) && (strcmp(v, "always") == 0)) {
		cfg->restart = RESTART_ALWAYS;
		return 0;
	}
	if ((rc == 0) && (strcmp(v, "reboot") == 0)) {
		cfg->restart = RESTART_ON_REBOOT;
		return 0;
	}
	return d0l_err(c, node, rc, "bulkhead,restart must be \"never\", \"always\" or \"reboot\"");
}

/*
 * Xen's static allocation (booting.txt "Static Allocation"): xen,static-mem
 * holds one or more <address size> ranges that together make the
 * partition's memory. Xen 4.17 reads their cells from the domain node's
 * parent (/chosen) #address-cells and #size-cells; Xen 4.16's
 * #xen,static-mem-address-cells/-size-cells win when a tree has them.
 */
static int d0l_static_mem(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	uint32_t ac = 0U;
	uint32_t sc = 0U;
	uint64_t total = 0U;
	const uint8_t *p;
	uint32_t n;
	uint32_t i;
	int len;

	p = fdt_getprop(c->f, node, "xen,static-mem", &len);
	if (fdt_has_prop(c->f, node, "#xen,static-mem-address-cells") ||
	    fdt_has_prop(c->f, node, "#xen,static-mem-size-cells")) {
		if ((fdt_prop_u32(c->f, node, "#xen,static-mem-address-cells", &ac) != 0) ||
		    (fdt_prop_u32(c->f, node, "#xen,static-mem-size-cells", &sc) != 0)) {
			ac = 0U;
		}
	} else {
		int parent = fdt_parent(c->f, node);
		int a = fdt_address_cells(c->f, parent);
		int s = fdt_size_cells(c->f, parent);
		ac = (a > 0) ? (uint32_t)a : 0U;
		sc = (s > 0) ? (uint32_t)s : 0U;
	}
	if ((ac < 1U) || (ac > 2U) || (sc < 1U) || (sc > 2U)) {
		return d0l_err(c, node, 0, "xen,static-mem needs address and size cells of 1 or 2 "
			       "(/chosen #address-cells/#size-cells, or Xen 4.16's "
			       "#xen,static-mem-address-cells/-size-cells)");
	}
	if ((p == NULL) || (len <= 0) || (((uint32_t)len % ((ac + sc) * 4U)) != 0U)) {
		return d0l_err(c, node, 0, "xen,static-mem must be <address size> ranges of %u+%u "
			       "cells", ac, sc);
	}
	n = (uint32_t)len / ((ac + sc) * 4U);
	if (n > DOMAIN_MAX_MEM_BANKS) {
		return d0l_err(c, node, 0, "xen,static-mem has %u ranges, at most %u", n,
			       DOMAIN_MAX_MEM_BANKS);
	}
	for (i = 0U; i < n; i++) {
		const uint8_t *e = &p[i * (ac + sc) * 4U];
		paddr_t a = fdt_read_cells(e, ac);
		uint64_t s = fdt_read_cells(&e[4U * ac], sc);
		uint32_t j;
		if ((a == 0U) || (s == 0U) || (PAGE_OFFSET_OF(a) != 0U) ||
		    (PAGE_OFFSET_OF(s) != 0U) || (a + s < a)) {
			return d0l_err(c, node, 0, "xen,static-mem range 0x%llx+0x%llx is not "
				       "page aligned", (unsigned long long)a, (unsigned long long)s);
		}
		for (j = 0U; j < i; j++) {
			if (mem_range_overlap(a, s, cfg->mem_bank[j].maddr, cfg->mem_bank[j].size)) {
				return d0l_err(c, node, 0, "xen,static-mem ranges 0x%llx and 0x%llx "
					       "overlap", (unsigned long long)cfg->mem_bank[j].maddr,
					       (unsigned long long)a);
			}
		}
		cfg->mem_bank[i].maddr = a;
		cfg->mem_bank[i].size = s;
		total += s;
	}
	if (total != cfg->mem_bytes) {
		return d0l_err(c, node, 0, "xen,static-mem size differs from memory");
	}
	cfg->nr_mem_banks = n;
	cfg->mem_maddr = cfg->mem_bank[0].maddr;
	return 0;
}

static int d0l_fixed_ram_checks(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	uint32_t i;

	for (i = 0U; i < cfg->nr_mem_banks; i++) {
		const struct ram_range *b = &cfg->mem_bank[i];
		if ((b->maddr == 0U) || (PAGE_OFFSET_OF(b->maddr) != 0U) ||
		    (b->maddr + b->size < b->maddr)) {
			return d0l_err(c, node, 0, "fixed RAM base 0x%llx is not a page-aligned "
				       "address", (unsigned long long)b->maddr);
		}
		if ((c->lim->nr_banks != 0U) &&
		    !mem_range_in_banks(c->lim->banks, c->lim->nr_banks, b->maddr, b->size)) {
			return d0l_err(c, node, 0, "RAM 0x%llx-0x%llx (bulkhead,memory-base) is "
				       "outside the board's RAM", (unsigned long long)b->maddr,
				       (unsigned long long)(b->maddr + b->size - 1U));
		}
	}
	return 0;
}

/*
 * direct-map (Xen's binding: only with static memory): the guest sees its
 * RAM at the machine addresses, so a device without an IOMMU can DMA into
 * it. That RAM must keep clear of the guest's fixed windows (Bulkhead keeps
 * its usual layout for the vGIC, vpl011 and grant window) and of the
 * 39-bit guest address space's end.
 */
static int d0l_direct_map(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	uint32_t i;

	cfg->direct_map = fdt_has_prop(c->f, node, "direct-map");
	if (!cfg->direct_map) {
		return 0;
	}
	if (cfg->nr_mem_banks == 0U) {
		return d0l_err(c, node, 0, "direct-map needs static memory (xen,static-mem)");
	}
	for (i = 0U; i < cfg->nr_mem_banks; i++) {
		const struct ram_range *b = &cfg->mem_bank[i];
		if (b->maddr + b->size > (ULL(1) << 39)) {
			return d0l_err(c, node, 0, "direct-map RAM 0x%llx-0x%llx is beyond the 39-bit "
				       "guest address space", (unsigned long long)b->maddr,
				       (unsigned long long)(b->maddr + b->size - 1U));
		}
		/* The vpl011's window counts whether or not this partition has one. */
		if (d0l_guest_window(b->maddr, b->size, true) != NULL) {
			return d0l_err(c, node, 0, "direct-map RAM 0x%llx-0x%llx overlaps %s of the "
				       "guest's layout", (unsigned long long)b->maddr,
				       (unsigned long long)(b->maddr + b->size - 1U),
				       d0l_guest_window(b->maddr, b->size, true));
		}
	}
	return 0;
}

static int d0l_memory(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	uint64_t kib;
	int rc = fdt_prop_u64(c->f, node, "memory", &kib);

	if (rc != 0) {
		return d0l_err(c, node, rc, "memory (KiB, <0 N>) missing or malformed");
	}
	if ((kib == 0U) || ((kib % (PAGE_SIZE / KIB)) != 0U)) {
		return d0l_err(c, node, 0, "memory = %llu KiB is not a non-zero multiple of 4 KiB",
			       (unsigned long long)kib);
	}
	if (kib > (GUEST_RAM0_SIZE / KIB)) {
		return d0l_err(c, node, 0, "memory = %llu KiB exceeds the %llu KiB guest RAM bank",
			       (unsigned long long)kib, (unsigned long long)GUEST_RAM0_SIZE / KIB);
	}
	cfg->mem_bytes = kib * KIB;
	cfg->mem_maddr = 0U;
	cfg->nr_mem_banks = 0U;
	rc = fdt_prop_u64(c->f, node, "bulkhead,memory-base", &cfg->mem_maddr);
	if ((rc != 0) && (rc != -FDT_ERR_NOTFOUND)) {
		return d0l_err(c, node, rc, "bulkhead,memory-base must be one 64-bit address");
	}
	if (rc == 0) {
		cfg->nr_mem_banks = 1U;
		cfg->mem_bank[0].maddr = cfg->mem_maddr;
		cfg->mem_bank[0].size = cfg->mem_bytes;
	} else if (fdt_has_prop(c->f, node, "xen,static-mem")) {
		rc = d0l_static_mem(c, node, cfg);
		if (rc != 0) {
			return rc;
		}
	} else {
		/* Placed at boot. */
	}
	rc = d0l_fixed_ram_checks(c, node, cfg);
	if (rc == 0) {
		rc = d0l_direct_map(c, node, cfg);
	}
	return rc;
}

static int d0l_cpus(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	int len;
	const uint8_t *p;
	uint32_t i;
	int rc = fdt_prop_u32(c->f, node, "cpus", &cfg->nr_vcpus);

	if ((rc != 0) || (cfg->nr_vcpus == 0U)) {
		return d0l_err(c, node, rc, "cpus missing or 0");
	}
	if (cfg->nr_vcpus > c->lim->max_vcpus) {
		return d0l_err(c, node, 0, "cpus = <%u>, CONFIG_MAX_VCPUS=%u", cfg->nr_vcpus,
			       c->lim->max_vcpus);
	}
	p = fdt_getprop(c->f, node, "bulkhead,cpus", &len);
	cfg->pcpus_fixed = (p != NULL);
	if (p == NULL) {
		return 0;
	}
	if ((uint32_t)len != cfg->nr_vcpus * 4U) {
		return d0l_err(c, node, 0, "bulkhead,cpus has %d entries, cpus = <%u>", len / 4,
			       cfg->nr_vcpus);
	}
	for (i = 0U; i < cfg->nr_vcpus; i++) {
		cfg->pcpus[i] = fdt_be32(&p[4U * i]);
		if (cfg->pcpus[i] >= c->avail_cpus) {
			return d0l_err(c, node, 0, "bulkhead,cpus: vCPU %u on physical CPU %u, %s%u",
				       i, cfg->pcpus[i],
				       (c->avail_cpus == c->lim->nr_cpus) ? "CONFIG_NR_CPUS=" :
				       "CPUs in the device tree: ", c->avail_cpus);
		}
	}
	return 0;
}

/*
 * Xen's max_grant_frames, max_maptrack_frames and max_grant_version (Xen
 * 4.18's binding; 4.17 ignores them). Absent: Xen's default of
 * 64 grant frames (all the pool holds if Kconfig made it smaller) and, for
 * maptrack, which a static partition reserves whole, all the pool holds.
 * More than the pool holds is refused, naming the limit, as Xen refuses
 * more than its own maximum.
 */
static int d0l_gnttab_sizes(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	const uint32_t per_frame = U(256); /* maptrack entries in a 4 KiB frame, as Xen's */
	uint32_t v;
	int rc;

	rc = fdt_prop_u32(c->f, node, "max_grant_frames", &v);
	if (rc == -FDT_ERR_NOTFOUND) {
		/* Xen's default, or all a smaller pool holds. */
		v = MIN(DOMAIN_XEN_GRANT_FRAMES, c->lim->gnttab_frames);
	} else if (rc != 0) {
		return d0l_err(c, node, rc, "max_grant_frames: not a u32");
	} else if ((v == 0U) || (v > c->lim->gnttab_frames)) {
		return d0l_err(c, node, 0, "max_grant_frames = <%u>, %s%u", v,
			       (v == 0U) ? "at least " : "CONFIG_GNTTAB_MAX_FRAMES=",
			       (v == 0U) ? 1U : c->lim->gnttab_frames);
	} else {
		/* within the pool */
	}
	cfg->max_grant_frames = v;
	rc = fdt_prop_u32(c->f, node, "max_maptrack_frames", &v);
	if (rc == -FDT_ERR_NOTFOUND) {
		v = (c->lim->maptrack_entries + per_frame - 1U) / per_frame;
	} else if (rc != 0) {
		return d0l_err(c, node, rc, "max_maptrack_frames: not a u32");
	} else if ((v > DOMAIN_XEN_MAPTRACK_FRAMES) ||
		   ((uint64_t)v * per_frame > c->lim->maptrack_entries)) {
		return d0l_err(c, node, 0, "max_maptrack_frames = <%u> (%llu mappings), "
			       "CONFIG_GNTTAB_MAPTRACK_ENTRIES=%u", v,
			       (unsigned long long)v * per_frame, c->lim->maptrack_entries);
	} else {
		/* within the pool; 0 is allowed: the partition maps no grants */
	}
	cfg->max_maptrack_frames = v;
	rc = fdt_prop_u32(c->f, node, "max_grant_version", &v);
	if ((rc == 0) && (v != 1U)) {
		return d0l_err(c, node, 0, "max_grant_version = <%u>, grant tables v1 only (Xen on Arm)",
			       v);
	}
	return ((rc == 0) || (rc == -FDT_ERR_NOTFOUND)) ? 0 :
	       d0l_err(c, node, rc, "max_grant_version: not a u32");
}

/*
 * The rest of Xen's domain properties (booting.txt, 4.17 to 4.20), each
 * honoured, accepted because Bulkhead gives at least what it asks, or
 * refused: never ignored (docs/device-tree.md has the table and the
 * reasons). Accepted values: kind 0 none (refused whenever present), 1 the
 * one cell val, 2 the string str.
 */
static int d0l_xen_props(struct d0l_ctx *c, int node, struct domain_config *cfg)
{
	static const struct {
		const char *name;
		uint8_t kind;
		uint32_t val;
		const char *str;
		const char *why;
	} rules[] = {
		{ "domain-cpupool", 0U, 0U, NULL,
		  "no cpupools: each vCPU has a physical CPU of its own (bulkhead,cpus)" },
		{ "llc-colors", 0U, 0U, NULL, "no cache colouring" },
		{ "sve", 1U, 0U, NULL, "only <0>: partitions get no SVE (it is undefined to them)" },
		{ "trap-unmapped-accesses", 1U, 1U, NULL,
		  "only <1>: an access to unmapped memory traps (and stops the partition)" },
		{ "passthrough", 2U, 0U, "disabled",
		  "only \"disabled\": no IOMMU is driven (xen,force-assign-without-iommu)" },
		{ "xen,sci_type", 2U, 0U, "none", "only \"none\": no SCMI calls are forwarded" },
		{ "v8r_el1_msa", 2U, 0U, "mmu", "only \"mmu\": partitions run with their MMU" },
	};
	static const char *const ours[] = { "bulkhead,memory-base", "bulkhead,cpus",
					    "bulkhead,restart" };
	const char *name;
	const void *data;
	uint32_t len;
	uint32_t v = 0U;
	uint32_t steps;
	unsigned int i;
	int p;
	int rc;

	for (i = 0U; i < ARRAY_SIZE(rules); i++) {
		const char *s = NULL;
		bool ok;
		if (!fdt_has_prop(c->f, node, rules[i].name)) {
			continue;
		}
		ok = (rules[i].kind == 1U) ? ((fdt_prop_u32(c->f, node, rules[i].name, &v) == 0) &&
					      (v == rules[i].val)) :
		     ((rules[i].kind == 2U) && (fdt_prop_string(c->f, node, rules[i].name, &s) == 0) &&
		      (strcmp(s, rules[i].str) == 0));
		if (!ok) {
			return d0l_err(c, node, 0, "%s: %s", rules[i].name, rules[i].why);
		}
	}
	/* Its vGIC has CONFIG_VGIC_NR_SPIS SPIs; it may ask for fewer, and gets no device beyond. */
	cfg->nr_spis = c->lim->vgic_nr_spis;
	rc = fdt_prop_u32(c->f, node, "nr_spis", &cfg->nr_spis);
	if ((rc != 0) && (rc != -FDT_ERR_NOTFOUND)) {
		return d0l_err(c, node, rc, "nr_spis must be one cell");
	}
	if (cfg->nr_spis > c->lim->vgic_nr_spis) {
		return d0l_err(c, node, 0, "nr_spis = <%u>, CONFIG_VGIC_NR_SPIS=%u", cfg->nr_spis,
			       c->lim->vgic_nr_spis);
	}
	if (cfg->vpl011 && (cfg->nr_spis == 0U)) {
		return d0l_err(c, node, 0, "vpl011 needs SPI 0 (INTID 32), nr_spis = <0>");
	}
	/* Stage-2 tables: the static pool must hold what Xen's P2M pool would. */
	rc = fdt_prop_u32(c->f, node, "xen,domain-p2m-mem-mb", &v);
	if ((rc == 0) && ((uint64_t)v * U(256) > c->lim->p2m_pool_pages)) {
		return d0l_err(c, node, 0, "xen,domain-p2m-mem-mb = <%u> (%llu pages), "
			       "CONFIG_P2M_POOL_PAGES=%u", v, (unsigned long long)v * U(256),
			       c->lim->p2m_pool_pages);
	}
	if ((rc != 0) && (rc != -FDT_ERR_NOTFOUND)) {
		return d0l_err(c, node, rc, "xen,domain-p2m-mem-mb must be one cell");
	}
	/* Bulkhead's own namespace: a name it does not know is a mistake, not Xen's. */
	p = fdt_first_prop(c->f, node);
	for (steps = 0U; (p >= 0) && (steps <= (c->f->size_struct / 4U)); steps++) {
		bool known = false;
		if ((fdt_prop_at(c->f, p, &name, &data, &len) == 0) &&
		    (strncmp(name, "bulkhead,", 9U) == 0)) {
			for (i = 0U; i < ARRAY_SIZE(ours); i++) {
				known = known || (strcmp(name, ours[i]) == 0);
			}
			if (!known) {
				return d0l_err(c, node, 0, "%s: not a Bulkhead property", name);
			}
		}
		p = fdt_next_prop(c->f, p);
	}
	return 0;
}

static int d0l_domain(struct d0l_ctx *c, uint32_t di, int node)
{
	struct domain_config *cfg = &c->out->dom[di];
	const char *name = fdt_node_name(c->f, node);
	int dtb_node = -1;
	int child;
	uint32_t steps;
	int rc;

	(void)memset(cfg, 0, sizeof(*cfg));
	(void)bh_snprintf(cfg->name, sizeof(cfg->name), "%s", (name != NULL) ? name : "?");
	rc = d0l_cpus(c, node, cfg);
	if (rc == 0) {
		rc = d0l_memory(c, node, cfg);
	}
	if (rc == 0) {
		rc = d0l_enhanced(c, node, cfg);
	}
	if (rc == 0) {
		rc = d0l_capabilities(c, node, cfg);
	}
	if (rc == 0) {
		rc = d0l_restart(c, node, cfg);
	}
	if (rc == 0) {
		rc = d0l_gnttab_sizes(c, node, cfg);
	}
	if (rc != 0) {
		return rc;
	}
	cfg->vpl011 = fdt_has_prop(c->f, node, "vpl011");
	rc = d0l_xen_props(c, node, cfg);
	if (rc != 0) {
		return rc;
	}

	child = fdt_first_child(c->f, node);
	for (steps = 0U; (child >= 0) && (steps <= c->f->size_struct / 4U); steps++) {
		if (d0l_module_kind(c->f, child) != MOD_NONE) {
			rc = d0l_module(c, node, child, cfg);
			if (rc != 0) {
				return rc;
			}
			dtb_node = (d0l_module_kind(c->f, child) == MOD_DTB) ? child : dtb_node;
		}
		child = fdt_next_sibling(c->f, child);
	}
	if (cfg->kernel.size == 0U) {
		return d0l_err(c, node, 0, "no multiboot,kernel module");
	}
	cfg->gic_phandle = DOMAIN_GIC_PHANDLE;
	return (dtb_node >= 0) ? d0l_devices(c, di, dtb_node) : 0;
}

/* Two partitions, a partition and a module, must not share machine RAM. */
static int d0l_check_overlaps(struct d0l_ctx *c)
{
	uint32_t i;
	uint32_t j;
	uint32_t x;
	uint32_t y;

	for (i = 0U; i < c->out->nr_domains; i++) {
		const struct domain_config *a = &c->out->dom[i];
		for (x = 0U; x < a->nr_mem_banks; x++) {
			const struct ram_range *ra = &a->mem_bank[x];
			for (j = 0U; j < c->out->nr_domains; j++) {
				const struct domain_config *b = &c->out->dom[j];
				const struct boot_module *mods[3] = { &b->kernel, &b->ramdisk, &b->dtb };
				unsigned int k;
				for (y = 0U; (j != i) && (y < b->nr_mem_banks); y++) {
					if (mem_range_overlap(ra->maddr, ra->size, b->mem_bank[y].maddr,
							      b->mem_bank[y].size)) {
						return d0l_err(c, c->out->node[(i > j) ? i : j], 0,
							       "RAM (bulkhead,memory-base) overlaps the "
							       "RAM of %s",
							       c->out->dom[(i > j) ? j : i].name);
					}
				}
				for (k = 0U; k < 3U; k++) {
					if (mem_range_overlap(ra->maddr, ra->size, mods[k]->start,
							      mods[k]->size)) {
						return d0l_err(c, c->out->node[i], 0,
							       "RAM 0x%llx-0x%llx overlaps a module of %s "
							       "at 0x%llx",
							       (unsigned long long)ra->maddr,
							       (unsigned long long)(ra->maddr + ra->size -
										    1U),
							       b->name,
							       (unsigned long long)mods[k]->start);
					}
				}
			}
		}
	}
	return 0;
}

/* 1:1 pinning: fixed CPUs first, then the free ones in DT order. */
static int d0l_place_vcpus(struct d0l_ctx *c)
{
	static const char *const who[] = { "CONFIG_NR_CPUS=", "CPUs in the device tree: " };
	uint64_t used[(U(64) + 63U) / 64U] = { 0U };
	uint16_t owner[64];
	uint32_t total = 0U;
	uint32_t next = 0U;
	uint32_t i;
	uint32_t v;
	unsigned int src = (c->avail_cpus < c->lim->nr_cpus) ? (unsigned int)1U : 0U;

	for (i = 0U; i < c->out->nr_domains; i++) {
		total += c->out->dom[i].nr_vcpus;
		if ((total > c->avail_cpus) && (src == 1U)) {
			/* Name the first vCPU left without a CPU, and that CPU. */
			return d0l_err(c, c->out->node[i], 0, "vCPU %u needs physical CPU %u (1:1 "
				       "pinning, %u vCPUs in all), the device tree lists %u CPU%s",
				       c->avail_cpus - (total - c->out->dom[i].nr_vcpus), c->avail_cpus,
				       total, c->avail_cpus, (c->avail_cpus == 1U) ? "" : "s");
		}
		if (total > c->avail_cpus) {
			return d0l_err(c, c->out->node[i], 0, "%u vCPUs in all need %u physical CPUs "
				       "(1:1 pinning), %s%u", total, total, who[src], c->avail_cpus);
		}
	}
	for (i = 0U; i < c->out->nr_domains; i++) {
		struct domain_config *cfg = &c->out->dom[i];
		for (v = 0U; cfg->pcpus_fixed && (v < cfg->nr_vcpus); v++) {
			uint32_t p = cfg->pcpus[v];
			if ((used[p / 64U] & (UINT64_C(1) << (p % 64U))) != 0U) {
				return d0l_err(c, c->out->node[i], 0, "physical CPU %u already hosts "
					       "d%u (1:1 pinning: one vCPU per CPU)", p,
					       (unsigned int)owner[p] + 1U);
			}
			used[p / 64U] |= UINT64_C(1) << (p % 64U);
			owner[p] = (uint16_t)i;
		}
	}
	for (i = 0U; i < c->out->nr_domains; i++) {
		struct domain_config *cfg = &c->out->dom[i];
		for (v = 0U; !cfg->pcpus_fixed && (v < cfg->nr_vcpus); v++) {
			while ((next < c->avail_cpus) &&
			       ((used[next / 64U] & (UINT64_C(1) << (next % 64U))) != 0U)) {
				next++;
			}
			if (next >= c->avail_cpus) {
				return d0l_err(c, c->out->node[i], 0, "no free physical CPU for "
					       "vCPU %u (1:1 pinning), %s%u", v, who[src],
					       c->avail_cpus);
			}
			cfg->pcpus[v] = next;
			used[next / 64U] |= UINT64_C(1) << (next % 64U);
		}
	}
	c->out->pcpus_used = 0U;
	for (i = 0U; i < c->avail_cpus; i++) {
		if ((used[i / 64U] & (UINT64_C(1) << (i % 64U))) != 0U) {
			c->out->pcpus_used = i + 1U;
		}
	}
	return 0;
}

/* Static event channels, once every domain node is known. */
static int d0l_all_evtchns(struct d0l_ctx *c)
{
	uint32_t i;
	uint32_t steps;
	int child;
	int rc;

	for (i = 0U; i < c->out->nr_domains; i++) {
		child = fdt_first_child(c->f, c->out->node[i]);
		for (steps = 0U; (child >= 0) && (steps <= c->f->size_struct / 4U); steps++) {
			if (fdt_node_compatible(c->f, child, "xen,evtchn-v1")) {
				rc = d0l_evtchn(c, i, child);
				if (rc != 0) {
					return rc;
				}
			}
			child = fdt_next_sibling(c->f, child);
		}
	}
	return 0;
}

static int d0l_collect(struct d0l_ctx *c, int chosen)
{
	uint32_t count = 0U;
	uint32_t steps;
	int n;
	int rc;

	/* Count first, so the message says how many were asked for. */
	n = fdt_first_child(c->f, chosen);
	for (steps = 0U; (n >= 0) && (steps <= c->f->size_struct / 4U); steps++) {
		count += fdt_node_compatible(c->f, n, "xen,domain") ? 1U : 0U;
		if ((d0l_module_kind(c->f, n) == MOD_KERNEL) ||
		    fdt_node_compatible(c->f, n, "xen,domain-shared-memory-v1")) {
			return d0l_err(c, n, 0, "a dom0 %s: Bulkhead has no dom0, use xen,domain nodes",
				       (d0l_module_kind(c->f, n) == MOD_KERNEL) ? "kernel module" :
				       "shared memory node");
		}
		n = fdt_next_sibling(c->f, n);
	}
	if (count == 0U) {
		return d0l_err(c, chosen, 0, "no xen,domain node: nothing to boot");
	}
	n = fdt_first_child(c->f, chosen);
	for (steps = 0U; (n >= 0) && (steps <= c->f->size_struct / 4U); steps++) {
		if (fdt_node_compatible(c->f, n, "xen,domain")) {
			if (c->out->nr_domains >= c->lim->max_domains) {
				return d0l_err(c, n, 0, "%u partitions configured, CONFIG_MAX_DOMAINS=%u",
					       count, c->lim->max_domains);
			}
			c->out->node[c->out->nr_domains] = n;
			rc = d0l_domain(c, c->out->nr_domains, n);
			if (rc != 0) {
				return rc;
			}
			c->out->nr_domains++;
		}
		n = fdt_next_sibling(c->f, n);
	}
	return 0;
}

int dom0less_parse(const struct fdt *f, const struct dom0less_limits *lim,
		   struct dom0less_config *out, char *err, size_t errlen)
{
	struct d0l_ctx c = { .f = f, .lim = lim, .out = out, .err = err, .errlen = errlen };
	int chosen;
	int rc;

	(void)memset(out, 0, sizeof(*out));
	if (errlen != 0U) {
		err[0] = '\0';
	}
	if ((lim->max_domains > CONFIG_MAX_DOMAINS) || (lim->max_vcpus > CONFIG_MAX_VCPUS) ||
	    (lim->nr_cpus == 0U) || (lim->nr_cpus > U(64)) || (lim->nr_banks > DOM0LESS_MAX_BANKS) ||
	    (lim->shm_regions > CONFIG_STATIC_SHM_REGIONS)) {
		(void)bh_snprintf(err, errlen, "limits beyond what the parser was built for");
		return -FDT_ERR_BADVALUE;
	}
	c.avail_cpus = ((lim->board_cpus != 0U) && (lim->board_cpus < lim->nr_cpus)) ?
		       lim->board_cpus : lim->nr_cpus;
	chosen = fdt_path(f, "/chosen");
	if (chosen < 0) {
		(void)bh_snprintf(err, errlen, "/chosen: no such node");
		return chosen;
	}
	c.gic_node = d0l_find_gic(f);
	rc = d0l_collect(&c, chosen);
	if (rc == 0) {
		rc = d0l_place_vcpus(&c);
	}
	if (rc == 0) {
		rc = d0l_check_overlaps(&c);
	}
	if (rc == 0) {
		rc = d0l_all_evtchns(&c);
	}
	if (rc == 0) {
		rc = d0l_all_vbds(&c);
	}
	if (rc == 0) {
		rc = d0l_all_shm(&c);
	}
	if (rc == 0) {
		rc = d0l_xenstore_check(&c);
	}
	return rc;
}
