/* SPDX-License-Identifier: MIT */
/*
 * The memory_op sub-ops a domU may call but that never do anything for it
 * on Xen 4.17 on Arm: exchange (steal_page() is not implemented on Arm),
 * claim_pages (the toolstack's), get_vnumainfo (no vNUMA for a dom0less
 * domU), reserved_device_memory_map (no IOMMU-reserved regions) and
 * acquire_resource (another domain's resources are the device model's).
 * Each checks its argument in Xen's order first, so the code a guest gets
 * is the one Xen would give.
 */
#include "private.h"

/* Pages of an extent list entry's gfn: valid for exchange when it maps a frame. */
static bool memory_gfn_valid(struct domain *d, gfn_t gfn)
{
	mfn_t mfn;
	enum p2m_type t;

	return (p2m_lookup(&d->p2m, gfn, &mfn, &t) == 0) && (t != p2m_mmio_direct) &&
	       (t != p2m_mmio_direct_dev);
}

/*
 * Xen's memory_exchange() loop: its very first page either is no page
 * (-EINVAL) or cannot be stolen (steal_page() is -EOPNOTSUPP on Arm).
 * 1 when nothing is left to exchange.
 */
static long memory_exchange_first(struct domain *d, const struct xen_memory_exchange *x)
{
	uint32_t in_chunk = 0U;
	uint64_t i;
	xen_pfn_t gfn;

	if (x->in.extent_order <= x->out.extent_order) {
		in_chunk = x->out.extent_order - x->in.extent_order;
	}
	i = x->nr_exchanged >> in_chunk;
	if (i >= (x->in.nr_extents >> in_chunk)) {
		return 1;
	}
	if (copy_from_guest(&gfn, x->in.extent_start + ((i << in_chunk) * sizeof(gfn)),
			    sizeof(gfn)) != 0) {
		return -XEN_EFAULT;
	}
	return memory_gfn_valid(d, gfn) ? -XEN_EOPNOTSUPP : -XEN_EINVAL;
}

long memory_exchange(uint64_t start, xen_guest_handle_t arg)
{
	struct xen_memory_exchange x;
	struct domain *d = NULL;
	uint32_t io;
	uint32_t oo;
	long rc;

	if (start != 0U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&x, arg, sizeof(x)) != 0) {
		return -XEN_EFAULT;
	}
	io = x.in.extent_order;
	oo = x.out.extent_order;
	if (MAX(io, oo) > MEMOP_MAX_ORDER) {
		rc = -XEN_EPERM;
	} else if ((x.nr_exchanged > x.in.nr_extents) || (x.in.domid != x.out.domid) ||
		   ((~(xen_ulong_t)0U >> io) < x.in.nr_extents) ||
		   ((~(xen_ulong_t)0U >> oo) < x.out.nr_extents) ||
		   ((x.in.nr_extents << io) != (x.out.nr_extents << oo))) {
		rc = -XEN_EINVAL;
	} else if (x.nr_exchanged == x.in.nr_extents) {
		return 0;
	} else if ((XENMEMF_get_node(x.out.mem_flags) != U(0xff)) &&
		   ((x.out.mem_flags & XENMEMF_exact_node_request) != 0U)) {
		rc = -XEN_EINVAL;
	} else {
		rc = memory_target(x.in.domid, &d);
		if (rc == 0) {
			rc = memory_exchange_first(d, &x);
		}
		if (rc == 1) {
			x.nr_exchanged = x.in.nr_extents;
			rc = 0;
		}
	}
	/* Xen reports how far it got, on failure too. */
	if (copy_to_guest(arg + (xen_guest_handle_t)offsetof(struct xen_memory_exchange, nr_exchanged),
			  &x.nr_exchanged, sizeof(x.nr_exchanged)) != 0) {
		rc = -XEN_EFAULT;
	}
	return rc;
}

long memory_claim_pages(uint64_t start, xen_guest_handle_t arg)
{
	struct xen_memory_reservation r;

	if (start != 0U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&r, arg, sizeof(r)) != 0) {
		return -XEN_EFAULT;
	}
	if ((r.extent_start != 0U) || (r.extent_order != 0U) || (r.mem_flags != 0U)) {
		return -XEN_EINVAL;
	}
	/* By number only (not DOMID_SELF), then the privilege the toolstack has. */
	return (domain_by_id(r.domid) == NULL) ? -XEN_EINVAL : -XEN_EPERM;
}

long memory_get_vnumainfo(uint64_t start, xen_guest_handle_t arg)
{
	struct xen_vnuma_topology_info t;
	struct domain *d = NULL;
	int rc;

	if (start != 0U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&t, arg, sizeof(t)) != 0) {
		return -XEN_EFAULT;
	}
	if (t.pad != 0U) {
		return -XEN_EINVAL;
	}
	rc = memory_target(t.domid, &d);
	return (rc != 0) ? rc : -XEN_EOPNOTSUPP;
}

long memory_reserved_device_memory_map(uint64_t start, xen_guest_handle_t arg)
{
	struct xen_reserved_device_memory_map m;

	if (start != 0U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&m, arg, sizeof(m)) != 0) {
		return -XEN_EFAULT;
	}
	if ((m.flags & ~XENMEM_RDM_ALL) != 0U) {
		return -XEN_EINVAL;
	}
	m.nr_entries = 0U;
	return (copy_to_guest(arg, &m, sizeof(m)) != 0) ? -XEN_EFAULT : 0;
}

long memory_acquire_resource(xen_guest_handle_t arg)
{
	struct xen_mem_acquire_resource r;
	const struct domain *d;

	if (copy_from_guest(&r, arg, sizeof(r)) != 0) {
		return -XEN_EFAULT;
	}
	if ((r.pad != 0U) || ((r.frame >> 32) != 0U) || (((r.frame + r.nr_frames) >> 32) != 0U)) {
		return -XEN_EINVAL;
	}
	/* A remote domain by number: itself is -EPERM, any other lacks the device-model privilege. */
	d = domain_by_id(r.domid);
	return (d == NULL) ? -XEN_ESRCH : -XEN_EPERM;
}
