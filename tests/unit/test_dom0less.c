/* SPDX-License-Identifier: MIT */
/* Xen dom0less binding -> domain_config, and every configuration check. */
#include "harness.h"
#include "boot_dtb.h"
#include <bulkhead/dom0less.h>

static struct dom0less_config cfg;
static char err[DOM0LESS_ERR_LEN];

/*
 * Boot-module memory for the partial device trees: a case's "// MODULE: ADDR
 * NAME" lines (<case>.modules) map ADDR to partial-NAME.dtb; full.dts's
 * module holds the RTC one. ctx is the case name.
 */
static int read_module(void *ctx, paddr_t addr, void *buf, size_t len)
{
	const char *name = ctx;
	char pname[64] = "";
	unsigned long long a;
	size_t n;
	char *mods;
	char *line;
	void *blob;

	if ((strcmp(name, "full") == 0) && (addr == 0x52000000U)) {
		strcpy(pname, "partial-rtc");
	} else {
		mods = boot_read_file(name, ".modules", &n);
		for (line = strtok(mods, "\n"); line != NULL; line = strtok(NULL, "\n")) {
			char p[48];
			if ((sscanf(line, "%llx %47s", &a, p) == 2) && (a == addr)) {
				snprintf(pname, sizeof(pname), "partial-%s", p);
			}
		}
		free(mods);
	}
	if (pname[0] == '\0') {
		return -1;
	}
	blob = boot_load_dtb(pname, &n);
	memset(buf, 0, len);
	memcpy(buf, blob, (n < len) ? n : len);
	free(blob);
	return 0;
}

static int parse_file(const char *name, struct dom0less_limits *lim)
{
	size_t len;
	uint8_t *blob = boot_load_dtb(name, &len);
	struct fdt f;
	int rc;

	assert_int_equal(fdt_open(&f, blob, len), 0);
	dom0less_limits_from_dt(&f, lim);
	dom0less_hyp_devices_from_dt(&f, lim);
	dom0less_hyp_ram_from_dt(&f, lim);
	lim->read_module = read_module;
	lim->read_ctx = (void *)name;
	rc = dom0less_parse(&f, lim, &cfg, err, sizeof(err));
	free(blob);
	return rc;
}

static void limits(struct dom0less_limits *lim, uint32_t doms, uint32_t vcpus, uint32_t cpus)
{
	memset(lim, 0, sizeof(*lim));
	lim->max_domains = doms;
	lim->max_vcpus = vcpus;
	lim->nr_cpus = cpus;
	lim->evtchn_ports = 256U;
	lim->vgic_nr_spis = 32U;
	lim->gnttab_frames = 64U;
	lim->maptrack_entries = 256U;
	lim->shm_regions = 4U;
	lim->p2m_pool_pages = 32U;
}

VERIFIES(REQ-BOOT-010, REQ-BOOT-011, REQ-BOOT-012, REQ-BOOT-013, REQ-BOOT-015)
static void test_xen_anchor_parses_unchanged(void **state)
{
	struct dom0less_limits lim;

	(void)state;
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(parse_file("xen-anchor", &lim), 0);
	assert_string_equal(err, "");
	/* QEMU's tree: -smp 2, -m 1G. */
	assert_int_equal(lim.board_cpus, 2U);
	assert_int_equal(lim.nr_banks, 1U);
	assert_int_equal(lim.banks[0].base, 0x40000000U);
	assert_int_equal(lim.banks[0].size, 0x40000000U);

	assert_int_equal(cfg.nr_domains, 2U);
	assert_string_equal(cfg.dom[0].name, "domU_a");
	assert_string_equal(cfg.dom[1].name, "domU_b");
	for (unsigned int i = 0U; i < 2U; i++) {
		const struct domain_config *d = &cfg.dom[i];
		assert_int_equal(d->nr_vcpus, 1U);
		assert_int_equal(d->pcpus[0], i);
		assert_false(d->pcpus_fixed);
		assert_int_equal(d->mem_bytes, 16U << 20);
		assert_int_equal(d->mem_maddr, 0U);
		assert_true(d->enhanced);
		assert_false(d->vpl011);
		assert_int_equal(d->restart, RESTART_NEVER);
		assert_int_equal(d->ramdisk.size, 0U);
		assert_int_equal(d->nr_static_evtchn, 1U);
	}
	assert_int_equal(cfg.dom[0].kernel.start, 0x50000000U);
	assert_int_equal(cfg.dom[0].kernel.size, 12496U);
	assert_int_equal(cfg.dom[1].kernel.start, 0x50200000U);
	assert_non_null(strstr(cfg.dom[0].bootargs, "role=a"));
	assert_non_null(strstr(cfg.dom[1].bootargs, "role=b"));
	/* A's port 10 <-> B's port 11, by phandle. */
	assert_int_equal(cfg.dom[0].static_evtchn[0].local_port, 10U);
	assert_int_equal(cfg.dom[0].static_evtchn[0].remote_domid, 2U);
	assert_int_equal(cfg.dom[0].static_evtchn[0].remote_port, 11U);
	assert_int_equal(cfg.dom[1].static_evtchn[0].local_port, 11U);
	assert_int_equal(cfg.dom[1].static_evtchn[0].remote_domid, 1U);
	assert_int_equal(cfg.dom[1].static_evtchn[0].remote_port, 10U);
}

VERIFIES(REQ-BOOT-010, REQ-BOOT-011, REQ-BOOT-012, REQ-BOOT-013, REQ-BOOT-014)
static void test_full_binding(void **state)
{
	struct dom0less_limits lim;
	const struct domain_config *c;

	(void)state;
	limits(&lim, 8U, 4U, 8U);
	if (parse_file("full", &lim) != 0) {
		fail_msg("full: %s", err);
	}
	assert_int_equal(lim.board_cpus, 4U);
	assert_int_equal(cfg.nr_domains, 3U); /* not-a-domain is skipped */

	c = &cfg.dom[0];
	assert_string_equal(c->name, "ctrl");
	assert_int_equal(c->nr_vcpus, 2U);
	assert_true(c->pcpus_fixed);
	assert_int_equal(c->pcpus[0], 3U);
	assert_int_equal(c->pcpus[1], 2U);
	assert_int_equal(c->mem_bytes, 64U << 20);
	assert_int_equal(c->mem_maddr, 0x60000000U);
	assert_int_equal(c->restart, RESTART_ALWAYS);
	assert_true(c->vpl011);
	assert_true(c->enhanced);           /* bare xen,enhanced */
	assert_true(c->xs_server);          /* capabilities = <DOMAIN_CAPS_XENSTORE> */
	assert_false(c->xs_client);         /* the store does not serve itself */
	/* #size-cells = <1> in this domain node. */
	assert_int_equal(c->kernel.start, 0x50000000U);
	assert_int_equal(c->kernel.size, 0x1800U);
	assert_int_equal(c->ramdisk.start, 0x51000000U);
	assert_int_equal(c->ramdisk.size, 0x4000U);
	assert_int_equal(c->dtb.start, 0x52000000U);
	assert_int_equal(c->dtb.size, 0x800U);
	/* Its partial device tree gives it the RTC. */
	assert_int_equal(c->nr_iomem, 1U);
	assert_int_equal(c->iomem[0].maddr, 0x9010000U);
	assert_int_equal(c->dev_irq[0].intid, 34U);
	assert_string_equal(c->bootargs, "console=ttyAMA0 init=/bin/sh");
	assert_int_equal(c->static_evtchn[0].local_port, 10U);
	assert_int_equal(c->static_evtchn[0].remote_domid, 2U);
	assert_int_equal(c->static_evtchn[0].remote_port, 11U);

	c = &cfg.dom[1];
	assert_true(c->enhanced);           /* "enabled" */
	assert_true(c->xs_client);
	assert_false(c->xs_server);
	assert_int_equal(c->restart, RESTART_ON_REBOOT);
	assert_int_equal(c->kernel.start, 0x53000000U); /* legacy xen,linux-zimage */
	assert_string_equal(c->bootargs, "");
	/* Lowest free physical CPUs after the fixed ones. */
	assert_int_equal(c->pcpus[0], 0U);

	c = &cfg.dom[2];
	assert_false(c->enhanced);          /* "disabled" */
	assert_false(c->xs_client);
	assert_int_equal(c->restart, RESTART_NEVER);
	assert_int_equal(c->mem_bytes, 0x2000U << 10);
	assert_int_equal(c->pcpus[0], 1U);
	assert_int_equal(cfg.pcpus_used, 4U);
}

VERIFIES(REQ-BOOT-014, REQ-PT-011, REQ-PT-012)
static void test_xen_static_mem(void **state)
{
	struct dom0less_limits lim;

	(void)state;
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(parse_file("static-mem", &lim), 0);
	assert_int_equal(cfg.dom[0].mem_bytes, 0x20000000U);
	assert_int_equal(cfg.dom[0].mem_maddr, 0x60000000U);
	assert_int_equal(cfg.dom[0].nr_mem_banks, 1U);
	assert_false(cfg.dom[0].direct_map);
	/* Xen 4.17: cells of /chosen, two ranges. */
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(parse_file("static-mem-417", &lim), 0);
	assert_int_equal(cfg.dom[0].mem_bytes, 0x2000000U);
	assert_int_equal(cfg.dom[0].nr_mem_banks, 2U);
	assert_int_equal(cfg.dom[0].mem_bank[0].maddr, 0x60000000U);
	assert_int_equal(cfg.dom[0].mem_bank[0].size, 0x1000000U);
	assert_int_equal(cfg.dom[0].mem_bank[1].maddr, 0x68000000U);
	assert_int_equal(cfg.dom[0].mem_maddr, 0x60000000U);
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(parse_file("direct-map-ok", &lim), 0);
	assert_true(cfg.dom[0].direct_map);
	assert_int_equal(cfg.dom[0].nr_mem_banks, 2U);
}

/*
 * Every tree under tests/config/dts, with the Kconfig values and the exact
 * message its comments give: the same cases the build-time checker runs.
 */
VERIFIES(REQ-BOOT-020, REQ-BOOT-021, REQ-BOOT-022, REQ-BOOT-023, REQ-BOOT-024, REQ-BOOT-025)
VERIFIES(REQ-BOOT-026, REQ-BOOT-011, REQ-BOOT-012, REQ-BOOT-013, REQ-BOOT-014, REQ-PT-005)
VERIFIES(REQ-BOOT-016, REQ-SHM-001, REQ-SHM-002)
static void test_config_cases(void **state)
{
	DIR *dir = opendir(boot_dts_dir());
	struct dirent *e;
	unsigned int cases = 0U;
	unsigned int rejected = 0U;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir)) != NULL) {
		char name[256];
		char *dot = strrchr(e->d_name, '.');
		struct dom0less_limits lim;
		char *want;
		char *conf;
		char *line;
		size_t len;
		int rc;
		if ((dot == NULL) || (strcmp(dot, ".expect") != 0)) {
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(dot - e->d_name), e->d_name);
		want = boot_read_file(name, ".expect", &len);
		if ((len > 0U) && (want[len - 1U] == '\n')) {
			want[len - 1U] = '\0';
		}
		conf = boot_read_file(name, ".config", &len);
		limits(&lim, 4U, 4U, 4U);
		for (line = strtok(conf, "\n"); line != NULL; line = strtok(NULL, "\n")) {
			unsigned int v;
			if (sscanf(line, "CONFIG_MAX_DOMAINS=%u", &v) == 1) lim.max_domains = v;
			if (sscanf(line, "CONFIG_MAX_VCPUS=%u", &v) == 1) lim.max_vcpus = v;
			if (sscanf(line, "CONFIG_NR_CPUS=%u", &v) == 1) lim.nr_cpus = v;
			if (sscanf(line, "CONFIG_EVTCHN_MAX_PORTS=%u", &v) == 1) lim.evtchn_ports = v;
			if (sscanf(line, "CONFIG_VGIC_NR_SPIS=%u", &v) == 1) lim.vgic_nr_spis = v;
			if (sscanf(line, "CONFIG_GNTTAB_MAX_FRAMES=%u", &v) == 1) lim.gnttab_frames = v;
			if (sscanf(line, "CONFIG_GNTTAB_MAPTRACK_ENTRIES=%u", &v) == 1)
				lim.maptrack_entries = v;
			if (sscanf(line, "CONFIG_STATIC_SHM_REGIONS=%u", &v) == 1) lim.shm_regions = v;
			if (sscanf(line, "CONFIG_P2M_POOL_PAGES=%u", &v) == 1) lim.p2m_pool_pages = v;
		}
		free(conf);
		/* "// HYP: ADDR SIZE": where the hypervisor image lies (check-dtb --hyp). */
		conf = boot_read_file(name, ".hyp", &len);
		{
			unsigned long long ha;
			unsigned long long hs;
			if (sscanf(conf, "%llx %llx", &ha, &hs) == 2) {
				assert_true(dom0less_add_hyp_ram(&lim, ha, hs, "the hypervisor"));
			}
		}
		rc = parse_file(name, &lim);
		if (strcmp(want, "OK") == 0) {
			if (rc != 0) {
				fail_msg("%s: rejected: %s", name, err);
			}
		} else {
			if ((rc >= 0) || (strcmp(err, want) != 0)) {
				fail_msg("%s: rc %d, message '%s', want '%s'", name, rc, err, want);
			}
			rejected++;
		}
		cases++;
		free(want);
		free(conf);
	}
	closedir(dir);
	/* The directory really held the cases (a glob that matched nothing would pass). */
	assert_true(cases >= 50U);
	assert_true(rejected >= 46U);
}

/* Two partitions own the RTC and the GPIO block of QEMU virt. */
VERIFIES(REQ-PT-001, REQ-PT-002, REQ-PT-003)
static void test_passthrough_binding(void **state)
{
	struct dom0less_limits lim;
	const struct domain_config *c;

	(void)state;
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(parse_file("pt-ok", &lim), 0);
	/* The tree's GIC (3 reg ranges... 2 here) and its console UART are the hypervisor's. */
	assert_int_equal(lim.nr_hyp_devs, 3U);
	assert_string_equal(lim.hyp_devs[2].what, "the hypervisor's UART");
	assert_int_equal(lim.hyp_devs[2].base, 0x9000000U);
	assert_int_equal(lim.hyp_devs[2].intid, 33U);
	c = &cfg.dom[0];
	assert_int_equal(c->nr_iomem, 1U);
	assert_int_equal(c->iomem[0].maddr, 0x9010000U);
	assert_int_equal(c->iomem[0].gaddr, 0x9010000U);
	assert_int_equal(c->iomem[0].size, 0x1000U);
	assert_int_equal(c->nr_dev_irqs, 1U);
	assert_int_equal(c->dev_irq[0].intid, 34U);
	assert_false(c->dev_irq[0].edge);
	/* dtc numbered /gic (referenced by interrupt-parent): the partition's GIC takes it. */
	assert_int_not_equal(c->gic_phandle, DOMAIN_GIC_PHANDLE);
	assert_int_not_equal(c->gic_phandle, 0U);
	c = &cfg.dom[1];
	assert_int_equal(c->iomem[0].maddr, 0x9030000U);
	assert_int_equal(c->dev_irq[0].intid, 39U);
	/* The same device at another guest address. */
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(parse_file("pt-ok-moved", &lim), 0);
	assert_int_equal(cfg.dom[0].iomem[0].maddr, 0x9010000U);
	assert_int_equal(cfg.dom[0].iomem[0].gaddr, 0xa800000U);
	assert_int_equal(cfg.dom[1].nr_iomem, 0U);
	assert_int_equal(cfg.dom[1].gic_phandle, DOMAIN_GIC_PHANDLE);
	/* An edge-triggered SPI (virtio-mmio), with 64 SPIs. */
	limits(&lim, 4U, 4U, 4U);
	lim.vgic_nr_spis = 64U;
	assert_int_equal(parse_file("pt-spi-64", &lim), 0);
	assert_int_equal(cfg.dom[0].dev_irq[0].intid, 79U);
	assert_true(cfg.dom[0].dev_irq[0].edge);
}

/* A module that is no device tree, or cannot be read, is refused naming the module. */
static int read_garbage(void *ctx, paddr_t addr, void *buf, size_t len)
{
	(void)addr;
	memset(buf, 0x5a, len);
	return (ctx == NULL) ? 0 : -1;
}

VERIFIES(REQ-PT-004)
static void test_partial_tree_errors(void **state)
{
	struct dom0less_limits lim;
	size_t len;
	uint8_t *blob = boot_load_dtb("pt-ok", &len);
	struct fdt f;

	(void)state;
	assert_int_equal(fdt_open(&f, blob, len), 0);
	limits(&lim, 4U, 4U, 4U);
	dom0less_limits_from_dt(&f, &lim);
	lim.read_module = read_garbage;
	assert_true(dom0less_parse(&f, &lim, &cfg, err, sizeof(err)) < 0);
	assert_string_equal(err, "/chosen/domU1/module@50100000: partial device tree: bad header");
	lim.read_ctx = &lim;
	assert_true(dom0less_parse(&f, &lim, &cfg, err, sizeof(err)) < 0);
	assert_string_equal(err, "/chosen/domU1/module@50100000: partial device tree at 0x50100000 "
			    "cannot be read");
	lim.read_module = NULL;
	assert_true(dom0less_parse(&f, &lim, &cfg, err, sizeof(err)) < 0);
	assert_string_equal(err, "/chosen/domU1/module@50100000: partial device tree at 0x50100000 "
			    "not given (check-dtb --module 0x50100000=FILE.dtb)");
	free(blob);
}

VERIFIES(REQ-BOOT-020, REQ-BOOT-021, REQ-BOOT-022)
static void test_limits_from_caller(void **state)
{
	struct dom0less_limits lim;

	(void)state;
	/* The same anchor tree against tighter builds. */
	limits(&lim, 1U, 4U, 4U);
	assert_true(parse_file("xen-anchor", &lim) < 0);
	assert_string_equal(err, "/chosen/domU_b: 2 partitions configured, CONFIG_MAX_DOMAINS=1");
	limits(&lim, 4U, 4U, 1U);
	assert_true(parse_file("xen-anchor", &lim) < 0);
	assert_string_equal(err, "/chosen/domU_b: 2 vCPUs in all need 2 physical CPUs "
			    "(1:1 pinning), CONFIG_NR_CPUS=1");
	/* Ports: 11 needs at least 12 ports. */
	limits(&lim, 4U, 4U, 4U);
	lim.evtchn_ports = 11U;
	assert_true(parse_file("xen-anchor", &lim) < 0);
	assert_string_equal(err, "/chosen/domU_b/evtchn-b: xen,evtchn port 11 out of range 1..10, "
			    "CONFIG_EVTCHN_MAX_PORTS=11");
	/* RAM banks from the caller win over the tree's /memory (the board decides). */
	limits(&lim, 4U, 4U, 4U);
	lim.nr_banks = 1U;
	lim.banks[0].base = 0x80000000U;
	lim.banks[0].size = 0x40000000U;
	assert_true(parse_file("xen-anchor", &lim) < 0);
	assert_string_equal(err, "/chosen/domU_a/module@50000000: module 0x50000000-0x500030cf "
			    "is outside RAM");
	/* Limits beyond the parser's arrays are refused, not trusted. */
	limits(&lim, CONFIG_MAX_DOMAINS + 1U, 4U, 4U);
	assert_true(parse_file("xen-anchor", &lim) < 0);
	limits(&lim, 4U, CONFIG_MAX_VCPUS + 1U, 4U);
	assert_true(parse_file("xen-anchor", &lim) < 0);
	limits(&lim, 4U, 4U, 0U);
	assert_true(parse_file("xen-anchor", &lim) < 0);
}

VERIFIES(REQ-BOOT-001, REQ-BOOT-010)
static void test_no_chosen(void **state)
{
	struct dom0less_limits lim;
	size_t len;
	uint8_t *blob = boot_load_dtb("fdt-basic", &len);
	struct fdt f;

	(void)state;
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(fdt_open(&f, blob, len), 0);
	assert_true(dom0less_parse(&f, &lim, &cfg, err, sizeof(err)) < 0);
	assert_string_equal(err, "/chosen: no such node");
	/* A truncated error buffer still ends in NUL. */
	assert_true(parse_file("too-many-vcpus", &lim) < 0);
	assert_int_equal(fdt_open(&f, blob, len), 0);
	free(blob);
}

/* Virtual disks: each becomes a vbd_config of its backend, at its offset of the disk region. */
VERIFIES(REQ-BLK-021)
static void test_vbd_binding(void **state)
{
	struct dom0less_limits lim;
	const struct domain_config *be;

	(void)state;
	dom0less_default_limits(&lim);
	assert_int_equal(parse_file("vbd-ok", &lim), 0);
	assert_int_equal(cfg.nr_domains, 3U);
	be = &cfg.dom[1];
	assert_int_equal(be->nr_vbds, 2U);
	assert_int_equal(cfg.dom[2].nr_vbds, 0U);
	assert_int_equal(be->vbd[0].fe, 3U);
	assert_int_equal(be->vbd[0].devid, 51712U);
	assert_string_equal(be->vbd[0].name, "xvda");
	assert_int_equal(be->vbd[0].bytes, 0x1000000U);
	assert_int_equal(be->vbd[0].offset, 0U);
	assert_true(be->vbd[0].persistent);
	assert_false(be->vbd[0].readonly);
	assert_int_equal(be->vbd[0].max_indirect, 32U);
	assert_int_equal(be->vbd[0].max_ring_order, 2U);
	assert_int_equal(be->vbd[0].max_queues, 2U);
	assert_int_equal(be->vbd[0].max_pers, 256U);
	assert_int_equal(be->vbd[1].devid, 51728U);
	assert_int_equal(be->vbd[1].offset, 0x1000000U);
	assert_true(be->vbd[1].readonly);
	assert_false(be->vbd[1].persistent);
	/* Defaults: no indirect requests, one page, one queue, 128 persistent grants. */
	assert_int_equal(be->vbd[1].max_indirect, 0U);
	assert_int_equal(be->vbd[1].max_ring_order, 0U);
	assert_int_equal(be->vbd[1].max_queues, 1U);
	assert_int_equal(be->vbd[1].max_pers, 128U);
	/* 2 MiB granules: 16 MiB + 2 MiB. */
	assert_int_equal(be->vbd_bytes, 0x1200000U);
}

/* Xen 4.17's static shared memory: what each partition maps, and the regions. */
VERIFIES(REQ-SHM-001)
static void test_shm_binding(void **state)
{
	struct dom0less_limits lim;
	const struct shm_map *s;

	(void)state;
	limits(&lim, 4U, 4U, 4U);
	if (parse_file("shm-ok", &lim) != 0) {
		fail_msg("shm-ok: %s", err);
	}
	assert_int_equal(cfg.nr_shm, 2U);
	/* buf0: owned by a (d1), borrowed by b; buf1: no role anywhere, DOMID_IO's. */
	assert_string_equal(cfg.shm[0].id, "buf0");
	assert_int_equal(cfg.shm[0].maddr, 0x7fe00000U);
	assert_int_equal(cfg.shm[0].size, 0x200000U);
	assert_int_equal(cfg.shm[0].owner, 1U);
	assert_false(cfg.shm[0].roleless);
	assert_int_equal(cfg.shm[0].users, 3U);
	assert_string_equal(cfg.shm[1].id, "buf1");
	assert_int_equal(cfg.shm[1].owner, 0U);
	assert_true(cfg.shm[1].roleless);
	assert_int_equal(cfg.dom[0].nr_shm, 2U);
	s = &cfg.dom[0].shm[0];
	assert_true(s->owner);
	assert_int_equal(s->maddr, 0x7fe00000U);
	assert_int_equal(s->gaddr, 0x50000000U);
	assert_int_equal(s->size, 0x200000U);
	assert_string_equal(s->id, "buf0");
	s = &cfg.dom[0].shm[1];
	assert_false(s->owner);
	assert_int_equal(s->gaddr, 0x60000000U);
	assert_int_equal(s->size, 0x1000U);
	s = &cfg.dom[1].shm[0];
	assert_false(s->owner);
	assert_int_equal(s->gaddr, 0x70000000U);
	assert_int_equal(cfg.dom[1].shm[1].gaddr, 0x50000000U);
	/* One and one cells, as in Xen's example. */
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(parse_file("shm-ok-cells", &lim), 0);
	assert_int_equal(cfg.dom[0].shm[0].maddr, 0x7fe00000U);
	assert_int_equal(cfg.dom[0].shm[0].gaddr, 0x50000000U);
	assert_int_equal(cfg.dom[0].shm[0].size, 0x200000U);
	/* Borrowers only: no owner, no node without role. */
	limits(&lim, 4U, 4U, 4U);
	assert_int_equal(parse_file("shm-ok-borrowers", &lim), 0);
	assert_int_equal(cfg.shm[0].owner, 0U);
	assert_false(cfg.shm[0].roleless);
	/* /memreserve/ and /reserved-memory become RAM no region may use. */
	limits(&lim, 4U, 4U, 4U);
	assert_true(parse_file("shm-reserved", &lim) < 0);
	assert_int_equal(lim.nr_hyp_ram, 1U);
	assert_int_equal(lim.hyp_ram[0].base, 0x7fff0000U);
	assert_int_equal(lim.hyp_ram[0].size, 0x10000U);
	/* Limits beyond the parser's arrays are refused as a whole. */
	limits(&lim, 4U, 4U, 4U);
	lim.shm_regions = CONFIG_STATIC_SHM_REGIONS + 1U;
	assert_true(parse_file("shm-ok", &lim) < 0);
	assert_string_equal(err, "limits beyond what the parser was built for");
	/* A full list of reserved ranges takes no more. */
	limits(&lim, 4U, 4U, 4U);
	for (unsigned int i = 0U; i < DOM0LESS_MAX_HYP_RAM; i++) {
		assert_true(dom0less_add_hyp_ram(&lim, 0x1000U * i, 0x1000U, "x"));
	}
	assert_false(dom0less_add_hyp_ram(&lim, 0x100000U, 0x1000U, "x"));
	assert_false(dom0less_add_hyp_ram(&lim, 0x100000U, 0U, "x"));
}

/*
 * The cells of xen,shared-mem are the domain node's, inherited from its
 * ancestors when it has none (Xen's dt_n_addr_cells()): here /chosen's 1
 * and 1, for a domain node whose modules' reg then uses the defaults.
 */
VERIFIES(REQ-SHM-001)
static void test_shm_inherited_cells(void **state)
{
	struct dom0less_limits lim;

	(void)state;
	limits(&lim, 4U, 4U, 4U);
	if (parse_file("shm-cells", &lim) != 0) {
		fail_msg("shm-cells: %s", err);
	}
	assert_int_equal(cfg.dom[0].nr_shm, 1U);
	assert_int_equal(cfg.dom[0].shm[0].maddr, 0x7fe00000U);
	assert_int_equal(cfg.dom[0].shm[0].gaddr, 0x50000000U);
	assert_int_equal(cfg.dom[0].shm[0].size, 0x200000U);
}

VERIFIES(REQ-BOOT-023, REQ-BOOT-025)
static void test_range_helpers(void **state)
{
	struct mem_range banks[2] = { { 0x40000000U, 0x40000000U }, { 0x100000000ULL, 0x1000U } };

	(void)state;
	assert_true(mem_range_overlap(0x1000U, 0x1000U, 0x1fffU, 1U));
	assert_false(mem_range_overlap(0x1000U, 0x1000U, 0x2000U, 1U));
	assert_false(mem_range_overlap(0x1000U, 0U, 0x1000U, 1U));
	assert_true(mem_range_in_banks(banks, 2U, 0x7ffff000U, 0x1000U));
	assert_false(mem_range_in_banks(banks, 2U, 0x7ffff000U, 0x1001U));
	assert_true(mem_range_in_banks(banks, 2U, 0x100000000ULL, 0x1000U));
	assert_false(mem_range_in_banks(banks, 2U, ~0ULL - 10U, 100U)); /* wraps */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xen_anchor_parses_unchanged),
		cmocka_unit_test(test_full_binding),
		cmocka_unit_test(test_xen_static_mem),
		cmocka_unit_test(test_config_cases),
		cmocka_unit_test(test_passthrough_binding),
		cmocka_unit_test(test_partial_tree_errors),
		cmocka_unit_test(test_limits_from_caller),
		cmocka_unit_test(test_no_chosen),
		cmocka_unit_test(test_range_helpers),
		cmocka_unit_test(test_shm_binding),
		cmocka_unit_test(test_shm_inherited_cells),
		cmocka_unit_test(test_vbd_binding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
