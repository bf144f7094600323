/* SPDX-License-Identifier: MIT */
/*
 * PSCI 1.1 for guests (HVC #0 or SMC #0), acting on the calling partition
 * only: SYSTEM_OFF and SYSTEM_RESET stop or restart that partition, never
 * the machine.
 */
#include <bulkhead/arch.h>
#include <bulkhead/domain.h>
#include <asm/percpu.h>
#include <asm/setup.h>
#include <public/sched.h>

#define PSCI_VERSION           U(0x84000000)
#define PSCI_CPU_SUSPEND       U(0x84000001)
#define PSCI_CPU_OFF           U(0x84000002)
#define PSCI_CPU_ON            U(0x84000003)
#define PSCI_AFFINITY_INFO     U(0x84000004)
#define PSCI_MIGRATE_INFO_TYPE U(0x84000006)
#define PSCI_SYSTEM_OFF        U(0x84000008)
#define PSCI_SYSTEM_RESET      U(0x84000009)
#define PSCI_FEATURES          U(0x8400000a)
#define PSCI_SMC64             U(0x40000000)
#define SMCCC_VERSION          U(0x80000000)
/* SMCCC_ARCH_FEATURES (0x80000001) is not offered: PSCI_FEATURES says so. */

#define PSCI_SUCCESS           0
#define PSCI_NOT_SUPPORTED     (-1)
#define PSCI_INVALID_PARAMETERS (-2)
#define PSCI_ALREADY_ON        (-4)
#define PSCI_VERSION_1_1       U(0x10001)
#define PSCI_TOS_NOT_PRESENT_MP 2
#define AFFINITY_ON  0
#define AFFINITY_OFF 1

static int64_t vpsci_cpu_on(struct domain *d, uint64_t mpidr, uint64_t entry, uint64_t ctx)
{
	int id = vcpu_id_of_mpidr(mpidr);
	struct vcpu *t;
	int64_t rc = PSCI_SUCCESS;

	if ((id < 0) || ((uint32_t)id >= d->nr_vcpus)) {
		return PSCI_INVALID_PARAMETERS;
	}
	t = &d->vcpu[id];
	spin_lock(&d->lock);
	/* Still on, or still parking after CPU_OFF on its physical CPU. */
	if (load_acquire(&t->online) ||
	    ((t->pcpu < CONFIG_NR_CPUS) && (load_acquire(&pcpu_data[t->pcpu].cur_vcpu) == t))) {
		rc = PSCI_ALREADY_ON;
	} else {
		arch_vcpu_reset(t, entry, ctx);
		store_release(&t->online, true);
	}
	spin_unlock(&d->lock);
	if (rc == PSCI_SUCCESS) {
		arch_vcpu_kick(t);
	}
	return rc;
}

static int64_t vpsci_affinity_info(struct domain *d, uint64_t mpidr, uint64_t level)
{
	int id = vcpu_id_of_mpidr(mpidr);

	if ((level != 0U) || (id < 0) || ((uint32_t)id >= d->nr_vcpus)) {
		return PSCI_INVALID_PARAMETERS;
	}
	return load_acquire(&d->vcpu[id].online) ? AFFINITY_ON : AFFINITY_OFF;
}

static bool vpsci_supported(uint32_t fn)
{
	switch (fn & ~PSCI_SMC64) {
	case PSCI_VERSION:
	case PSCI_CPU_SUSPEND:
	case PSCI_CPU_OFF:
	case PSCI_CPU_ON:
	case PSCI_AFFINITY_INFO:
	case PSCI_MIGRATE_INFO_TYPE:
	case PSCI_SYSTEM_OFF:
	case PSCI_SYSTEM_RESET:
	case PSCI_FEATURES:
		return true;
	default:
		return fn == SMCCC_VERSION;
	}
}

bool vpsci_handle(struct vcpu *v, const struct cpu_regs *r, int64_t *result)
{
	struct domain *d = v->domain;
	uint32_t fn = (uint32_t)r->x[0];
	bool smc64 = (fn & PSCI_SMC64) != 0U;
	uint64_t mask = smc64 ? ~ULL(0) : ULL(0xffffffff);
	uint64_t a1 = r->x[1] & mask;
	uint64_t a2 = r->x[2] & mask;
	uint64_t a3 = r->x[3] & mask;
	int64_t ret;

	switch (fn & ~PSCI_SMC64) {
	case PSCI_VERSION:
		ret = PSCI_VERSION_1_1;
		break;
	case PSCI_CPU_SUSPEND:
		/* Standby semantics: return once an interrupt is pending. */
		v->blocked = true;
		ret = PSCI_SUCCESS;
		break;
	case PSCI_CPU_OFF:
		store_release(&v->online, false);
		ret = PSCI_SUCCESS; /* not seen: the vCPU parks */
		break;
	case PSCI_CPU_ON:
		ret = vpsci_cpu_on(d, a1, a2, a3);
		break;
	case PSCI_AFFINITY_INFO:
		ret = vpsci_affinity_info(d, a1, a2);
		break;
	case PSCI_MIGRATE_INFO_TYPE:
		ret = PSCI_TOS_NOT_PRESENT_MP;
		break;
	case PSCI_SYSTEM_OFF:
		domain_shutdown(d, SHUTDOWN_poweroff);
		ret = PSCI_SUCCESS;
		break;
	case PSCI_SYSTEM_RESET:
		domain_shutdown(d, SHUTDOWN_reboot);
		ret = PSCI_SUCCESS;
		break;
	case PSCI_FEATURES:
		ret = vpsci_supported((uint32_t)a1) ? PSCI_SUCCESS : PSCI_NOT_SUPPORTED;
		break;
	default:
		if (fn == SMCCC_VERSION) {
			ret = PSCI_VERSION_1_1; /* SMCCC 1.1 has the same encoding */
		} else {
			return false;
		}
		break;
	}
	*result = ret;
	return true;
}
