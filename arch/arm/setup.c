/* SPDX-License-Identifier: MIT */
/* Boot CPU set-up after the MMU is on, and the per-CPU data. */
#include <bulkhead/arch.h>
#include <bulkhead/board.h>
#include <bulkhead/console.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/atomic.h>
#include <bulkhead/setup.h>
#include <asm/gic_seam.h>
#include <asm/mmu.h>
#include <asm/percpu.h>
#include <asm/setup.h>

struct pcpu pcpu_data[CONFIG_NR_CPUS];
uint8_t hyp_stacks[CONFIG_NR_CPUS][CONFIG_STACK_SIZE] __attribute__((aligned(4096)));
BUILD_ASSERT((CONFIG_STACK_SIZE % 16) == 0);
BUILD_ASSERT(offsetof(struct pcpu, cur_vcpu) == PCPU_CURRENT);
BUILD_ASSERT(offsetof(struct pcpu, stack_top) == PCPU_STACK_TOP);

void percpu_init(unsigned int cpu)
{
	struct pcpu *pc = &pcpu_data[cpu];

	pc->id = cpu;
	pc->stack_top = (uint64_t)(uintptr_t)&hyp_stacks[cpu][CONFIG_STACK_SIZE];
	pc->cur_vcpu = NULL;
	pc->sys_loaded = NULL;
	pc->map_used = 0U;
	mmu_percpu_slots(pc);
	sysreg_write(tpidr_el2, (uint64_t)(uintptr_t)pc);
	isb();
}

#if CONFIG_XPFO
#define XPFO_BANNER ", XPFO"
#else
#define XPFO_BANNER ""
#endif

__noreturn void arch_setup(paddr_t dtb)
{
	percpu_init(0U);
	machine_setup(dtb);
	uart_init();
	printk("\nBulkhead hypervisor: %s, GICv%u, %u CPUs, EL2 MMU on%s\n", board.name,
	       hw_machine.gic_version, hw_machine.nr_cpus, XPFO_BANNER);
	mmu_xpfo_selfcheck();
	timer_init();
	gic_init();
	gic_cpu_init();
	timer_cpu_init();
	uart_enable_rx_irq();
	write_atomic(&pcpu_data[0].online, true);
	start_hypervisor((const void *)(uintptr_t)dtb);
}
