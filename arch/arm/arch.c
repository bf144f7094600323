/* SPDX-License-Identifier: MIT */
/* The small arch.h services: address translation, TLB, hypercall registers, power. */
#include <bulkhead/arch.h>
#include <bulkhead/domain.h>
#include <bulkhead/hypercall.h>
#include <asm/percpu.h>
#include <asm/setup.h>
#include <asm/sysregs.h>
#include <public/errno.h>

#define PAR_F      ULL(1)
#define PAR_PA     ULL(0x000000fffffff000)
#define VTTBR_VMID_SHIFT U(48)

/*
 * gva of v through its stage 1 (AT S1E1R/W): an IPA. PAR_EL1 is guest state
 * and is given back untouched. Both stages at once: arch_gva_to_maddr
 * (asm/arch_inline.h).
 */
int arch_gva_to_ipa(const struct vcpu *v, vaddr_t gva, bool write, paddr_t *ipa)
{
	uint64_t saved;
	uint64_t par;
	irqflags_t f;

	/* The guest's stage 1 is only live on its own CPU, in a trap. */
	if ((v == NULL) || (v != this_pcpu()->cur_vcpu)) {
		return -XEN_EFAULT;
	}
	f = local_irq_save();
	saved = sysreg_read(par_el1);
	if (write) {
		__asm__ volatile("at s1e1w, %0" ::"r"(gva) : "memory");
	} else {
		__asm__ volatile("at s1e1r, %0" ::"r"(gva) : "memory");
	}
	isb();
	par = sysreg_read(par_el1);
	sysreg_write(par_el1, saved);
	local_irq_restore(f);
	if ((par & PAR_F) != 0U) {
		return -XEN_EFAULT;
	}
	*ipa = (par & PAR_PA) | PAGE_OFFSET_OF(gva);
	return 0;
}

/*
 * TLBI by IPA and VMALLS12E1 act on the VMID in VTTBR_EL2: when another
 * partition's is loaded, borrow the register for the duration.
 */
static uint64_t tlb_vmid_enter(uint16_t vmid, irqflags_t *f)
{
	uint64_t old;

	*f = local_irq_save();
	old = sysreg_read(vttbr_el2);
	if ((old >> VTTBR_VMID_SHIFT) != vmid) {
		sysreg_write(vttbr_el2, (uint64_t)vmid << VTTBR_VMID_SHIFT);
		isb();
	}
	return old;
}

static void tlb_vmid_exit(uint64_t old, irqflags_t f)
{
	if (sysreg_read(vttbr_el2) != old) {
		sysreg_write(vttbr_el2, old);
		isb();
	}
	local_irq_restore(f);
}

void arch_tlb_flush_ipa(uint16_t vmid, paddr_t ipa)
{
	irqflags_t f;
	uint64_t old = tlb_vmid_enter(vmid, &f);

	dsb_ishst();
	__asm__ volatile("tlbi ipas2e1is, %0" ::"r"(ipa >> PAGE_SHIFT) : "memory");
	dsb_ish();
	/* Combined stage 1+2 entries may cache the old IPA too. */
	__asm__ volatile("tlbi vmalle1is" ::: "memory");
	dsb_ish();
	isb();
	tlb_vmid_exit(old, f);
}

void arch_tlb_flush_vmid(uint16_t vmid)
{
	irqflags_t f;
	uint64_t old = tlb_vmid_enter(vmid, &f);

	dsb_ishst();
	__asm__ volatile("tlbi vmalls12e1is" ::: "memory");
	dsb_ish();
	isb();
	tlb_vmid_exit(old, f);
}

void arch_hypercall_continue(struct vcpu *v)
{
	/*
	 * Only inside v's own hypercall, on its CPU: the lean path (vectors.S)
	 * keeps ELR_EL2 live until the exit, so rewind the register itself.
	 */
	(void)v;
	sysreg_write(elr_el2, sysreg_read(elr_el2) - 4U); /* back onto the HVC */
}

void arch_hypercall_set_arg(struct vcpu *v, unsigned int i, regval_t val)
{
	if (i < HYPERCALL_NR_ARGS) {
		v->arch.regs.x[i] = val;
	}
}

/* Semihosting SYS_EXIT: QEMU leaves with this status. See hyp_sync_handler. */
#define SEMIHOST_SYS_EXIT U(0x18)
#define ADP_STOPPED_APPLICATION_EXIT ULL(0x20026)
#define PSCI_SYSTEM_OFF U(0x84000008)

__noreturn void arch_system_off(int status)
{
	local_irq_disable();
#if CONFIG_SEMIHOSTING_EXIT
	{
		static uint64_t block[2];
		register uint64_t x0 __asm__("x0") = SEMIHOST_SYS_EXIT;
		register uint64_t x1 __asm__("x1") = (uint64_t)(uintptr_t)block;

		block[0] = ADP_STOPPED_APPLICATION_EXIT;
		block[1] = (uint64_t)(int64_t)status;
		/* Without semihosting HLT is undefined: hyp_sync_handler skips it. */
		__asm__ volatile(".global semihost_hlt\nsemihost_hlt: hlt #0xf000"
				 : "+r"(x0) : "r"(x1) : "memory");
	}
#else
	(void)status;
#endif
	(void)psci_smc(PSCI_SYSTEM_OFF, 0U, 0U, 0U);
	/* LOOP-BOUND: terminal: PSCI SYSTEM_OFF returned, so nothing may run; the CPU stays in WFI
	 * for good. */
	for (;;) {
		wfi();
	}
}
