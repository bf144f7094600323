/* SPDX-License-Identifier: MIT */
/*
 * Partitions ("domains", Xen's word) and their vCPUs. All of them live in
 * one static array sized by CONFIG_MAX_DOMAINS; domid n is domains[n - 1]
 * as in Xen dom0less, where the first xen,domain node is d1.
 */
#ifndef BULKHEAD_DOMAIN_H
#define BULKHEAD_DOMAIN_H

#include <bulkhead/config.h>
#include <bulkhead/domain_config.h>
#include <bulkhead/spinlock.h>
#include <bulkhead/p2m.h>
#include <bulkhead/gnttab.h>
#include <bulkhead/evtchn.h>
#include <asm/domain.h>
#include <public/xen.h>

enum domain_state {
	DOMAIN_FREE = 0,   /* slot unused */
	DOMAIN_CREATED,    /* built, not yet running */
	DOMAIN_RUNNING,
	DOMAIN_SHUTDOWN,   /* stopped by SCHEDOP_shutdown / PSCI SYSTEM_OFF */
	DOMAIN_CRASHED,    /* stopped by a fault */
};

/*
 * What a vCPU did, for the run summary. Written only by the CPU the vCPU is
 * pinned to (relaxed atomics, no lock), read once every partition stopped.
 */
struct vcpu_stats {
	uint64_t evtchn_sends;  /* EVTCHNOP_send that succeeded */
	uint64_t gnttab_maps;   /* grant mappings made */
	uint64_t gnttab_unmaps; /* grant mappings it removed */
};

struct vcpu {
	struct domain *domain;
	uint32_t vcpu_id;
	uint32_t pcpu;
	bool online;
	bool blocked;
	/* Where this vCPU's vcpu_info lives (shared_info slot or registered). */
	struct vcpu_info *vcpu_info;
	bool vcpu_info_registered;
	struct gnttab_vcpu gnttab;
	struct evtchn_vcpu evtchn;
	struct vcpu_stats stats;
	struct arch_vcpu arch;
} __cacheline_aligned;

struct domain {
	domid_t domain_id;
	uint16_t vmid;
	enum domain_state state;
	uint32_t shutdown_reason;
	uint32_t nr_vcpus;
	uint32_t restarts;
	/* Others' mappings of its grants removed at its restarts (run summary). */
	uint64_t gnttab_forced_unmaps;
	/* xenstore client (common/xenstore.c): HVM_PARAM_STORE_PFN and _EVTCHN. */
	uint64_t xs_store_pfn;
	uint32_t xs_port;
	struct domain_config cfg;
	paddr_t ram_maddr;      /* machine address of guest RAM (its first bank) */
	paddr_t ram_gpa;        /* where the guest sees it (GUEST_RAM0_BASE; direct-map: ram_maddr) */
	uint64_t ram_bytes;     /* all banks */
	/*
	 * Machine RAM in guest order: one bank, or xen,static-mem's ranges. The
	 * guest sees them back to back from ram_gpa, or each at its machine
	 * address with direct-map.
	 */
	uint32_t nr_ram_banks;
	struct ram_bank {
		paddr_t maddr;
		paddr_t gpa;
		uint64_t size;
	} ram_bank[DOMAIN_MAX_MEM_BANKS];
	/*
	 * Xen's page accounting (XENMEM_*_reservation): max_pages is the RAM
	 * of the device tree, tot_pages what the partition holds of it. Pages
	 * it gives back stay its own frames, unmapped; populate maps them
	 * back at their own gfn while tot_pages < max_pages. Under lock.
	 */
	uint64_t tot_pages;
	uint64_t max_pages;
	vaddr_t kernel_entry;   /* set by domain_load() */
	paddr_t dtb_gpa;
	spinlock_t lock;        /* lifecycle: shutdown, restart */
	struct shared_info *shared_info;
	gfn_t shared_info_gfn;  /* INVALID_GFN until mapped */
	struct p2m_domain p2m;
	struct grant_table gt;
	struct evtchn_domain ev;
	struct arch_domain arch;
	struct vcpu vcpu[CONFIG_MAX_VCPUS];
} __cacheline_aligned;

#define INVALID_GFN (~(gfn_t)0U)

extern struct domain domains[CONFIG_MAX_DOMAINS];

/* Lookup without locks: the array is static; NULL if not a live partition. */
struct domain *domain_by_id(domid_t id);
/* DOMID_SELF resolves to the caller's own partition. */
struct domain *domain_resolve(domid_t id);

int domain_create(domid_t id, const struct domain_config *cfg);
void domain_shutdown(struct domain *d, uint32_t reason);
void domain_crash(struct domain *d, const char *why);
/*
 * Restart d per its policy: close its event channels, revoke its grants and
 * every mapping others hold of its pages, scrub its RAM, reload its image.
 */
void domain_restart(struct domain *d);
/*
 * Zero all of d's RAM through the temporary slots: whenever the RAM changes
 * owner (creation: from whatever held it before, firmware or an earlier
 * boot; restart: from the old incarnation), before anything is loaded.
 */
void domain_scrub(struct domain *d);
/* Zero [maddr, maddr + bytes) of machine memory a partition is given (its disks at boot). */
void domain_scrub_range(paddr_t maddr, uint64_t bytes);
/* Where d sees the region of the virtual disks it serves: after its RAM, 2 MiB aligned. */
paddr_t domain_vbd_gpa(const struct domain *d);
/* Zero d's shared_info page (a hypervisor page the partition maps). */
void domain_clear_shared_info(const struct domain *d);
/*
 * The stage-2 mappings a partition starts with (creation and restart): its
 * RAM, the grant window's tables and its assigned device memory.
 */
int domain_map_static(struct domain *d);
/* Copy the kernel (and ramdisk) into d's RAM and write its device tree. */
int domain_load(struct domain *d);
/* Start every created partition. */
void domain_start_all(void);
/* No stop in progress and the machine not yet turned off (zero at boot; host tests). */
void domain_stops_reset(void);
/* The vCPU pinned to physical CPU cpu (1:1), or NULL if it hosts none. */
struct vcpu *vcpu_of_pcpu(unsigned int cpu);

/* Owner-only counter: one writer, so a relaxed load and store suffice. */
static inline void stat_inc(uint64_t *counter)
{
	write_atomic(counter, read_atomic(counter) + 1U);
}

/* The hypervisor's last line: partitions, events, grant mappings, status. */
void domain_print_summary(int status);

/* Machine address of byte off of d's RAM (its banks in order); off < ram_bytes. */
paddr_t domain_ram_maddr(const struct domain *d, uint64_t off);

/* ma is in d's own RAM. The first bank is checked first: most partitions have one. */
static inline bool domain_ram_owns(const struct domain *d, paddr_t ma)
{
	bool in = (ma >= d->ram_maddr) && ((ma - d->ram_maddr) < d->ram_bank[0].size);
	uint32_t i;

	for (i = 1U; !in && (i < d->nr_ram_banks) && (i < DOMAIN_MAX_MEM_BANKS); i++) {
		in = (ma >= d->ram_bank[i].maddr) && ((ma - d->ram_bank[i].maddr) < d->ram_bank[i].size);
	}
	return in;
}

static inline struct vcpu *current_vcpu(void)
{
	return arch_current_vcpu();
}

#define current (arch_current_vcpu())

#endif
