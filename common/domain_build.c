/* SPDX-License-Identifier: MIT */
/*
 * Loading a partition: kernel and ramdisk copied from their boot modules
 * into its RAM, and its own device tree written with the layout a Xen 4.17
 * dom0less domU gets, placed where Xen places it, so a domU image runs
 * unchanged. Partition RAM and modules are reached only through
 * map_domain_page() (no direct map with XPFO), a source and a destination
 * page at a time (arch/arm gives each CPU at least two slots). Runs at boot
 * and again on restart (modules stay reserved for that).
 */
#include <bulkhead/xenstore.h>
#include <bulkhead/domain.h>
#include <bulkhead/domain_build.h>
#include <bulkhead/fdt.h>
#include <bulkhead/mm.h>
#include <bulkhead/lib.h>
#include <bulkhead/console.h>
#include <public/errno.h>

#define MIB(x)          ((uint64_t)(x) << 20)
#define IMAGE_MAGIC     U(0x644d5241)  /* "ARM\x64", little-endian at byte 56 */
#define IMAGE_HDR_LEN   U(64)
#define PSCI_0_1_CPU_OFF U(1)          /* Xen's PSCI 0.1 function ids */
#define PSCI_0_1_CPU_ON  U(2)
#define IRQ_TYPE_LEVEL_HIGH U(4)
#define PPI_FLAGS       U(0xf08)       /* all CPUs, level-low: as Xen writes it */

static uint8_t guest_dt[CONFIG_NR_CPUS][DOMAIN_DT_MAX] __attribute__((aligned(8)));
/* The partition's partial device tree (multiboot,device-tree), read back at each build. */
static uint8_t guest_pfdt[CONFIG_NR_CPUS][DOMAIN_PFDT_MAX] __attribute__((aligned(8)));
static uint32_t build_gic_version =
#if defined(CONFIG_GICV2) && CONFIG_GICV2
	2U;
#else
	3U;
#endif
/* The boot CPU's compatible string; empty until domain_build_init() sets it. */
static char build_cpu_compat[DOMAIN_BUILD_COMPAT_LEN];

void domain_build_init(uint32_t gic_version, const char *cpu_compat)
{
	if ((gic_version == 2U) || (gic_version == 3U)) {
		build_gic_version = gic_version;
	}
	if ((cpu_compat != NULL) && (cpu_compat[0] != '\0')) {
		(void)bh_snprintf(build_cpu_compat, sizeof(build_cpu_compat), "%s", cpu_compat);
	}
}

/* Copy a hypervisor buffer to byte offset off of d's RAM. */
static int dom_write(struct domain *d, uint64_t off, const uint8_t *src, uint64_t len)
{
	uint64_t done = 0U;

	if ((off > domain_guest_ram(d)) || (len > domain_guest_ram(d) - off)) {
		return -XEN_EINVAL;
	}
	/* LOOP-BOUND: each round copies n >= 1 bytes (to the page end), so at most len / PAGE_SIZE
	 * + 1 rounds; len was checked against the partition's RAM. */
	while (done < len) {
		paddr_t ma = domain_ram_maddr(d, off + done);
		uint64_t n = MIN(len - done, PAGE_SIZE - PAGE_OFFSET_OF(ma));
		uint8_t *va = map_domain_page(maddr_to_mfn(ma));
		(void)memcpy(&va[PAGE_OFFSET_OF(ma)], &src[done], n);
		unmap_domain_page_clean(va);
		done += n;
	}
	return 0;
}

/* Read up to one page of a boot module (machine memory outside any partition). */
static void mod_read(paddr_t ma, void *dst, uint64_t len)
{
	uint8_t *va = map_domain_page(maddr_to_mfn(ma));

	(void)memcpy(dst, &va[PAGE_OFFSET_OF(ma)], len);
	unmap_domain_page(va);
}

static int dom_copy_module(struct domain *d, uint64_t off, const struct boot_module *m)
{
	uint64_t done = 0U;

	if ((off > domain_guest_ram(d)) || (m->size > domain_guest_ram(d) - off)) {
		return -XEN_EINVAL;
	}
	/* LOOP-BOUND: each round copies n >= 1 bytes (to the nearer page end), so at most 2 * size
	 * / PAGE_SIZE + 2 rounds; size was checked against the partition's RAM. */
	while (done < m->size) {
		paddr_t src = m->start + done;
		paddr_t dst = domain_ram_maddr(d, off + done);
		uint64_t n = MIN(m->size - done, PAGE_SIZE - PAGE_OFFSET_OF(src));
		uint8_t *s;
		uint8_t *t;
		n = MIN(n, PAGE_SIZE - PAGE_OFFSET_OF(dst));
		s = map_domain_page(maddr_to_mfn(src));
		t = map_domain_page(maddr_to_mfn(dst));
		(void)memcpy(&t[PAGE_OFFSET_OF(dst)], &s[PAGE_OFFSET_OF(src)], n);
		unmap_domain_page_clean(t);
		unmap_domain_page(s);
		done += n;
	}
	return 0;
}

/*
 * The RAM the kernel, its device tree and ramdisk go in, from ram_gpa: all
 * of it when the guest sees it in one piece, the first bank when it sees
 * its banks where they are (direct-map with several ranges).
 */
static uint64_t dom_load_bytes(const struct domain *d)
{
	/* domain_guest_ram(): a xenstore client's last page is its ring, not RAM. */
	return (d->cfg.direct_map && (d->nr_ram_banks > 1U)) ? d->ram_bank[0].size :
							      domain_guest_ram(d);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0U;
	int i;

	for (i = 7; i >= 0; i--) {
		v = (v << 8) | p[i];
	}
	return v;
}

/*
 * Where the kernel goes: an arm64 Image at RAM base + text_offset, with
 * room for image_size (its BSS); anything else raw at the RAM base.
 */
static int kernel_layout(const struct domain *d, uint64_t *load_off, uint64_t *end_off)
{
	const struct boot_module *k = &d->cfg.kernel;
	uint8_t hdr[IMAGE_HDR_LEN];
	uint64_t text_offset = 0U;
	uint64_t span = k->size;

	if (k->size >= IMAGE_HDR_LEN) {
		uint64_t n = MIN((uint64_t)IMAGE_HDR_LEN, PAGE_SIZE - PAGE_OFFSET_OF(k->start));
		mod_read(k->start, hdr, n);
		if (n < IMAGE_HDR_LEN) {
			mod_read(k->start + n, &hdr[n], IMAGE_HDR_LEN - n);
		}
		if ((uint32_t)le64(&hdr[56]) == IMAGE_MAGIC) {
			text_offset = le64(&hdr[8]);
			span = MAX(k->size, le64(&hdr[16]));
		}
	}
	if ((text_offset >= dom_load_bytes(d)) || (span > dom_load_bytes(d) - text_offset)) {
		return -XEN_ENOMEM;
	}
	*load_off = text_offset;
	*end_off = text_offset + span;
	return 0;
}

/* The phandle of the partition's GIC (a configuration built by hand may leave it 0). */
static uint32_t dt_gic_phandle(const struct domain *d)
{
	return (d->cfg.gic_phandle != 0U) ? d->cfg.gic_phandle : DOMAIN_GIC_PHANDLE;
}

static void dt_cells2(struct fdt_writer *w, const char *name, uint64_t a, uint64_t b)
{
	uint32_t c[4] = { (uint32_t)(a >> 32), (uint32_t)a, (uint32_t)(b >> 32), (uint32_t)b };

	fdt_w_prop_cells(w, name, c, 4U);
}

/* Its RAM in one range, or with direct-map each bank where it is. */
static void dt_memory_reg(struct fdt_writer *w, const struct domain *d)
{
	uint32_t c[4U * DOMAIN_MAX_MEM_BANKS];
	uint32_t n = 0U;
	uint32_t i;

	if (!d->cfg.direct_map || (d->nr_ram_banks <= 1U)) {
		dt_cells2(w, "reg", d->ram_gpa, domain_guest_ram(d));
		return;
	}
	for (i = 0U; (i < d->nr_ram_banks) && (i < DOMAIN_MAX_MEM_BANKS); i++) {
		c[n] = (uint32_t)(d->ram_bank[i].gpa >> 32);
		c[n + 1U] = (uint32_t)d->ram_bank[i].gpa;
		c[n + 2U] = (uint32_t)(d->ram_bank[i].size >> 32);
		c[n + 3U] = (uint32_t)d->ram_bank[i].size;
		n += 4U;
	}
	fdt_w_prop_cells(w, "reg", c, n);
}

/*
 * Static shared memory as Xen 4.17's make_resv_memory_node() writes it: a
 * /reserved-memory node (empty ranges, 2 and 2 cells) with one
 * xen-shmem@<guest address> child per region, in device-tree order.
 */
static void dt_shm(struct fdt_writer *w, const struct domain *d)
{
	char name[32];
	uint32_t i;

	if (d->cfg.nr_shm == 0U) {
		return;
	}
	fdt_w_begin_node(w, "reserved-memory");
	fdt_w_prop_empty(w, "ranges");
	fdt_w_prop_u32(w, "#address-cells", 2U);
	fdt_w_prop_u32(w, "#size-cells", 2U);
	for (i = 0U; (i < d->cfg.nr_shm) && (i < CONFIG_STATIC_SHM_REGIONS); i++) {
		const struct shm_map *s = &d->cfg.shm[i];
		(void)bh_snprintf(name, sizeof(name), "xen-shmem@%llx", (unsigned long long)s->gaddr);
		fdt_w_begin_node(w, name);
		fdt_w_prop_string(w, "compatible", "xen,shared-memory-v1");
		dt_cells2(w, "reg", s->gaddr, s->size);
		fdt_w_prop_string(w, "xen,id", s->id);
		/* Xen 4.17 writes 0: the region is mapped from its start. */
		fdt_w_prop_u64(w, "xen,offset", 0U);
		fdt_w_end_node(w);
	}
	fdt_w_end_node(w);
}

static void dt_gic(struct fdt_writer *w, const struct domain *d)
{
	char name[48];

	(void)bh_snprintf(name, sizeof(name), "interrupt-controller@%llx",
			  (unsigned long long)GUEST_GICD_BASE);
	fdt_w_begin_node(w, name);
	if (build_gic_version == 3U) {
		uint32_t reg[8] = { 0U, (uint32_t)GUEST_GICV3_GICD_BASE, 0U,
				    (uint32_t)GUEST_GICV3_GICD_SIZE, 0U,
				    (uint32_t)GUEST_GICV3_GICR0_BASE, 0U,
				    (uint32_t)(GUEST_GICV3_RDIST_STRIDE * d->nr_vcpus) };
		fdt_w_prop_string(w, "compatible", "arm,gic-v3");
		fdt_w_prop_cells(w, "reg", reg, 8U);
	} else {
		uint32_t reg[8] = { 0U, (uint32_t)GUEST_GICD_BASE, 0U, U(0x1000), 0U,
				    (uint32_t)GUEST_GICC_BASE, 0U, (uint32_t)GUEST_GICC_SIZE };
		fdt_w_prop_string(w, "compatible", "arm,gic-400");
		fdt_w_prop_cells(w, "reg", reg, 8U);
	}
	fdt_w_prop_u32(w, "#interrupt-cells", 3U);
	fdt_w_prop_u32(w, "#address-cells", 0U);
	fdt_w_prop_empty(w, "interrupt-controller");
	/* The partial tree's /gic phandle when it has one, so its interrupt-parent finds this. */
	fdt_w_prop_u32(w, "phandle", dt_gic_phandle(d));
	fdt_w_end_node(w);
}

static void dt_cpus(struct fdt_writer *w, const struct domain *d)
{
	static const char psci_compat[] = "arm,psci-1.0\0" "arm,psci-0.2\0" "arm,psci";
	char name[24];
	uint32_t i;

	fdt_w_begin_node(w, "psci");
	fdt_w_prop(w, "compatible", psci_compat, sizeof(psci_compat));
	fdt_w_prop_string(w, "method", "hvc");
	fdt_w_prop_u32(w, "cpu_off", PSCI_0_1_CPU_OFF);
	fdt_w_prop_u32(w, "cpu_on", PSCI_0_1_CPU_ON);
	fdt_w_end_node(w);

	fdt_w_begin_node(w, "cpus");
	fdt_w_prop_u32(w, "#address-cells", 1U);
	fdt_w_prop_u32(w, "#size-cells", 0U);
	for (i = 0U; i < d->nr_vcpus; i++) {
		/* Xen's virtual affinity: 16 vCPUs per Aff1 cluster. */
		uint32_t mpidr = ((i / 16U) << 8) | (i % 16U);
		(void)bh_snprintf(name, sizeof(name), "cpu@%x", mpidr);
		fdt_w_begin_node(w, name);
		fdt_w_prop_string(w, "compatible",
				  (build_cpu_compat[0] != '\0') ? build_cpu_compat : "arm,armv8");
		fdt_w_prop_string(w, "device_type", "cpu");
		fdt_w_prop_u32(w, "reg", mpidr);
		fdt_w_prop_string(w, "enable-method", "psci");
		fdt_w_end_node(w);
	}
	fdt_w_end_node(w);
}

static void dt_devices(struct fdt_writer *w, const struct domain *d)
{
	static const char xen_compat[] = "xen,xen-4.17\0" "xen,xen";
	uint32_t timer[9] = { 1U, GUEST_TIMER_PHYS_S_PPI - 16U, PPI_FLAGS,
			      1U, GUEST_TIMER_PHYS_NS_PPI - 16U, PPI_FLAGS,
			      1U, GUEST_TIMER_VIRT_PPI - 16U, PPI_FLAGS };
	char name[48];

	fdt_w_begin_node(w, "timer");
	fdt_w_prop_string(w, "compatible", "arm,armv8-timer");
	fdt_w_prop_cells(w, "interrupts", timer, 9U);
	fdt_w_end_node(w);

	if (d->cfg.enhanced) {
		uint32_t irq[3] = { 1U, GUEST_EVTCHN_PPI - 16U, PPI_FLAGS };
		fdt_w_begin_node(w, "hypervisor");
		fdt_w_prop(w, "compatible", xen_compat, sizeof(xen_compat));
		dt_cells2(w, "reg", GUEST_GNTTAB_BASE, GUEST_GNTTAB_SIZE);
		fdt_w_prop_cells(w, "interrupts", irq, 3U);
		fdt_w_prop_u32(w, "interrupt-parent", dt_gic_phandle(d));
		fdt_w_end_node(w);
	}
	if (d->cfg.vpl011) {
		uint32_t irq[3] = { 0U, GUEST_VPL011_SPI - 32U, IRQ_TYPE_LEVEL_HIGH };
		(void)bh_snprintf(name, sizeof(name), "sbsa-uart@%llx",
				  (unsigned long long)GUEST_PL011_BASE);
		fdt_w_begin_node(w, name);
		fdt_w_prop_string(w, "compatible", "arm,sbsa-uart");
		dt_cells2(w, "reg", GUEST_PL011_BASE, GUEST_PL011_SIZE);
		fdt_w_prop_cells(w, "interrupts", irq, 3U);
		fdt_w_prop_u32(w, "interrupt-parent", dt_gic_phandle(d));
		/* Linux's sbsa-uart driver refuses a node without a baud rate. */
		fdt_w_prop_u32(w, "current-speed", 115200U);
		fdt_w_end_node(w);
	}
}

/*
 * The virtual disks d serves (bulkhead,vbd of other partitions), one node
 * each at the guest address of its bytes: what the backend partition needs
 * to find its disks and what to offer; xenstore has the rest.
 */
static void dt_vbds(struct fdt_writer *w, const struct domain *d)
{
	char name[32];
	uint32_t i;

	for (i = 0U; (i < d->cfg.nr_vbds) && (i < DOMAIN_MAX_VBDS); i++) {
		const struct vbd_config *v = &d->cfg.vbd[i];
		paddr_t gpa = domain_vbd_gpa(d) + v->offset;
		/* frontend-id, virtual-device, then the offer (docs/device-tree.md). */
		uint32_t offer[8] = { v->fe, v->devid, v->persistent ? 1U : 0U, v->max_indirect,
				      v->max_ring_order, v->max_queues, v->max_pers,
				      v->readonly ? 1U : 0U };

		(void)bh_snprintf(name, sizeof(name), "vbd@%llx", (unsigned long long)gpa);
		fdt_w_begin_node(w, name);
		fdt_w_prop_string(w, "compatible", "bulkhead,vbd-backend");
		dt_cells2(w, "reg", gpa, v->bytes);
		fdt_w_prop_cells(w, "bulkhead,vbd", offer, 8U);
		fdt_w_end_node(w);
	}
}

/* Xen's passthrough properties: the hypervisor's business, not the guest's. */
static bool dt_pt_private(const char *name)
{
	return (strcmp(name, "xen,reg") == 0) || (strcmp(name, "xen,path") == 0) ||
	       (strcmp(name, "xen,force-assign-without-iommu") == 0);
}

/*
 * Copy the subtree at top of the partial tree, depth first, without
 * recursion: /aliases as it is, /passthrough without the xen,* properties
 * (as Xen does). Nodes are closed as the walk climbs back up.
 */
static void dt_copy_subtree(struct fdt_writer *w, const struct fdt *pf, int top, bool strip)
{
	uint32_t steps;
	int depth = 0;
	int n = top;

	for (steps = 0U; (n >= 0) && (steps <= (pf->size_struct / 4U)); steps++) {
		const char *name = fdt_node_name(pf, n);
		int next_depth = depth;
		int next;
		int p;
		uint32_t pstep;

		fdt_w_begin_node(w, (name != NULL) ? name : "");
		p = fdt_first_prop(pf, n);
		for (pstep = 0U; (p >= 0) && (pstep <= (pf->size_struct / 4U)); pstep++) {
			const char *pname;
			const void *data;
			uint32_t len;
			if ((fdt_prop_at(pf, p, &pname, &data, &len) == 0) &&
			    !(strip && dt_pt_private(pname))) {
				fdt_w_prop(w, pname, data, len);
			}
			p = fdt_next_prop(pf, p);
		}
		next = fdt_next_node(pf, n, &next_depth);
		if ((next < 0) || (next_depth <= 0)) {
			next_depth = 0;   /* left the subtree: close everything still open */
			next = -1;
		}
		/* A child opens inside this node; a sibling or an uncle closes what it leaves. */
		for (p = next_depth; p <= depth; p++) {
			fdt_w_end_node(w);
		}
		depth = next_depth;
		n = next;
	}
}

/* The partial device tree's /aliases and /passthrough, from the module, as Xen adds them. */
static void dt_partial(struct fdt_writer *w, const struct domain *d)
{
	uint8_t *pfdt = guest_pfdt[arch_cpu_id() % CONFIG_NR_CPUS];
	const struct boot_module *m = &d->cfg.dtb;
	uint64_t done = 0U;
	struct fdt pf;
	uint32_t steps;
	int n;

	if ((m->size == 0U) || (m->size > DOMAIN_PFDT_MAX)) {
		return;   /* none (the parser refused one too large) */
	}
	/* LOOP-BOUND: each round reads n >= 1 bytes up to a page end, size <= DOMAIN_PFDT_MAX. */
	while (done < m->size) {
		uint64_t len = MIN(m->size - done, PAGE_SIZE - PAGE_OFFSET_OF(m->start + done));
		mod_read(m->start + done, &pfdt[done], len);
		done += len;
	}
	if (fdt_open(&pf, pfdt, (size_t)m->size) != 0) {
		w->err = (w->err != 0) ? w->err : -FDT_ERR_BADHEADER;
		return;
	}
	n = fdt_first_child(&pf, 0);
	for (steps = 0U; (n >= 0) && (steps <= (pf.size_struct / 4U)); steps++) {
		const char *name = fdt_node_name(&pf, n);
		if ((name != NULL) && (strcmp(name, "aliases") == 0)) {
			dt_copy_subtree(w, &pf, n, false);
		} else if ((name != NULL) && (strcmp(name, "passthrough") == 0)) {
			dt_copy_subtree(w, &pf, n, true);
		} else {
			/* /gic is the partition's GIC node, written with its phandle; the rest is not used. */
		}
		n = fdt_next_sibling(&pf, n);
	}
}

int domain_build_dt(const struct domain *d, void *buf, size_t cap, paddr_t initrd_gpa)
{
	static const char root_compat[] = "xen,xenvm-4.17\0" "xen,xenvm";
	struct fdt_writer w;
	char name[48];

	fdt_w_init(&w, buf, cap);
	fdt_w_begin_node(&w, "");
	fdt_w_prop(&w, "compatible", root_compat, sizeof(root_compat));
	fdt_w_prop_u32(&w, "#address-cells", 2U);
	fdt_w_prop_u32(&w, "#size-cells", 2U);
	fdt_w_prop_u32(&w, "interrupt-parent", dt_gic_phandle(d));

	fdt_w_begin_node(&w, "chosen");
	fdt_w_prop_string(&w, "bootargs", d->cfg.bootargs);
	if (d->cfg.ramdisk.size != 0U) {
		fdt_w_prop_u64(&w, "linux,initrd-start", initrd_gpa);
		fdt_w_prop_u64(&w, "linux,initrd-end", initrd_gpa + d->cfg.ramdisk.size);
	}
	if (d->cfg.vpl011) {
		(void)bh_snprintf(name, sizeof(name), "/sbsa-uart@%llx",
				  (unsigned long long)GUEST_PL011_BASE);
		fdt_w_prop_string(&w, "stdout-path", name);
	}
	fdt_w_end_node(&w);

	dt_cpus(&w, d);
	(void)bh_snprintf(name, sizeof(name), "memory@%llx", (unsigned long long)d->ram_gpa);
	fdt_w_begin_node(&w, name);
	fdt_w_prop_string(&w, "device_type", "memory");
	dt_memory_reg(&w, d);
	fdt_w_end_node(&w);
	dt_shm(&w, d);
	dt_partial(&w, d);
	dt_gic(&w, d);
	dt_devices(&w, d);
	dt_vbds(&w, d);
	xenstore_write_dt(&w, d);
	fdt_w_end_node(&w);
	return fdt_w_finish(&w);
}

/*
 * Xen's rule for the DTB (+ initrd right after it): at 128 MiB when there
 * is room above the kernel, else at the end of RAM (2 MiB granules), else
 * just below the kernel.
 */
static int place_modules(const struct domain *d, uint64_t kern_off, uint64_t kern_end,
			 uint64_t modlen, uint64_t *modbase)
{
	uint64_t modsize = ROUND_UP(modlen, MIB(2));
	uint64_t ram = dom_load_bytes(d);

	if ((ram >= MIB(128) + modsize) && (kern_end < MIB(128))) {
		*modbase = MIB(128);
	} else if ((ram > modsize) && (ram - modsize > ROUND_UP(kern_end, MIB(2)))) {
		*modbase = ram - modsize;
	} else if (kern_off > modsize) {
		*modbase = kern_off - modsize;
	} else {
		return -XEN_ENOMEM;
	}
	return 0;
}

int domain_load(struct domain *d)
{
	uint8_t *dt = guest_dt[arch_cpu_id() % CONFIG_NR_CPUS];
	uint64_t kern_off;
	uint64_t kern_end;
	uint64_t modbase;
	int dtlen;
	int rc;

	if ((d->cfg.kernel.size == 0U) || (d->nr_vcpus == 0U)) {
		return -XEN_EINVAL;
	}
	rc = kernel_layout(d, &kern_off, &kern_end);
	if (rc != 0) {
		printk("bulkhead: %s: kernel (%llu bytes) does not fit in %llu bytes of RAM\n",
		       d->cfg.name, (unsigned long long)d->cfg.kernel.size,
		       (unsigned long long)domain_guest_ram(d));
		return rc;
	}
	/* Build once to learn the size; the second build has the real initrd address. */
	dtlen = domain_build_dt(d, dt, DOMAIN_DT_MAX, 0U);
	if (dtlen < 0) {
		printk("bulkhead: %s: device tree: %s\n", d->cfg.name, fdt_strerror(dtlen));
		return -XEN_ENOSPC;
	}
	rc = place_modules(d, kern_off, kern_end, (uint64_t)dtlen + d->cfg.ramdisk.size,
			   &modbase);
	if (rc != 0) {
		printk("bulkhead: %s: no room for the device tree and ramdisk\n", d->cfg.name);
		return rc;
	}
	/* Only the initrd addresses change, and they are there only with a ramdisk. */
	if ((d->cfg.ramdisk.size != 0U) &&
	    (domain_build_dt(d, dt, DOMAIN_DT_MAX, d->ram_gpa + modbase + (uint64_t)dtlen) !=
	     dtlen)) {
		return -XEN_EINVAL;
	}
	rc = dom_copy_module(d, kern_off, &d->cfg.kernel);
	if (rc == 0) {
		rc = dom_write(d, modbase, dt, (uint64_t)dtlen);
	}
	if ((rc == 0) && (d->cfg.ramdisk.size != 0U)) {
		rc = dom_copy_module(d, modbase + (uint64_t)dtlen, &d->cfg.ramdisk);
	}
	if (rc != 0) {
		return rc;
	}
	d->kernel_entry = d->ram_gpa + kern_off;
	d->dtb_gpa = d->ram_gpa + modbase;
	arch_vcpu_reset(&d->vcpu[0], d->kernel_entry, d->dtb_gpa);
	return 0;
}
