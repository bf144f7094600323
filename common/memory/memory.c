/* SPDX-License-Identifier: MIT */
/*
 * memory_op (hypercall 12): dispatch, and the queries a domU may make of
 * itself. The answers and error codes are those Xen 4.17 gives a dom0less
 * domU on Arm (guests/memop runs the same checks on both).
 */
#include "private.h"

int memory_target(domid_t dom, struct domain **out)
{
	struct domain *d = domain_resolve(dom);

	if (d == NULL) {
		return -XEN_ESRCH;
	}
	/* Xen's XSM_TARGET: a domU only acts on itself. */
	if (d != current->domain) {
		return -XEN_EPERM;
	}
	*out = d;
	return 0;
}

/* current_reservation, maximum_reservation, maximum_gpfn: arg points at a domid_t. */
static long memory_query(unsigned int op, uint64_t start, xen_guest_handle_t arg)
{
	domid_t dom;
	struct domain *d = NULL;
	long rc;

	if (start != 0U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&dom, arg, sizeof(dom)) != 0) {
		return -XEN_EFAULT;
	}
	rc = memory_target(dom, &d);
	if (rc != 0) {
		return rc;
	}
	spin_lock(&d->lock);
	if (op == XENMEM_current_reservation) {
		rc = (long)d->tot_pages;
	} else if (op == XENMEM_maximum_reservation) {
		rc = (long)d->max_pages;
	} else {
		rc = (long)read_atomic(&d->p2m.max_mapped_gfn);
	}
	spin_unlock(&d->lock);
	return rc;
}

long do_memory_op(regval_t cmd, xen_guest_handle_t arg)
{
	unsigned int op = (unsigned int)(cmd & MEMOP_CMD_MASK);
	/* The bits above the op carry the extent a continued call resumes at. */
	uint64_t start = cmd >> MEMOP_EXTENT_SHIFT;

	switch (op) {
	case XENMEM_increase_reservation:
	case XENMEM_decrease_reservation:
	case XENMEM_populate_physmap:
		return memory_reservation_op(op, start, arg);
	case XENMEM_maximum_ram_page:
		/* Xen tells any domU the machine's highest RAM frame + 1. */
		return (start != 0U) ? -XEN_EINVAL : (long)mm_boot_max_page();
	case XENMEM_current_reservation:
	case XENMEM_maximum_reservation:
	case XENMEM_maximum_gpfn:
		return memory_query(op, start, arg);
	case XENMEM_add_to_physmap:
		return memory_add_to_physmap(start, arg);
	case XENMEM_add_to_physmap_batch:
		return memory_add_to_physmap_batch(start, arg);
	case XENMEM_remove_from_physmap:
		return memory_remove_from_physmap(start, arg);
	case XENMEM_exchange:
		return memory_exchange(start, arg);
	case XENMEM_claim_pages:
		return memory_claim_pages(start, arg);
	case XENMEM_get_vnumainfo:
		return memory_get_vnumainfo(start, arg);
	case XENMEM_reserved_device_memory_map:
		return memory_reserved_device_memory_map(start, arg);
	case XENMEM_acquire_resource:
		return memory_acquire_resource(arg);
	case XENMEM_get_sharing_freed_pages:
	case XENMEM_get_sharing_shared_pages:
		return 0; /* no memory sharing on Arm: Xen answers 0 */
	default:
		/* x86's sub-ops (machphys, memory_map, PoD target, paging, sharing) and access_op. */
		return -XEN_ENOSYS;
	}
}
