/* SPDX-License-Identifier: MIT */
/*
 * Generic timer. Guests own the EL1 virtual timer outright (CNTVOFF per
 * partition, loaded with the vCPU); EL1 may read the physical counter but
 * not program the physical timer. The hypervisor's own deadlines use the
 * EL2 physical timer (CNTHP, PPI 26).
 */
#include <bulkhead/arch.h>
#include <bulkhead/board.h>
#include <bulkhead/hwdesc.h>
#include <asm/gic_seam.h>
#include <asm/setup.h>
#include <asm/sysregs.h>

#define CNT_CTL_ENABLE U(1)
#define CNT_CTL_IMASK  U(2)
#define NSEC_PER_SEC   ULL(1000000000)

static uint64_t timer_freq;

void timer_init(void)
{
	/* Firmware sets CNTFRQ; the tree's clock-frequency and then board.c only stand in. */
	timer_freq = sysreg_read(cntfrq_el0) & 0xffffffffU;
	if (timer_freq == 0U) {
		timer_freq = hw_machine.timer_freq_hz;
	}
	if (timer_freq == 0U) {
		timer_freq = board.timer_freq_hz;
	}
}

static void hyp_timer_irq(unsigned int intid)
{
	(void)intid;
	/* The deadline only wakes the CPU: whoever armed it re-checks its state. */
	sysreg_write(cnthp_ctl_el2, CNT_CTL_IMASK);
}

void timer_cpu_init(void)
{
	sysreg_write(cnthctl_el2, CNTHCTL_EL1PCTEN);
	sysreg_write(cnthp_ctl_el2, CNT_CTL_IMASK);
	isb();
	(void)gic_route_irq(hw_machine.timer_intid[HW_TIMER_HYP], hyp_timer_irq);
}

uint64_t timer_ns_to_ticks(uint64_t ns)
{
	/* Split so that neither product overflows for any 64-bit ns. */
	return ((ns / NSEC_PER_SEC) * timer_freq) + (((ns % NSEC_PER_SEC) * timer_freq) / NSEC_PER_SEC);
}

void timer_set_deadline(uint64_t ns)
{
	if (ns == 0U) {
		sysreg_write(cnthp_ctl_el2, CNT_CTL_IMASK);
	} else {
		sysreg_write(cnthp_cval_el2, timer_ns_to_ticks(ns));
		sysreg_write(cnthp_ctl_el2, CNT_CTL_ENABLE);
	}
	isb();
}

uint64_t arch_now_ns(void)
{
	uint64_t cnt;

	isb();
	cnt = sysreg_read(cntpct_el0);
	return ((cnt / timer_freq) * NSEC_PER_SEC) + (((cnt % timer_freq) * NSEC_PER_SEC) / timer_freq);
}
