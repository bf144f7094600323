/* SPDX-License-Identifier: MIT */
/*
 * EL2 stage-1 page tables (4 KiB granule, 39-bit VA, levels 1-3).
 *
 * The hypervisor image, the system DTB and the devices the tree names
 * (arch/arm/hw_machine.c, once the MMU is on) are identity mapped: text read-only executable, rodata read-only, data and BSS
 * read-write never-executable (SCTLR_EL2.WXN on). With CONFIG_XPFO the RAM
 * of partitions is not mapped at all: the hypervisor reaches a partition
 * page only through a per-CPU temporary slot (arch_map_page), invalidated
 * on the local CPU only since no other CPU ever uses that slot, or through
 * a global slot for the few pages the ABI shares for a long time. Without
 * XPFO the machine's RAM banks are direct mapped.
 */
#include <bulkhead/arch.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/console.h>
#include <bulkhead/mm.h>
#include <bulkhead/atomic.h>
#include <bulkhead/xpfo.h>
#include <asm/mmu.h>
#include <asm/percpu.h>
#include <asm/sysregs.h>

#define PTE_VALID    ULL(1)
#define PTE_TABLE    ULL(3)
#define PTE_BLOCK    ULL(1)
#define PTE_PAGE     ULL(3)
#define PTE_TYPE     ULL(3)
#define PTE_ATTR(i)  ((uint64_t)(i) << 2)
#define PTE_AP1      (ULL(1) << 6)          /* RES1 in the EL2 regime */
#define PTE_RO       (ULL(1) << 7)
#define PTE_SH_IS    (ULL(3) << 8)
#define PTE_AF       (ULL(1) << 10)
#define PTE_XN       (ULL(1) << 54)
#define PTE_ADDR     ULL(0x000000fffffff000)

#define PROT_TEXT   (PTE_ATTR(MT_NORMAL) | PTE_AP1 | PTE_RO | PTE_SH_IS | PTE_AF)
#define PROT_RO     (PROT_TEXT | PTE_XN)
#define PROT_RW     (PTE_ATTR(MT_NORMAL) | PTE_AP1 | PTE_SH_IS | PTE_AF | PTE_XN)
#define PROT_DEVICE (PTE_ATTR(MT_DEVICE) | PTE_AP1 | PTE_AF | PTE_XN)

#define L1_SHIFT U(30)
#define L2_SHIFT U(21)
#define IDX(va, s) (((va) >> (s)) & U(511))
#define SZ_2M (UL(1) << 21)

/* Virtual windows for partition pages, above all identity mappings. */
#define MAP_SLOTS_VA    ULL(0x4000000000)
#define GLOBAL_SLOTS_VA (MAP_SLOTS_VA + SZ_2M)
/* Each CPU's window: CONFIG_MAP_SLOTS_PER_CPU slots for arch_map_page, then its scratch slots. */
#define SLOTS_PER_CPU   (CONFIG_MAP_SLOTS_PER_CPU + ARCH_NR_SCRATCH)
#define NR_CPU_SLOTS    (CONFIG_NR_CPUS * SLOTS_PER_CPU)
BUILD_ASSERT(NR_CPU_SLOTS <= 512);
BUILD_ASSERT(CONFIG_MAP_SLOTS_PER_CPU <= 32);
BUILD_ASSERT(CONFIG_GLOBAL_MAP_SLOTS <= 512);

#define HYP_PT_PAGES U(40)

extern char _start[];
extern char _etext[];
extern char _erodata[];
extern char _end[];

uint64_t hyp_pt_root[512] __page_aligned;
static uint64_t hyp_pt_pool[HYP_PT_PAGES][512] __page_aligned;
static unsigned int hyp_pt_used;
static uint64_t *slot_l3;
static uint64_t *global_l3;
#if CONFIG_XPFO
static uint64_t global_used[(CONFIG_GLOBAL_MAP_SLOTS + 63) / 64];
#endif

static uint64_t *pt_alloc(void)
{
	if (hyp_pt_used >= HYP_PT_PAGES) {
		/* Boot only, sized for the image: a build error in all but name. */
		panic("bulkhead: EL2 page-table pool exhausted");
	}
	return hyp_pt_pool[hyp_pt_used++];
}

/* Next-level table under *slot, made if absent; NULL if a block is there. */
static uint64_t *pt_next(uint64_t *slot)
{
	uint64_t desc = *slot;

	if ((desc & PTE_TYPE) == PTE_TABLE) {
		return (uint64_t *)(uintptr_t)(desc & PTE_ADDR);
	}
	if ((desc & PTE_VALID) != 0U) {
		return NULL;
	}
	{
		uint64_t *t = pt_alloc();
		store_release(slot, (uint64_t)(uintptr_t)t | PTE_TABLE);
		return t;
	}
}

/*
 * Identity-style map of [va, va+size) to pa. Entries already present are
 * left alone, so a later, coarser mapping (RAM) never overrides a finer one
 * (the image). 2 MiB blocks where both ends allow.
 */
static void pt_map(uint64_t va_start, paddr_t pa_start, uint64_t size, uint64_t prot, bool blocks)
{
	uint64_t va = va_start;
	paddr_t pa = pa_start;
	uint64_t end = va + size;

	/* LOOP-BOUND: every path adds at least PAGE_SIZE to va, so at most size / PAGE_SIZE rounds
	 * (boot-time map of the hypervisor's own ranges). */
	while (va < end) {
		uint64_t *l2 = pt_next(&hyp_pt_root[IDX(va, L1_SHIFT)]);
		uint64_t *slot;
		uint64_t *l3;

		if (l2 == NULL) {
			va += UL(1) << L1_SHIFT;
			pa += UL(1) << L1_SHIFT;
			continue;
		}
		slot = &l2[IDX(va, L2_SHIFT)];
		if (blocks && ((va & (SZ_2M - 1U)) == 0U) && ((pa & (SZ_2M - 1U)) == 0U) &&
		    ((end - va) >= SZ_2M) && (*slot == 0U)) {
			store_release(slot, (pa & PTE_ADDR) | prot | PTE_BLOCK);
			va += SZ_2M;
			pa += SZ_2M;
			continue;
		}
		l3 = pt_next(slot);
		if (l3 == NULL) {
			uint64_t skip = SZ_2M - (va & (SZ_2M - 1U));
			va += skip;
			pa += skip;
			continue;
		}
		if (l3[IDX(va, PAGE_SHIFT)] == 0U) {
			store_release(&l3[IDX(va, PAGE_SHIFT)], (pa & PTE_ADDR) | prot | PTE_PAGE);
		}
		va += PAGE_SIZE;
		pa += PAGE_SIZE;
	}
}

static void pt_map_identity(paddr_t pa, uint64_t size, uint64_t prot, bool blocks)
{
	paddr_t start = pa & PAGE_MASK;
	uint64_t len = ROUND_UP(pa + size, PAGE_SIZE) - start;

	pt_map(start, start, len, prot, blocks);
}

void mmu_map_device(paddr_t pa, uint64_t size)
{
	if (size != 0U) {
		pt_map_identity(pa, size, PROT_DEVICE, false);
		dsb_ishst();
		isb();
	}
}

static uint32_t be32(const uint8_t *b)
{
	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

/* Called by head.S with the MMU off, on the boot CPU only. */
void mmu_setup_tables(paddr_t dtb)
{
	paddr_t image = (paddr_t)(uintptr_t)_start;
	const uint8_t *hdr = (const uint8_t *)(uintptr_t)dtb;

	pt_map_identity(image, (uintptr_t)_etext - image, PROT_TEXT, false);
	pt_map_identity((uintptr_t)_etext, (uintptr_t)_erodata - (uintptr_t)_etext, PROT_RO,
			false);
	pt_map_identity((uintptr_t)_erodata, (uintptr_t)_end - (uintptr_t)_erodata, PROT_RW,
			false);
	/* The system DTB stays readable (boot parses it), never writable. */
	if ((dtb != 0U) && ((dtb & 7U) == 0U) && (be32(hdr) == 0xd00dfeedU)) {
		uint32_t size = be32(&hdr[4]);
		pt_map_identity(dtb, MIN(size, (uint32_t)SZ_2M), PROT_RO, false);
	}
	{
		uint64_t *l2 = pt_next(&hyp_pt_root[IDX(MAP_SLOTS_VA, L1_SHIFT)]);
		slot_l3 = pt_next(&l2[IDX(MAP_SLOTS_VA, L2_SHIFT)]);
		global_l3 = pt_next(&l2[IDX(GLOBAL_SLOTS_VA, L2_SHIFT)]);
	}
}

void mmu_map_ram(void)
{
#if !CONFIG_XPFO
	uint32_t i;

	/* New entries only (pt_map leaves present ones alone): no break-before-make needed. */
	for (i = 0U; i < hw_machine.nr_banks; i++) {
		pt_map_identity(hw_machine.banks[i].base, hw_machine.banks[i].size, PROT_RW, true);
	}
	dsb_ishst();
	isb();
#endif
}

static unsigned int dcache_line(void)
{
	return U(4) << ((sysreg_read(ctr_el0) >> 16) & U(0xf));
}

void cache_clean_range(const void *va, uint64_t size)
{
	uint64_t line = dcache_line();
	uint64_t p = (uint64_t)(uintptr_t)va & ~(line - 1U);
	uint64_t end = (uint64_t)(uintptr_t)va + size;

	/* Four lines a step (a page is 64 of them), then the rest one by one. */
	/* LOOP-BOUND: size / (4 * line) rounds; line is CTR_EL0's DminLine, at least 4 bytes. */
	for (; (p < end) && ((end - p) > (3U * line)); p += 4U * line) {
		__asm__ volatile("dc cvac, %0\n\tdc cvac, %1\n\tdc cvac, %2\n\tdc cvac, %3"
				 ::"r"(p), "r"(p + line), "r"(p + (2U * line)), "r"(p + (3U * line))
				 : "memory");
	}
	/* LOOP-BOUND: at most 3 rounds: fewer than four lines are left. */
	for (; p < end; p += line) {
		__asm__ volatile("dc cvac, %0" ::"r"(p) : "memory");
	}
	dsb_ish();
}

static bool maddr_in_ram(paddr_t ma)
{
	uint32_t i;

	for (i = 0U; i < hw_machine.nr_banks; i++) {
		if ((ma >= hw_machine.banks[i].base) &&
		    (ma - hw_machine.banks[i].base < hw_machine.banks[i].size)) {
			return true;
		}
	}
	return false;
}

/*
 * The failures of the slot paths, out of line and cold so the hot paths stay
 * short: each is a hypervisor bug, never guest input.
 */
static __noreturn __attribute__((noinline, cold)) void slot_bad_maddr(paddr_t ma)
{
	/* Common code maps RAM only. */
	panic("bulkhead: map of non-RAM page 0x%llx", (unsigned long long)ma);
}

/* The EL2 entry that maps machine page ma read-write, never executable. */
static uint64_t slot_entry(paddr_t ma)
{
	return (ma & PTE_ADDR) | PROT_RW | PTE_PAGE;
}
BUILD_ASSERT((PROT_RW | PTE_PAGE) == MMU_PTE_RAM_RW);
BUILD_ASSERT(PTE_ADDR == MMU_PTE_ADDR);

static uint64_t slot_pte(mfn_t mfn)
{
	paddr_t ma = mfn_to_maddr(mfn);

	if (!maddr_in_ram(ma)) {
		slot_bad_maddr(ma);
	}
	return slot_entry(ma);
}

#if CONFIG_XPFO
BUILD_ASSERT((CONFIG_MAP_SLOTS_PER_CPU >= 1) && (CONFIG_MAP_SLOTS_PER_CPU <= 31));

static __noreturn __attribute__((noinline, cold)) void slot_all_busy(const struct pcpu *pc)
{
	panic("bulkhead: CPU%u: all %u mapping slots busy", pc->id,
	      (unsigned int)CONFIG_MAP_SLOTS_PER_CPU);
}

static __noreturn __attribute__((noinline, cold)) void slot_foreign(const struct pcpu *pc,
								    const void *va)
{
	panic("bulkhead: CPU%u: unmap of foreign slot %p", pc->id, va);
}

/*
 * The slots are per CPU and no interrupt handler maps a page, so the only
 * users are this CPU's hypercall, boot and restart paths, which run with
 * IRQs masked (exception entry masks them; only the idle loop unmasks):
 * nothing can interleave with an update of map_used. Debug builds check it.
 */
static inline void slot_check_irqs_masked(void)
{
#if CONFIG_DEBUG
	if ((sysreg_read(daif) & DAIF_I) == 0U) {
		panic("bulkhead: CPU%u: mapping slot used with IRQs unmasked", this_pcpu()->id);
	}
#endif
}
#endif

void mmu_percpu_slots(struct pcpu *pc)
{
#if CONFIG_XPFO
	/* SLOTS_PER_CPU: its CONFIG_MAP_SLOTS_PER_CPU slots, then its scratch slots. */
	uint64_t first = (uint64_t)pc->id * ((uint64_t)CONFIG_MAP_SLOTS_PER_CPU + ARCH_NR_SCRATCH);

	pc->map_ptes = &slot_l3[first];
	pc->map_va = MAP_SLOTS_VA + (first << PAGE_SHIFT);
	pc->scratch_pte = &slot_l3[first + CONFIG_MAP_SLOTS_PER_CPU];
	pc->scratch_va = pc->map_va + ((uint64_t)CONFIG_MAP_SLOTS_PER_CPU << PAGE_SHIFT);
#else
	pc->map_ptes = NULL;
	pc->map_va = 0U;
	pc->scratch_pte = NULL;
	pc->scratch_va = 0U;
#endif
}

/* Cold and out of line: the debug checks of the inline fast paths (asm/arch_inline.h). */
__attribute__((cold)) void mmu_irqs_masked_check(void)
{
	if ((sysreg_read(daif) & DAIF_I) == 0U) {
		panic("bulkhead: CPU%u: guest translation with IRQs unmasked", this_pcpu()->id);
	}
}

__attribute__((cold)) void mmu_scratch_check(const struct pcpu *pc, unsigned int slot, paddr_t ma)
{
	if (!maddr_in_ram(ma)) {
		slot_bad_maddr(ma);
	}
	if ((sysreg_read(daif) & DAIF_I) == 0U) {
		panic("bulkhead: CPU%u: scratch slot used with IRQs unmasked", pc->id);
	}
	if ((pc->scratch_pte == NULL) || (slot >= ARCH_NR_SCRATCH) ||
	    (read_atomic(&pc->scratch_pte[slot]) != 0U)) {
		panic("bulkhead: CPU%u: scratch slot %u busy or missing", pc->id, slot);
	}
}

void *arch_map_page(mfn_t mfn)
{
	paddr_t ma = mfn_to_maddr(mfn);
#if CONFIG_XPFO
	struct pcpu *pc = this_pcpu();
	/* The lowest free slot; bits past the last slot count as free, so test the index. */
	unsigned int s = (unsigned int)__builtin_ctz(~pc->map_used);
#endif

	if (!maddr_in_ram(ma)) {
		slot_bad_maddr(ma);
	}
#if CONFIG_XPFO
	slot_check_irqs_masked();
	if (s >= CONFIG_MAP_SLOTS_PER_CPU) {
		slot_all_busy(pc);
	}
	pc->map_used |= U(1) << s;
	/* The slot was invalid: no TLB entry to remove, only order the write. */
	write_atomic(&pc->map_ptes[s], slot_entry(ma));
	dsb_ishst();
	isb();
	return (void *)(uintptr_t)(pc->map_va + ((uint64_t)s << PAGE_SHIFT));
#else
	return (void *)(uintptr_t)ma;
#endif
}

void arch_unmap_page(void *va)
{
#if CONFIG_XPFO
	uint64_t a = (uint64_t)(uintptr_t)va & PAGE_MASK;
	struct pcpu *pc = this_pcpu();
	/* Below this CPU's slots the difference wraps to a huge value: one compare. */
	uint64_t s = (a - pc->map_va) >> PAGE_SHIFT;

	if (s >= CONFIG_MAP_SLOTS_PER_CPU) {
		slot_foreign(pc, va);
	}
	slot_check_irqs_masked();
	write_atomic(&pc->map_ptes[s], 0U);
	dsb_ishst();
	/* Only this CPU ever used the slot: a local invalidation suffices. */
	__asm__ volatile("tlbi vae2, %0" ::"r"(a >> PAGE_SHIFT) : "memory");
	dsb_nsh();
	isb();
	pc->map_used &= ~(U(1) << (unsigned int)s);
#else
	(void)va;
#endif
}

void arch_unmap_page_clean(void *va)
{
	cache_clean_range((void *)(uintptr_t)((uint64_t)(uintptr_t)va & PAGE_MASK), PAGE_SIZE);
	arch_unmap_page(va);
}

void *map_domain_page_global(mfn_t mfn)
{
#if CONFIG_XPFO
	uint64_t pte = slot_pte(mfn);
	unsigned int i;

	for (i = 0U; i < CONFIG_GLOBAL_MAP_SLOTS; i++) {
		if (!test_and_set_bit(i % 64U, &global_used[i / 64U])) {
			store_release(&global_l3[i], pte);
			dsb_ishst();
			isb();
			return (void *)(uintptr_t)(GLOBAL_SLOTS_VA + ((uint64_t)i << PAGE_SHIFT));
		}
	}
	panic("bulkhead: all %u global mapping slots busy", (unsigned int)CONFIG_GLOBAL_MAP_SLOTS);
#else
	(void)slot_pte(mfn);
	return (void *)(uintptr_t)mfn_to_maddr(mfn);
#endif
}

void unmap_domain_page_global(void *va)
{
	uint64_t a = (uint64_t)(uintptr_t)va & PAGE_MASK;

	cache_clean_range((void *)(uintptr_t)a, PAGE_SIZE);
#if CONFIG_XPFO
	{
		uint64_t i = (a - GLOBAL_SLOTS_VA) >> PAGE_SHIFT;

		if ((a < GLOBAL_SLOTS_VA) || (i >= CONFIG_GLOBAL_MAP_SLOTS)) {
			panic("bulkhead: unmap of a non-global slot %p", va);
		}
		write_atomic(&global_l3[i], 0U);
		dsb_ishst();
		/* Any CPU may have used it. */
		__asm__ volatile("tlbi vae2is, %0" ::"r"(a >> PAGE_SHIFT) : "memory");
		dsb_ish();
		isb();
		(void)test_and_clear_bit((unsigned int)(i % 64U), &global_used[i / 64U]);
	}
#endif
}

paddr_t virt_to_maddr(const void *va)
{
	uint64_t a = (uint64_t)(uintptr_t)va;

	if ((a >= MAP_SLOTS_VA) && (a < GLOBAL_SLOTS_VA + SZ_2M)) {
		const uint64_t *l3 = (a < GLOBAL_SLOTS_VA) ? slot_l3 : global_l3;
		uint64_t pte = l3[IDX(a, PAGE_SHIFT)];
		return (pte & PTE_ADDR) | PAGE_OFFSET_OF(a);
	}
	return a; /* identity: image, devices, direct map */
}

void *maddr_to_virt(paddr_t ma)
{
	return (void *)(uintptr_t)ma;
}

void arch_dcache_maintain(const void *va, size_t len, bool clean, bool inval)
{
	uint64_t line = dcache_line();
	uint64_t p = (uint64_t)(uintptr_t)va & ~(line - 1U);
	uint64_t end = (uint64_t)(uintptr_t)va + len;

	if (!clean && !inval) {
		return;
	}
	/* LOOP-BOUND: len / line rounds; line is CTR_EL0's DminLine, at least 4 bytes; len is a
	 * checked grant length (at most a page). */
	for (; p < end; p += line) {
		if (clean && inval) {
			__asm__ volatile("dc civac, %0" ::"r"(p) : "memory");
		} else if (clean) {
			__asm__ volatile("dc cvac, %0" ::"r"(p) : "memory");
		} else {
			__asm__ volatile("dc ivac, %0" ::"r"(p) : "memory");
		}
	}
	dsb_ish();
}

bool arch_xpfo_tables(struct xpfo_tables *t)
{
#if CONFIG_XPFO
	t->root = hyp_pt_root;
	t->cpu_slots_va = MAP_SLOTS_VA;
	/* SLOTS_PER_CPU: CONFIG_MAP_SLOTS_PER_CPU and the scratch slots. */
	t->cpu_slots_per_cpu = (uint32_t)CONFIG_MAP_SLOTS_PER_CPU + ARCH_NR_SCRATCH;
	t->nr_cpus = CONFIG_NR_CPUS;
	t->global_slots_va = GLOBAL_SLOTS_VA;
	t->nr_global_slots = CONFIG_GLOBAL_MAP_SLOTS;
	return true;
#else
	/* The direct map holds all RAM by design: nothing to check. */
	(void)t;
	return false;
#endif
}

#if CONFIG_XPFO
static bool el2_va_mapped(uint64_t va)
{
	uint64_t par;

	__asm__ volatile("at s1e2r, %0" ::"r"(va) : "memory");
	isb();
	par = sysreg_read(par_el1);
	return (par & 1U) == 0U;
}
#endif

/*
 * Boot self-check of exclusive page ownership: RAM just below the image,
 * just above it (where partitions are placed) and at the top of each bank
 * must not translate at EL2.
 */
void mmu_xpfo_selfcheck(void)
{
#if CONFIG_XPFO
	uint64_t probes[2U + (2U * DOM0LESS_MAX_BANKS)];
	unsigned int n = 0U;
	unsigned int i;

	/* Positive control: the probe itself must see the image. */
	if (!el2_va_mapped((uint64_t)(uintptr_t)_start)) {
		panic("bulkhead: XPFO self-check: AT S1E2R does not see the image");
	}
	probes[n++] = ((uint64_t)(uintptr_t)_start - PAGE_SIZE);
	probes[n++] = ROUND_UP((uint64_t)(uintptr_t)_end, SZ_2M);
	for (i = 0U; (i < hw_machine.nr_banks) && (i < DOM0LESS_MAX_BANKS); i++) {
		probes[n] = hw_machine.banks[i].base;
		probes[n + 1U] = hw_machine.banks[i].base + hw_machine.banks[i].size - PAGE_SIZE;
		n += 2U;
	}
	for (i = 0U; i < n; i++) {
		if (maddr_in_ram(probes[i]) && el2_va_mapped(probes[i]) &&
		    ((probes[i] < (uint64_t)(uintptr_t)_start) ||
		     (probes[i] >= (uint64_t)(uintptr_t)_end))) {
			/* Only the DTB may be mapped outside the image; it is never at a probe. */
			panic("bulkhead: XPFO: RAM at 0x%llx is mapped at EL2",
			      (unsigned long long)probes[i]);
		}
	}
	printk("bulkhead: XPFO: partition RAM is not mapped at EL2 (%u probes)\n", n);
#endif
}
