/* SPDX-License-Identifier: MIT */
/*
 * Two (or more) vCPUs: vCPU0 starts each other vCPU listed in the device
 * tree with PSCI CPU_ON; each prints from its own stack and switches itself
 * off; vCPU0 waits for AFFINITY_INFO to report it off again.
 */
#include <guest/guest.h>

static volatile unsigned int ran[GUEST_MAX_CPUS];

static uint64_t mpidr(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, mpidr_el1" : "=r"(v));
	return v;
}

static void secondary(unsigned int cpu)
{
	uint64_t sp;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	printf("%s: cpu%u up, mpidr 0x%lx, sp 0x%lx\n", rt_tag(), cpu, mpidr(), sp);
	__atomic_store_n(&ran[cpu], 1U, __ATOMIC_RELEASE);
}

/* Poll cond for up to ms milliseconds. */
static bool wait_ms(volatile unsigned int *flag, uint64_t ms)
{
	uint64_t end = cntvct() + timer_us_to_ticks(ms * 1000U);

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		if (cntvct() > end)
			return false;
	return true;
}

static bool wait_off(unsigned int cpu, uint64_t ms)
{
	uint64_t end = cntvct() + timer_us_to_ticks(ms * 1000U);

	/* AFFINITY_INFO: 0 = on, 1 = off, 2 = on pending. */
	while (psci_call(PSCI_AFFINITY_INFO, cpu, 0, 0) != 1)
		if (cntvct() > end)
			return false;
	return true;
}

int test_main(void)
{
	unsigned int cpu, n = rt.nr_cpus;
	int fails = 0;
	int64_t rc;

	printf("%s: cpu0 up, %u vCPUs in the device tree, PSCI version 0x%lx\n", rt_tag(), n,
	       (uint64_t)psci_call(PSCI_VERSION, 0, 0, 0));
	if (n < 2U || n > GUEST_MAX_CPUS) {
		printf("%s: need 2..%u vCPUs\n", rt_tag(), GUEST_MAX_CPUS);
		return 1;
	}
	for (cpu = 1; cpu < n; cpu++) {
		rc = psci_cpu_on(cpu, secondary);
		if (rc != PSCI_SUCCESS || !wait_ms(&ran[cpu], 5000)) {
			printf("%s: CPU_ON cpu%u failed: rc %ld\n", rt_tag(), cpu, rc);
			fails++;
			continue;
		}
		if (!wait_off(cpu, 5000)) {
			printf("%s: cpu%u never reported off\n", rt_tag(), cpu);
			fails++;
		}
	}
	rc = psci_call(PSCI_CPU_ON, n, 0x40000000U, 0);
	printf("%s: CPU_ON of absent cpu%u returned %ld\n", rt_tag(), n, rc);
	if (rc != PSCI_INVALID_PARAMS)
		fails++;
	if (!fails)
		printf("%s: all %u vCPUs ran\n", rt_tag(), n);
	return fails;
}
