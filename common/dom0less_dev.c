/* SPDX-License-Identifier: MIT */
/*
 * Device assignment in Xen's dom0less binding (xen docs/misc/arm/
 * passthrough.txt, booting.txt "Device Assignment"): a partition's
 * multiboot,device-tree module is a partial device tree whose /passthrough
 * nodes name, with xen,reg = <host-address size guest-address>, the device
 * memory the partition gets and, with xen,path, the system tree's node whose
 * interrupts it owns (virtual INTID = physical INTID, as on Xen). /gic gives
 * the phandle the partition's GIC node must carry; /aliases is copied.
 *
 * Everything is checked here, so the build-time checker and the boot refuse
 * the same trees with the same message: misaligned or malformed xen,reg, a
 * xen,path that is no node, a device or an interrupt given to two
 * partitions, the hypervisor's own devices (UART, GIC, image) and interrupts,
 * RAM, SPIs beyond CONFIG_VGIC_NR_SPIS. There is no IOMMU support, so as on
 * Xen without one a device is assigned only with
 * xen,force-assign-without-iommu (docs/device-tree.md says what that means
 * for DMA).
 */
#include "dom0less_priv.h"
#include <bulkhead/console.h>
#include <bulkhead/lib.h>
#include <public/arch-arm.h>

#define D0L_PATH_LEN   U(128)
#define GIC_SPI_BASE   U(32)
#define GIC_PPI_BASE   U(16)
#define GIC_PPI_MAINT  U(25)
#define GIC_PPI_HYP_TIMER U(26)
#define GIC_PPI_VTIMER U(27)
#define IRQ_TYPE_SPI   U(0)
#define IRQ_TYPE_PPI   U(1)
#define IRQ_EDGE_MASK  U(3)      /* IRQ_TYPE_EDGE_RISING | _FALLING in the flags cell */
#define IPA_LIMIT      (ULL(1) << 39)
/* Guest windows an assigned range must not cover (Xen 4.17's layout). */
#define GUEST_GIC_END  (GUEST_GICV3_GICR0_BASE + GUEST_GICV3_GICR0_SIZE)

/* One partial tree at a time: boot and the checker parse on one CPU. */
static uint8_t d0l_pfdt_buf[DOM0LESS_PFDT_MAX] __attribute__((aligned(8)));

/* Where a device node sits: the module node and the partial tree. */
struct d0l_dev {
	struct d0l_ctx *c;
	uint32_t di;
	int mod;
	const struct fdt *pf;
	int node;
};

static int __attribute__((format(printf, 2, 3)))
d0l_dev_err(const struct d0l_dev *dv, const char *fmt, ...)
{
	struct d0l_ctx *c = dv->c;
	char path[D0L_PATH_LEN];
	va_list ap;
	int n;

	if (fdt_node_path(dv->pf, dv->node, path, sizeof(path)) < 0) {
		(void)bh_snprintf(path, sizeof(path), "(node at %d)", dv->node);
	}
	(void)d0l_err(c, dv->mod, 0, "%s: ", path);
	n = (int)strnlen(c->err, c->errlen);
	if ((size_t)n < c->errlen) {
		va_start(ap, fmt);
		(void)bh_vsnprintf(&c->err[n], c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -FDT_ERR_BADVALUE;
}

int d0l_find_gic(const struct fdt *f)
{
	static const char *const compat[] = { "arm,gic-v3", "arm,gic-400", "arm,cortex-a15-gic",
					      "arm,cortex-a9-gic", "arm,cortex-a7-gic" };
	int depth = 0;
	int n = 0;
	uint32_t steps;
	unsigned int i;

	for (steps = 0U; (steps <= (f->size_struct / 4U)) && (n >= 0); steps++) {
		if (fdt_has_prop(f, n, "interrupt-controller")) {
			for (i = 0U; i < ARRAY_SIZE(compat); i++) {
				if (fdt_node_compatible(f, n, compat[i])) {
					return n;
				}
			}
		}
		n = fdt_next_node(f, n, &depth);
	}
	return -FDT_ERR_NOTFOUND;
}

bool dom0less_add_hyp_dev(struct dom0less_limits *lim, paddr_t base, uint64_t size,
			  uint32_t intid, int node, const char *what)
{
	if (lim->nr_hyp_devs >= DOM0LESS_MAX_HYP_DEVS) {
		return false;
	}
	lim->hyp_devs[lim->nr_hyp_devs] = (struct dom0less_hyp_dev){
		.base = base, .size = size, .intid = intid, .node = node, .what = what };
	lim->nr_hyp_devs++;
	return true;
}

/* The node whose interrupt-parent (inherited from ancestors) applies to node. */
static int d0l_irq_parent(const struct fdt *f, int node)
{
	int n = node;
	uint32_t steps;

	for (steps = 0U; steps <= FDT_MAX_DEPTH; steps++) {
		uint32_t ph;
		if (fdt_prop_u32(f, n, "interrupt-parent", &ph) == 0) {
			return fdt_node_by_phandle(f, ph);
		}
		if (n == 0) {
			break;
		}
		n = fdt_parent(f, n);
		if (n < 0) {
			return n;
		}
	}
	return -FDT_ERR_NOTFOUND;
}

/*
 * Interrupt idx of node as a GIC INTID, when its controller is the GIC and
 * the specifier has the GIC's three cells. *flags: the trigger cell.
 */
static int d0l_gic_irq(const struct fdt *f, int gic, int node, unsigned int idx, uint32_t *type,
		       uint32_t *num, uint32_t *flags)
{
	uint32_t cells = 0U;
	const uint8_t *p;
	int len;

	if ((gic < 0) || (d0l_irq_parent(f, node) != gic)) {
		return -FDT_ERR_NOTFOUND;
	}
	p = fdt_getprop(f, node, "interrupts", &len);
	if ((p == NULL) || (fdt_prop_u32(f, gic, "#interrupt-cells", &cells) != 0) ||
	    (cells != 3U)) {
		return -FDT_ERR_BADVALUE;
	}
	if (((uint32_t)len % 12U) != 0U) {
		return -FDT_ERR_BADVALUE;
	}
	if (((uint64_t)idx + 1U) * 12U > (uint32_t)len) {
		return -FDT_ERR_NOTFOUND;
	}
	*type = fdt_be32(&p[idx * 12U]);
	*num = fdt_be32(&p[(idx * 12U) + 4U]);
	*flags = fdt_be32(&p[(idx * 12U) + 8U]);
	return 0;
}

static uint32_t d0l_intid(uint32_t type, uint32_t num)
{
	return (type == IRQ_TYPE_SPI) ? (num + GIC_SPI_BASE) : (num + GIC_PPI_BASE);
}

/* The console: /chosen stdout-path (a path or an alias, options after ':'). */
static int d0l_stdout_node(const struct fdt *f)
{
	char path[D0L_PATH_LEN];
	const char *s;
	int chosen = fdt_path(f, "/chosen");
	int aliases;
	size_t n;

	if ((chosen < 0) || ((fdt_prop_string(f, chosen, "stdout-path", &s) != 0) &&
			     (fdt_prop_string(f, chosen, "linux,stdout-path", &s) != 0))) {
		return -FDT_ERR_NOTFOUND;
	}
	for (n = 0U; (n + 1U < sizeof(path)) && (s[n] != '\0') && (s[n] != ':'); n++) {
		path[n] = s[n];
	}
	path[n] = '\0';
	if (path[0] == '/') {
		return fdt_path(f, path);
	}
	aliases = fdt_path(f, "/aliases");
	if ((aliases < 0) || (fdt_prop_string(f, aliases, path, &s) != 0)) {
		return -FDT_ERR_NOTFOUND;
	}
	return fdt_path(f, s);
}

void dom0less_hyp_devices_from_dt(const struct fdt *f, struct dom0less_limits *lim)
{
	int gic = d0l_find_gic(f);
	int uart = d0l_stdout_node(f);
	unsigned int i;
	uint64_t a;
	uint64_t s;

	for (i = 0U; (gic >= 0) && (i < DOM0LESS_MAX_HYP_DEVS); i++) {
		if ((fdt_reg(f, fdt_parent(f, gic), gic, i, &a, &s) != 0) ||
		    !dom0less_add_hyp_dev(lim, a, s, 0U, gic, "the GIC")) {
			break;
		}
	}
	if ((uart >= 0) && (fdt_reg(f, fdt_parent(f, uart), uart, 0U, &a, &s) == 0)) {
		uint32_t type;
		uint32_t num;
		uint32_t flags;
		uint32_t intid = 0U;
		if (d0l_gic_irq(f, gic, uart, 0U, &type, &num, &flags) == 0) {
			intid = d0l_intid(type, num);
		}
		(void)dom0less_add_hyp_dev(lim, a, s, intid, uart, "the hypervisor's UART");
	}
}

/* ------------------------------------------------------------ xen,reg */

const char *d0l_guest_window(paddr_t base, uint64_t size, bool vpl011)
{
	const char *what = NULL;

	if (mem_range_overlap(base, size, GUEST_GICD_BASE, GUEST_GIC_END - GUEST_GICD_BASE)) {
		what = "the virtual GIC";
	} else if (mem_range_overlap(base, size, GUEST_GNTTAB_BASE, GUEST_GNTTAB_SIZE)) {
		what = "the grant-table window";
	} else if (vpl011 && mem_range_overlap(base, size, GUEST_PL011_BASE, GUEST_PL011_SIZE)) {
		what = "the vpl011";
	} else {
		/* Clear of the fixed windows. */
	}
	return what;
}

static int d0l_guest_range(const struct d0l_dev *dv, paddr_t g, uint64_t size)
{
	const struct domain_config *cfg = &dv->c->out->dom[dv->di];
	const char *win = d0l_guest_window(g, size, cfg->vpl011);
	unsigned int i;

	if ((g + size < g) || (g + size > IPA_LIMIT)) {
		return d0l_dev_err(dv, "xen,reg guest range 0x%llx-0x%llx is beyond the 39-bit "
				   "guest address space", (unsigned long long)g,
				   (unsigned long long)(g + size - 1U));
	}
	if (win != NULL) {
		return d0l_dev_err(dv, "xen,reg guest range 0x%llx-0x%llx overlaps %s",
				   (unsigned long long)g, (unsigned long long)(g + size - 1U), win);
	}
	/* Its RAM as the guest sees it: at GUEST_RAM0_BASE, or where it is (direct-map). */
	for (i = 0U; i < (cfg->direct_map ? cfg->nr_mem_banks : 1U); i++) {
		paddr_t rb = cfg->direct_map ? cfg->mem_bank[i].maddr : GUEST_RAM0_BASE;
		uint64_t rs = cfg->direct_map ? cfg->mem_bank[i].size : cfg->mem_bytes;
		if (mem_range_overlap(g, size, rb, rs)) {
			return d0l_dev_err(dv, "xen,reg guest range 0x%llx-0x%llx overlaps the "
					   "partition's RAM", (unsigned long long)g,
					   (unsigned long long)(g + size - 1U));
		}
	}
	for (i = 0U; i < cfg->nr_iomem; i++) {
		if (mem_range_overlap(g, size, cfg->iomem[i].gaddr, cfg->iomem[i].size)) {
			return d0l_dev_err(dv, "xen,reg guest range 0x%llx-0x%llx overlaps another "
					   "xen,reg range of the partition", (unsigned long long)g,
					   (unsigned long long)(g + size - 1U));
		}
	}
	return 0;
}

static int d0l_host_range(const struct d0l_dev *dv, paddr_t m, uint64_t size)
{
	const struct d0l_ctx *c = dv->c;
	const struct dom0less_limits *lim = c->lim;
	unsigned long long lo = (unsigned long long)m;
	unsigned long long hi = (unsigned long long)(m + size - 1U);
	uint32_t i;
	uint32_t j;

	if (m + size < m) {
		return d0l_dev_err(dv, "xen,reg 0x%llx+0x%llx wraps", lo, (unsigned long long)size);
	}
	for (i = 0U; i < lim->nr_hyp_devs; i++) {
		const struct dom0less_hyp_dev *h = &lim->hyp_devs[i];
		if (mem_range_overlap(m, size, h->base, h->size)) {
			return d0l_dev_err(dv, "xen,reg 0x%llx-0x%llx overlaps %s (0x%llx-0x%llx)", lo,
					   hi, h->what, (unsigned long long)h->base,
					   (unsigned long long)(h->base + h->size - 1U));
		}
	}
	for (j = 0U; j < dv->di; j++) {
		const struct domain_config *o = &c->out->dom[j];
		for (i = 0U; i < o->nr_mem_banks; i++) {
			if (mem_range_overlap(m, size, o->mem_bank[i].maddr, o->mem_bank[i].size)) {
				return d0l_dev_err(dv, "xen,reg 0x%llx-0x%llx overlaps the RAM of %s", lo,
						   hi, o->name);
			}
		}
		for (i = 0U; i < o->nr_iomem; i++) {
			if (mem_range_overlap(m, size, o->iomem[i].maddr, o->iomem[i].size)) {
				return d0l_dev_err(dv, "xen,reg 0x%llx-0x%llx overlaps 0x%llx-0x%llx "
						   "assigned to %s", lo, hi,
						   (unsigned long long)o->iomem[i].maddr,
						   (unsigned long long)(o->iomem[i].maddr +
									o->iomem[i].size - 1U),
						   o->name);
			}
		}
	}
	for (i = 0U; i < lim->nr_banks; i++) {
		if (mem_range_overlap(m, size, lim->banks[i].base, lim->banks[i].size)) {
			return d0l_dev_err(dv, "xen,reg 0x%llx-0x%llx is RAM (0x%llx-0x%llx): only "
					   "device memory is assigned", lo, hi,
					   (unsigned long long)lim->banks[i].base,
					   (unsigned long long)(lim->banks[i].base +
								lim->banks[i].size - 1U));
		}
	}
	return 0;
}

/* xen,reg of a device node whose parent gives ac/sc cells. */
static int d0l_xen_reg(const struct d0l_dev *dv, const uint8_t *p, int len, uint32_t ac,
		       uint32_t sc)
{
	struct domain_config *cfg = &dv->c->out->dom[dv->di];
	uint32_t entry = ((2U * ac) + sc) * 4U;
	uint32_t n;
	uint32_t i;
	int rc;

	if ((ac < 1U) || (ac > 2U) || (sc < 1U) || (sc > 2U) || (len <= 0) ||
	    (((uint32_t)len % entry) != 0U)) {
		return d0l_dev_err(dv, "xen,reg must be <host-address size guest-address> entries "
				   "of %u+%u+%u cells (#address-cells, #size-cells of its parent)",
				   ac, sc, ac);
	}
	n = (uint32_t)len / entry;
	for (i = 0U; i < n; i++) {
		const uint8_t *e = &p[i * entry];
		paddr_t m = fdt_read_cells(e, ac);
		uint64_t size = fdt_read_cells(&e[4U * ac], sc);
		paddr_t g = fdt_read_cells(&e[4U * (ac + sc)], ac);

		if ((PAGE_OFFSET_OF(m) != 0U) || (PAGE_OFFSET_OF(g) != 0U) ||
		    (PAGE_OFFSET_OF(size) != 0U) || (size == 0U)) {
			return d0l_dev_err(dv, "xen,reg <0x%llx 0x%llx 0x%llx> is not page aligned "
					   "(host address, size and guest address in 4 KiB pages)",
					   (unsigned long long)m, (unsigned long long)size,
					   (unsigned long long)g);
		}
		if (cfg->nr_iomem >= DOMAIN_MAX_IOMEM) {
			return d0l_dev_err(dv, "more than %u xen,reg ranges in one partition",
					   DOMAIN_MAX_IOMEM);
		}
		rc = d0l_host_range(dv, m, size);
		if (rc == 0) {
			rc = d0l_guest_range(dv, g, size);
		}
		if (rc != 0) {
			return rc;
		}
		cfg->iomem[cfg->nr_iomem] = (struct iomem_map){ .maddr = m, .gaddr = g, .size = size };
		cfg->nr_iomem++;
	}
	return 0;
}

/* ----------------------------------------------------------- xen,path */

static const char *d0l_ppi_owner(uint32_t intid)
{
	switch (intid) {
	case GIC_PPI_MAINT:
		return "the hypervisor's maintenance interrupt";
	case GIC_PPI_HYP_TIMER:
		return "the hypervisor's timer";
	case GIC_PPI_VTIMER:
		return "every partition's virtual timer";
	default:
		return "a private interrupt: only SPIs can be assigned";
	}
}

static int d0l_one_irq(const struct d0l_dev *dv, const char *host, uint32_t type, uint32_t num,
		       uint32_t flags)
{
	const struct d0l_ctx *c = dv->c;
	struct domain_config *cfg = &c->out->dom[dv->di];
	uint32_t intid = d0l_intid(type, num);
	uint32_t i;
	uint32_t j;

	if ((type != IRQ_TYPE_SPI) && (type != IRQ_TYPE_PPI)) {
		return d0l_dev_err(dv, "xen,path \"%s\": interrupt type %u is neither SPI (0) nor "
				   "PPI (1)", host, type);
	}
	if ((type == IRQ_TYPE_PPI) || (num >= U(988))) {
		return d0l_dev_err(dv, "xen,path \"%s\": interrupt %u (%s %u) is %s", host, intid,
				   (type == IRQ_TYPE_PPI) ? "PPI" : "SPI", num,
				   (type == IRQ_TYPE_PPI) ? d0l_ppi_owner(intid) : "not an INTID");
	}
	for (i = 0U; i < c->lim->nr_hyp_devs; i++) {
		if (c->lim->hyp_devs[i].intid == intid) {
			return d0l_dev_err(dv, "xen,path \"%s\": interrupt %u (SPI %u) is the "
					   "interrupt of %s", host, intid, num,
					   c->lim->hyp_devs[i].what);
		}
	}
	if (intid >= GIC_SPI_BASE + c->lim->vgic_nr_spis) {
		return d0l_dev_err(dv, "xen,path \"%s\": interrupt %u (SPI %u) is beyond "
				   "CONFIG_VGIC_NR_SPIS=%u (INTIDs 32-%u)", host, intid, num,
				   c->lim->vgic_nr_spis, GIC_SPI_BASE + c->lim->vgic_nr_spis - 1U);
	}
	if (intid >= GIC_SPI_BASE + cfg->nr_spis) {
		return d0l_dev_err(dv, "xen,path \"%s\": interrupt %u (SPI %u) is beyond nr_spis = "
				   "<%u>", host, intid, num, cfg->nr_spis);
	}
	if (cfg->vpl011 && (intid == GUEST_VPL011_SPI)) {
		return d0l_dev_err(dv, "xen,path \"%s\": interrupt %u (SPI %u) is the partition's "
				   "vpl011", host, intid, num);
	}
	for (j = 0U; j < dv->di; j++) {
		const struct domain_config *o = &c->out->dom[j];
		for (i = 0U; i < o->nr_dev_irqs; i++) {
			if (o->dev_irq[i].intid == intid) {
				return d0l_dev_err(dv, "xen,path \"%s\": interrupt %u (SPI %u) is "
						   "assigned to %s already", host, intid, num, o->name);
			}
		}
	}
	for (i = 0U; i < cfg->nr_dev_irqs; i++) {
		if (cfg->dev_irq[i].intid == intid) {
			return 0;   /* shared by two devices of this partition: one route */
		}
	}
	if (cfg->nr_dev_irqs >= DOMAIN_MAX_DEV_IRQS) {
		return d0l_dev_err(dv, "more than %u interrupts in one partition",
				   DOMAIN_MAX_DEV_IRQS);
	}
	cfg->dev_irq[cfg->nr_dev_irqs].intid = (uint16_t)intid;
	cfg->dev_irq[cfg->nr_dev_irqs].edge = (flags & IRQ_EDGE_MASK) != 0U;
	cfg->nr_dev_irqs++;
	return 0;
}

/* The host node's interrupts that reach the GIC; others are left, as Xen does. */
static int d0l_host_irqs(const struct d0l_dev *dv, const char *host, int hn)
{
	const struct fdt *f = dv->c->f;
	uint32_t steps;
	int rc = 0;

	if (fdt_has_prop(f, hn, "interrupts-extended")) {
		return d0l_dev_err(dv, "xen,path \"%s\": interrupts-extended is not supported, use "
				   "interrupts", host);
	}
	if (!fdt_has_prop(f, hn, "interrupts")) {
		return 0;
	}
	for (steps = 0U; (rc == 0) && (steps < (f->size_struct / 12U) + 1U); steps++) {
		uint32_t type;
		uint32_t num;
		uint32_t flags;
		rc = d0l_gic_irq(f, dv->c->gic_node, hn, steps, &type, &num, &flags);
		if (rc == -FDT_ERR_NOTFOUND) {
			return 0;   /* no more, or not wired to the GIC */
		}
		if (rc != 0) {
			return d0l_dev_err(dv, "xen,path \"%s\": interrupts must be GIC specifiers of 3 "
					   "cells", host);
		}
		rc = d0l_one_irq(dv, host, type, num, flags);
	}
	return rc;
}

/* The host node xen,path names: it exists, is no one's yet, and is not the hypervisor's. */
static int d0l_xen_path(const struct d0l_dev *dv, const char *host, bool force, int *hn_out)
{
	struct d0l_ctx *c = dv->c;
	int hn = fdt_path(c->f, host);
	uint32_t i;
	uint32_t j;

	if ((host[0] != '/') || (hn < 0)) {
		return d0l_dev_err(dv, "xen,path \"%s\" is not a node of the system device tree",
				   host);
	}
	for (i = 0U; i < c->lim->nr_hyp_devs; i++) {
		if (c->lim->hyp_devs[i].node == hn) {
			return d0l_dev_err(dv, "xen,path \"%s\" is %s", host, c->lim->hyp_devs[i].what);
		}
	}
	for (j = 0U; j <= dv->di; j++) {
		for (i = 0U; i < c->nr_dev_nodes[j]; i++) {
			if (c->dev_node[j][i] == hn) {
				return d0l_dev_err(dv, "xen,path \"%s\" is assigned to %s already", host,
						   c->out->dom[j].name);
			}
		}
	}
	if (!force) {
		return d0l_dev_err(dv, "xen,path \"%s\": no IOMMU protects it, so it is assigned "
				   "only with xen,force-assign-without-iommu", host);
	}
	if (c->nr_dev_nodes[dv->di] >= DOMAIN_MAX_IOMEM) {
		return d0l_dev_err(dv, "more than %u devices in one partition", DOMAIN_MAX_IOMEM);
	}
	c->dev_node[dv->di][c->nr_dev_nodes[dv->di]] = hn;
	c->nr_dev_nodes[dv->di]++;
	*hn_out = hn;
	return 0;
}

/* One node under /passthrough; ac/sc: the cells its parent sets. */
static int d0l_pt_node(const struct d0l_dev *dv, uint32_t ac, uint32_t sc)
{
	int rlen;
	int plen;
	const uint8_t *reg = fdt_getprop(dv->pf, dv->node, "xen,reg", &rlen);
	const char *path = fdt_getprop(dv->pf, dv->node, "xen,path", &plen);
	bool force = fdt_has_prop(dv->pf, dv->node, "xen,force-assign-without-iommu");
	int hn = -1;
	int rc;

	if ((reg == NULL) && (path == NULL)) {
		return 0;   /* a plain node (a clock, a bus): copied as it is */
	}
	/* Xen's rule: xen,reg with xen,path, or xen,reg alone when forced. */
	if (reg == NULL) {
		return d0l_dev_err(dv, "xen,path without xen,reg");
	}
	if ((path == NULL) && !force) {
		return d0l_dev_err(dv, "xen,reg without xen,path (xen,force-assign-without-iommu "
				   "maps the memory alone)");
	}
	if ((path != NULL) && ((plen <= 1) || (strnlen(path, (size_t)plen) >= (size_t)plen) ||
			       ((size_t)plen > D0L_PATH_LEN))) {
		return d0l_dev_err(dv, "xen,path must be a path string of at most %u bytes",
				   D0L_PATH_LEN - 1U);
	}
	/* The device first (given twice, the hypervisor's), then its memory, then its IRQs. */
	rc = (path != NULL) ? d0l_xen_path(dv, path, force, &hn) : 0;
	if (rc == 0) {
		rc = d0l_xen_reg(dv, reg, rlen, ac, sc);
	}
	if ((rc == 0) && (hn >= 0)) {
		rc = d0l_host_irqs(dv, path, hn);
	}
	return rc;
}

static int d0l_cells_of(const struct fdt *f, int node, const char *name, uint32_t dflt)
{
	uint32_t v;

	return (fdt_prop_u32(f, node, name, &v) == 0) ? (int)v : (int)dflt;
}

/*
 * Every node of /passthrough, depth first, each with the cells its parent
 * declares (the /passthrough node itself with the root defaults 2 and 1,
 * as Xen reads it).
 */
static int d0l_passthrough(struct d0l_dev *dv, int pt)
{
	uint32_t ac[FDT_MAX_DEPTH + 2U];
	uint32_t sc[FDT_MAX_DEPTH + 2U];
	uint32_t steps;
	int depth = 0;
	int n = pt;
	int rc = 0;

	ac[0] = 2U;
	sc[0] = 1U;
	/* Until the end of the tree or out of /passthrough (depth back to 0). */
	for (steps = 0U; (rc == 0) && (n >= 0) && (depth >= 0) && ((uint32_t)depth <= FDT_MAX_DEPTH) &&
			 (steps <= (dv->pf->size_struct / 4U)); steps++) {
		dv->node = n;
		rc = d0l_pt_node(dv, ac[depth], sc[depth]);
		ac[depth + 1] = (uint32_t)d0l_cells_of(dv->pf, n, "#address-cells", 2U);
		sc[depth + 1] = (uint32_t)d0l_cells_of(dv->pf, n, "#size-cells", 1U);
		n = fdt_next_node(dv->pf, n, &depth);
		depth = (depth <= 0) ? -1 : depth;
	}
	return rc;
}

/* No node of the partial tree may take the phandle the partition's GIC carries. */
static int d0l_phandles(struct d0l_dev *dv, int gic)
{
	const struct domain_config *cfg = &dv->c->out->dom[dv->di];
	uint32_t steps;
	int depth = 0;
	int n = 0;

	for (steps = 0U; (steps <= (dv->pf->size_struct / 4U)) && (n >= 0); steps++) {
		uint32_t ph;
		if ((n != gic) && ((fdt_prop_u32(dv->pf, n, "phandle", &ph) == 0) ||
				   (fdt_prop_u32(dv->pf, n, "linux,phandle", &ph) == 0)) &&
		    (ph == cfg->gic_phandle)) {
			dv->node = n;
			return d0l_dev_err(dv, "phandle %u is the partition's GIC's", ph);
		}
		n = fdt_next_node(dv->pf, n, &depth);
	}
	return 0;
}

int d0l_devices(struct d0l_ctx *c, uint32_t di, int mod)
{
	struct domain_config *cfg = &c->out->dom[di];
	const struct boot_module *m = &cfg->dtb;
	struct d0l_dev dv = { .c = c, .di = di, .mod = mod, .node = 0 };
	struct fdt pf;
	uint32_t steps;
	int gic = -1;
	int n;
	int rc;

	if (c->lim->read_module == NULL) {
		return d0l_err(c, mod, 0, "partial device tree at 0x%llx not given "
			       "(check-dtb --module 0x%llx=FILE.dtb)", (unsigned long long)m->start,
			       (unsigned long long)m->start);
	}
	if (m->size > DOM0LESS_PFDT_MAX) {
		return d0l_err(c, mod, 0, "partial device tree of %llu bytes, at most %u",
			       (unsigned long long)m->size, DOM0LESS_PFDT_MAX);
	}
	rc = c->lim->read_module(c->lim->read_ctx, m->start, d0l_pfdt_buf, (size_t)m->size);
	if (rc != 0) {
		return d0l_err(c, mod, rc, "partial device tree at 0x%llx cannot be read",
			       (unsigned long long)m->start);
	}
	rc = fdt_open(&pf, d0l_pfdt_buf, (size_t)m->size);
	if (rc != 0) {
		return d0l_err(c, mod, rc, "partial device tree: %s", fdt_strerror(rc));
	}
	dv.pf = &pf;
	/* Only /gic, /aliases and /passthrough mean something (Xen ignores the rest). */
	n = fdt_first_child(&pf, 0);
	for (steps = 0U; (rc == 0) && (n >= 0) && (steps <= (pf.size_struct / 4U)); steps++) {
		const char *name = fdt_node_name(&pf, n);
		uint32_t ph = 0U;
		if ((name != NULL) && (strcmp(name, "gic") == 0)) {
			gic = n;
			if (((fdt_prop_u32(&pf, n, "phandle", &ph) == 0) ||
			     (fdt_prop_u32(&pf, n, "linux,phandle", &ph) == 0)) &&
			    (ph != 0U) && (ph != ~0U)) {
				cfg->gic_phandle = ph;
			}
		} else if ((name != NULL) && (strcmp(name, "passthrough") == 0)) {
			rc = d0l_passthrough(&dv, n);
		} else {
			/* /aliases is copied when the tree is built; the rest is not used. */
		}
		n = fdt_next_sibling(&pf, n);
	}
	if (rc == 0) {
		rc = d0l_phandles(&dv, gic);
	}
	return rc;
}
