/* SPDX-License-Identifier: MIT */
/*
 * The narrow interface common code uses to reach the machine. Common code
 * never touches a register: everything it needs from the CPU, the MMU or the
 * interrupt controller goes through these calls, which arch/arm implements
 * for the hypervisor and arch/host implements for host tests and benches.
 */
#ifndef BULKHEAD_ARCH_H
#define BULKHEAD_ARCH_H

#include <bulkhead/types.h>
#include <asm/arch_inline.h>

struct vcpu;
struct domain;

/*
 * Index of the calling physical CPU, 0 .. CONFIG_NR_CPUS-1, and the vCPU
 * running on it (NULL in the hypervisor's own context). An architecture may
 * define both inline in asm/arch_inline.h (ARCH_INLINE_CURRENT).
 */
#ifndef ARCH_INLINE_CURRENT
unsigned int arch_cpu_id(void);
struct vcpu *arch_current_vcpu(void);
#endif

/* Translate a guest virtual address of vCPU v through its stage 1. */
int arch_gva_to_ipa(const struct vcpu *v, vaddr_t gva, bool write, paddr_t *ipa);
/*
 * Both stages at once, with the stage-2 permission for the access (write or
 * read), for v, the vCPU this CPU is running: the machine address, or
 * -XEN_EFAULT when either stage refuses. It does not say what the stage-2
 * entry is (RAM, grant, MMIO): the caller decides which machine addresses it
 * may take without the p2m walk.
 */
#ifndef ARCH_INLINE_GVA_TO_MADDR
int arch_gva_to_maddr(const struct vcpu *v, vaddr_t gva, bool write, paddr_t *ma);
#endif

/*
 * One short access to machine address ma, which the caller found in a
 * partition's own RAM or a grant pinned to it: map its page in this CPU's
 * scratch slot `slot`, returning ma's address there, and end the access with
 * arch_unmap_scratch before anything else uses that slot. Each slot has one
 * use, never nested in itself; IRQs masked (a trap). An architecture may
 * define both inline (ARCH_INLINE_SCRATCH).
 */
#define ARCH_SCRATCH_ARG U(0)  /* a small hypercall argument or result, a grant-table element */
#define ARCH_SCRATCH_SRC U(1)  /* GNTTABOP_copy's source page */
#define ARCH_SCRATCH_DST U(2)  /* GNTTABOP_copy's destination page */
#define ARCH_NR_SCRATCH  U(3)
#ifndef ARCH_INLINE_SCRATCH
void *arch_map_scratch(unsigned int slot, paddr_t ma);
void arch_unmap_scratch(unsigned int slot, void *va);
#endif

/* Make the hypervisor able to access one machine page; see mm.h. */
void *arch_map_page(mfn_t mfn);
/*
 * End that access. No cache maintenance: the Xen ABI requires every page a
 * partition shares with the hypervisor (hypercall arguments, granted pages,
 * shared_info, ...) to be Normal Inner/Outer Write-Back Inner-Shareable in
 * the partition, the attributes of this mapping, so the caches keep the two
 * views coherent.
 */
void arch_unmap_page(void *va);
/*
 * End an access that wrote what a partition reads before it turns its MMU
 * on (its image, at build): the whole page is cleaned to the point of
 * coherency first.
 */
void arch_unmap_page_clean(void *va);
/*
 * Zero one page that arch_map_page() mapped and clean it to the point of
 * coherency (end the access with arch_unmap_page(va)).
 * Scrubbing a partition's RAM clears every page it owns at boot and at each
 * restart, so it must cost a few instructions per cache line, not per word.
 */
void arch_clear_page(void *va);

/* Invalidate stage-2 TLB entries of one VMID: one IPA, or all of them. */
void arch_tlb_flush_ipa(uint16_t vmid, paddr_t ipa);
void arch_tlb_flush_vmid(uint16_t vmid);

/*
 * Data-cache maintenance by VA over [va, va+len) to the point of coherency
 * (GNTTABOP_cache_flush): clean, invalidate, or both (clean+invalidate).
 */
void arch_dcache_maintain(const void *va, size_t len, bool clean, bool inval);

/* Raise a virtual PPI/SPI on vCPU v; kicks v's physical CPU if remote. */
void arch_vcpu_raise_irq(struct vcpu *v, unsigned int virq);
/* Wake a blocked vCPU (after an event it polls for). */
void arch_vcpu_kick(struct vcpu *v);

/* Continue a hypercall later: rewind the guest PC to the HVC. */
void arch_hypercall_continue(struct vcpu *v);
/* Update the hypercall argument register i (for continuations). */
void arch_hypercall_set_arg(struct vcpu *v, unsigned int i, regval_t val);

/* Console byte output on the hypervisor's UART. */
void arch_console_putc(char c);

/* Current time in nanoseconds since boot. */
uint64_t arch_now_ns(void);

__noreturn void arch_panic_halt(void);

/* Stop every vCPU of d (they park until restarted); returns once stopped. */
void arch_domain_stop(struct domain *d);
/* Start vCPU 0 of d (others wait for PSCI CPU_ON). */
void arch_domain_start(struct domain *d);
/* Every partition has stopped: leave the machine with this status. */
__noreturn void arch_system_off(int status);

/* Per-partition arch state (vGIC, timer offset) at creation and restart. */
int arch_domain_init(struct domain *d);
/* Put vCPU v in its reset state: entry at pc with x0 = arg, EL1h, MMU off. */
void arch_vcpu_reset(struct vcpu *v, vaddr_t pc, regval_t arg);

/*
 * Boot (common/setup.c calls these; arm-cpu implements them).
 * Start every other physical CPU (PSCI CPU_ON); each ends in arch_cpu_loop().
 * Returns the CPUs online, bit n for CPU n (CPU 0, the caller, included).
 */
uint64_t arch_smp_boot(void);
/* Run the vCPU pinned to the calling CPU (vcpu_of_pcpu()), or wait for one. */
__noreturn void arch_cpu_loop(void);
/*
 * Machine range [start, end) of the hypervisor image (text, data, BSS,
 * stacks, page tables), which boot keeps out of partition RAM. A weak
 * default in common/setup.c uses the linker symbols _start and _end.
 */
void arch_hyp_image_range(paddr_t *start, paddr_t *end);

#endif
