/* SPDX-License-Identifier: MIT */
/*
 * vGIC core: per-vCPU pending state, list registers, injection from any
 * CPU, the guest virtual timer, guest SGIs (docs/vgic.md).
 *
 * vCPUs are pinned 1:1 to physical CPUs, so a vCPU's list registers stay in
 * its pCPU's hardware between exits: nothing is saved or restored on exit,
 * flush only adds what became pending and sync only releases what the
 * guest has finished with. Only the owning pCPU touches its LRs; other CPUs
 * set a pending bit under the vCPU's vgic lock and send an SGI.
 */
#include <asm/vgic.h>
#include <asm/gic.h>
#include <asm/percpu.h>
#include <bulkhead/domain.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/mmio.h>
#include <bulkhead/lib.h>
#include <bulkhead/console.h>
#include <public/errno.h>
#include <public/arch-arm.h>
#include "vgic_regs.h"
#include "vgic_cpu.h"

static struct vgic_dist vgic_dists[CONFIG_MAX_DOMAINS];
static struct vgic_cpu vgic_cpus[CONFIG_MAX_DOMAINS][CONFIG_MAX_VCPUS];
/*
 * Physical SPIs of assigned devices: the partition that owns each (virtual
 * INTID = physical INTID, as on Xen) and, per partition, the same as a set.
 * Written when a partition is built, read by the interrupt path.
 */
static struct domain *vgic_hw_owner[VGIC_NR_IRQS];
/* The vCPU each assigned SPI is routed to, kept by vgic_hw_sync (the interrupt path reads it). */
static struct vcpu *vgic_hw_to[VGIC_NR_IRQS];
static uint32_t vgic_hw_mask[CONFIG_MAX_DOMAINS][VGIC_NR_WORDS];
/* The vCPU whose interrupts this pCPU's list registers hold. */
static struct vcpu *vgic_loaded[CONFIG_NR_CPUS];

static unsigned int vgic_dom_index(const struct domain *d)
{
	/* domid n is domains[n - 1]; an unset id 0 wraps to an index past the pools. */
	return (unsigned int)d->domain_id - 1U;
}

static struct vgic_dist *vgic_dist_of(const struct domain *d)
{
	return &vgic_dists[vgic_dom_index(d)];
}

static struct vgic_cpu *vgic_cpu_of(const struct vcpu *v)
{
	return &vgic_cpus[vgic_dom_index(v->domain)][v->vcpu_id];
}

static bool vgic_bit(const uint32_t *set, unsigned int irq)
{
	return vgic_irq_valid(irq) && (((read_atomic(&set[irq / 32U]) >> (irq % 32U)) & 1U) != 0U);
}

/* irq is one of d's assigned SPIs. */
static bool vgic_dom_hw(const struct domain *d, unsigned int irq)
{
	return (irq >= VGIC_NR_PRIVATE) && vgic_bit(vgic_hw_mask[vgic_dom_index(d)], irq);
}

static bool vgic_vcpu_ok(const struct vcpu *v)
{
	return v != NULL && v->domain != NULL && vgic_dom_index(v->domain) < CONFIG_MAX_DOMAINS &&
	       v->vcpu_id < CONFIG_MAX_VCPUS;
}

/* The vgic lock may be wanted from interrupt handlers on this CPU. */
static irqflags_t vgic_lock(struct vgic_cpu *c)
{
	irqflags_t f = local_irq_save();

	spin_lock(&c->lock);
	return f;
}

static void vgic_unlock(struct vgic_cpu *c, irqflags_t f)
{
	spin_unlock(&c->lock);
	local_irq_restore(f);
}

static void vgic_kick(const struct vcpu *v)
{
	if (v->pcpu != this_pcpu()->id) {
		gic_send_sgi(v->pcpu, GIC_SGI_KICK);
	}
}

/*
 * irq raised for v while this pCPU handles v's own trap with v's LRs loaded
 * (an event v sent itself, a timer or an SGI taken in its trap): the guest
 * cannot run until this trap returns, so load irq into a free LR now instead
 * of leaving it to a full flush at exit. The hardware-linked timer PPI keeps
 * the flush. Caller holds c's lock.
 */
static inline __attribute__((always_inline)) bool vgic_raise_direct(const struct vcpu *v,
								   struct vgic_cpu *c, unsigned int irq)
{
	const struct pcpu *pc = this_pcpu();
	const struct vgic_dist *dist = c->dist;
	uint8_t prio;
	int i;

	/* LRs loaded here and current: c was set up by vgic_domain_init, dist too. */
	if ((pc->cur_vcpu != v) || (pc->id >= CONFIG_NR_CPUS) || (vgic_loaded[pc->id] != v) ||
	    c->lrs_stale || (irq == GIC_PPI_VTIMER) || !vgic_dist_on(dist) ||
	    !vgic_dist_irq_enabled(dist, c->vcpu, irq)) {
		return false;
	}
	prio = (irq < VGIC_NR_PRIVATE) ? dist->priv[c->vcpu].prio[irq]
				       : dist->spi_prio[irq - VGIC_NR_PRIVATE];
	if ((c->lrs.used == 0U) && vgic_set_empty(&c->pending)) {
		/*
		 * The usual case: every LR retired at the trap's entry, nothing
		 * waiting. LR 0, the one vgic_lr_direct would claim, without a search.
		 */
		c->lrs.irq[0] = (uint16_t)irq;
		c->lrs.hw = 0U;
		write_atomic(&c->lrs.used, U(1));
		gic_hot_write_lr_pending(0U, irq, prio, dist->version == 3U);
		return true;
	}
	i = vgic_lr_direct(&c->lrs, &c->pending, gic_hw_nr_lrs(), irq, true);
	if (i < 0) {
		return false;
	}
	gic_hw_write_lr_pending((unsigned int)i, irq, prio, dist->version == 3U);
	return true;
}

/* With c's lock held: irq into an LR at once (vgic_raise_direct) or pending; true: kick v. */
static __attribute__((noinline)) bool vgic_raise_locked(struct vcpu *v, struct vgic_cpu *c,
						      unsigned int irq)
{
	if (vgic_raise_direct(v, c, irq)) {
		return false;   /* v runs here: no kick */
	}
	vgic_set_add(&c->pending, irq);
	return true;
}

/* Mark irq pending on exactly v (no SPI re-routing) and kick it. */
static __attribute__((noinline)) void vgic_raise(struct vcpu *v, unsigned int irq)
{
	/* Set by vgic_domain_init for each of the partition's vCPUs: no index arithmetic. */
	struct vgic_cpu *c = (v->arch.vgic != NULL) ? v->arch.vgic : vgic_cpu_of(v);
	irqflags_t f = vgic_lock(c);
	bool kick = vgic_raise_locked(v, c, irq);

	vgic_unlock(c, f);
	if (kick) {
		vgic_kick(v);
	}
}

/* vgic_raise for a private interrupt of v, whose vGIC state c is set up. */
static __attribute__((noinline)) void vgic_raise_private_locked(struct vcpu *v, struct vgic_cpu *c,
								 unsigned int irq)
{
	irqflags_t f = vgic_lock(c);
	bool kick = vgic_raise_locked(v, c, irq);

	vgic_unlock(c, f);
	if (kick) {
		vgic_kick(v);
	}
}

/*
 * vgic_raise for a private interrupt (the event PPI of every send) of v, whose
 * vGIC state c is set up. The usual case of vgic_raise_direct first, inline
 * and without a call, so this stays a leaf: v's own trap on this CPU, its LRs
 * loaded here, current and all retired, nothing pending, the interrupt
 * enabled, and c's lock free at once (spin_trylock_inline): LR 0, as
 * vgic_raise_direct would load it. Anything else, a lock another CPU holds
 * included, takes vgic_raise_private_locked, which waits for the lock.
 */
static inline __attribute__((always_inline)) void vgic_raise_private(struct vcpu *v,
								    struct vgic_cpu *c,
								    unsigned int irq)
{
	const struct pcpu *pc = this_pcpu();
	const struct vgic_dist *dist = c->dist;
	const struct vgic_priv *priv = &dist->priv[c->vcpu];
	irqflags_t f;

	if ((pc->cur_vcpu == v) && (pc->id < CONFIG_NR_CPUS) && (vgic_loaded[pc->id] == v) &&
	    (irq != GIC_PPI_VTIMER)) {
		f = local_irq_save();
		if (spin_trylock_inline(&c->lock)) {
			if (!c->lrs_stale && (c->lrs.used == 0U) && vgic_set_empty(&c->pending) &&
			    vgic_dist_on(dist) && (((read_atomic(&priv->enabled) >> irq) & 1U) != 0U)) {
				c->lrs.irq[0] = (uint16_t)irq;
				c->lrs.hw = 0U;
				write_atomic(&c->lrs.used, U(1));
				gic_hot_write_lr_pending(0U, irq, priv->prio[irq], dist->version == 3U);
				spin_unlock(&c->lock);
				local_irq_restore(f);
				return;
			}
			spin_unlock(&c->lock);
		}
		local_irq_restore(f);
	}
	vgic_raise_private_locked(v, c, irq);
}

/* vgic_inject_irq but for a private interrupt of a vCPU with vGIC state. */
static __attribute__((noinline)) void vgic_inject_general(struct vcpu *v, unsigned int virq)
{
	struct domain *d;
	unsigned int t;

	if (!vgic_vcpu_ok(v) || !vgic_irq_valid(virq)) {
		return;
	}
	d = v->domain;
	/* SGIs and PPIs are banked: only an SPI is routed. */
	if ((virq < VGIC_NR_PRIVATE) && (v->vcpu_id < d->nr_vcpus)) {
		vgic_raise(v, virq);
		return;
	}
	t = vgic_dist_target(vgic_dist_of(d), virq, v->vcpu_id);
	if (t >= d->nr_vcpus) {
		t = 0U;
	}
	vgic_raise(&d->vcpu[t], virq);
}

void vgic_inject_irq(struct vcpu *v, unsigned int virq)
{
	/*
	 * A private interrupt of a vCPU whose vGIC state is set (vgic_domain_init
	 * sets it only for the partition's vCPUs, after the checks of
	 * vgic_inject_general): the event PPI of every send.
	 */
	if ((v != NULL) && (v->arch.vgic != NULL) && (virq < VGIC_NR_PRIVATE)) {
		vgic_raise_private(v, v->arch.vgic, virq);
		return;
	}
	vgic_inject_general(v, virq);
}

/* ------------------------------------------------------------------ */
/* List registers (owning pCPU only)                                    */

static void vgic_clear_lrs(struct vgic_cpu *c)
{
	if (c->vtimer_active) {
		/* The guest will never EOI it now: deactivate the physical timer here. */
		gic_hw_deactivate(GIC_PPI_VTIMER);
		c->vtimer_active = false;
	}
	gic_hw_vcpu_if_reset();
	c->lrs.used = 0U;
	c->lrs.hw = 0U;
	c->lrs_stale = false;
}

static void vgic_lr_load(struct vgic_cpu *c, const struct vgic_dist *dist, unsigned int vcpu,
			 unsigned int irq, int i)
{
	struct gic_lr lr = {
		.virq = irq,
		.prio = (irq < VGIC_NR_PRIVATE) ? dist->priv[vcpu].prio[irq]
						: dist->spi_prio[irq - VGIC_NR_PRIVATE],
		.state = GIC_LR_PENDING,
		.group1 = dist->version == 3U,
		.hw = false,
		.pintid = 0U,
	};

	if (irq == GIC_PPI_VTIMER && c->vtimer_hw) {
		lr.hw = true;
		lr.pintid = GIC_PPI_VTIMER;
		c->vtimer_hw = false;
		c->lrs.hw |= U(1) << (unsigned int)i;
	} else if ((irq >= VGIC_NR_PRIVATE) && (c->hw != NULL) && vgic_bit(c->hw, irq)) {
		/* An assigned device's SPI: only ever pending because the physical one fired. */
		lr.hw = true;
		lr.pintid = irq;
		c->lrs.hw |= U(1) << (unsigned int)i;
	} else {
		/* A software interrupt: the guest's EOI ends it in the LR alone. */
	}
	gic_hw_write_lr((unsigned int)i, &lr);
	vgic_set_del(&c->pending, irq);
}

/* A pending irq that is already in an LR: make that LR pending again. */
static void vgic_lr_repend(struct vgic_cpu *c, const struct vgic_dist *dist, unsigned int vcpu,
			  unsigned int irq, int i)
{
	struct gic_lr lr;

	gic_hw_read_lr((unsigned int)i, &lr);
	if (lr.state == GIC_LR_INVALID) {
		/* Finished but not yet released: reuse it for the new instance. */
		c->lrs.hw &= ~(U(1) << (unsigned int)i);
		vgic_lr_load(c, dist, vcpu, irq, i);
		return;
	}
	if (lr.hw) {
		return;   /* the physical interrupt is still active: it cannot be pending */
	}
	if (lr.state == GIC_LR_ACTIVE) {
		lr.state = GIC_LR_PENDING_ACTIVE;
		gic_hw_write_lr((unsigned int)i, &lr);
	}
	vgic_set_del(&c->pending, irq);
}

/*
 * All LRs busy and irq more urgent than an LR that is only pending (not
 * yet acknowledged): put that one back in the pending set and give its LR
 * to irq, so the guest always sees its most urgent interrupts first.
 */
static bool vgic_lr_preempt(struct vgic_cpu *c, const struct vgic_dist *dist, unsigned int vcpu,
			    unsigned int irq)
{
	uint8_t prio = (irq < VGIC_NR_PRIVATE) ? dist->priv[vcpu].prio[irq]
					       : dist->spi_prio[irq - VGIC_NR_PRIVATE];
	const struct gic_lr none = { 0 };
	uint8_t worst = prio;
	int victim = -1;
	unsigned int n;

	for (n = 0U; n < VGIC_MAX_LRS; n++) {
		struct gic_lr lr;

		if (((c->lrs.used >> n) & 1U) == 0U) {
			continue;
		}
		gic_hw_read_lr(n, &lr);
		if (lr.state == GIC_LR_PENDING && !lr.hw && lr.prio > worst) {
			worst = lr.prio;
			victim = (int)n;
		}
	}
	if (victim < 0) {
		return false;
	}
	/* The guest is not running on this CPU: the LR cannot change under us. */
	gic_hw_write_lr((unsigned int)victim, &none);
	vgic_set_add(&c->pending, c->lrs.irq[victim]);
	c->lrs.irq[victim] = (uint16_t)irq;
	c->lrs.hw &= ~(U(1) << (unsigned int)victim);
	vgic_lr_load(c, dist, vcpu, irq, victim);
	return true;
}

/*
 * Nothing for a flush to do: this CPU's LRs are v's and current, nothing is
 * pending and the underflow interrupt is off. Most exits (hypercalls) find
 * it so and leave without the lock. Read unlocked, by the owning pCPU with
 * IRQs masked: only the owner changes the LRs and the underflow flag, and
 * another CPU that adds a pending interrupt after this check also sends the
 * kick SGI, which takes the guest straight back out to a full flush.
 */
static bool vgic_flush_idle(const struct vgic_cpu *c, const struct vcpu *v, unsigned int cpu)
{
	if ((vgic_loaded[cpu] != v) || read_atomic(&c->lrs_stale) || c->underflow) {
		return false;
	}
	return vgic_none_pending(c);
}

/* The flush proper, out of line so the idle case does not pay for its frame. */
static __attribute__((noinline)) void vgic_flush_locked(struct vcpu *v, struct vgic_cpu *c,
							unsigned int cpu)
{
	struct vgic_dist *dist = vgic_dist_of(v->domain);
	struct vgic_irqset en;
	unsigned int nr = gic_hw_nr_lrs();
	unsigned int n;
	unsigned int w;
	bool more = false;
	bool drained = false;
	bool reset = false;
	uint32_t busy;
	irqflags_t f;

	f = vgic_lock(c);
	if (vgic_loaded[cpu] != v || c->lrs_stale) {
		vgic_clear_lrs(c);
		vgic_loaded[cpu] = v;
		reset = true;
	}
	if (vgic_dist_on(dist)) {
		vgic_dist_enabled_set(dist, v->vcpu_id, &en);
		/* Pending again while still in an LR: one round per LR in use. */
		busy = c->lrs.used;
		while (busy != 0U) {
			n = (unsigned int)__builtin_ctz(busy);
			busy &= busy - 1U;
			if (vgic_set_has(&c->pending, c->lrs.irq[n]) &&
			    vgic_set_has(&en, c->lrs.irq[n])) {
				vgic_lr_repend(c, dist, v->vcpu_id, c->lrs.irq[n], (int)n);
			}
		}
		for (n = 0U; (n < nr) && !drained && !more; n++) {
			unsigned int irq = vgic_pick(&c->pending, &en, dist->priv[v->vcpu_id].prio,
						     dist->spi_prio, &c->lrs);
			int i;

			if (irq == VGIC_NO_IRQ) {
				drained = true;
			} else {
				i = vgic_lr_claim(&c->lrs, nr, irq, false);
				if (i >= 0) {
					vgic_lr_load(c, dist, v->vcpu_id, irq, i);
				} else if (!vgic_lr_preempt(c, dist, v->vcpu_id, irq)) {
					more = true;
				} else {
					/* Took the LR of a less urgent, still pending one. */
				}
			}
		}
		for (w = 0U; w < VGIC_NR_WORDS && !more; w++) {
			more = (c->pending.w[w] & en.w[w]) != 0U && vgic_lr_count(&c->lrs) >= nr;
		}
	}
	/*
	 * LRs full: come back when they drain, not at the next unrelated exit.
	 * ICH_HCR is written (with its ISB) only when that changes.
	 */
	if (reset || (more != c->underflow)) {
		gic_hw_underflow(more);
		c->underflow = more;
	}
	vgic_unlock(c, f);
}

bool vgic_lrs_loaded_here(const struct vcpu *v)
{
	unsigned int cpu = this_pcpu()->id;

	return (cpu < CONFIG_NR_CPUS) && (vgic_loaded[cpu] == v) && (v->arch.vgic != NULL) &&
	       !read_atomic(&v->arch.vgic->lrs_stale);
}

void vgic_flush_lrs(struct vcpu *v)
{
	unsigned int cpu = this_pcpu()->id;
	struct vgic_cpu *c = (v != NULL) ? v->arch.vgic : NULL;

	/* v->arch.vgic is set only for a vCPU vgic_domain_init validated. */
	if ((c == NULL) || (cpu >= CONFIG_NR_CPUS)) {
		return;
	}
	if (!vgic_flush_idle(c, v, cpu)) {
		vgic_flush_locked(v, c, cpu);
	}
}

/* The owning pCPU at the start of a trap (vgic_sync_here says why without the lock). */
void vgic_sync_lrs(struct vcpu *v)
{
	struct vgic_cpu *c = (v != NULL) ? v->arch.vgic : NULL;

	if (c != NULL) {
		vgic_sync_here(c);
	}
}

bool vgic_vcpu_pending(struct vcpu *v)
{
	struct vgic_cpu *c;
	struct vgic_irqset en;
	unsigned int cpu = arch_cpu_id();
	bool r = false;
	unsigned int w;
	irqflags_t f;

	if (!vgic_vcpu_ok(v)) {
		return false;
	}
	c = vgic_cpu_of(v);
	if (!vgic_dist_on(vgic_dist_of(v->domain))) {
		return false;   /* nothing can be delivered: a trapped WFI may sleep */
	}
	vgic_dist_enabled_set(vgic_dist_of(v->domain), v->vcpu_id, &en);
	f = vgic_lock(c);
	for (w = 0U; w < VGIC_NR_WORDS; w++) {
		r = r || (c->pending.w[w] & en.w[w]) != 0U;
	}
	if (!r && cpu < CONFIG_NR_CPUS && vgic_loaded[cpu] == v && !c->lrs_stale) {
		for (w = 0U; w < VGIC_MAX_LRS; w++) {
			struct gic_lr lr;

			if (((c->lrs.used >> w) & 1U) == 0U) {
				continue;
			}
			gic_hw_read_lr(w, &lr);
			r = r || (lr.state & GIC_LR_PENDING) != 0U;
		}
	}
	vgic_unlock(c, f);
	return r;
}

bool vgic_vcpu_pending_irq(struct vcpu *v)
{
	return vgic_vcpu_pending(v);
}

/*
 * The vCPU will never EOI what it was given (reset, its partition stopped):
 * deactivate those physical SPIs in the distributor, from any CPU. Caller
 * holds c's lock; the vCPU is not running.
 */
static void vgic_hw_release(struct vgic_cpu *c)
{
	unsigned int w;

	for (w = 0U; w < VGIC_NR_WORDS; w++) {
		uint32_t act = atomic_fetch_and(&c->hw_active[w], 0U);

		while (act != 0U) {
			unsigned int bit = (unsigned int)__builtin_ctz(act);

			act &= act - 1U;
			gic_spi_clear_active((w * 32U) + bit);
		}
	}
}

void vgic_vcpu_reset(struct vcpu *v)
{
	struct vgic_cpu *c;
	irqflags_t f;

	if (!vgic_vcpu_ok(v)) {
		return;
	}
	c = vgic_cpu_of(v);
	f = vgic_lock(c);
	(void)memset(&c->pending, 0, sizeof(c->pending));
	c->lrs_stale = true;
	c->vtimer_hw = false;
	vgic_hw_release(c);
	vgic_dist_reset_priv(vgic_dist_of(v->domain), v->vcpu_id);
	vgic_unlock(c, f);
}

/* ------------------------------------------------------------------ */
/* Interrupts taken at EL2                                              */

void vgic_maintenance(void)
{
	unsigned int cpu = this_pcpu()->id;
	struct vcpu *v = (cpu < CONFIG_NR_CPUS) ? vgic_loaded[cpu] : NULL;

	/* The exit itself does the work: sync retires, flush refills. */
	gic_hw_underflow(false);
	if ((v != NULL) && (v->arch.vgic != NULL)) {
		v->arch.vgic->underflow = false;   /* the next flush decides again */
	}
}

/*
 * The hardware-linked twin of vgic_raise_direct: physical irq (the virtual
 * timer, or an assigned SPI) fired for v while this pCPU runs v's trap with
 * its LRs loaded, nothing else pending: straight into a free LR with the HW
 * bit, so the exit needs no flush. Caller holds c's lock.
 */
static bool vgic_hw_direct(const struct vcpu *v, struct vgic_cpu *c, unsigned int irq)
{
	const struct pcpu *pc = this_pcpu();
	const struct vgic_dist *dist = c->dist;
	uint8_t prio;
	int i;

	if ((pc->cur_vcpu != v) || (pc->id >= CONFIG_NR_CPUS) || (vgic_loaded[pc->id] != v) ||
	    c->lrs_stale || !vgic_dist_on(dist) || !vgic_dist_irq_enabled(dist, c->vcpu, irq)) {
		return false;
	}
	prio = (irq < VGIC_NR_PRIVATE) ? dist->priv[c->vcpu].prio[irq]
				       : dist->spi_prio[irq - VGIC_NR_PRIVATE];
	if ((c->lrs.used == 0U) && vgic_set_empty(&c->pending)) {
		/* The usual case: every LR retired, nothing waiting. LR 0, without a search. */
		c->lrs.irq[0] = (uint16_t)irq;
		c->lrs.hw = U(1);
		write_atomic(&c->lrs.used, U(1));
		gic_hot_write_lr_hw(0U, irq, prio, dist->version == 3U);
		return true;
	}
	i = vgic_lr_direct(&c->lrs, &c->pending, gic_hw_nr_lrs(), irq, true);
	if (i < 0) {
		return false;
	}
	c->lrs.hw |= U(1) << (unsigned int)i;
	gic_hw_write_lr_hw((unsigned int)i, irq, prio, dist->version == 3U);
	return true;
}

bool vgic_vtimer_fired(uint32_t iar)
{
	unsigned int cpu = arch_cpu_id();
	struct vcpu *v = (cpu < CONFIG_NR_CPUS) ? vgic_loaded[cpu] : NULL;
	struct vgic_cpu *c;
	irqflags_t f;

	(void)iar;
	if (v == NULL || !v->online || v->domain->state != DOMAIN_RUNNING) {
		/* Nobody to give it to: silence the timer of a stopped vCPU. */
		__asm__ volatile("msr cntv_ctl_el0, xzr\n\tisb" ::: "memory");
		return false;
	}
	/* vgic_loaded[] names only a vCPU vgic_domain_init gave its state (vgic_flush_lrs). */
	c = v->arch.vgic;
	f = vgic_lock(c);
	c->vtimer_active = true;
	/* Taken in v's own trap, its LRs here: straight into an LR, no flush (vgic_hw_direct). */
	if (!vgic_hw_direct(v, c, GIC_PPI_VTIMER)) {
		vgic_set_add(&c->pending, GIC_PPI_VTIMER);
		c->vtimer_hw = true;
	}
	vgic_unlock(c, f);
	return true;
}

/*
 * The common case of vgic_vtimer_fired with vgic_hw_direct, for the lean IRQ
 * path: v runs here (its trap, IRQs masked), its LRs are loaded here, current
 * and all retired, nothing is pending, its partition runs and has the timer
 * enabled. Then LR 0 takes the hardware-linked timer, as vgic_hw_direct would
 * have loaded it; anything else changes nothing and answers false.
 */
bool vgic_vtimer_here(struct vcpu *v, unsigned int cpu)
{
	struct vgic_cpu *c = v->arch.vgic;
	const struct vgic_dist *dist;
	bool done = false;

	if ((cpu >= CONFIG_NR_CPUS) || (vgic_loaded[cpu] != v) || (c == NULL) || !v->online ||
	    (v->domain->state != DOMAIN_RUNNING)) {
		return false;
	}
	dist = c->dist;
	/* IRQs are masked (the trap's entry): the lock alone, as vgic_lock would take it. */
	spin_lock(&c->lock);
	if (!c->lrs_stale && (c->lrs.used == 0U) && vgic_set_empty(&c->pending) &&
	    vgic_dist_on(dist) && vgic_dist_irq_enabled(dist, c->vcpu, GIC_PPI_VTIMER)) {
		c->vtimer_active = true;
		c->lrs.irq[0] = (uint16_t)GIC_PPI_VTIMER;
		c->lrs.hw = U(1);
		write_atomic(&c->lrs.used, U(1));
		gic_hot_write_lr_hw(0U, GIC_PPI_VTIMER, dist->priv[c->vcpu].prio[GIC_PPI_VTIMER],
				    dist->version == 3U);
		done = true;
	}
	spin_unlock(&c->lock);
	return done;
}

bool vgic_hw_owned(unsigned int intid)
{
	return vgic_irq_valid(intid) && (read_atomic(&vgic_hw_owner[intid]) != NULL);
}

bool vgic_hw_irq(unsigned int intid)
{
	struct domain *d = vgic_irq_valid(intid) ? read_atomic(&vgic_hw_owner[intid]) : NULL;
	struct vgic_cpu *c;
	struct vcpu *v;
	irqflags_t f;

	if (d == NULL) {
		return false;
	}
	v = read_atomic(&vgic_hw_to[intid]);
	c = (v != NULL) ? v->arch.vgic : NULL;
	if ((read_atomic(&d->state) != DOMAIN_RUNNING) || (c == NULL)) {
		/* Its partition is stopping: masked there, nobody will EOI this one. */
		gic_hw_enable(intid, false);
		gic_hw_deactivate(intid);
		return true;
	}
	f = vgic_lock(c);
	(void)atomic_fetch_or(&c->hw_active[intid / 32U], U(1) << (intid % 32U));
	if (vgic_hw_direct(v, c, intid)) {
		vgic_unlock(c, f);
		return true;
	}
	vgic_set_add(&c->pending, intid);
	vgic_unlock(c, f);
	vgic_kick(v);
	return true;
}

/*
 * The partition's vGIC decides enable and routing of its assigned SPIs:
 * the physical ones follow, to the physical CPU of the target vCPU (pinned
 * 1:1), enabled only while the partition runs. After any distributor write.
 */
static void vgic_hw_sync(struct domain *d)
{
	const struct vgic_dist *dist = vgic_dist_of(d);
	bool run = read_atomic(&d->state) == DOMAIN_RUNNING;
	uint32_t i;

	for (i = 0U; (i < d->cfg.nr_dev_irqs) && (i < DOMAIN_MAX_DEV_IRQS); i++) {
		unsigned int irq = d->cfg.dev_irq[i].intid;
		unsigned int t = vgic_dist_target(dist, irq, 0U);

		if (!vgic_dom_hw(d, irq)) {
			continue;
		}
		write_atomic(&vgic_hw_to[irq], &d->vcpu[(t < d->nr_vcpus) ? t : 0U]);
		gic_hw_route_spi(irq, d->vcpu[(t < d->nr_vcpus) ? t : 0U].pcpu);
		gic_hw_enable(irq, run && vgic_dist_irq_enabled(dist, 0U, irq));
	}
}

unsigned int vgic_domain_hw_stop(struct domain *d)
{
	unsigned int left = 0U;
	uint32_t i;

	if ((d == NULL) || (vgic_dom_index(d) >= CONFIG_MAX_DOMAINS)) {
		return 0U;
	}
	for (i = 0U; (i < d->cfg.nr_dev_irqs) && (i < DOMAIN_MAX_DEV_IRQS); i++) {
		unsigned int irq = d->cfg.dev_irq[i].intid;

		if (vgic_dom_hw(d, irq)) {
			gic_hw_enable(irq, false);
			gic_spi_set_pending(irq, false);
			left += gic_spi_enabled(irq) ? 1U : 0U;
		}
	}
	for (i = 0U; i < d->nr_vcpus; i++) {
		struct vgic_cpu *c = vgic_cpu_of(&d->vcpu[i]);
		irqflags_t f = vgic_lock(c);

		vgic_hw_release(c);
		vgic_unlock(c, f);
	}
	return left;
}

/* ------------------------------------------------------------------ */
/* Guest SGIs through ICC_SGI1R_EL1 (GICv3)                             */

static void vgic_bus_raise(void *ctx, unsigned int vcpu, unsigned int irq)
{
	struct domain *d = ctx;

	if (vgic_dom_hw(d, irq)) {
		/* GICD_ISPENDR of an assigned SPI: the physical one, delivered as if it fired. */
		gic_spi_set_pending(irq, true);
		return;
	}
	if (vcpu < d->nr_vcpus) {
		vgic_raise(&d->vcpu[vcpu], irq);
	}
}

static void vgic_bus_lower(void *ctx, unsigned int vcpu, unsigned int irq)
{
	struct domain *d = ctx;
	struct vgic_cpu *c;
	irqflags_t f;

	if (vcpu >= d->nr_vcpus) {
		return;
	}
	c = vgic_cpu_of(&d->vcpu[vcpu]);
	f = vgic_lock(c);
	if (vgic_dom_hw(d, irq)) {
		/* Forget the physical pending state; one taken but not yet in an LR ends here. */
		gic_spi_set_pending(irq, false);
		if (vgic_set_has(&c->pending, irq) && vgic_bit(c->hw_active, irq)) {
			(void)atomic_fetch_and(&c->hw_active[irq / 32U], ~(U(1) << (irq % 32U)));
			gic_spi_clear_active(irq);
		}
	}
	vgic_set_del(&c->pending, irq);
	vgic_unlock(c, f);
}

static bool vgic_bus_pending(void *ctx, unsigned int vcpu, unsigned int irq)
{
	struct domain *d = ctx;
	struct vgic_cpu *c;
	irqflags_t f;
	bool r;

	if (vcpu >= d->nr_vcpus) {
		return false;
	}
	c = vgic_cpu_of(&d->vcpu[vcpu]);
	f = vgic_lock(c);
	r = vgic_set_has(&c->pending, irq) || vgic_lr_find(&c->lrs, irq) >= 0 ||
	    (vgic_dom_hw(d, irq) && gic_spi_pending(irq));
	vgic_unlock(c, f);
	return r;
}

static void vgic_bus_update(void *ctx, unsigned int vcpu)
{
	struct domain *d = ctx;

	if (vcpu < d->nr_vcpus) {
		vgic_kick(&d->vcpu[vcpu]);
	}
}

static void vgic_bus_of(struct domain *d, struct vgic_bus *b)
{
	b->ctx = d;
	b->raise = vgic_bus_raise;
	b->lower = vgic_bus_lower;
	b->pending = vgic_bus_pending;
	b->update = vgic_bus_update;
}

#define ISS_DIR_READ     U(1)
#define ISS_SYSREG_MASK  U(0x3ffc1e)   /* Op0, Op2, Op1, CRn, CRm */
#define ISS_SYSREG(op0, op1, crn, crm, op2) \
	(((uint32_t)(op0) << 20) | ((uint32_t)(op2) << 17) | ((uint32_t)(op1) << 14) | \
	 ((uint32_t)(crn) << 10) | ((uint32_t)(crm) << 1))
#define ISS_ICC_SGI1R    ISS_SYSREG(U(3), U(0), U(12), U(11), U(5))
#define ISS_ICC_ASGI1R   ISS_SYSREG(U(3), U(0), U(12), U(11), U(6))
#define ISS_ICC_SGI0R    ISS_SYSREG(U(3), U(0), U(12), U(11), U(7))

int vgic_emulate_sysreg(struct vcpu *v, uint32_t iss, uint64_t *val)
{
	uint32_t reg = iss & ISS_SYSREG_MASK;
	bool read = (iss & ISS_DIR_READ) != 0U;
	struct vgic_bus bus;
	unsigned int sgi;
	uint64_t mask;

	if (!vgic_vcpu_ok(v) || (reg != ISS_ICC_SGI1R && reg != ISS_ICC_ASGI1R &&
				 reg != ISS_ICC_SGI0R)) {
		return -XEN_ENOENT;
	}
	if (read) {
		*val = 0U;   /* write-only registers */
		return 0;
	}
	if (reg != ISS_ICC_SGI1R) {
		return 0;    /* Group 0 and the other Security state do not exist here */
	}
	mask = vgic_sgi1r_targets(*val, v->vcpu_id, v->domain->nr_vcpus, &sgi);
	vgic_bus_of(v->domain, &bus);
	vgic_send_sgis(&bus, mask, v->domain->nr_vcpus, sgi);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Guest distributor and redistributors                                 */

static int vgic_gicd_read(struct vcpu *v, paddr_t off, unsigned int size, uint64_t *val,
			  void *priv)
{
	struct domain *d = priv;
	struct vgic_bus bus;

	vgic_bus_of(d, &bus);
	return vgic_gicd_access(vgic_dist_of(d), &bus, v->vcpu_id, (uint32_t)off, size, false,
				val);
}

static int vgic_gicd_write(struct vcpu *v, paddr_t off, unsigned int size, uint64_t val,
			   void *priv)
{
	struct domain *d = priv;
	struct vgic_bus bus;
	int rc;

	vgic_bus_of(d, &bus);
	rc = vgic_gicd_access(vgic_dist_of(d), &bus, v->vcpu_id, (uint32_t)off, size, true, &val);
	if ((rc == 0) && (d->cfg.nr_dev_irqs != 0U)) {
		vgic_hw_sync(d);   /* enables and routes of assigned SPIs reach the hardware */
	}
	return rc;
}

static const struct mmio_ops vgic_gicd_ops = {
	.read = vgic_gicd_read,
	.write = vgic_gicd_write,
};

#ifdef CONFIG_GICV3
static int vgic_gicr_read(struct vcpu *v, paddr_t off, unsigned int size, uint64_t *val,
			  void *priv)
{
	struct domain *d = priv;
	struct vgic_bus bus;

	(void)v;
	vgic_bus_of(d, &bus);
	return vgic_gicr_access(vgic_dist_of(d), &bus, (uint32_t)off, size, false, val);
}

static int vgic_gicr_write(struct vcpu *v, paddr_t off, unsigned int size, uint64_t val,
			   void *priv)
{
	struct domain *d = priv;
	struct vgic_bus bus;

	(void)v;
	vgic_bus_of(d, &bus);
	return vgic_gicr_access(vgic_dist_of(d), &bus, (uint32_t)off, size, true, &val);
}

static const struct mmio_ops vgic_gicr_ops = {
	.read = vgic_gicr_read,
	.write = vgic_gicr_write,
};
#endif

static int vgic_register(struct domain *d, paddr_t base, paddr_t size, const struct mmio_ops *ops)
{
	int rc = mmio_register(d, base, size, ops, d);

	/* A restarted partition keeps its regions when the registry is not reset. */
	return (rc == -XEN_EEXIST) ? 0 : rc;
}

/*
 * The partition's assigned SPIs (checked by the parser: SPIs within
 * CONFIG_VGIC_NR_SPIS, no one else's): owned, configured with the host
 * node's trigger, routed to vCPU 0's physical CPU, disabled until the
 * partition's vGIC enables them. At boot and on restart.
 */
static void vgic_hw_init(struct domain *d)
{
	struct vgic_dist *dist = vgic_dist_of(d);
	uint32_t *mask = vgic_hw_mask[vgic_dom_index(d)];
	uint32_t i;

	for (i = 0U; i < VGIC_NR_WORDS; i++) {
		write_atomic(&mask[i], 0U);
	}
	for (i = 0U; (i < d->cfg.nr_dev_irqs) && (i < DOMAIN_MAX_DEV_IRQS); i++) {
		unsigned int irq = d->cfg.dev_irq[i].intid;

		if ((irq < VGIC_NR_PRIVATE) || !vgic_irq_valid(irq)) {
			continue;
		}
		gic_hw_enable(irq, false);
		gic_spi_set_pending(irq, false);
		gic_spi_clear_active(irq);
		gic_spi_set_edge(irq, d->cfg.dev_irq[i].edge);
		gic_hw_route_spi(irq, d->vcpu[0].pcpu);
		if (d->cfg.dev_irq[i].edge) {
			dist->spi_edge[irq / 32U] |= U(1) << (irq % 32U);
		}
		(void)atomic_fetch_or(&mask[irq / 32U], U(1) << (irq % 32U));
		write_atomic(&vgic_hw_to[irq], &d->vcpu[0]);
		write_atomic(&vgic_hw_owner[irq], d);
	}
}

int vgic_domain_init(struct domain *d)
{
	unsigned int i;
	int rc;

	if (d == NULL || vgic_dom_index(d) >= CONFIG_MAX_DOMAINS ||
	    d->nr_vcpus == 0U || d->nr_vcpus > CONFIG_MAX_VCPUS) {
		return -XEN_EINVAL;
	}
	for (i = 0U; i < CONFIG_MAX_VCPUS; i++) {
		struct vgic_cpu *c = &vgic_cpus[vgic_dom_index(d)][i];

		irqflags_t f;

		/* Once: a restart must not re-initialise a lock another CPU may hold. */
		if (c->lock.lclass != (uint8_t)LOCK_CLASS_VGIC) {
			spin_lock_init(&c->lock, LOCK_CLASS_VGIC);
		}
		f = vgic_lock(c);
		(void)memset(&c->pending, 0, sizeof(c->pending));
		c->lrs_stale = true;
		c->vtimer_hw = false;
		c->dist = vgic_dist_of(d);
		c->vcpu = i;
		c->hw = vgic_hw_mask[vgic_dom_index(d)];
		vgic_hw_release(c);
		vgic_unlock(c, f);
		if (i < d->nr_vcpus) {
			d->vcpu[i].arch.vgic = c;
		}
	}
#ifdef CONFIG_GICV3
	vgic_dist_reset(vgic_dist_of(d), 3U, d->nr_vcpus);
	vgic_hw_init(d);
	rc = vgic_register(d, GUEST_GICV3_GICD_BASE, VGIC_GICD_SIZE_V3, &vgic_gicd_ops);
	if (rc == 0) {
		rc = vgic_register(d, GUEST_GICV3_GICR0_BASE,
				   (paddr_t)d->nr_vcpus * VGIC_GICR_STRIDE, &vgic_gicr_ops);
	}
#else
	vgic_dist_reset(vgic_dist_of(d), 2U, d->nr_vcpus);
	vgic_hw_init(d);
	rc = vgic_register(d, GUEST_GICD_BASE, VGIC_GICD_SIZE_V2, &vgic_gicd_ops);
	if (rc == 0) {
		/* The guest's GICC is the hardware's virtual CPU interface. */
		rc = p2m_map_range(&d->p2m, GUEST_GICC_BASE >> PAGE_SHIFT,
				   hw_machine.gicv.base >> PAGE_SHIFT, GUEST_GICC_SIZE >> PAGE_SHIFT,
				   p2m_mmio_direct);
	}
#endif
	return rc;
}
