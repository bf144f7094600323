/* SPDX-License-Identifier: MIT */
/*
 * The machine-independent part of boot: system DTB -> checked dom0less
 * configuration -> reserved memory -> created and loaded partitions. Every
 * failure is a message naming the node and the limit; the caller panics.
 */
#include <bulkhead/xenstore.h>
#include <bulkhead/setup.h>
#include <bulkhead/domain.h>
#include <bulkhead/domain_build.h>
#include <bulkhead/console.h>
#include <bulkhead/lib.h>
#include <bulkhead/mm.h>
#include <public/errno.h>

#define MIB_SHIFT U(20)

struct dom0less_config boot_config;
/* The system DTB of the last boot_setup(), for the messages of later checks. */
static struct fdt boot_fdt;

/* The first CPU node's first compatible string (QEMU puts cpu-map first). */
static const char *boot_cpu_compat(const struct fdt *f)
{
	int cpus = fdt_path(f, "/cpus");
	int n = (cpus >= 0) ? fdt_first_child(f, cpus) : cpus;
	uint32_t steps;

	for (steps = 0U; (n >= 0) && (steps < U(1024)); steps++) {
		const char *dt;
		const char *s;
		int len;
		if ((fdt_prop_string(f, n, "device_type", &dt) == 0) && (strcmp(dt, "cpu") == 0)) {
			s = fdt_getprop(f, n, "compatible", &len);
			if ((s != NULL) && (len > 0) && (strnlen(s, (size_t)len) < (size_t)len)) {
				return s;
			}
		}
		n = fdt_next_sibling(f, n);
	}
	return NULL;
}

/* Boot-module memory (a partial device tree), a page at a time. */
static int boot_read_module(void *ctx, paddr_t addr, void *buf, size_t len)
{
	uint8_t *dst = buf;
	size_t done = 0U;

	(void)ctx;
	/* LOOP-BOUND: each round copies n >= 1 bytes, up to the page end: at most len / PAGE_SIZE
	 * + 1 rounds; len is at most DOM0LESS_PFDT_MAX (the parser checks it first). */
	while (done < len) {
		paddr_t ma = addr + done;
		size_t n = MIN(len - done, (size_t)(PAGE_SIZE - PAGE_OFFSET_OF(ma)));
		uint8_t *va = map_domain_page(maddr_to_mfn(ma));
		(void)memcpy(&dst[done], &va[PAGE_OFFSET_OF(ma)], n);
		unmap_domain_page(va);
		done += n;
	}
	return 0;
}

static int boot_reserve(const struct fdt *f, const void *dtb, const struct boot_machine *m)
{
	const struct dom0less_config *c = &boot_config;
	uint64_t a;
	uint64_t s;
	uint32_t i;
	int rc;

	rc = mm_boot_init(m->banks, m->nr_banks);
	if (rc == 0) {
		rc = mm_boot_reserve(m->hyp_start, m->hyp_end - m->hyp_start);
	}
	if (rc == 0) {
		rc = mm_boot_reserve(virt_to_maddr(dtb), f->totalsize);
	}
	/* LOOP-BOUND: fdt_mem_rsv() fails past the end of the reservation block, which lies inside
	 * the checked totalsize of the boot DTB. */
	for (i = 0U; (rc == 0) && (fdt_mem_rsv(f, i, &a, &s) == 0); i++) {
		rc = mm_boot_reserve(a, s);
	}
	for (i = 0U; (rc == 0) && (i < m->nr_reserved); i++) {
		rc = mm_boot_reserve(m->reserved[i].base, m->reserved[i].size);
	}
	for (i = 0U; (rc == 0) && (i < c->nr_domains); i++) {
		const struct domain_config *d = &c->dom[i];
		const struct boot_module *mods[3] = { &d->kernel, &d->ramdisk, &d->dtb };
		unsigned int k;
		for (k = 0U; k < 3U; k++) {
			if (mem_range_overlap(mods[k]->start, mods[k]->size, m->hyp_start,
					      m->hyp_end - m->hyp_start)) {
				char path[96];
				(void)fdt_node_path(f, c->node[i], path, sizeof(path));
				printk("bulkhead: config: %s: module 0x%llx-0x%llx overlaps the "
				       "hypervisor image 0x%llx-0x%llx\n", path,
				       (unsigned long long)mods[k]->start,
				       (unsigned long long)(mods[k]->start + mods[k]->size - 1U),
				       (unsigned long long)m->hyp_start,
				       (unsigned long long)(m->hyp_end - 1U));
				return -XEN_EINVAL;
			}
		}
		rc = mm_boot_reserve(d->kernel.start, d->kernel.size);
		if ((rc == 0) && (d->ramdisk.size != 0U)) {
			rc = mm_boot_reserve(d->ramdisk.start, d->ramdisk.size);
		}
		if ((rc == 0) && (d->dtb.size != 0U)) {
			rc = mm_boot_reserve(d->dtb.start, d->dtb.size);
		}
	}
	if (rc != 0) {
		printk("bulkhead: config: more reserved ranges than the boot allocator holds (%u)\n",
		       MM_BOOT_MAX_RANGES);
	}
	return rc;
}

/*
 * Static shared memory before any placement, so no partition's RAM or disk
 * lands on it; the parser has refused every range the tree says is used.
 * Zeroed once (CONFIG_BOOT_SCRUB), as partition RAM is: never at a restart.
 */
static int boot_shm(const struct fdt *f)
{
	const struct dom0less_config *c = &boot_config;
	uint32_t i;
	uint32_t d;
	char path[96];

	for (i = 0U; i < c->nr_shm; i++) {
		const struct dom0less_shm *r = &c->shm[i];
		uint32_t users = 0U;
		const char *who = "DOMID_IO";
		char owner[8];
		if (mm_boot_claim(r->maddr, r->size) != 0) {
			(void)fdt_node_path(f, r->node, path, sizeof(path));
			printk("bulkhead: config: %s: shared memory 0x%llx-0x%llx is not free board "
			       "RAM\n", path, (unsigned long long)r->maddr,
			       (unsigned long long)(r->maddr + r->size - 1U));
			return -XEN_EBUSY;
		}
		if (CONFIG_BOOT_SCRUB != 0) {
			domain_scrub_range(r->maddr, r->size);
		}
		for (d = 0U; d < c->nr_domains; d++) {
			users += (uint32_t)(r->users >> d) & 1U;
		}
		if (r->owner != 0U) {
			(void)bh_snprintf(owner, sizeof(owner), "d%u", r->owner);
			who = owner;
		}
		printk("bulkhead: shared memory \"%s\" 0x%llx-0x%llx: %u partitions, owner %s\n",
		       r->id, (unsigned long long)r->maddr,
		       (unsigned long long)(r->maddr + r->size - 1U), users, who);
	}
	return 0;
}

/*
 * Fixed placements first (they must be free), then the rest, lowest first;
 * last each backend's disks (bulkhead,vbd), after every partition's RAM.
 */
static int boot_place(const struct fdt *f)
{
	struct dom0less_config *c = &boot_config;
	uint32_t pass;
	uint32_t i;
	char path[96];
	int rc;

	for (pass = 0U; pass < 3U; pass++) {
		for (i = 0U; i < c->nr_domains; i++) {
			struct domain_config *d = &c->dom[i];
			bool fixed = d->mem_maddr != 0U;
			bool disks = (pass == 2U);
			uint64_t free;
			uint64_t big;
			bool first_pass = (pass == 0U);

			if (disks) {
				rc = (d->vbd_bytes == 0U) ? 0 :
				     mm_boot_alloc(d->vbd_bytes, UL(2) << MIB_SHIFT, &d->vbd_maddr);
			} else if (fixed != first_pass) {
				continue;
			} else if (fixed) {
				uint32_t b;
				rc = 0;
				for (b = 0U; (rc == 0) && (b < d->nr_mem_banks); b++) {
					rc = mm_boot_claim(d->mem_bank[b].maddr, d->mem_bank[b].size);
				}
				if (d->nr_mem_banks == 0U) {
					rc = mm_boot_claim(d->mem_maddr, d->mem_bytes);
				}
			} else {
				rc = mm_boot_alloc(d->mem_bytes, UL(2) << MIB_SHIFT, &d->mem_maddr);
			}
			if (rc == 0) {
				continue;
			}
			(void)fdt_node_path(f, c->node[i], path, sizeof(path));
			free = mm_boot_free_bytes(&big);
			if (fixed && !disks) {
				printk("bulkhead: config: %s: RAM 0x%llx-0x%llx (bulkhead,memory-base) "
				       "is not free board RAM (hypervisor, DTB, module or another "
				       "partition)\n", path, (unsigned long long)d->mem_maddr,
				       (unsigned long long)(d->mem_maddr + d->mem_bytes - 1U));
			} else {
				printk("bulkhead: config: %s: cannot place %llu KiB of %s: %llu KiB "
				       "free, largest free range %llu KiB\n", path,
				       (unsigned long long)((disks ? d->vbd_bytes : d->mem_bytes) >> 10),
				       disks ? "virtual disks" : "RAM",
				       (unsigned long long)(free >> 10), (unsigned long long)(big >> 10));
			}
			return (rc < 0) ? rc : -XEN_ENOMEM;
		}
	}
	return 0;
}

static void boot_summary(const struct boot_machine *m)
{
	const struct dom0less_config *c = &boot_config;
	uint32_t i;
	uint32_t v;
	uint32_t vcpus = 0U;

	for (i = 0U; i < c->nr_domains; i++) {
		vcpus += c->dom[i].nr_vcpus;
	}
	printk("bulkhead: %u partition%s, %u vCPU%s on %u physical CPU%s, GICv%u\n",
	       c->nr_domains, (c->nr_domains == 1U) ? "" : "s", vcpus, (vcpus == 1U) ? "" : "s",
	       m->nr_cpus, (m->nr_cpus == 1U) ? "" : "s", m->gic_version);
	for (i = 0U; i < c->nr_domains; i++) {
		const struct domain *d = domain_by_id((domid_t)(i + 1U));
		char cpus[64];
		char extra[80];
		size_t pos = 0U;
		if (d == NULL) {
			continue;
		}
		cpus[0] = '\0';
		for (v = 0U; (v < d->nr_vcpus) && (pos + 8U < sizeof(cpus)); v++) {
			int n = bh_snprintf(&cpus[pos], sizeof(cpus) - pos, "%s%u", (v == 0U) ? "" : ",",
					    d->vcpu[v].pcpu);
			pos += (n > 0) ? (size_t)n : 0U;
		}
		extra[0] = '\0';
		pos = 0U;
		if (d->nr_ram_banks > 1U) {
			int n = bh_snprintf(extra, sizeof(extra), " +%u banks", d->nr_ram_banks - 1U);
			pos += (n > 0) ? (size_t)n : 0U;
		}
		if (d->cfg.direct_map && (pos < sizeof(extra))) {
			int n = bh_snprintf(&extra[pos], sizeof(extra) - pos, ", direct-map");
			pos += (n > 0) ? (size_t)n : 0U;
		}
		for (v = 0U; (v < d->cfg.nr_dev_irqs) && (pos + 8U < sizeof(extra)); v++) {
			int n = bh_snprintf(&extra[pos], sizeof(extra) - pos, "%s%u",
					    (v == 0U) ? ", IRQ " : ",", d->cfg.dev_irq[v].intid);
			pos += (n > 0) ? (size_t)n : 0U;
		}
		printk("bulkhead: d%u %s: vCPU%s on CPU %s, RAM 0x%llx-0x%llx (%llu KiB)%s, entry "
		       "0x%llx, dtb 0x%llx%s%s%s%s%s\n", d->domain_id, d->cfg.name,
		       (d->nr_vcpus == 1U) ? "" : "s", cpus, (unsigned long long)d->ram_maddr,
		       (unsigned long long)(d->ram_maddr + d->ram_bank[0].size - 1U),
		       (unsigned long long)(d->ram_bytes >> 10), d->cfg.pcpus_fixed ? " fixed" : "",
		       (unsigned long long)d->kernel_entry, (unsigned long long)d->dtb_gpa,
		       d->cfg.enhanced ? ", xen,enhanced" : "",
		       d->cfg.xs_server ? ", xenstore partition" :
		       (d->cfg.xs_client ? ", xenstore client" : ""),
		       d->cfg.vpl011 ? ", vpl011" : "", (d->cfg.nr_iomem != 0U) ? ", devices" : "",
		       extra);
	}
}

/* Once every partition exists: both ends of each channel are there. */
static int boot_bind_static_evtchns(const struct fdt *f)
{
	uint32_t i;
	uint32_t j;
	int rc;

	for (i = 0U; i < boot_config.nr_domains; i++) {
		struct domain *d = domain_by_id((domid_t)(i + 1U));
		for (j = 0U; (d != NULL) && (j < d->cfg.nr_static_evtchn); j++) {
			const struct static_evtchn *sc = &d->cfg.static_evtchn[j];
			char path[96];
			rc = evtchn_bind_static(d, sc);
			if (rc == 0) {
				continue;
			}
			(void)fdt_node_path(f, boot_config.node[i], path, sizeof(path));
			printk("bulkhead: config: %s: static event channel %u -> d%u port %u: "
			       "error %d\n", path, sc->local_port, sc->remote_domid, sc->remote_port,
			       rc);
			return rc;
		}
	}
	return 0;
}

int boot_setup(const void *dtb, const struct boot_machine *m)
{
	/* Off the stack: boot_setup() runs once, on CPU0. */
	static char boot_err[DOM0LESS_ERR_LEN];
	struct dom0less_limits lim;
	struct fdt f;
	uint32_t size = fdt_header_size(dtb);
	uint32_t i;
	int rc;

	rc = fdt_open(&f, dtb, MIN((size_t)size, (size_t)BOOT_DTB_MAX));
	if (rc != 0) {
		printk("bulkhead: config: device tree at 0x%llx: %s (size %u, at most %lu)\n",
		       (unsigned long long)virt_to_maddr(dtb), fdt_strerror(rc), size,
		       (unsigned long)BOOT_DTB_MAX);
		return rc;
	}
	dom0less_default_limits(&lim);
	lim.board_cpus = m->nr_cpus;
	lim.nr_banks = MIN(m->nr_banks, DOM0LESS_MAX_BANKS);
	for (i = 0U; i < lim.nr_banks; i++) {
		lim.banks[i].base = m->banks[i].base;
		lim.banks[i].size = m->banks[i].size;
	}
	/*
	 * Nothing is assigned over the hypervisor's devices: the tree's first, as
	 * check-dtb sees them (so both print the same message), then the board's.
	 * Its image is RAM, which is never assigned as device memory.
	 */
	dom0less_hyp_devices_from_dt(&f, &lim);
	(void)dom0less_add_hyp_ram(&lim, m->hyp_start, m->hyp_end - m->hyp_start, "the hypervisor");
	(void)dom0less_add_hyp_ram(&lim, virt_to_maddr(dtb), f.totalsize, "the device tree");
	dom0less_hyp_ram_from_dt(&f, &lim);
	for (i = 0U; i < m->nr_devs; i++) {
		(void)dom0less_add_hyp_dev(&lim, m->devs[i].base, m->devs[i].size, m->devs[i].intid,
					   m->devs[i].node, m->devs[i].what);
	}
	lim.read_module = boot_read_module;
	rc = dom0less_parse(&f, &lim, &boot_config, boot_err, sizeof(boot_err));
	if ((rc == 0) && (m->hw != NULL)) {
		rc = hw_check_placement(&f, m->hw, &boot_config, boot_err, sizeof(boot_err));
	}
	if (rc != 0) {
		printk("bulkhead: config: %s\n", boot_err);
		return rc;
	}
	/* Before any partition's tree is written: the store's lists them all. */
	xenstore_configure(&boot_config);
	rc = boot_reserve(&f, dtb, m);
	if (rc == 0) {
		rc = boot_shm(&f);
	}
	if (rc == 0) {
		rc = boot_place(&f);
	}
	if (rc != 0) {
		return rc;
	}
	domain_build_init(m->gic_version, boot_cpu_compat(&f));
	for (i = 0U; i < boot_config.nr_domains; i++) {
		const struct domain_config *cfg = &boot_config.dom[i];
		struct domain *d;
		rc = domain_create((domid_t)(i + 1U), cfg);
		d = domain_by_id((domid_t)(i + 1U));
		if ((rc == 0) && (d != NULL)) {
			rc = domain_load(d);
		}
		if (rc != 0) {
			char path[96];
			(void)fdt_node_path(&f, boot_config.node[i], path, sizeof(path));
			printk("bulkhead: config: %s: cannot build partition d%u (error %d)\n", path,
			       i + 1U, rc);
			return rc;
		}
	}
	rc = boot_bind_static_evtchns(&f);
	if (rc == 0) {
		/* After the static channels: a client's store port is the lowest they leave. */
		rc = xenstore_setup_all();
	}
	if (rc != 0) {
		return rc;
	}
	mm_boot_done();
	boot_fdt = f;
	boot_summary(m);
	return 0;
}

int boot_check_online(uint64_t online)
{
	const struct dom0less_config *c = &boot_config;
	uint32_t i;
	uint32_t v;

	for (i = 0U; i < c->nr_domains; i++) {
		for (v = 0U; v < c->dom[i].nr_vcpus; v++) {
			uint32_t p = c->dom[i].pcpus[v];
			char path[96];
			if ((p < 64U) && ((online & (UINT64_C(1) << p)) != 0U)) {
				continue;
			}
			(void)fdt_node_path(&boot_fdt, c->node[i], path, sizeof(path));
			printk("bulkhead: config: %s: vCPU %u on physical CPU %u, which did not come "
			       "online\n", path, v, p);
			return -XEN_ENODEV;
		}
	}
	return 0;
}
