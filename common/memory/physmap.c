/* SPDX-License-Identifier: MIT */
/*
 * add_to_physmap, add_to_physmap_batch and remove_from_physmap, with the
 * checks in the order Xen 4.17 makes them for a domU, so a bad argument
 * gets Xen's code. On Arm a domU can only place its shared_info page and
 * its grant-table frames (the hypervisor's pages it shares by ABI); foreign
 * and MMIO mappings are the toolstack's and the hardware domain's.
 */
#include "private.h"

/*
 * The shared_info page is the hypervisor's; it only appears in the p2m.
 * Like Xen it is placed once (-EBUSY while it is placed anywhere) and may
 * replace a RAM page (Linux puts it over a page it allocated; that page is
 * then lost to the partition, as on Xen); it never replaces a grant
 * mapping or a grant-table frame, whose bookkeeping would be left stale
 * (-EBUSY, where Xen would drop them). Under d->lock.
 */
static int memory_map_shared_info(struct domain *d, gfn_t gfn)
{
	int rc;
	mfn_t cur_mfn;
	enum p2m_type cur_t;

	if (d->shared_info_gfn != INVALID_GFN) {
		return -XEN_EBUSY;
	}
	if ((gfn >> (P2M_IPA_BITS - PAGE_SHIFT)) != 0U) {
		return -XEN_EINVAL;
	}
	if ((p2m_lookup(&d->p2m, gfn, &cur_mfn, &cur_t) == 0) && (cur_t != p2m_ram_rw) &&
	    (cur_t != p2m_ram_ro)) {
		return -XEN_EBUSY;
	}
	rc = p2m_prepare_page(&d->p2m, gfn);
	if (rc == 0) {
		rc = p2m_set_entry(&d->p2m, gfn, maddr_to_mfn(virt_to_maddr(d->shared_info)),
				   p2m_hyp_page, false);
	}
	if (rc == 0) {
		d->shared_info_gfn = gfn;
	}
	return rc;
}

int memory_unmap_shared_info(struct domain *d, gfn_t gfn)
{
	if ((d->shared_info_gfn == INVALID_GFN) || (d->shared_info_gfn != gfn)) {
		return -XEN_ENOENT;
	}
	(void)p2m_clear_entry(&d->p2m, gfn, NULL, NULL);
	d->shared_info_gfn = INVALID_GFN;
	return 0;
}

/* Xen's get_pg_owner() + xsm_map_gmfn_foreign() for a domU: never allowed. */
static int memory_foreign_owner(const struct domain *d, domid_t foreign)
{
	struct domain *od;

	if (foreign == d->domain_id) {
		return -XEN_ESRCH; /* "cannot specify itself as foreign domain" */
	}
	if ((foreign == DOMID_IO) || (foreign == DOMID_XEN)) {
		return -XEN_EPERM;
	}
	od = domain_resolve(foreign);
	if (od == NULL) {
		return -XEN_ESRCH;
	}
	return (od == d) ? -XEN_EINVAL : -XEN_EPERM;
}

/* xenmem_add_to_physmap_one(): one item of a space a domU may name. */
static int memory_add_one(struct domain *d, unsigned int space, domid_t foreign, uint64_t idx,
			  gfn_t gfn)
{
	int rc;

	switch (space) {
	case XENMAPSPACE_grant_table:
		spin_lock(&d->lock);
		rc = gnttab_map_frame(d, idx, gfn);
		spin_unlock(&d->lock);
		return rc;
	case XENMAPSPACE_shared_info:
		if (idx != 0U) {
			return -XEN_EINVAL;
		}
		spin_lock(&d->lock);
		rc = memory_map_shared_info(d, gfn);
		spin_unlock(&d->lock);
		return rc;
	case XENMAPSPACE_gmfn_foreign:
		return memory_foreign_owner(d, foreign);
	default:
		/* gmfn (a move within the physmap) is x86's; dev_mmio never gets here. */
		return -XEN_ENOSYS;
	}
}

/* Xen's xatp_permission_check() for a domU on itself. */
static int memory_physmap_target(domid_t dom, unsigned int space, struct domain **d)
{
	struct domain *t = domain_resolve(dom);

	if (t == NULL) {
		return -XEN_ESRCH;
	}
	if (space == XENMAPSPACE_dev_mmio) {
		return -XEN_EACCES; /* the hardware domain's */
	}
	if (t != current->domain) {
		return -XEN_EPERM;
	}
	*d = t;
	return 0;
}

long memory_add_to_physmap(uint64_t start, xen_guest_handle_t arg)
{
	struct xen_add_to_physmap xatp;
	struct domain *d = NULL;
	int rc;

	/* The continuation extent must fit the 16-bit size field. */
	if (start > UINT16_MAX) {
		return -XEN_EDOM;
	}
	if (copy_from_guest(&xatp, arg, sizeof(xatp)) != 0) {
		return -XEN_EFAULT;
	}
	if (xatp.space == XENMAPSPACE_gmfn_foreign) {
		return -XEN_ENOSYS; /* only through add_to_physmap_batch */
	}
	rc = memory_physmap_target(xatp.domid, xatp.space, &d);
	if (rc != 0) {
		return rc;
	}
	if (xatp.gpfn == ~(xen_pfn_t)0U) {
		return -XEN_EINVAL;
	}
	if (xatp.space != XENMAPSPACE_gmfn_range) {
		return memory_add_one(d, xatp.space, DOMID_INVALID, xatp.idx, xatp.gpfn);
	}
	if (xatp.size < start) {
		return -XEN_EILSEQ;
	}
	if ((xatp.gpfn + xatp.size < xatp.gpfn) || (xatp.idx + xatp.size < xatp.idx)) {
		return -XEN_EOVERFLOW;
	}
	/* Every item would be an XENMAPSPACE_gmfn move, which Arm does not offer. */
	return (xatp.size == start) ? 0 : -XEN_ENOSYS;
}

long memory_add_to_physmap_batch(uint64_t start, xen_guest_handle_t arg)
{
	struct xen_add_to_physmap_batch b;
	struct domain *d = NULL;
	uint64_t i;
	int rc;

	if (start > UINT16_MAX) {
		return -XEN_EDOM;
	}
	if (copy_from_guest(&b, arg, sizeof(b)) != 0) {
		return -XEN_EFAULT;
	}
	if (b.space == XENMAPSPACE_gmfn_range) {
		return -XEN_EOPNOTSUPP;
	}
	rc = memory_physmap_target(b.domid, b.space, &d);
	if (rc != 0) {
		return rc;
	}
	if (b.size < start) {
		return -XEN_EILSEQ;
	}
	if (b.size == start) {
		return (start != 0U) ? -XEN_EILSEQ : 0;
	}
	for (i = start; i < b.size; i++) {
		xen_ulong_t idx;
		xen_pfn_t gpfn;
		int32_t err;

		if ((i != start) && hypercall_preempt_check((unsigned int)(i - start))) {
			regval_t args[HYPERCALL_NR_ARGS];
			args[0] = (regval_t)XENMEM_add_to_physmap_batch | ((regval_t)i << MEMOP_EXTENT_SHIFT);
			args[1] = arg;
			return hypercall_continue(2U, args);
		}
		if ((copy_from_guest(&idx, b.idxs + (i * sizeof(idx)), sizeof(idx)) != 0) ||
		    (copy_from_guest(&gpfn, b.gpfns + (i * sizeof(gpfn)), sizeof(gpfn)) != 0)) {
			return -XEN_EFAULT;
		}
		if (gpfn == ~(xen_pfn_t)0U) {
			return -XEN_EINVAL;
		}
		err = memory_add_one(d, b.space, b.foreign_domid, idx, gpfn);
		if (copy_to_guest(b.errs + (i * sizeof(err)), &err, sizeof(err)) != 0) {
			return -XEN_EFAULT;
		}
	}
	return 0;
}

/*
 * remove_from_physmap: the entry goes, the page stays counted (as on Xen,
 * where it stays allocated to the domain): a hole the partition can only
 * fill again after giving back another page.
 */
long memory_remove_from_physmap(uint64_t start, xen_guest_handle_t arg)
{
	struct xen_remove_from_physmap x;
	struct domain *d = NULL;
	mfn_t mfn;
	mfn_t own;
	enum p2m_type t;
	int rc;

	if (start != 0U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&x, arg, sizeof(x)) != 0) {
		return -XEN_EFAULT;
	}
	rc = memory_target(x.domid, &d);
	if (rc != 0) {
		return rc;
	}
	spin_lock(&d->lock);
	if (p2m_lookup(&d->p2m, x.gpfn, &mfn, &t) != 0) {
		rc = -XEN_ENOENT;
	} else if (((t == p2m_ram_rw) || (t == p2m_ram_ro)) && memory_ram_frame(d, x.gpfn, &own) &&
		   (own == mfn)) {
		rc = p2m_prepare_page(&d->p2m, x.gpfn);
		if (rc == 0) {
			rc = p2m_clear_entry(&d->p2m, x.gpfn, NULL, NULL);
		}
	} else if (t == p2m_hyp_page) {
		rc = memory_unmap_shared_info(d, x.gpfn);
		if (rc != 0) {
			rc = gnttab_unmap_frame(d, x.gpfn, false);
		}
	} else {
		rc = -XEN_ENOENT; /* a grant mapping, a device, a disk it serves: not its RAM */
	}
	spin_unlock(&d->lock);
	return rc;
}
