/* SPDX-License-Identifier: MIT */
/*
 * Secondary CPUs: PSCI CPU_ON to the firmware over SMC (QEMU virt with
 * virtualization=on implements PSCI with the SMC conduit, its DTB says
 * method = "smc"; so does TF-A on real boards).
 */
#include <bulkhead/arch.h>
#include <bulkhead/board.h>
#include <bulkhead/console.h>
#include <bulkhead/atomic.h>
#include <asm/gic_seam.h>
#include <asm/percpu.h>
#include <asm/setup.h>

#define PSCI_CPU_ON_64 U(0xc4000003)
#define SMP_WAIT_NS    ULL(1000000000)

extern char secondary_entry[];

int64_t psci_smc(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = a1;
	register uint64_t x2 __asm__("x2") = a2;
	register uint64_t x3 __asm__("x3") = a3;

	/* SMCCC: x4-x17 may be clobbered by the firmware. */
	__asm__ volatile("smc #0"
			 : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
			 :
			 : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
			   "x15", "x16", "x17", "memory");
	return (int64_t)x0;
}

__noreturn void secondary_start(unsigned int cpu)
{
	percpu_init(cpu);
	gic_cpu_init();
	timer_cpu_init();
	store_release(&pcpu_data[cpu].online, true);
	arch_cpu_loop();
}

void arch_smp_boot(void)
{
	unsigned int n = MIN(board.nr_cpus, (uint32_t)CONFIG_NR_CPUS);
	unsigned int online = 1U;
	unsigned int cpu;

	for (cpu = 1U; cpu < n; cpu++) {
		int64_t rc = psci_smc(PSCI_CPU_ON_64, board.mpidr[cpu],
				      (uint64_t)(uintptr_t)secondary_entry, cpu);
		uint64_t deadline = arch_now_ns() + SMP_WAIT_NS;
		bool up;

		if (rc != 0) {
			printk("bulkhead: CPU%u: PSCI CPU_ON failed (%lld)\n", cpu, (long long)rc);
			continue;
		}
		/* LOOP-BOUND: hardware condition with a timeout: gives up at deadline. */
		while (!load_acquire(&pcpu_data[cpu].online) && (arch_now_ns() < deadline)) {
			cpu_relax();
		}
		up = load_acquire(&pcpu_data[cpu].online);
		if (up) {
			online++;
		} else {
			printk("bulkhead: CPU%u did not come up\n", cpu);
		}
	}
	printk("bulkhead: %u of %u CPUs online\n", online, n);
}
