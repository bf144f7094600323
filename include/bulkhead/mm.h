/* SPDX-License-Identifier: MIT */
/*
 * Machine memory: boot-time placement and hypervisor access to pages.
 * map_domain_page() is the only way common code reaches partition memory;
 * with CONFIG_XPFO it uses a per-CPU temporary slot (issue: exclusive
 * ownership), otherwise the direct map.
 */
#ifndef BULKHEAD_MM_H
#define BULKHEAD_MM_H

#include <bulkhead/arch.h>

#define mfn_to_maddr(m) ((paddr_t)(m) << PAGE_SHIFT)
#define maddr_to_mfn(a) ((mfn_t)((a) >> PAGE_SHIFT))
#define gfn_to_gaddr(g) ((paddr_t)(g) << PAGE_SHIFT)
#define gaddr_to_gfn(a) ((gfn_t)((a) >> PAGE_SHIFT))

static inline void *map_domain_page(mfn_t mfn)
{
	return arch_map_page(mfn);
}

static inline void unmap_domain_page(void *va)
{
	arch_unmap_page(va);
}

/*
 * Long-lived EL2 mapping of a partition page the ABI shares with the
 * hypervisor (vcpu_info, FIFO control block, event array page): mapped
 * while registered, unmapped when the partition re-registers or restarts.
 */
void *map_domain_page_global(mfn_t mfn);
void unmap_domain_page_global(void *va);

/* Hypervisor-owned static pages (pools) are always mapped at EL2. */
paddr_t virt_to_maddr(const void *va);
void *maddr_to_virt(paddr_t ma);

/*
 * Boot-time allocation of machine memory for partition RAM, from the
 * region the board gives (arm) or a static array (host). Fails once boot
 * is over: nothing is allocated after boot.
 */
int mm_boot_alloc(uint64_t bytes, uint64_t align, paddr_t *out);
void mm_boot_done(void);

#endif
