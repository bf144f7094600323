/* SPDX-License-Identifier: MIT */
/*
 * Exits from a guest. Everything here runs on guest-controlled input, so
 * every path ends in one of: emulate and return, inject an exception into
 * the guest, or stop that partition. None panics the hypervisor.
 */
#include <bulkhead/arch.h>
#include <bulkhead/domain.h>
#include <bulkhead/console.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/mmio.h>
#include <bulkhead/mm.h>
#include <asm/gic_seam.h>
#include <asm/percpu.h>
#include <asm/setup.h>
#include <asm/sysregs.h>
#include <asm/regs.h>
#include "vgic_cpu.h"
#include <public/errno.h>

#define SMCCC_NOT_SUPPORTED ((uint64_t)(int64_t)-1)

/* ACTLR_EL1 (op0 3, op1 0, CRn 1, CRm 0, op2 1), trapped by HCR_EL2.TACR. */
#define SYSREG_ISS_MASK U(0x3ffc1e)
#define SYSREG_ACTLR_EL1 (((uint32_t)3U << 20) | ((uint32_t)1U << 17) | ((uint32_t)1U << 10))

static __attribute__((noinline, cold)) void vcpu_crash(struct vcpu *v, const char *fmt, uint64_t a,
							 uint64_t b)
{
	char why[96];

	(void)bh_snprintf(why, sizeof(why), fmt, (unsigned long long)a, (unsigned long long)b);
	domain_crash(v->domain, why);
}

void vcpu_inject_undef(struct vcpu *v, struct cpu_regs *r)
{
	uint64_t spsr = r->spsr;
	uint64_t offset;

	(void)v;
	if ((spsr & PSR_AARCH32) != 0U) {
		offset = 0x600U;
	} else if ((spsr & PSR_MODE_MASK) == PSR_MODE_EL0t) {
		offset = 0x400U;
	} else if ((spsr & PSR_MODE_MASK) == PSR_MODE_EL1t) {
		offset = 0x000U;
	} else {
		offset = 0x200U;
	}
	/* EL1 registers of the running vCPU are live in the CPU. */
	sysreg_write(elr_el1, r->elr);
	sysreg_write(spsr_el1, spsr);
	sysreg_write(esr_el1, ((uint64_t)EC_UNKNOWN << ESR_EC_SHIFT) | ESR_IL);
	r->elr = sysreg_read(vbar_el1) + offset;
	r->spsr = PSR_DAIF_MASK | PSR_MODE_EL1h;
}

/*
 * The hypercall exit tests v->online and v->blocked, adjacent bytes, in one
 * load: runnable and not blocked reads as online = 1, blocked = 0.
 */
BUILD_ASSERT(offsetof(struct vcpu, blocked) == offsetof(struct vcpu, online) + 1U);
BUILD_ASSERT(sizeof(bool) == 1U);
BUILD_ASSERT((offsetof(struct vcpu, online) % sizeof(uint16_t)) == 0U);
#define HC_ONLINE_NOT_BLOCKED ((uint16_t)0x0001U)

/*
 * v->online and v->blocked in one halfword load (one single-copy atomic
 * access; __builtin_memcpy, so no type punning). The exit reads it and the
 * other fields plainly: each read follows the call, so the compiler loads it
 * afresh, and an aligned byte, halfword or word is read in one access.
 */
static inline uint16_t hc_online_blocked(const struct vcpu *v)
{
	uint16_t both;

	__builtin_memcpy(&both, __builtin_assume_aligned(&v->online, sizeof(both)), sizeof(both));
	return both;
}

#if CONFIG_DEBUG
/*
 * What the lean exit does not test, because a trap that began in v cannot
 * change it without a reset (which bumps reset_gen): v's EL2 controls and EL1
 * registers are loaded here, and this CPU's list registers are v's, current.
 */
static void hc_exit_check(const struct pcpu *pc, const struct vcpu *v)
{
	if ((pc->sys_loaded != v) || v->arch.sys_dirty || !vgic_lrs_loaded_here(v)) {
		panic("hypercall exit: d%u v%u not loaded on CPU%u", v->domain->domain_id,
		      v->vcpu_id, pc->id);
	}
}
#endif

/* x0 for the guest, and how the vectors leave (HC_EXIT_*): returned in x0 and x1. */
struct hc_result {
	uint64_t x0;
	uint64_t exit;
};

/*
 * How a lean trap (a hypercall or an IRQ, vectors.S) leaves: straight back
 * when there is nothing to do but return (nothing to sync or flush, the vCPU
 * neither blocked nor stopped), else the full exit, or HC_EXIT_RESET when a
 * reset during the trap (restart, CPU_ON) owns the registers now.
 */
static inline __attribute__((always_inline)) uint64_t lean_exit(const struct pcpu *pc,
								 const struct vcpu *v)
{
	/*
	 * A reset (arch_vcpu_reset: restart, CPU_ON) or a re-initialised partition
	 * sets sys_dirty, which only a vCPU load clears: v was loaded when the trap
	 * began, so set now means the frame is no longer this trap's.
	 */
	if (v->arch.sys_dirty) {
		return HC_EXIT_RESET;
	}
	/*
	 * Another CPU that stops the partition or makes an interrupt pending for v
	 * meanwhile also kicks this CPU: its SGI, taken as soon as the guest runs,
	 * brings it back to the full exit. So plain reads do here (hc_online_blocked).
	 */
	if ((hc_online_blocked(v) == HC_ONLINE_NOT_BLOCKED) && (v->domain->state == DOMAIN_RUNNING) &&
	    vgic_none_pending(v->arch.vgic)) {
#if CONFIG_DEBUG
		hc_exit_check(pc, v);
#else
		(void)pc;
#endif
		return HC_EXIT_GUEST;
	}
	return HC_EXIT_FULL;
}

/*
 * A Xen hypercall (HVC #0xEA1), from the vectors' lean path: the frame holds
 * x0-x19 and x30 only (vectors.S), pc is this CPU's. x0-x4 are the arguments,
 * in place: each hc_* wrapper (common/hypercall.c) reads them by value before
 * the call does anything, so a reset during the call that rewrites the frame
 * cannot change them. The result goes back in x0, the exit (lean_exit) in x1.
 */
struct hc_result guest_hypercall(struct pcpu *pc)
{
	struct vcpu *v = pc->cur_vcpu;
	const struct cpu_regs *r = &v->arch.regs;   /* the frame the vectors filled */
	struct vgic_cpu *c = v->arch.vgic;          /* set for every vCPU a partition runs */
	struct hc_result res;
#if CONFIG_DEBUG
	uint32_t gen = v->arch.reset_gen;

	if (c == NULL) {
		panic("hypercall: d%u v%u has no vGIC", v->domain->domain_id, v->vcpu_id);
	}
#endif
	vgic_sync_here(c);
	res.x0 = (uint64_t)hypercall_dispatch(r->x[16], r->x);
	res.exit = lean_exit(pc, v);
#if CONFIG_DEBUG
	if (!v->arch.sys_dirty && (gen != v->arch.reset_gen)) {
		panic("hypercall exit: d%u v%u reset without sys_dirty", v->domain->domain_id,
		      v->vcpu_id);
	}
#endif
	return res;
}

/*
 * An IRQ taken from an AArch64 guest, from the vectors' lean path (the frame
 * as for a hypercall: x0-x19 and x30). The interrupts are handled as on the
 * full path (retire finished LRs, then gic_handle_irq); an interrupt for v
 * itself (its virtual timer, an assigned SPI routed to it) is loaded straight
 * into an LR there (vgic_hw_direct), so the usual exit is straight back. x0
 * goes back unchanged; after a reset the full exit takes the new frame.
 */
struct hc_result guest_irq_lean(struct pcpu *pc)
{
	struct vcpu *v = pc->cur_vcpu;
	struct vgic_cpu *c = v->arch.vgic;
	struct hc_result res;
	uint32_t iar;

#if CONFIG_DEBUG
	if (c == NULL) {
		panic("irq: d%u v%u has no vGIC", v->domain->domain_id, v->vcpu_id);
	}
#endif
	vgic_sync_here(c);
	iar = gic_hot_ack();
	if ((gic_hot_intid(iar) == GIC_PPI_VTIMER) && vgic_vtimer_here(v, pc->id)) {
		/* In an LR, hardware-linked: the guest's EOI deactivates it. */
		gic_hot_eoi(iar);
	} else {
		if (gic_hot_intid(iar) < GIC_INTID_SPECIAL) {
			gic_handle_acked(iar);
		}
		gic_handle_irq();   /* and any others pending */
	}
	res.exit = lean_exit(pc, v);
	res.x0 = v->arch.regs.x[0];
	return res;
}

static void handle_smccc(struct vcpu *v, struct cpu_regs *r)
{
	uint32_t gen = v->arch.reset_gen;
	int64_t ret = -1;
	bool handled = vpsci_handle(v, r, &ret);

	/* r is v's frame: after a reset (SYSTEM_RESET, restart) it is the new one. */
	if (gen == v->arch.reset_gen) {
		r->x[0] = handled ? (uint64_t)ret : SMCCC_NOT_SUPPORTED;
	}
}

/* HVC #0xEA1 never comes here: the vectors send it to guest_hypercall. */
static void handle_hvc(struct vcpu *v, struct cpu_regs *r, uint32_t imm)
{
	if (imm == 0U) {
		handle_smccc(v, r);
	} else {
		/* Like Xen: an HVC Bulkhead does not define is undefined. */
		r->elr -= 4U;
		vcpu_inject_undef(v, r);
	}
}

static void handle_smc(struct vcpu *v, struct cpu_regs *r, uint32_t imm)
{
	/* A trapped SMC has not executed: ELR is the SMC itself. */
	r->elr += 4U;
	if (imm == 0U) {
		handle_smccc(v, r);
	} else {
		r->x[0] = SMCCC_NOT_SUPPORTED;
	}
}

static void handle_sysreg(struct vcpu *v, struct cpu_regs *r, uint32_t iss)
{
	unsigned int rt = (iss >> 5) & 0x1fU;
	bool read = (iss & 1U) != 0U;
	uint64_t val = (rt == 31U) ? 0U : r->x[rt];

	if (vgic_emulate_sysreg(v, iss, &val) == 0) {
		/* ICC_* registers of the GICv3 CPU interface (SGIs). */
		if (read && (rt != 31U)) {
			r->x[rt] = val;
		}
		r->elr += 4U;
	} else if ((iss & SYSREG_ISS_MASK) == SYSREG_ACTLR_EL1) {
		/* Implementation-defined controls stay the hypervisor's: RAZ/WI. */
		if (read && (rt != 31U)) {
			r->x[rt] = 0U;
		}
		r->elr += 4U;
	} else {
		vcpu_inject_undef(v, r);
	}
}

static paddr_t fault_ipa(void)
{
	uint64_t hpfar = sysreg_read(hpfar_el2);
	uint64_t far = sysreg_read(far_el2);

	return ((hpfar & ULL(0xfffffffff0)) << 8) | (far & 0xfffU);
}

/*
 * A stage-2 data abort with nothing to emulate (no syndrome: ldp/stp, dc zva,
 * ...; a page-table walk; a permission fault), or an access the MMIO
 * emulation refused (rc): retried when it is a RAM page whose 2 MiB block
 * another vCPU of the partition was splitting (a page given back, shared_info
 * placed), else the partition is stopped. Out of line, so the emulated access
 * does not pay for the message's frame.
 */
static __attribute__((noinline, cold)) void dabt_refused(struct vcpu *v, paddr_t ipa,
							 uint64_t esr, int rc)
{
	uint32_t iss = ESR_ISS(esr);

	if ((FSC_TYPE(iss & FSC_MASK) == FSC_TRANSLATION) && ((rc == 0) || (rc == -XEN_ENOENT)) &&
	    p2m_fault_is_transient(&v->domain->p2m, gaddr_to_gfn(ipa))) {
		return;   /* a block was being split under us: retry the access */
	}
	if (rc == 0) {
		vcpu_crash(v, "stage-2 fault at 0x%llx (ESR 0x%llx)", ipa, esr);
	} else if (rc == -XEN_ENOENT) {
		vcpu_crash(v, "stage-2 fault at 0x%llx", ipa, 0U);
	} else {
		vcpu_crash(v, "stage-2 fault at 0x%llx: MMIO access failed (%lld)", ipa,
			   (uint64_t)(int64_t)rc);
	}
}

/*
 * A stage-2 data abort of v on frame r: emulated (MMIO), retried (a block
 * being split) or the partition stopped (dabt_refused). Returns how far the
 * guest's PC must move on (the access's length when emulated, else 0); the
 * caller moves it, in the frame or, on the lean path, in ELR_EL2 itself.
 */
static __attribute__((noinline)) uint64_t handle_dabt(struct vcpu *v, struct cpu_regs *r,
						       uint64_t esr)
{
	uint32_t iss = ESR_ISS(esr);
	paddr_t ipa = fault_ipa();
	bool write = (iss & DABT_WNR) != 0U;
	unsigned int rt = DABT_SRT(iss);
	unsigned int size = U(1) << DABT_SAS(iss);
	uint64_t val = 0U;
	int rc;

	if ((FSC_TYPE(iss & FSC_MASK) != FSC_TRANSLATION) || ((iss & DABT_S1PTW) != 0U) ||
	    ((iss & DABT_ISV) == 0U)) {
		/* Not an emulable access: no syndrome, a page-table walk, or a permission fault. */
		dabt_refused(v, ipa, esr, 0);
		return 0U;
	}
	if (write && (rt != 31U)) {
		val = r->x[rt];
	}
	rc = mmio_dispatch(v, ipa, write, size, &val);
	if (rc != 0) {
		dabt_refused(v, ipa, esr, rc);
		return 0U;
	}
	if (!write && (rt != 31U)) {
		if (((iss & DABT_SSE) != 0U) && (size < 8U)) {
			unsigned int top = (size * 8U) - 1U;
			uint64_t sign = ULL(1) << top;
			val = (val ^ sign) - sign;
		}
		if ((iss & DABT_SF) == 0U) {
			val &= 0xffffffffU;
		}
		r->x[rt] = val;
	}
	return ((esr & ESR_IL) != 0U) ? 4U : 2U;
}

/*
 * A data abort from the vectors' lean path (vectors.S guest_dabt_slot): an
 * access with a syndrome whose register is in the lean frame (x0-x19, x30 or
 * xzr; the vectors check), the frame otherwise as for a hypercall. Emulated
 * as on the full path; the PC moves on in ELR_EL2, which stays live, and the
 * exit is the hypercall's (lean_exit), x0 going back from the frame (an MMIO
 * read may have set it).
 */
struct hc_result guest_dabt_lean(struct pcpu *pc)
{
	struct vcpu *v = pc->cur_vcpu;
	struct cpu_regs *r = &v->arch.regs;
	uint64_t esr = sysreg_read(esr_el2);
	uint32_t iss = ESR_ISS(esr);
	uint64_t step;
	struct hc_result res;

	if (v->arch.vgic != NULL) {
		vgic_sync_here(v->arch.vgic);
	}
	if ((iss & (DABT_ISV | DABT_S1PTW | DABT_WNR | FSC_TYPE(FSC_MASK))) ==
	    (DABT_ISV | DABT_WNR | FSC_TRANSLATION)) {
		/*
		 * An emulable store (a driver's register write), as handle_dabt would
		 * emulate it, the value passed as it is (mmio_store).
		 */
		uint64_t rt = (esr >> 16) & ULL(0x1f);   /* DABT_SRT, as a 64-bit index */
		int rc;

		step = ((esr & ESR_IL) != 0U) ? ULL(4) : ULL(2);
		rc = mmio_store(v, fault_ipa(), (unsigned int)DABT_SAS(esr), (rt == 31U) ? 0U : r->x[rt]);
		if (rc != 0) {
			/*
			 * The syndrome registers still hold this trap's: IRQs and SErrors
			 * are masked and nothing here takes an exception at EL2.
			 */
			dabt_refused(v, fault_ipa(), sysreg_read(esr_el2), rc);
			step = 0U;
		}
	} else {
		step = handle_dabt(v, r, esr);
	}
	if (step != 0U) {
		sysreg_write(elr_el2, sysreg_read(elr_el2) + step);
	}
	/* The vGIC state is set for every vCPU a partition runs; the full exit copes otherwise. */
	res.exit = (v->arch.vgic != NULL) ? lean_exit(pc, v) : HC_EXIT_FULL;
	res.x0 = r->x[0];
	return res;
}

/*
 * Every synchronous trap but a Xen hypercall (vectors.S guest_sync_full), on
 * the full frame r. Returns r when the vCPU can go straight back to it
 * (lean_exit: nothing pending, not blocked, not stopped, not reset: an
 * emulated MMIO or system-register access), else NULL for the full exit.
 */
struct cpu_regs *guest_sync_handler(struct cpu_regs *r)
{
	struct pcpu *pc = this_pcpu();
	struct vcpu *v = pc->cur_vcpu;
	uint64_t esr = sysreg_read(esr_el2);
	uint32_t iss = ESR_ISS(esr);

	if (v->arch.vgic != NULL) {
		vgic_sync_here(v->arch.vgic);
	}
	switch (ESR_EC(esr)) {
	case EC_WFX:
		/* WFE is a hint: treat as a yield. WFI blocks until an interrupt. */
		if ((iss & 1U) == 0U) {
			v->blocked = true;
		}
		r->elr += ((esr & ESR_IL) != 0U) ? 4U : 2U;
		break;
	case EC_HVC64:
		handle_hvc(v, r, iss & 0xffffU);
		break;
	case EC_SMC64:
		handle_smc(v, r, iss & 0xffffU);
		break;
	case EC_SYSREG:
		handle_sysreg(v, r, iss);
		break;
	case EC_DABT_LOW:
		r->elr += handle_dabt(v, r, esr);
		break;
	case EC_IABT_LOW:
		if ((FSC_TYPE(iss & FSC_MASK) == FSC_TRANSLATION) &&
		    p2m_fault_is_transient(&v->domain->p2m, gaddr_to_gfn(fault_ipa()))) {
			break; /* retry the fetch */
		}
		vcpu_crash(v, "stage-2 fault at 0x%llx (instruction fetch, ESR 0x%llx)", fault_ipa(),
			   esr);
		break;
	default:
		vcpu_inject_undef(v, r);
		break;
	}
	/* The vGIC state is set for every vCPU a partition runs; the full exit copes otherwise. */
	if ((v->arch.vgic == NULL) || (lean_exit(pc, v) != HC_EXIT_GUEST)) {
		return NULL;
	}
	return r;
}

void guest_irq_handler(struct cpu_regs *r)
{
	(void)r;
	vgic_sync_lrs(this_pcpu()->cur_vcpu);
	gic_handle_irq();
}

void guest_fiq_handler(struct cpu_regs *r)
{
	guest_irq_handler(r);
}

void guest_serror_handler(struct cpu_regs *r)
{
	struct vcpu *v = this_pcpu()->cur_vcpu;

	vgic_sync_lrs(v);
	vcpu_crash(v, "SError (ESR 0x%llx, PC 0x%llx)", sysreg_read(esr_el2), r->elr);
}

void hyp_irq_handler(struct cpu_regs *r)
{
	(void)r;
	gic_handle_irq();
}
