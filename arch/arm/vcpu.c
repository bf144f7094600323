/* SPDX-License-Identifier: MIT */
/*
 * vCPUs on their physical CPUs: reset state, the per-CPU run loop, entry
 * and exit bookkeeping, partition start and stop.
 *
 * Each physical CPU hosts at most one vCPU (static 1:1 pinning), so there
 * is no scheduler: a CPU runs its vCPU while that vCPU is online and its
 * partition is running, and otherwise sleeps until an SGI kicks it.
 */
#include <bulkhead/arch.h>
#include <bulkhead/domain.h>
#include <bulkhead/console.h>
#include <bulkhead/mmio.h>
#include <bulkhead/vpl011.h>
#include <bulkhead/lib.h>
#include <asm/gic_seam.h>
#include <asm/percpu.h>
#include <asm/setup.h>
#include <asm/sysregs.h>
#include <asm/mmu.h>
#include <public/arch-arm.h>

#define STOP_WAIT_NS ULL(1000000000)


static uint64_t guest_hcr(void)
{
	uint64_t hcr = HCR_VM | HCR_SWIO | HCR_PTW | HCR_FMO | HCR_IMO | HCR_AMO | HCR_FB |
		       HCR_BSU_IS | HCR_TSC | HCR_TACR | HCR_TIDCP | HCR_RW;

#ifdef CONFIG_TRAP_WFI
	hcr |= HCR_TWI;
#endif
#ifdef CONFIG_TRAP_WFE
	hcr |= HCR_TWE;
#endif
	return hcr;
}

int vcpu_id_of_mpidr(uint64_t mpidr)
{
	uint64_t aff0 = mpidr & 0xffU;
	uint64_t aff1 = (mpidr >> 8) & 0xffU;
	uint64_t id = (aff1 * 16U) + aff0;

	/* Guest MPIDRs are Xen's: Aff0 = id % 16, Aff1 = id / 16, Aff2/3 zero. */
	if (((mpidr & ULL(0xff00ff0000)) != 0U) || (aff0 >= 16U) || (aff1 >= 16U)) {
		return -1;
	}
	return (int)id;
}

static uint64_t vcpu_vmpidr(uint32_t id)
{
	/* Bit 31 RES1; uniprocessor bit clear; no multithreading. */
	return (ULL(1) << 31) | (((uint64_t)id / 16U) << 8) | ((uint64_t)id % 16U);
}

void vcpu_sysregs_reset(struct vcpu *v)
{
	(void)memset(&v->arch.sys, 0, sizeof(v->arch.sys));
	v->arch.sys.sctlr = SCTLR_EL1_RESET;
	v->arch.sys_dirty = true;
}

void arch_vcpu_reset(struct vcpu *v, vaddr_t pc, regval_t arg)
{
	(void)memset(&v->arch.regs, 0, sizeof(v->arch.regs));
	v->arch.regs.x[0] = arg;
	v->arch.regs.elr = pc;
	v->arch.regs.spsr = PSR_GUEST_INIT;
	vcpu_sysregs_reset(v);
	v->arch.vmpidr = vcpu_vmpidr(v->vcpu_id);
	v->blocked = false;
	v->arch.reset_gen++;
	vgic_vcpu_reset(v);
}

static void sysregs_load(const struct el1_sysregs *s)
{
	sysreg_write(sctlr_el1, s->sctlr);
	sysreg_write(ttbr0_el1, s->ttbr0);
	sysreg_write(ttbr1_el1, s->ttbr1);
	sysreg_write(tcr_el1, s->tcr);
	sysreg_write(mair_el1, s->mair);
	sysreg_write(amair_el1, s->amair);
	sysreg_write(vbar_el1, s->vbar);
	sysreg_write(contextidr_el1, s->contextidr);
	sysreg_write(tpidr_el0, s->tpidr_el0);
	sysreg_write(tpidrro_el0, s->tpidrro_el0);
	sysreg_write(tpidr_el1, s->tpidr_el1);
	sysreg_write(sp_el0, s->sp_el0);
	sysreg_write(esr_el1, s->esr);
	sysreg_write(far_el1, s->far);
	sysreg_write(afsr0_el1, s->afsr0);
	sysreg_write(afsr1_el1, s->afsr1);
	sysreg_write(par_el1, s->par);
	sysreg_write(cpacr_el1, s->cpacr);
	sysreg_write(csselr_el1, s->csselr);
	sysreg_write(elr_el1, s->elr);
	sysreg_write(spsr_el1, s->spsr);
	sysreg_write(cntkctl_el1, s->cntkctl);
	sysreg_write(cntv_cval_el0, s->cntv_cval);
	sysreg_write(cntv_ctl_el0, s->cntv_ctl);
	sysreg_write(mdscr_el1, s->mdscr);
}

static void sysregs_save(struct el1_sysregs *s)
{
	s->sctlr = sysreg_read(sctlr_el1);
	s->ttbr0 = sysreg_read(ttbr0_el1);
	s->ttbr1 = sysreg_read(ttbr1_el1);
	s->tcr = sysreg_read(tcr_el1);
	s->mair = sysreg_read(mair_el1);
	s->amair = sysreg_read(amair_el1);
	s->vbar = sysreg_read(vbar_el1);
	s->contextidr = sysreg_read(contextidr_el1);
	s->tpidr_el0 = sysreg_read(tpidr_el0);
	s->tpidrro_el0 = sysreg_read(tpidrro_el0);
	s->tpidr_el1 = sysreg_read(tpidr_el1);
	s->sp_el0 = sysreg_read(sp_el0);
	s->esr = sysreg_read(esr_el1);
	s->far = sysreg_read(far_el1);
	s->afsr0 = sysreg_read(afsr0_el1);
	s->afsr1 = sysreg_read(afsr1_el1);
	s->par = sysreg_read(par_el1);
	s->cpacr = sysreg_read(cpacr_el1);
	s->csselr = sysreg_read(csselr_el1);
	s->elr = sysreg_read(elr_el1);
	s->spsr = sysreg_read(spsr_el1);
	s->cntkctl = sysreg_read(cntkctl_el1);
	s->cntv_ctl = sysreg_read(cntv_ctl_el0);
	s->cntv_cval = sysreg_read(cntv_cval_el0);
	s->mdscr = sysreg_read(mdscr_el1);
}

bool vcpu_runnable(const struct vcpu *v)
{
	return load_acquire(&v->online) &&
	       (read_atomic(&v->domain->state) == DOMAIN_RUNNING);
}

/* Make v the CPU's guest context. IRQs are masked. */
static void vcpu_load(struct pcpu *pc, struct vcpu *v)
{
	struct domain *d = v->domain;

	store_release(&pc->cur_vcpu, v);
	sysreg_write(vttbr_el2, p2m_vttbr(&d->p2m));
	sysreg_write(vtcr_el2, VTCR_EL2_VALUE);
	sysreg_write(hcr_el2, guest_hcr());
	sysreg_write(cntvoff_el2, d->arch.cntvoff);
	sysreg_write(vmpidr_el2, v->arch.vmpidr);
	if ((pc->sys_loaded != v) || v->arch.sys_dirty) {
		sysregs_load(&v->arch.sys);
		v->arch.sys_dirty = false;
		pc->sys_loaded = v;
	}
	isb();
}

/* v leaves its CPU (stopped or offline): keep its state, silence its timer. */
static void vcpu_park(struct pcpu *pc, struct vcpu *v)
{
	sysregs_save(&v->arch.sys);
	sysreg_write(cntv_ctl_el0, 0U);
	isb();
	pc->sys_loaded = NULL;
	store_release(&pc->cur_vcpu, NULL);
}

static bool vcpu_event_pending(struct vcpu *v)
{
	/*
	 * A masked upcall does not end a wait (Xen 4.17 honours the mask byte):
	 * a guest that polls its ports with the mask set never clears
	 * upcall_pending, and would otherwise never sleep again.
	 */
	if ((v->vcpu_info != NULL) && (read_atomic(&v->vcpu_info->evtchn_upcall_pending) != 0U) &&
	    (read_atomic(&v->vcpu_info->evtchn_upcall_mask) == 0U)) {
		return true;
	}
	/* Queue what is pending into the LRs first so the check sees it. */
	vgic_flush_lrs(v);
	return vgic_vcpu_pending_irq(v);
}

/*
 * WFI, SCHEDOP_block or SCHEDOP_poll: sleep until a physical interrupt
 * arrives (an SGI kick, a device or timer interrupt for this vCPU), bounded
 * by the hypervisor timer: the poll's own timeout when it is sooner than
 * the safety net. IRQs are masked: WFI still wakes on a pending one, which
 * is then taken as soon as the guest is re-entered. The physical CPU is
 * idle meanwhile: an emulated one yields its host thread.
 */
static void vcpu_idle_wait(struct vcpu *v)
{
	if (!vcpu_event_pending(v)) {
		uint64_t bound = arch_now_ns() + ((uint64_t)CONFIG_HYP_IDLE_WAKE_US * 1000U);

		timer_set_deadline(evtchn_poll_wake_by(v, bound));
		wfi();
		timer_set_deadline(0U);
	}
	evtchn_poll_end(v);
	v->blocked = false;
}

/* After a trap: the frame to return to, or NULL when this CPU must idle. */
struct cpu_regs *guest_resume(void)
{
	struct pcpu *pc = this_pcpu();
	struct vcpu *v = pc->cur_vcpu;

	if (v == NULL) {
		return NULL;
	}
	if (v->blocked && vcpu_runnable(v)) {
		vcpu_idle_wait(v);
	}
	if (!vcpu_runnable(v)) {
		vcpu_park(pc, v);
		return NULL;
	}
	/*
	 * Back from a trap into the vCPU that trapped: its EL2 controls and EL1
	 * registers are still the CPU's unless it was reset or its partition
	 * re-initialised (both set sys_dirty) or parked (sys_loaded cleared).
	 */
	if ((pc->sys_loaded != v) || v->arch.sys_dirty) {
		vcpu_load(pc, v);
	}
	vgic_flush_lrs(v);
	return &v->arch.regs;
}

__noreturn void arch_cpu_loop(void)
{
	struct pcpu *pc = this_pcpu();

	/* LOOP-BOUND: none by design: this is the CPU's run loop, which never returns; each round
	 * is one guest entry and exit or one WFI. */
	for (;;) {
		struct vcpu *v = vcpu_of_pcpu(pc->id);

		local_irq_disable();
		if ((v != NULL) && vcpu_runnable(v)) {
			vcpu_load(pc, v);
			vgic_flush_lrs(v);
			vcpu_enter(&v->arch.regs);
		}
		/* Masked WFI: an SGI kick between the check and here still wakes us. */
		wfi();
		local_irq_enable();
		isb();
		local_irq_disable();
	}
}

void arch_vcpu_raise_irq(struct vcpu *v, unsigned int virq)
{
	vgic_inject_irq(v, virq);
}

void arch_vcpu_kick(struct vcpu *v)
{
	write_atomic(&v->blocked, false);
	smp_mb();
	if ((v->pcpu != arch_cpu_id()) && (v->pcpu < CONFIG_NR_CPUS)) {
		gic_send_sgi(v->pcpu, SGI_KICK);
	}
}

int arch_domain_init(struct domain *d)
{
	uint32_t i;
	int rc;

	/* Also called on restart: registrations start afresh. */
	mmio_domain_reset(d);
	d->arch.cntvoff = sysreg_read(cntpct_el0);
	for (i = 0U; i < d->nr_vcpus; i++) {
		d->vcpu[i].arch.vmpidr = vcpu_vmpidr(i);
		/* New CNTVOFF and stage-2 root: the next entry loads them. */
		d->vcpu[i].arch.sys_dirty = true;
	}
	rc = vgic_domain_init(d);
	if ((rc == 0) && d->cfg.vpl011) {
		rc = vpl011_domain_init(d);
	}
	return rc;
}

void arch_domain_start(struct domain *d)
{
	enum domain_state created = DOMAIN_CREATED;
	struct vcpu *v0 = &d->vcpu[0];

	(void)atomic_cmpxchg(&d->state, &created, DOMAIN_RUNNING);
	/* Images were just written through the D-side: no stale instructions. */
	__asm__ volatile("dsb ish\n\tic ialluis\n\tdsb ish\n\tisb" ::: "memory");
	store_release(&v0->online, true);
	arch_vcpu_kick(v0);
}

void arch_domain_stop(struct domain *d)
{
	unsigned int me = arch_cpu_id();
	uint64_t deadline;
	uint32_t i;

	for (i = 0U; i < d->nr_vcpus; i++) {
		store_release(&d->vcpu[i].online, false);
	}
	smp_mb();
	for (i = 0U; i < d->nr_vcpus; i++) {
		struct vcpu *v = &d->vcpu[i];
		if ((v->pcpu < CONFIG_NR_CPUS) && (v->pcpu != me) &&
		    (load_acquire(&pcpu_data[v->pcpu].cur_vcpu) == v)) {
			gic_send_sgi(v->pcpu, SGI_KICK);
		}
	}
	/* The caller's own vCPU parks when its trap returns. */
	deadline = arch_now_ns() + STOP_WAIT_NS;
	for (i = 0U; i < d->nr_vcpus; i++) {
		struct vcpu *v = &d->vcpu[i];
		if (v->pcpu >= CONFIG_NR_CPUS) {
			continue;
		}
		/* LOOP-BOUND: hardware condition with a timeout: gives up at deadline, says so. */
		while ((v->pcpu != me) && (load_acquire(&pcpu_data[v->pcpu].cur_vcpu) == v) &&
		       (arch_now_ns() < deadline)) {
			cpu_relax();
		}
		if ((v->pcpu != me) && (load_acquire(&pcpu_data[v->pcpu].cur_vcpu) == v)) {
			printk("bulkhead: d%u v%u on CPU%u did not stop\n", d->domain_id, i, v->pcpu);
		}
	}
	/* Its devices fall silent until it runs again (restart) or for good. */
	if (d->cfg.nr_dev_irqs != 0U) {
		unsigned int left = vgic_domain_hw_stop(d);
		char list[64];
		size_t pos = 0U;
		for (i = 0U; (i < d->cfg.nr_dev_irqs) && (pos + 8U < sizeof(list)); i++) {
			int n = bh_snprintf(&list[pos], sizeof(list) - pos, " %u",
					    (unsigned int)d->cfg.dev_irq[i].intid);
			pos += (n > 0) ? (size_t)n : 0U;
		}
		printk("bulkhead: %s (d%u): device interrupts%s %s\n", d->cfg.name, d->domain_id,
		       list, (left == 0U) ? "masked" : "NOT masked");
	}
}
