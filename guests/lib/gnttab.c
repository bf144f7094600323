/* SPDX-License-Identifier: MIT */
#include <guest/guest.h>
#include <guest/xen_gnttab.h>

static volatile struct grant_entry_v1 *gnt_table;

long gnt_setup(unsigned int nr_frames)
{
	unsigned int i;

	if (!rt.has_hypervisor_node) {
		return -XEN_ENODEV;
	}
	/* Highest index first, as Linux does: the table grows to it at once. */
	for (i = nr_frames; i > 0U; i--) {
		long rc = xen_add_to_physmap(XENMAPSPACE_grant_table, i - 1U,
					     (rt.gnttab_base >> 12) + i - 1U);
		if (rc != 0) {
			return rc;
		}
	}
	gnt_table = (volatile struct grant_entry_v1 *)rt.gnttab_base;
	return 0;
}

volatile struct grant_entry_v1 *gnt_entry(grant_ref_t ref)
{
	return &gnt_table[ref];
}

void gnt_grant(grant_ref_t ref, domid_t domid, uint64_t gfn, bool readonly)
{
	volatile struct grant_entry_v1 *e = &gnt_table[ref];

	e->domid = domid;
	e->frame = (uint32_t)gfn;
	/* The hypervisor may act as soon as it sees the flags: publish them last. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	e->flags = (uint16_t)(GTF_permit_access | (readonly ? GTF_readonly : 0U));
}

long gnt_revoke(grant_ref_t ref)
{
	uint16_t *flags = (uint16_t *)(uintptr_t)&gnt_table[ref].flags;
	uint16_t old = __atomic_load_n(flags, __ATOMIC_ACQUIRE);
	unsigned int tries;

	for (tries = 0U; tries < 1000U; tries++) {
		if ((old & (GTF_reading | GTF_writing)) != 0U) {
			return -XEN_EBUSY;
		}
		if (__atomic_compare_exchange_n(flags, &old, 0, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			return 0;
		}
	}
	return -XEN_EBUSY;
}

int gnt_map(domid_t dom, grant_ref_t ref, uint64_t host_addr, bool readonly,
	    grant_handle_t *handle)
{
	struct gnttab_map_grant_ref op = {
		.host_addr = host_addr,
		.flags = GNTMAP_host_map | (readonly ? GNTMAP_readonly : 0U),
		.ref = ref,
		.dom = dom,
	};
	long rc = HYPERVISOR_grant_table_op(GNTTABOP_map_grant_ref, &op, 1);

	if (rc != 0) {
		return (int)rc;
	}
	*handle = op.handle;
	return op.status;
}

int gnt_unmap(uint64_t host_addr, grant_handle_t handle)
{
	struct gnttab_unmap_grant_ref op = { .host_addr = host_addr, .handle = handle };
	long rc = HYPERVISOR_grant_table_op(GNTTABOP_unmap_grant_ref, &op, 1);

	return (rc != 0) ? (int)rc : op.status;
}

int gnt_copy_from(domid_t dom, grant_ref_t ref, uint16_t off, uint64_t gfn, uint16_t doff,
		  uint16_t len)
{
	struct gnttab_copy op = {
		.source = { .u.ref = ref, .domid = dom, .offset = off },
		.dest = { .u.gmfn = gfn, .domid = DOMID_SELF, .offset = doff },
		.len = len,
		.flags = GNTCOPY_source_gref,
	};
	long rc = HYPERVISOR_grant_table_op(GNTTABOP_copy, &op, 1);

	return (rc != 0) ? (int)rc : op.status;
}
