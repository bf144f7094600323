/* SPDX-License-Identifier: MIT */
/*
 * Partitions ("domains", Xen's word) and their vCPUs. All of them live in
 * one static array sized by CONFIG_MAX_DOMAINS; domid n is domains[n - 1]
 * as in Xen dom0less, where the first xen,domain node is d1.
 */
#ifndef BULKHEAD_DOMAIN_H
#define BULKHEAD_DOMAIN_H

#include <bulkhead/config.h>
#include <bulkhead/atomic.h>
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
	struct arch_vcpu arch;
} __cacheline_aligned;

struct domain {
	domid_t domain_id;
	uint16_t vmid;
	enum domain_state state;
	uint32_t shutdown_reason;
	uint32_t nr_vcpus;
	uint32_t restarts;
	struct domain_config cfg;
	paddr_t ram_maddr;      /* machine address of guest RAM */
	paddr_t ram_gpa;        /* where the guest sees it (GUEST_RAM0_BASE) */
	uint64_t ram_bytes;
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
/* Zero d's shared_info page (a hypervisor page the partition maps). */
void domain_clear_shared_info(const struct domain *d);
/* Copy the kernel (and ramdisk) into d's RAM and write its device tree. */
int domain_load(struct domain *d);
/* Start every created partition. */
void domain_start_all(void);
/* The vCPU pinned to physical CPU cpu (1:1), or NULL if it hosts none. */
struct vcpu *vcpu_of_pcpu(unsigned int cpu);

/*
 * Online and its partition running: its CPU may run it. Inline: every
 * hypercall's exit asks (arch/arm/traps.c guest_hypercall).
 */
static inline bool vcpu_runnable(const struct vcpu *v)
{
	return load_acquire(&v->online) && (read_atomic(&v->domain->state) == DOMAIN_RUNNING);
}

static inline struct vcpu *current_vcpu(void)
{
	return arch_current_vcpu();
}

#define current (arch_current_vcpu())

#endif
