/* SPDX-License-Identifier: MIT */
/*
 * Build-time check of a system device tree against a build's Kconfig:
 *
 *   check-dtb [--config autoconf.h|.config] [--module ADDR=FILE ...] [--hyp ADDR=SIZE]
 *             system.dtb
 *
 * Reads the hardware the way the boot does (common/hwdesc.c: CPUs, RAM,
 * GIC, timer, console, against the GIC version and console driver the
 * configuration builds) and prints it ("hw: ..." lines), then runs the
 * hypervisor's own dom0less parser (common/dom0less.c) with the limits
 * read from the configuration file and the CPUs and RAM found, and prints
 * the same message the boot would: "dts: <node>: <what>, <limit>". A
 * partition's partial device tree (multiboot,device-tree module at ADDR) is
 * read from FILE, the blob the boot loader will load there. --hyp gives
 * the hypervisor image's place in RAM (make check-dtb reads it from the
 * built ELF), which no static shared memory may overlap. A tree
 * that describes no interrupt controller is a partition-only tree: its
 * partitions are checked against its /cpus and /memory alone. Exit status
 * 0 when the tree is accepted, 1 when it is rejected, 2 on a usage or I/O
 * error.
 */
#include <bulkhead/dom0less.h>
#include <bulkhead/hwdesc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DTB_MAX (2U << 20)
#define MAX_MODULES 16U

static struct dom0less_config cfg;
static struct hw_desc hw;

/* What the configuration builds: GIC version, console driver. */
struct build_hw {
	uint32_t gic;
	enum hw_uart uart;
};

static void read_build_hw(const char *path, struct build_hw *b)
{
	static const struct { const char *name; enum hw_uart uart; } uarts[] = {
		{ "CONFIG_UART_PL011", HW_UART_PL011 }, { "CONFIG_UART_SCIF", HW_UART_SCIF },
		{ "CONFIG_UART_LPUART", HW_UART_LPUART }, { "CONFIG_UART_CADENCE", HW_UART_CADENCE },
	};
	char line[256];
	FILE *fp = fopen(path, "r");

	if (fp == NULL) {
		return;
	}
	while (fgets(line, sizeof(line), fp) != NULL) {
		char *p = line;
		size_t k;
		if (strncmp(p, "#define ", 8) == 0) {
			p += 8;
		}
		if ((strncmp(p, "CONFIG_GICV2", 12) == 0) && ((p[12] == '=') || (p[12] == ' '))) {
			b->gic = 2U;
		}
		if ((strncmp(p, "CONFIG_GICV3", 12) == 0) && ((p[12] == '=') || (p[12] == ' '))) {
			b->gic = 3U;
		}
		for (k = 0; k < sizeof(uarts) / sizeof(uarts[0]); k++) {
			size_t n = strlen(uarts[k].name);
			if ((strncmp(p, uarts[k].name, n) == 0) && ((p[n] == '=') || (p[n] == ' '))) {
				b->uart = uarts[k].uart;
			}
		}
	}
	fclose(fp);
}

/* Whether the tree describes the hardware (an interrupt controller), or only partitions. */
static bool describes_hw(const struct fdt *f)
{
	int depth = 0;
	int n = 0;

	while ((n = fdt_next_node(f, n, &depth)) >= 0) {
		if (fdt_has_prop(f, n, "interrupt-controller")) {
			return true;
		}
	}
	return false;
}

static void print_line(const char *line)
{
	printf("%s\n", line);
}

/* --module ADDR=FILE: what the boot loader puts at ADDR. */
static struct {
	unsigned long long addr;
	const char *file;
} modules[MAX_MODULES];
static unsigned int nr_modules;

static int read_module(void *ctx, paddr_t addr, void *buf, size_t len)
{
	unsigned int i;

	(void)ctx;
	for (i = 0; i < nr_modules; i++) {
		FILE *fp;
		size_t got;
		if (modules[i].addr != addr) {
			continue;
		}
		fp = fopen(modules[i].file, "rb");
		if (fp == NULL) {
			perror(modules[i].file);
			return -1;
		}
		memset(buf, 0, len);
		got = fread(buf, 1, len, fp);
		fclose(fp);
		return (got == 0U) ? -1 : 0;
	}
	return -1;
}

/* CONFIG_NAME=value (.config) or #define CONFIG_NAME value (autoconf.h). */
static int read_config(const char *path, struct dom0less_limits *lim)
{
	static const struct { const char *name; size_t off; } keys[] = {
		{ "CONFIG_MAX_DOMAINS", offsetof(struct dom0less_limits, max_domains) },
		{ "CONFIG_MAX_VCPUS", offsetof(struct dom0less_limits, max_vcpus) },
		{ "CONFIG_NR_CPUS", offsetof(struct dom0less_limits, nr_cpus) },
		{ "CONFIG_EVTCHN_MAX_PORTS", offsetof(struct dom0less_limits, evtchn_ports) },
		{ "CONFIG_GNTTAB_MAX_FRAMES", offsetof(struct dom0less_limits, gnttab_frames) },
		{ "CONFIG_GNTTAB_MAPTRACK_ENTRIES", offsetof(struct dom0less_limits, maptrack_entries) },
		{ "CONFIG_VGIC_NR_SPIS", offsetof(struct dom0less_limits, vgic_nr_spis) },
		{ "CONFIG_STATIC_SHM_REGIONS", offsetof(struct dom0less_limits, shm_regions) },
		{ "CONFIG_P2M_POOL_PAGES", offsetof(struct dom0less_limits, p2m_pool_pages) },
	};
	char line[256];
	FILE *fp = fopen(path, "r");

	if (fp == NULL) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), fp) != NULL) {
		char *p = line;
		size_t k;
		if (strncmp(p, "#define ", 8) == 0) {
			p += 8;
		}
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t n = strlen(keys[k].name);
			if ((strncmp(p, keys[k].name, n) == 0) && ((p[n] == '=') || (p[n] == ' '))) {
				unsigned long v = strtoul(&p[n + 1], NULL, 0);
				*(uint32_t *)(void *)((char *)lim + keys[k].off) = (uint32_t)v;
			}
		}
	}
	fclose(fp);
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t blob[DTB_MAX];
	struct dom0less_limits lim;
	char err[DOM0LESS_ERR_LEN];
	const char *config = NULL;
	const char *dtb = NULL;
	unsigned long long hyp_base = 0U;
	unsigned long long hyp_size = 0U;
	struct fdt f;
	size_t len;
	uint32_t i;
	FILE *fp;
	int rc;

	for (i = 1; i < (uint32_t)argc; i++) {
		if ((strcmp(argv[i], "--config") == 0) && (i + 1U < (uint32_t)argc)) {
			config = argv[++i];
		} else if ((strcmp(argv[i], "--module") == 0) && (i + 1U < (uint32_t)argc) &&
			   (nr_modules < MAX_MODULES) && (strchr(argv[i + 1U], '=') != NULL)) {
			char *eq = strchr(argv[++i], '=');
			modules[nr_modules].addr = strtoull(argv[i], NULL, 0);
			modules[nr_modules].file = eq + 1;
			nr_modules++;
		} else if ((strcmp(argv[i], "--hyp") == 0) && (i + 1U < (uint32_t)argc) &&
			   (strchr(argv[i + 1U], '=') != NULL)) {
			hyp_base = strtoull(argv[++i], NULL, 0);
			hyp_size = strtoull(strchr(argv[i], '=') + 1, NULL, 0);
		} else if (dtb == NULL) {
			dtb = argv[i];
		} else {
			dtb = NULL;
			break;
		}
	}
	if (dtb == NULL) {
		fprintf(stderr, "usage: %s [--config autoconf.h|.config] [--module ADDR=FILE ...] "
			"[--hyp ADDR=SIZE] system.dtb\n", argv[0]);
		return 2;
	}
	/* Kconfig's defaults where the file says nothing. */
	memset(&lim, 0, sizeof(lim));
	lim.max_domains = 4U;
	lim.max_vcpus = 4U;
	lim.nr_cpus = 4U;
	lim.evtchn_ports = 256U;
	lim.vgic_nr_spis = 32U;
	lim.shm_regions = 4U;
	lim.p2m_pool_pages = 32U;
	if ((config != NULL) && (read_config(config, &lim) != 0)) {
		return 2;
	}
	fp = fopen(dtb, "rb");
	if (fp == NULL) {
		perror(dtb);
		return 2;
	}
	len = fread(blob, 1, sizeof(blob), fp);
	fclose(fp);
	rc = fdt_open(&f, blob, len);
	if (rc != 0) {
		fprintf(stderr, "dts: %s: not a valid device tree blob: %s\n", dtb, fdt_strerror(rc));
		return 1;
	}
	if (describes_hw(&f)) {
		struct build_hw b = { .gic = 3U, .uart = HW_UART_PL011 };
		if (config != NULL) {
			read_build_hw(config, &b);
		}
		rc = hw_from_dt(&f, HW_BOOT_FIRST, b.gic, b.uart, &hw, err, sizeof(err));
		if (rc != 0) {
			fprintf(stderr, "dts: %s\n", err);
			return 1;
		}
		hw_describe(&f, &hw, print_line);
		lim.board_cpus = hw.nr_cpus;
		lim.nr_banks = hw.nr_banks;
		memcpy(lim.banks, hw.banks, sizeof(hw.banks[0]) * hw.nr_banks);
	} else {
		dom0less_limits_from_dt(&f, &lim);
	}
	dom0less_hyp_devices_from_dt(&f, &lim);
	(void)dom0less_add_hyp_ram(&lim, hyp_base, hyp_size, "the hypervisor");
	dom0less_hyp_ram_from_dt(&f, &lim);
	if (nr_modules != 0U) {
		lim.read_module = read_module;
	}
	rc = dom0less_parse(&f, &lim, &cfg, err, sizeof(err));
	if ((rc == 0) && describes_hw(&f)) {
		rc = hw_check_placement(&f, &hw, &cfg, err, sizeof(err));
	}
	if (rc != 0) {
		fprintf(stderr, "dts: %s\n", err);
		return 1;
	}
	printf("dts: %s: %u partition%s (CONFIG_MAX_DOMAINS=%u, CONFIG_MAX_VCPUS=%u, "
	       "CONFIG_NR_CPUS=%u, /cpus: %u)\n", dtb, cfg.nr_domains,
	       (cfg.nr_domains == 1U) ? "" : "s", lim.max_domains, lim.max_vcpus, lim.nr_cpus,
	       lim.board_cpus);
	for (i = 0; i < cfg.nr_domains; i++) {
		const struct domain_config *d = &cfg.dom[i];
		uint32_t v;
		printf("dts:   d%u %s: %u vCPU%s on CPU", i + 1U, d->name, d->nr_vcpus,
		       (d->nr_vcpus == 1U) ? "" : "s");
		for (v = 0; v < d->nr_vcpus; v++) {
			printf("%s%u", (v == 0U) ? " " : ",", d->pcpus[v]);
		}
		printf(", %llu KiB, kernel 0x%llx+0x%llx%s%s, %u static event channel%s",
		       (unsigned long long)(d->mem_bytes >> 10),
		       (unsigned long long)d->kernel.start, (unsigned long long)d->kernel.size,
		       d->enhanced ? ", xen,enhanced" : "", d->vpl011 ? ", vpl011" : "",
		       d->nr_static_evtchn, (d->nr_static_evtchn == 1U) ? "" : "s");
		for (v = 0; v < d->nr_iomem; v++) {
			printf(", MMIO 0x%llx+0x%llx at 0x%llx", (unsigned long long)d->iomem[v].maddr,
			       (unsigned long long)d->iomem[v].size,
			       (unsigned long long)d->iomem[v].gaddr);
		}
		for (v = 0; v < d->nr_dev_irqs; v++) {
			printf("%s%u%s", (v == 0U) ? ", IRQ " : ",", d->dev_irq[v].intid,
			       d->dev_irq[v].edge ? "e" : "");
		}
		for (v = 0; v < d->nr_shm; v++) {
			printf(", shm \"%s\" 0x%llx+0x%llx at 0x%llx%s", d->shm[v].id,
			       (unsigned long long)d->shm[v].maddr, (unsigned long long)d->shm[v].size,
			       (unsigned long long)d->shm[v].gaddr, d->shm[v].owner ? " owner" : "");
		}
		printf("\n");
	}
	return 0;
}
