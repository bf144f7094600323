/* SPDX-License-Identifier: MIT */
#include "harness.h"
#include <bulkhead/mm.h>
#include <bulkhead/lib.h>

static jmp_buf panic_jmp;
static bool panic_armed;

static void harness_panic(void)
{
	if (panic_armed) {
		panic_armed = false;
		longjmp(panic_jmp, 1);
	}
}

void harness_reset(void)
{
	unsigned int i;

	for (i = 0U; i < CONFIG_MAX_DOMAINS; i++) {
		memset(&domains[i], 0, sizeof(domains[i]));
	}
	domain_stops_reset();
	host_domain_stop_hook = NULL;
	host_mm_reset();
	lock_check_reset();
	host_console_clear();
	host_set_cpu(0U);
	host_set_current(NULL);
	host_set_panic_hook(harness_panic);
}

struct domain *harness_domain(domid_t id, uint32_t nr_vcpus)
{
	struct domain *d = host_domain_running(id, nr_vcpus, HARNESS_RAM_BYTES);

	assert_non_null(d);
	return d;
}

void *harness_gpa(struct domain *d, paddr_t gpa)
{
	mfn_t mfn;
	enum p2m_type t;

	assert_int_equal(p2m_lookup(&d->p2m, gaddr_to_gfn(gpa), &mfn, &t), 0);
	return (uint8_t *)maddr_to_virt(mfn_to_maddr(mfn)) + PAGE_OFFSET_OF(gpa);
}

paddr_t harness_ram(unsigned int page, unsigned int off)
{
	return GUEST_RAM0_BASE + ((paddr_t)page << PAGE_SHIFT) + off;
}

long harness_call(struct vcpu *v, regval_t nr, regval_t a0, regval_t a1, regval_t a2)
{
	host_set_cpu(v->pcpu);
	return host_hypercall(v, nr, a0, a1, a2, 0U, 0U);
}

bool harness_expect_panic(void (*fn)(void *), void *arg)
{
	panic_armed = true;
	if (setjmp(panic_jmp) == 0) {
		fn(arg);
		panic_armed = false;
		return false;
	}
	return true;
}

struct grant_entry_v1 *harness_gnt_entry(struct domain *d, uint32_t ref)
{
	assert_true(ref < GNTTAB_MAX_ENTRIES);
	return &d->gt.shared[ref];
}

void harness_gnt_grant(struct domain *d, uint32_t ref, domid_t to, gfn_t gfn, uint16_t flags)
{
	struct grant_entry_v1 *e = harness_gnt_entry(d, ref);

	e->domid = to;
	e->frame = (uint32_t)gfn;
	__atomic_store_n(&e->flags, flags, __ATOMIC_RELEASE);
}
