/* SPDX-License-Identifier: MIT */
/*
 * Static shared memory in Xen 4.17's dom0less binding (booting.txt "Static
 * Shared Memory"): a child of a xen,domain node
 *
 *	shm@50000000 {
 *		compatible = "xen,domain-shared-memory-v1";
 *		xen,shm-id = "buf0";              at most 15 characters
 *		xen,shared-mem = <0x7fe00000 0x50000000 0x200000>;
 *		role = "owner";                   or "borrower"; absent: DOMID_IO owns it
 *	};
 *
 * maps machine RAM <host address, size> at the guest address, read as Xen
 * 4.17 reads it: host address, guest address and size, with the address and
 * size cells of the domain node (inherited from its ancestors, as Xen's
 * dt_n_addr_cells()). Every node naming one xen,shm-id names the same host
 * range; regions of different ids never overlap; one owner at most, and
 * none beside a node without a role (Xen 4.17 gives such a region to
 * DOMID_IO, and cannot then give it to a domain). The region must be board
 * RAM that nothing else uses (the hypervisor, the boot DTB, reserved
 * memory, a module, a partition's RAM or devices), and its guest range
 * clear of the partition's RAM, disks, devices, other regions and fixed
 * windows. Checked once every partition is parsed, so check-dtb and the
 * boot refuse the same trees with the same message.
 */
#include "dom0less_priv.h"
#include <bulkhead/console.h>
#include <bulkhead/lib.h>
#include <public/arch-arm.h>

#define SHM_COMPAT   "xen,domain-shared-memory-v1"
#define SHM_WHAT_LEN U(64)
#define IPA_LIMIT    (ULL(1) << 39)

/* dom0less_shm.users holds one bit per partition. */
BUILD_ASSERT(CONFIG_MAX_DOMAINS <= 64);

/* #address-cells or #size-cells for the children of node, inherited as Xen reads them. */
static uint32_t shm_cells(const struct fdt *f, int node, const char *name, uint32_t dflt)
{
	int n = node;
	uint32_t steps;
	uint32_t v;

	for (steps = 0U; (n >= 0) && (steps <= FDT_MAX_DEPTH); steps++) {
		if (fdt_prop_u32(f, n, name, &v) == 0) {
			return v;
		}
		n = (n == 0) ? -1 : fdt_parent(f, n);
	}
	return dflt;
}

/* What [g, g + size) of partition cfg's guest space is already, or NULL. */
static const char *shm_guest_clash(const struct domain_config *cfg, paddr_t g, uint64_t size)
{
	const char *win = d0l_guest_window(g, size, cfg->vpl011);
	uint32_t i;

	for (i = 0U; (win == NULL) && (i < (cfg->direct_map ? cfg->nr_mem_banks : 1U)); i++) {
		paddr_t rb = cfg->direct_map ? cfg->mem_bank[i].maddr : GUEST_RAM0_BASE;
		uint64_t rs = cfg->direct_map ? cfg->mem_bank[i].size : cfg->mem_bytes;
		win = mem_range_overlap(g, size, rb, rs) ? "the partition's RAM" : NULL;
	}
	if ((win == NULL) && mem_range_overlap(g, size, GUEST_RAM0_BASE +
					       ROUND_UP(cfg->mem_bytes, UL(2) << 20), cfg->vbd_bytes)) {
		win = "the virtual disks it serves";
	}
	if ((win == NULL) && cfg->xs_client &&
	    mem_range_overlap(g, size, GUEST_MAGIC_BASE, GUEST_MAGIC_SIZE)) {
		win = "the xenstore page's window";
	}
	for (i = 0U; (win == NULL) && (i < cfg->nr_iomem); i++) {
		win = mem_range_overlap(g, size, cfg->iomem[i].gaddr, cfg->iomem[i].size) ?
		      "its device memory (xen,reg)" : NULL;
	}
	for (i = 0U; (win == NULL) && (i < cfg->nr_shm); i++) {
		win = mem_range_overlap(g, size, cfg->shm[i].gaddr, cfg->shm[i].size) ?
		      "another of its shared memory regions" : NULL;
	}
	return win;
}

/* What [m, m + size) of machine memory is already used for, into what[]; false if free. */
static bool shm_host_clash(const struct d0l_ctx *c, paddr_t m, uint64_t size, char *what)
{
	const struct dom0less_limits *lim = c->lim;
	uint32_t i;
	uint32_t j;

	for (i = 0U; i < lim->nr_hyp_devs; i++) {
		if (mem_range_overlap(m, size, lim->hyp_devs[i].base, lim->hyp_devs[i].size)) {
			(void)bh_snprintf(what, SHM_WHAT_LEN, "%s", lim->hyp_devs[i].what);
			return true;
		}
	}
	for (i = 0U; i < lim->nr_hyp_ram; i++) {
		const struct dom0less_hyp_dev *h = &lim->hyp_ram[i];
		if (mem_range_overlap(m, size, h->base, h->size)) {
			(void)bh_snprintf(what, SHM_WHAT_LEN, "%s (0x%llx-0x%llx)", h->what,
					  (unsigned long long)h->base,
					  (unsigned long long)(h->base + h->size - 1U));
			return true;
		}
	}
	for (j = 0U; j < c->out->nr_domains; j++) {
		const struct domain_config *o = &c->out->dom[j];
		const struct boot_module *mods[3] = { &o->kernel, &o->ramdisk, &o->dtb };
		for (i = 0U; i < o->nr_mem_banks; i++) {
			if (mem_range_overlap(m, size, o->mem_bank[i].maddr, o->mem_bank[i].size)) {
				(void)bh_snprintf(what, SHM_WHAT_LEN, "the RAM of %s", o->name);
				return true;
			}
		}
		for (i = 0U; i < 3U; i++) {
			if (mem_range_overlap(m, size, mods[i]->start, mods[i]->size)) {
				(void)bh_snprintf(what, SHM_WHAT_LEN, "a module of %s at 0x%llx", o->name,
						  (unsigned long long)mods[i]->start);
				return true;
			}
		}
		for (i = 0U; i < o->nr_iomem; i++) {
			if (mem_range_overlap(m, size, o->iomem[i].maddr, o->iomem[i].size)) {
				(void)bh_snprintf(what, SHM_WHAT_LEN, "device memory assigned to %s",
						  o->name);
				return true;
			}
		}
	}
	return false;
}

/* The region this node names: an existing one (same id, same range) or a new one. */
static int shm_region(struct d0l_ctx *c, int node, const char *id, paddr_t m, uint64_t size,
		      struct dom0less_shm **out)
{
	struct dom0less_config *cfg = c->out;
	char what[SHM_WHAT_LEN];
	uint32_t i;

	for (i = 0U; i < cfg->nr_shm; i++) {
		struct dom0less_shm *r = &cfg->shm[i];
		bool same = strcmp(r->id, id) == 0;
		if (same && ((r->maddr != m) || (r->size != size))) {
			return d0l_err(c, node, 0, "xen,shm-id \"%s\" is 0x%llx-0x%llx elsewhere, here "
				       "0x%llx-0x%llx", id, (unsigned long long)r->maddr,
				       (unsigned long long)(r->maddr + r->size - 1U),
				       (unsigned long long)m, (unsigned long long)(m + size - 1U));
		}
		if (same) {
			*out = r;
			return 0;
		}
		if (mem_range_overlap(m, size, r->maddr, r->size)) {
			(void)bh_snprintf(what, sizeof(what), "shared memory \"%s\"", r->id);
			return d0l_err(c, node, 0, "xen,shared-mem host range 0x%llx-0x%llx overlaps %s",
				       (unsigned long long)m, (unsigned long long)(m + size - 1U), what);
		}
	}
	if (shm_host_clash(c, m, size, what)) {
		return d0l_err(c, node, 0, "xen,shared-mem host range 0x%llx-0x%llx overlaps %s",
			       (unsigned long long)m, (unsigned long long)(m + size - 1U), what);
	}
	if ((c->lim->nr_banks != 0U) && !mem_range_in_banks(c->lim->banks, c->lim->nr_banks, m, size)) {
		return d0l_err(c, node, 0, "xen,shared-mem host range 0x%llx-0x%llx is not RAM",
			       (unsigned long long)m, (unsigned long long)(m + size - 1U));
	}
	if (cfg->nr_shm >= c->lim->shm_regions) {
		return d0l_err(c, node, 0, "more than %u static shared memory regions, "
			       "CONFIG_STATIC_SHM_REGIONS=%u", c->lim->shm_regions,
			       c->lim->shm_regions);
	}
	*out = &cfg->shm[cfg->nr_shm];
	(void)memset(*out, 0, sizeof(**out));
	(void)memcpy((*out)->id, id, strlen(id) + 1U);
	(*out)->maddr = m;
	(*out)->size = size;
	(*out)->node = node;
	cfg->nr_shm++;
	return 0;
}

/* One role at most: an owner, or DOMID_IO when a node has none (Xen 4.17 cannot have both). */
static int shm_role(struct d0l_ctx *c, uint32_t di, int node, struct dom0less_shm *r,
		    struct shm_map *s)
{
	const char *role = NULL;
	int rc = fdt_prop_string(c->f, node, "role", &role);
	uint16_t owner = r->owner;

	if ((rc == 0) && (strcmp(role, "owner") == 0)) {
		s->owner = true;
		r->owner = (uint16_t)(di + 1U);
	} else if (rc == -FDT_ERR_NOTFOUND) {
		r->roleless = true;
	} else if ((rc != 0) || (strcmp(role, "borrower") != 0)) {
		return d0l_err(c, node, rc, "role must be \"owner\" or \"borrower\"");
	} else {
		/* A borrower: maps the region as another's memory. */
	}
	if ((owner != 0U) && s->owner) {
		return d0l_err(c, node, 0, "role \"owner\": %s owns \"%s\" already",
			       c->out->dom[owner - 1U].name, r->id);
	}
	if ((r->owner != 0U) && r->roleless) {
		return d0l_err(c, node, 0, "\"%s\" has an owner (%s) and a node without role (its "
			       "owner is then DOMID_IO, as on Xen)", r->id,
			       c->out->dom[r->owner - 1U].name);
	}
	return 0;
}

static int shm_node(struct d0l_ctx *c, uint32_t di, int node)
{
	struct domain_config *cfg = &c->out->dom[di];
	int dom = c->out->node[di];
	uint32_t ac = shm_cells(c->f, dom, "#address-cells", 2U);
	uint32_t sc = shm_cells(c->f, dom, "#size-cells", 1U);
	struct dom0less_shm *r = NULL;
	struct shm_map *s;
	const uint8_t *p;
	const char *id;
	const char *win;
	paddr_t m;
	paddr_t g;
	uint64_t size;
	int len = 0;
	int rc;

	id = fdt_getprop(c->f, node, "xen,shm-id", &len);
	if ((id == NULL) || (len < 2) || (len > (int)DOMAIN_SHM_ID_LEN) ||
	    (strnlen(id, (size_t)len) != ((size_t)len - 1U))) {
		return d0l_err(c, node, 0, "xen,shm-id must be a string of 1 to %u characters",
			       DOMAIN_SHM_ID_LEN - 1U);
	}
	p = fdt_getprop(c->f, node, "xen,shared-mem", &len);
	if ((ac < 1U) || (ac > 2U) || (sc < 1U) || (sc > 2U) || (p == NULL) ||
	    ((uint32_t)len != ((2U * ac) + sc) * 4U)) {
		return d0l_err(c, node, 0, "xen,shared-mem must be <host-address guest-address size> "
			       "of %u+%u+%u cells (the domain's #address-cells, #size-cells)", ac, ac,
			       sc);
	}
	m = fdt_read_cells(p, ac);
	g = fdt_read_cells(&p[4U * ac], ac);
	size = fdt_read_cells(&p[8U * ac], sc);
	if ((size == 0U) || (PAGE_OFFSET_OF(m | g | size) != 0U) || (m + size < m) ||
	    (g + size < g)) {
		return d0l_err(c, node, 0, "xen,shared-mem <0x%llx 0x%llx 0x%llx> is not page aligned "
			       "(host address, guest address and size in 4 KiB pages)",
			       (unsigned long long)m, (unsigned long long)g,
			       (unsigned long long)size);
	}
	win = (g + size > IPA_LIMIT) ? "the end of the 39-bit guest address space" :
	      shm_guest_clash(cfg, g, size);
	if (win != NULL) {
		return d0l_err(c, node, 0, "xen,shared-mem guest range 0x%llx-0x%llx overlaps %s",
			       (unsigned long long)g, (unsigned long long)(g + size - 1U), win);
	}
	rc = shm_region(c, node, id, m, size, &r);
	if (rc != 0) {
		return rc;
	}
	if ((r->users & (UINT64_C(1) << di)) != 0U) {
		return d0l_err(c, node, 0, "xen,shm-id \"%s\" named twice in %s", id, cfg->name);
	}
	r->users |= UINT64_C(1) << di;
	/* Below CONFIG_STATIC_SHM_REGIONS: one slot per region it names, each named once. */
	s = &cfg->shm[cfg->nr_shm];
	(void)memset(s, 0, sizeof(*s));
	rc = shm_role(c, di, node, r, s);
	if (rc == 0) {
		s->maddr = m;
		s->gaddr = g;
		s->size = size;
		(void)memcpy(s->id, id, strlen(id) + 1U);
		cfg->nr_shm++;
	}
	return rc;
}

int d0l_all_shm(struct d0l_ctx *c)
{
	uint32_t i;
	uint32_t steps;
	int child;
	int rc = 0;

	for (i = 0U; (rc == 0) && (i < c->out->nr_domains); i++) {
		child = fdt_first_child(c->f, c->out->node[i]);
		for (steps = 0U; (rc == 0) && (child >= 0) && (steps <= c->f->size_struct / 4U);
		     steps++) {
			if (fdt_node_compatible(c->f, child, SHM_COMPAT)) {
				rc = shm_node(c, i, child);
			}
			child = fdt_next_sibling(c->f, child);
		}
	}
	return rc;
}
