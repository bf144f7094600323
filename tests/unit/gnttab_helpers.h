/* SPDX-License-Identifier: MIT */
/* Grant-table test helpers: issue sub-ops as a guest vCPU would. */
#ifndef TESTS_GNTTAB_HELPERS_H
#define TESTS_GNTTAB_HELPERS_H

#include "harness.h"
#include <string.h>
#include <public/memory.h>

/* Where a mapping goes in the mapper's grant window. */
#define GNT_ADDR(i) (GUEST_GNTTAB_BASE + UL(0x100000) + ((paddr_t)(i) << PAGE_SHIFT))
/* Scratch page in the caller's RAM for hypercall arguments. */
#define GNT_ARGS harness_ram(0, 0)

static inline long gnt_op(struct vcpu *v, unsigned int cmd, paddr_t uop, unsigned int count)
{
	return harness_call(v, __HYPERVISOR_grant_table_op, cmd, uop, count);
}

static inline gfn_t gnt_page_gfn(unsigned int page)
{
	return gaddr_to_gfn(harness_ram(page, 0));
}

static inline paddr_t gnt_maddr(struct domain *d, paddr_t gpa)
{
	mfn_t mfn;
	enum p2m_type t;

	assert_int_equal(p2m_lookup(&d->p2m, gaddr_to_gfn(gpa), &mfn, &t), 0);
	return mfn_to_maddr(mfn);
}

static inline int16_t gnt_map(struct vcpu *v, domid_t dom, uint32_t ref, uint32_t flags,
			      paddr_t host_addr, uint32_t *handle, uint64_t *bus)
{
	struct gnttab_map_grant_ref *op = harness_gpa(v->domain, GNT_ARGS);

	memset(op, 0, sizeof(*op));
	op->host_addr = host_addr;
	op->flags = flags;
	op->ref = ref;
	op->dom = dom;
	op->handle = 0xdeadU;
	assert_int_equal(gnt_op(v, GNTTABOP_map_grant_ref, GNT_ARGS, 1), 0);
	if (handle != NULL) {
		*handle = op->handle;
	}
	if (bus != NULL) {
		*bus = op->dev_bus_addr;
	}
	return op->status;
}

static inline int16_t gnt_unmap(struct vcpu *v, paddr_t host_addr, uint32_t handle,
				uint64_t bus)
{
	struct gnttab_unmap_grant_ref *op = harness_gpa(v->domain, GNT_ARGS);

	memset(op, 0, sizeof(*op));
	op->host_addr = host_addr;
	op->dev_bus_addr = bus;
	op->handle = handle;
	op->status = 0x55;
	assert_int_equal(gnt_op(v, GNTTABOP_unmap_grant_ref, GNT_ARGS, 1), 0);
	return op->status;
}

static inline uint16_t gnt_flags(struct domain *d, uint32_t ref)
{
	return __atomic_load_n(&harness_gnt_entry(d, ref)->flags, __ATOMIC_ACQUIRE);
}

static inline uint32_t gnt_free(struct domain *d)
{
	bool ok = true;
	uint32_t n = gnttab_maptrack_nr_free(d, &ok);

	assert_true(ok);
	return n;
}

/* The revoke a protocol-following guest does: only when not in use. */
static inline bool gnt_guest_revoke(struct domain *d, uint32_t ref)
{
	uint16_t *flags = &harness_gnt_entry(d, ref)->flags;
	uint16_t cur = __atomic_load_n(flags, __ATOMIC_ACQUIRE);

	for (;;) {
		if ((cur & (GTF_reading | GTF_writing)) != 0U) {
			return false;
		}
		if (__atomic_compare_exchange_n(flags, &cur, 0, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			return true;
		}
	}
}

#endif
