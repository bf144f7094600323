/* SPDX-License-Identifier: MIT */
/*
 * Secondary CPUs: PSCI CPU_ON to the firmware over SMC, for every CPU the
 * device tree lists with enable-method "psci" when /psci says method =
 * "smc" (QEMU with virtualization=on, TF-A on real boards). CPU n is the
 * tree's n-th CPU, the boot CPU being CPU 0 (common/hwdesc.c).
 */
#include <bulkhead/arch.h>
#include <bulkhead/hwdesc.h>
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

uint64_t arch_smp_boot(void)
{
	unsigned int n = MIN(hw_machine.nr_cpus, (uint32_t)CONFIG_NR_CPUS);
	uint64_t online = 1U;
	unsigned int up_count = 1U;
	unsigned int cpu;

	for (cpu = 1U; cpu < n; cpu++) {
		uint64_t deadline;
		int64_t rc;
		bool up;

		if (!hw_machine.cpu_psci[cpu] || (hw_machine.psci != HW_PSCI_SMC)) {
			printk("bulkhead: CPU%u (MPIDR 0x%llx): not started, no PSCI SMC enable-method "
			       "in the device tree\n", cpu, (unsigned long long)hw_machine.mpidr[cpu]);
			continue;
		}
		rc = psci_smc(PSCI_CPU_ON_64, hw_machine.mpidr[cpu], (uint64_t)(uintptr_t)secondary_entry,
			      cpu);
		if (rc != 0) {
			printk("bulkhead: CPU%u (MPIDR 0x%llx): PSCI CPU_ON failed (%lld)\n", cpu,
			       (unsigned long long)hw_machine.mpidr[cpu], (long long)rc);
			continue;
		}
		deadline = arch_now_ns() + SMP_WAIT_NS;
		/* LOOP-BOUND: hardware condition with a timeout: gives up at deadline. */
		while (!load_acquire(&pcpu_data[cpu].online) && (arch_now_ns() < deadline)) {
			cpu_relax();
		}
		up = load_acquire(&pcpu_data[cpu].online);
		if (up) {
			online |= UINT64_C(1) << cpu;
			up_count++;
		} else {
			printk("bulkhead: CPU%u (MPIDR 0x%llx) did not come up\n", cpu,
			       (unsigned long long)hw_machine.mpidr[cpu]);
		}
	}
	printk("bulkhead: %u of %u CPUs online\n", up_count, n);
	return online;
}
