/* SPDX-License-Identifier: MIT */
/* Guest PSCI over HVC #0 (the conduit Xen and Bulkhead give partitions). */
#ifndef GUEST_PSCI_H
#define GUEST_PSCI_H

#include <stdint.h>

#define PSCI_VERSION        0x84000000U
#define PSCI_CPU_OFF        0x84000002U
#define PSCI_CPU_ON         0xC4000003U
#define PSCI_AFFINITY_INFO  0xC4000004U
#define PSCI_SYSTEM_OFF     0x84000008U
#define PSCI_SYSTEM_RESET   0x84000009U
#define PSCI_FEATURES       0x8400000AU

#define PSCI_SUCCESS        0
#define PSCI_NOT_SUPPORTED  (-1)
#define PSCI_INVALID_PARAMS (-2)
#define PSCI_DENIED         (-3)
#define PSCI_ALREADY_ON     (-4)

int64_t psci_call(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3);
/*
 * Start vCPU `cpu` (MPIDR Aff0) at fn(cpu) on its own stack, with the MMU,
 * vectors and console ready. Returns the PSCI status.
 */
int64_t psci_cpu_on(unsigned int cpu, void (*fn)(unsigned int cpu));
__attribute__((noreturn)) void psci_cpu_off(void);
/* These act on the whole partition; they return only with the PSCI error. */
int64_t psci_system_off(void);
int64_t psci_system_reset(void);

#endif
