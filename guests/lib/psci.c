/* SPDX-License-Identifier: MIT */
/* Guest PSCI calls (SMCCC over HVC #0) and secondary vCPU start-up. */
#include <guest/psci.h>
#include <guest/console.h>
#include <guest/gic.h>
#include <guest/rt.h>

extern char secondary_entry[];
/* Read by secondary_entry in start.S: one stack per vCPU index. */
uint8_t secondary_stacks[GUEST_MAX_CPUS][SECONDARY_STACK_SIZE] __attribute__((aligned(4096)));
static void (*secondary_fn[GUEST_MAX_CPUS])(unsigned int cpu);

int64_t psci_call(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = a1;
	register uint64_t x2 __asm__("x2") = a2;
	register uint64_t x3 __asm__("x3") = a3;

	__asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) :: "memory");
	return (int64_t)x0;
}

int64_t psci_cpu_on(unsigned int cpu, void (*fn)(unsigned int cpu))
{
	if (cpu == 0 || cpu >= GUEST_MAX_CPUS)
		return PSCI_INVALID_PARAMS;
	secondary_fn[cpu] = fn;
	rt_dsb();
	return psci_call(PSCI_CPU_ON, cpu, (uint64_t)secondary_entry, cpu);
}

void rt_secondary_start(unsigned int cpu);
void rt_secondary_start(unsigned int cpu)
{
	mmu_enable();
	if (gic_version())
		gic_cpu_init();
	if (cpu < GUEST_MAX_CPUS && secondary_fn[cpu])
		secondary_fn[cpu](cpu);
	psci_cpu_off();
}

void psci_cpu_off(void)
{
	console_flush();
	psci_call(PSCI_CPU_OFF, 0, 0, 0);
	for (;;)
		rt_wfi();
}

int64_t psci_system_off(void)
{
	console_flush();
	return psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
}

int64_t psci_system_reset(void)
{
	console_flush();
	return psci_call(PSCI_SYSTEM_RESET, 0, 0, 0);
}
