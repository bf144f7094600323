/* SPDX-License-Identifier: MIT */
/*
 * Machine memory: boot-time placement and hypervisor access to pages.
 * map_domain_page() is the only way common code reaches partition memory;
 * with CONFIG_XPFO it uses a per-CPU temporary slot (issue: exclusive
 * ownership), otherwise the direct map.
 */
#ifndef BULKHEAD_MM_H
#define BULKHEAD_MM_H

#include <bulkhead/config.h>
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

/* For what a partition reads with its MMU off: its image (see arch.h). */
static inline void unmap_domain_page_clean(void *va)
{
	arch_unmap_page_clean(va);
}

/*
 * Long-lived EL2 mapping of a partition page the ABI shares with the
 * hypervisor (vcpu_info, FIFO control block, event array page): mapped
 * while registered, unmapped when the partition re-registers or restarts.
 */
void *map_domain_page_global(mfn_t mfn);
void unmap_domain_page_global(void *va);

/*
 * A large static pool the boot does not zero: its owner initialises each
 * part before first use (the grant-table frames as a table grows), so boot
 * time does not grow with pools a configuration leaves unused. Plain BSS on
 * the host.
 */
#if CONFIG_HOST
#define BOOT_NOINIT
#else
#define BOOT_NOINIT __attribute__((section(".noinit")))
#endif

/* Hypervisor-owned static pages (pools) are always mapped at EL2. */
paddr_t virt_to_maddr(const void *va);
void *maddr_to_virt(paddr_t ma);

/*
 * Boot-time placement of partition RAM (common/mm_boot.c): the machine's
 * RAM banks (the board's on arm, a static array on the host) minus what
 * boot reserves (hypervisor image, DTB, every module, fixed partition RAM,
 * static shared memory).
 * Everything fails once mm_boot_done() is called: nothing is allocated
 * after boot.
 */
#define MM_BOOT_MAX_RANGES (U(8) + U(4) + (U(4) * (uint32_t)CONFIG_MAX_DOMAINS) + \
			    (uint32_t)CONFIG_STATIC_SHM_REGIONS)

struct mm_boot_range {
	paddr_t base;
	uint64_t size;
};

/* Start over with these banks free (-EINVAL: too many, -EBUSY: boot done). */
int mm_boot_init(const struct mm_boot_range *banks, unsigned int n);
/* Take whatever of [base, base+size) is free out of the free ranges. */
int mm_boot_reserve(paddr_t base, uint64_t size);
/* Take [base, base+size), which must be wholly free (-EBUSY otherwise). */
int mm_boot_claim(paddr_t base, uint64_t size);
/* Lowest free block of bytes at align (a power of two); -ENOMEM if none. */
int mm_boot_alloc(uint64_t bytes, uint64_t align, paddr_t *out);
void mm_boot_done(void);
/* One past the highest machine RAM frame (Xen's max_page); kept after boot. */
mfn_t mm_boot_max_page(void);
/* Bytes still free, and the largest free range (for messages). */
uint64_t mm_boot_free_bytes(uint64_t *largest);

#endif
