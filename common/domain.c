/* SPDX-License-Identifier: MIT */
/* Partition table, creation and lifecycle. */
#include <bulkhead/xpfo.h>
#include <bulkhead/domain.h>
#include <bulkhead/xenstore.h>
#include <bulkhead/console.h>
#include <bulkhead/mm.h>
#include <bulkhead/lib.h>
#include <public/sched.h>
#include <public/errno.h>

struct domain domains[CONFIG_MAX_DOMAINS];

/* Stage-2 tables and shared_info pages: static, one set per partition. */
static uint64_t p2m_pool[CONFIG_MAX_DOMAINS][CONFIG_P2M_POOL_PAGES][P2M_ENTRIES] __page_aligned;
static struct shared_info_page {
	struct shared_info s;
	uint8_t pad[PAGE_SIZE - sizeof(struct shared_info)];
} shared_info_pages[CONFIG_MAX_DOMAINS] __page_aligned;
BUILD_ASSERT(sizeof(struct shared_info_page) == PAGE_SIZE);

/* The whole page the partition sees, not only struct shared_info. */
void domain_clear_shared_info(const struct domain *d)
{
	(void)memset(&shared_info_pages[d->domain_id - 1U], 0, PAGE_SIZE);
}

struct domain *domain_by_id(domid_t id)
{
	struct domain *d;

	if ((id == 0U) || (id > CONFIG_MAX_DOMAINS)) {
		return NULL;
	}
	d = &domains[id - 1U];
	return (read_atomic(&d->state) == DOMAIN_FREE) ? NULL : d;
}

struct domain *domain_resolve(domid_t id)
{
	if (id == DOMID_SELF) {
		struct vcpu *v = current;
		return (v != NULL) ? v->domain : NULL;
	}
	return domain_by_id(id);
}

static void domain_vcpus_init(struct domain *d)
{
	uint32_t i;

	for (i = 0U; i < d->nr_vcpus; i++) {
		struct vcpu *v = &d->vcpu[i];
		v->domain = d;
		v->vcpu_id = i;
		v->pcpu = d->cfg.pcpus[i];
		v->online = false;
		v->blocked = false;
		/* Only vCPU 0 has a slot in shared_info (XEN_LEGACY_MAX_VCPUS). */
		v->vcpu_info = (i == 0U) ? &d->shared_info->vcpu_info[0] : NULL;
		v->vcpu_info_registered = false;
	}
}

paddr_t domain_vbd_gpa(const struct domain *d)
{
	return d->ram_gpa + ROUND_UP(d->ram_bytes, UL(2) << 20);
}

paddr_t domain_ram_maddr(const struct domain *d, uint64_t off)
{
	uint64_t left = off;
	uint32_t i;

	for (i = 0U; (i < d->nr_ram_banks) && (i < DOMAIN_MAX_MEM_BANKS); i++) {
		if (left < d->ram_bank[i].size) {
			return d->ram_bank[i].maddr + left;
		}
		left -= d->ram_bank[i].size;
	}
	return d->ram_maddr + off;   /* callers keep off below ram_bytes */
}

/*
 * The RAM banks from the configuration: its fixed ranges, or the one
 * placed at boot; back to back from GUEST_RAM0_BASE, or each at its
 * machine address with direct-map.
 */
static void domain_ram_layout(struct domain *d)
{
	const struct domain_config *cfg = &d->cfg;
	paddr_t gpa = GUEST_RAM0_BASE;
	uint32_t i;

	if ((cfg->nr_mem_banks == 0U) || (cfg->nr_mem_banks > DOMAIN_MAX_MEM_BANKS)) {
		d->nr_ram_banks = 1U;
		d->ram_bank[0] = (struct ram_bank){ .maddr = d->ram_maddr, .size = d->ram_bytes,
						    .gpa = cfg->direct_map ? d->ram_maddr : gpa };
	} else {
		d->nr_ram_banks = cfg->nr_mem_banks;
		for (i = 0U; i < cfg->nr_mem_banks; i++) {
			d->ram_bank[i].maddr = cfg->mem_bank[i].maddr;
			d->ram_bank[i].size = cfg->mem_bank[i].size;
			d->ram_bank[i].gpa = cfg->direct_map ? cfg->mem_bank[i].maddr : gpa;
			gpa += cfg->mem_bank[i].size;
		}
	}
	d->ram_maddr = d->ram_bank[0].maddr;
	d->ram_gpa = d->ram_bank[0].gpa;
}

int domain_map_static(struct domain *d)
{
	uint32_t i;
	int rc = 0;

	for (i = 0U; (rc == 0) && (i < d->nr_ram_banks) && (i < DOMAIN_MAX_MEM_BANKS); i++) {
		const struct ram_bank *b = &d->ram_bank[i];
		/* A xenstore client's last page is its ring, mapped elsewhere. */
		uint64_t size = b->size - (((i + 1U == d->nr_ram_banks) && d->cfg.xs_client) ?
					   PAGE_SIZE : 0U);
		rc = p2m_map_range(&d->p2m, gaddr_to_gfn(b->gpa), maddr_to_mfn(b->maddr),
				   size >> PAGE_SHIFT, p2m_ram_rw);
	}
	if (rc == 0) {
		rc = xenstore_map_ring(d);
	}
	if (rc == 0) {
		/* Grant mappings then only ever write leaf entries. */
		rc = p2m_prealloc(&d->p2m, gaddr_to_gfn(GUEST_GNTTAB_BASE),
				  GUEST_GNTTAB_SIZE >> PAGE_SHIFT);
	}
	/* The disks it serves (bulkhead,vbd): mapped again on restart, never scrubbed then. */
	if ((rc == 0) && (d->cfg.vbd_bytes != 0U)) {
		rc = p2m_map_range(&d->p2m, gaddr_to_gfn(domain_vbd_gpa(d)),
				   maddr_to_mfn(d->cfg.vbd_maddr), d->cfg.vbd_bytes >> PAGE_SHIFT,
				   p2m_ram_rw);
	}
	/*
	 * Static shared memory, Normal memory at its guest address: the owner's as
	 * its own RAM, a borrower's as a foreign mapping (not executable, no grant,
	 * no hypercall buffer), as Xen 4.17 maps them. Never scrubbed on restart.
	 */
	for (i = 0U; (rc == 0) && (i < d->cfg.nr_shm) && (i < CONFIG_STATIC_SHM_REGIONS); i++) {
		const struct shm_map *s = &d->cfg.shm[i];
		rc = p2m_map_range(&d->p2m, gaddr_to_gfn(s->gaddr), maddr_to_mfn(s->maddr),
				   s->size >> PAGE_SHIFT, s->owner ? p2m_ram_rw : p2m_map_foreign_rw);
	}
	/* Assigned device memory (xen,reg), checked page aligned and free by the parser. */
	for (i = 0U; (rc == 0) && (i < d->cfg.nr_iomem) && (i < DOMAIN_MAX_IOMEM); i++) {
		const struct iomem_map *m = &d->cfg.iomem[i];
		rc = p2m_map_range(&d->p2m, gaddr_to_gfn(m->gaddr), maddr_to_mfn(m->maddr),
				   m->size >> PAGE_SHIFT, p2m_mmio_direct_dev);
	}
	return rc;
}

/* Build the memory map and per-partition pools; the image is loaded later. */
static int domain_build_memory(struct domain *d)
{
	int rc;

	rc = p2m_init(&d->p2m, d->vmid, p2m_pool[d->domain_id - 1U], CONFIG_P2M_POOL_PAGES);
	if (rc == 0) {
		rc = domain_map_static(d);
	}
	return rc;
}

int domain_create(domid_t id, const struct domain_config *cfg)
{
	struct domain *d;
	uint32_t i;
	int rc;

	if ((id == 0U) || (id > CONFIG_MAX_DOMAINS) || (cfg->nr_vcpus == 0U) ||
	    (cfg->nr_vcpus > CONFIG_MAX_VCPUS) || (cfg->mem_bytes == 0U) ||
	    ((cfg->mem_bytes & (PAGE_SIZE - 1U)) != 0U)) {
		return -XEN_EINVAL;
	}
	d = &domains[id - 1U];
	if (d->state != DOMAIN_FREE) {
		return -XEN_EEXIST;
	}
	(void)memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->domain_id = id;
	d->vmid = id;
	d->nr_vcpus = cfg->nr_vcpus;
	d->ram_gpa = GUEST_RAM0_BASE;
	d->ram_bytes = cfg->mem_bytes;
	d->max_pages = cfg->mem_bytes >> PAGE_SHIFT;
	/* Xen 4.17 counts an owner's shared memory among its pages (tot and max). */
	for (i = 0U; (i < cfg->nr_shm) && (i < CONFIG_STATIC_SHM_REGIONS); i++) {
		d->max_pages += cfg->shm[i].owner ? (cfg->shm[i].size >> PAGE_SHIFT) : 0U;
	}
	d->tot_pages = d->max_pages;
	d->shared_info = &shared_info_pages[id - 1U].s;
	d->shared_info_gfn = INVALID_GFN;
	spin_lock_init(&d->lock, LOCK_CLASS_DOMAIN);
	domain_clear_shared_info(d);

	if (cfg->mem_maddr != 0U) {
		d->ram_maddr = cfg->mem_maddr;
		rc = 0;
	} else {
		rc = mm_boot_alloc(cfg->mem_bytes, UL(2) << 20, &d->ram_maddr);
	}
	if (rc == 0) {
		domain_ram_layout(d);
	}
	if ((rc == 0) && (CONFIG_BOOT_SCRUB != 0)) {
		/* New owner: nothing of what the RAM held before may reach it. */
		domain_scrub(d);
		domain_scrub_range(cfg->vbd_maddr, cfg->vbd_bytes);
	}
	if (rc == 0) {
		rc = domain_build_memory(d);
	}
	domain_vcpus_init(d);
	if (rc == 0) {
		rc = gnttab_domain_init(d);
	}
	if (rc == 0) {
		rc = evtchn_domain_init(d);
	}
	if (rc == 0) {
		rc = arch_domain_init(d);
	}
	if (rc != 0) {
		printk("bulkhead: %s: cannot create partition (error %d)\n", cfg->name, rc);
		return rc;
	}
	write_atomic(&d->state, DOMAIN_CREATED);
	return 0;
}

/*
 * Shutdowns whose stop work (devices masked, mappings checked, a restart)
 * has not finished. The run ends only when it is zero and every partition
 * has stopped for good: a partition that stops while another is still
 * stopping or restarting must not turn the machine off under it.
 */
static uint32_t domains_stopping;
/* Set once by the CPU that turns the machine off: one summary, one SYSTEM_OFF. */
static bool system_off_claimed;

void domain_stops_reset(void)
{
	write_atomic(&domains_stopping, 0U);
	write_atomic(&system_off_claimed, false);
}

static bool all_domains_stopped(int *status)
{
	uint32_t i;
	bool stopped = true;

	*status = 0;
	for (i = 0U; i < CONFIG_MAX_DOMAINS; i++) {
		enum domain_state s = read_atomic(&domains[i].state);
		if ((s == DOMAIN_CREATED) || (s == DOMAIN_RUNNING)) {
			stopped = false;
		}
		if ((s == DOMAIN_CRASHED) ||
		    ((s == DOMAIN_SHUTDOWN) && (domains[i].shutdown_reason == SHUTDOWN_crash))) {
			*status = 1;
		}
	}
	return stopped;
}

static bool domain_wants_restart(const struct domain *d, uint32_t reason)
{
	switch (d->cfg.restart) {
	case RESTART_ALWAYS:
		return reason != SHUTDOWN_poweroff;
	case RESTART_ON_REBOOT:
		return reason == SHUTDOWN_reboot;
	default:
		return false;
	}
}

void domain_shutdown(struct domain *d, uint32_t reason)
{
	int status;
	bool restart;

	spin_lock(&d->lock);
	if (d->state != DOMAIN_RUNNING) {
		spin_unlock(&d->lock);
		return;
	}
	d->shutdown_reason = reason;
	restart = domain_wants_restart(d, reason);
	/* Counted before the state says stopped, so whoever sees the state sees the count. */
	(void)atomic_fetch_add(&domains_stopping, 1U);
	store_release(&d->state, DOMAIN_SHUTDOWN);
	spin_unlock(&d->lock);

	printk("bulkhead: %s (d%u) shut down, reason %u%s\n", d->cfg.name, d->domain_id, reason,
	       restart ? ", restarting" : "");
	arch_domain_stop(d);
	xenstore_domain_stopped(d);
	/* Its vCPUs are parked: whatever it left registered is still mapped. */
	xpfo_check("stopped", d->domain_id);
	if (restart) {
		domain_restart(d);
	}
	if (atomic_fetch_sub(&domains_stopping, 1U) != 1U) {
		return; /* the last stop to finish decides */
	}
	if (!all_domains_stopped(&status)) {
		return;
	}
	/*
	 * A partition that began stopping after the count reached zero and whose
	 * state was read as stopped above is seen with its count here: the count
	 * was taken before its state's release store, and the states were read
	 * before this fence.
	 */
	smp_rmb();
	if ((read_atomic(&domains_stopping) == 0U) && !atomic_xchg(&system_off_claimed, true)) {
		printk("bulkhead: all partitions stopped, status %d\n", status);
		domain_print_summary(status);
		arch_system_off(status);
	}
}

void domain_crash(struct domain *d, const char *why)
{
	/* Read first: the restart bench (tools/bench/restart.sh) counts from here. */
	uint64_t now = arch_now_ns();

	printk("bulkhead: %s (d%u) crashed: %s (at %llu ns)\n", d->cfg.name, d->domain_id, why,
	       (unsigned long long)now);
	spin_lock(&d->lock);
	if (d->state == DOMAIN_RUNNING) {
		d->state = DOMAIN_RUNNING; /* shutdown below does the transition */
	}
	spin_unlock(&d->lock);
	domain_shutdown(d, SHUTDOWN_crash);
}

/* Filled once every partition exists; the pinning never changes after boot. */
static struct vcpu *pcpu_vcpu[CONFIG_NR_CPUS];

void domain_start_all(void)
{
	uint32_t i;
	uint32_t v;

	for (i = 0U; i < CONFIG_MAX_DOMAINS; i++) {
		struct domain *d = &domains[i];
		if (read_atomic(&d->state) != DOMAIN_CREATED) {
			continue;
		}
		for (v = 0U; v < d->nr_vcpus; v++) {
			if (d->vcpu[v].pcpu < CONFIG_NR_CPUS) {
				pcpu_vcpu[d->vcpu[v].pcpu] = &d->vcpu[v];
			}
		}
	}
	for (i = 0U; i < CONFIG_MAX_DOMAINS; i++) {
		struct domain *d = &domains[i];
		if (read_atomic(&d->state) == DOMAIN_CREATED) {
			write_atomic(&d->state, DOMAIN_RUNNING);
			arch_domain_start(d);
		}
	}
}

struct vcpu *vcpu_of_pcpu(unsigned int cpu)
{
	return (cpu < CONFIG_NR_CPUS) ? pcpu_vcpu[cpu] : NULL;
}
