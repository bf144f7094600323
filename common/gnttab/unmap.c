/* SPDX-License-Identifier: MIT */
/*
 * unmap_grant_ref and unmap_and_replace, in two phases per chunk of the
 * guest's array so that a chunk costs one TLB invalidation, not one per
 * page (a broadcast each; under multi-threaded TCG every broadcast stops
 * all vCPUs):
 *  1. gnttab_unmap_begin, per element: checks, removes the stage-2 entry
 *     without invalidating and marks the maptrack entry UNMAPPING. The
 *     pin stays, so the granter cannot yet revoke and reuse the frame.
 *  2. one invalidation of the mapper's VMID;
 *  3. gnttab_unmap_finish, per element: drop the pin (clearing GTF_reading
 *     / GTF_writing), free the handle; then every status is written back.
 * Thus no stale translation survives the moment the granter or the guest
 * can see the unmap done. An UNMAPPING entry is refused to a second unmap
 * of the same handle (GNTST_bad_handle) and skipped by a granter restart,
 * which then waits for the pin like for any other (reset.c).
 */
#include "gnttab_priv.h"
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>

/* GNTTAB_UNMAP_CHUNK (gnttab.h) bounds the stack used for phases 2 and 3. */
/*
 * A mapping whose granter restarted points at the mapper's scratch page
 * since the restart (reset.c); the first unmap of the handle removes that
 * entry, frees the handle and succeeds, any later one finds it free. The
 * entry is removed only while it still maps the scratch page: whatever the
 * partition itself put at that address since is its own business.
 */
static int16_t gnttab_unmap_revoked(struct vcpu *v, struct gnttab_maptrack *mt,
				    uint32_t handle, uint16_t flags)
{
	struct domain *ld = v->domain;
	gfn_t gfn = read_atomic(&mt->gfn);
	uint16_t expect = flags;
	mfn_t mfn;
	enum p2m_type t;

	/* GCOVR_EXCL_START COV-005 */
	if (!atomic_cmpxchg(&mt->flags, &expect, (uint16_t)0U)) {
		return GNTST_bad_handle;
	}
	/* GCOVR_EXCL_STOP */
	if ((p2m_lookup(&ld->p2m, gfn, &mfn, &t) == 0) && (mfn == ld->gt.sink_mfn) &&
	    ((t == p2m_grant_map_rw) || (t == p2m_grant_map_ro))) {
		(void)p2m_clear_entry(&ld->p2m, gfn, NULL, NULL);
	}
	gnttab_maptrack_put(v, handle);
	return GNTST_okay;
}

/* Phase 1 under the granter's locks; *pending when phase 3 is owed. */
static int16_t gnttab_unmap_locked(struct vcpu *v, struct gnttab_maptrack *mt,
				   struct gnttab_active *act, const struct gnttab_unmap_args *a,
				   bool *pending)
{
	struct domain *ld = v->domain;
	uint16_t flags = read_atomic(&mt->flags);
	gfn_t gfn = gaddr_to_gfn(a->host_addr);

	if ((a->dev_bus_addr != 0U) && (a->dev_bus_addr != mfn_to_maddr(act->mfn))) {
		return GNTST_general_error;
	}
	/* Xen leaves the mapping alone when no host address is given. */
	if ((a->host_addr == 0U) || ((flags & GNTMAP_host_map) == 0U)) {
		return GNTST_okay;
	}
	/* Arm cannot replace; and only the address mapped may be unmapped. */
	if ((a->new_addr != 0U) || (gfn != read_atomic(&mt->gfn))) {
		return GNTST_general_error;
	}
	/* Only that grant mapping is removed, checked and removed in one step. */
	if (p2m_remove_grant(&ld->p2m, gfn, act->mfn) != 0) {
		/* GCOVR_EXCL_START COV-006 */
		return GNTST_general_error;
		/* GCOVR_EXCL_STOP */
	}
	store_release(&mt->flags, (uint16_t)(flags | MAPTRACK_UNMAPPING));
	*pending = true;
	return GNTST_okay;
}

int16_t gnttab_unmap_begin(struct vcpu *v, const struct gnttab_unmap_args *a, bool *pending)
{
	struct domain *ld = v->domain;
	struct gnttab_maptrack *mt;
	struct domain *rd;
	struct grant_table *rgt;
	struct gnttab_active *act;
	uint16_t flags;
	domid_t dom;
	grant_ref_t ref;
	bool revoked = false;
	int16_t rc;

	*pending = false;
	if (a->handle >= CONFIG_GNTTAB_MAPTRACK_ENTRIES) {
		return GNTST_bad_handle;
	}
	mt = &ld->gt.maptrack[a->handle];
	flags = load_acquire(&mt->flags);
	if ((flags == 0U) || ((flags & MAPTRACK_UNMAPPING) != 0U)) {
		return GNTST_bad_handle;
	}
	if ((flags & MAPTRACK_REVOKED) != 0U) {
		return gnttab_unmap_revoked(v, mt, a->handle, flags);
	}
	dom = read_atomic(&mt->domid);
	ref = read_atomic(&mt->ref);
	rd = domain_by_id(dom);
	/* GCOVR_EXCL_START COV-003 */
	if (rd == NULL) {
		return GNTST_bad_handle;
	}
	/* GCOVR_EXCL_STOP */
	rgt = &rd->gt;
	gnttab_read_lock(rgt);
	/* GCOVR_EXCL_START COV-005 */
	if (ref >= gnttab_nr_entries(rgt)) {
		gnttab_read_unlock(rgt);
		return GNTST_bad_handle;
	}
	/* GCOVR_EXCL_STOP */
	act = gnttab_act_acquire(rgt, ref);
	/* Another vCPU may have unmapped (and reused) the handle meanwhile. */
	flags = read_atomic(&mt->flags);
	/* GCOVR_EXCL_START COV-005 */
	if ((flags == 0U) || ((flags & MAPTRACK_UNMAPPING) != 0U) ||
	    (read_atomic(&mt->domid) != dom) || (read_atomic(&mt->ref) != ref)) {
		rc = GNTST_bad_handle;
	} else if ((flags & MAPTRACK_REVOKED) != 0U) {
		revoked = true; /* handled below, without the granter's locks */
		rc = GNTST_okay;
	} else {
	/* GCOVR_EXCL_STOP */
		rc = gnttab_unmap_locked(v, mt, act, a, pending);
	}
	gnttab_act_release(act);
	gnttab_read_unlock(rgt);
	/* GCOVR_EXCL_START COV-005 */
	if (revoked) {
		rc = gnttab_unmap_revoked(v, mt, a->handle, flags);
	}
	/* GCOVR_EXCL_STOP */
	return rc;
}

void gnttab_unmap_finish(struct vcpu *v, grant_handle_t handle)
{
	struct gnttab_maptrack *mt = &v->domain->gt.maptrack[handle];
	uint16_t flags = load_acquire(&mt->flags);
	grant_ref_t ref = read_atomic(&mt->ref);
	struct domain *rd = domain_by_id(read_atomic(&mt->domid));
	struct gnttab_active *act;

	/* UNMAPPING entries change only here: domid and ref are as in phase 1. */
	/* GCOVR_EXCL_START COV-003 */
	if (rd == NULL) {
		return;
	}
	/* GCOVR_EXCL_STOP */
	gnttab_read_lock(&rd->gt);
	act = gnttab_act_acquire(&rd->gt, ref);
	gnttab_unpin(&rd->gt, act, ref, (flags & GNTMAP_readonly) != 0U);
	store_release(&mt->flags, (uint16_t)0U);
	gnttab_act_release(act);
	gnttab_read_unlock(&rd->gt);
	gnttab_maptrack_put(v, handle);
	stat_inc(&v->stats.gnttab_unmaps);
}

static void gnttab_unmap_args_of(const union gnttab_unmap_elem *e, bool replace,
				 struct gnttab_unmap_args *a)
{
	if (replace) {
		a->host_addr = e->replace.host_addr;
		a->dev_bus_addr = 0U;
		a->new_addr = e->replace.new_addr;
		a->handle = e->replace.handle;
	} else {
		a->host_addr = e->unmap.host_addr;
		a->dev_bus_addr = e->unmap.dev_bus_addr;
		a->new_addr = 0U;
		a->handle = e->unmap.handle;
	}
}

/*
 * Elements [first, first + n) of the array: phases 1-3, then the statuses.
 * Returns the number read (fewer than n after a fault, *fault set).
 */
static unsigned int gnttab_unmap_chunk(struct vcpu *v, bool replace, xen_guest_handle_t uop,
				       unsigned int first, unsigned int n, bool *fault)
{
	size_t size = replace ? sizeof(struct gnttab_unmap_and_replace)
			      : sizeof(struct gnttab_unmap_grant_ref);
	/* status sits at the same offset in both layouts (see the asserts below). */
	size_t status_off = offsetof(struct gnttab_unmap_grant_ref, status);
	grant_handle_t owed[GNTTAB_UNMAP_CHUNK];
	int16_t status[GNTTAB_UNMAP_CHUNK];
	unsigned int nowed = 0U;
	unsigned int done;
	unsigned int k;

	for (done = 0U; done < n; done++) {
		union gnttab_unmap_elem e;
		struct gnttab_unmap_args a;
		bool pending;
		uint64_t idx = first;

		idx += done;
		if (copy_from_guest(&e, uop + (idx * size), size) != 0) {
			*fault = true;
			break;
		}
		gnttab_unmap_args_of(&e, replace, &a);
		status[done] = gnttab_unmap_begin(v, &a, &pending);
		if (pending) {
			owed[nowed] = a.handle;
			nowed++;
		}
	}
	if (nowed != 0U) {
		p2m_flush_tlb(&v->domain->p2m);
	}
	for (k = 0U; k < nowed; k++) {
		gnttab_unmap_finish(v, owed[k]);
	}
	for (k = 0U; k < done; k++) {
		uint64_t idx = first;

		idx += k;
		if (copy_to_guest(uop + (idx * size) + status_off, &status[k], sizeof(int16_t)) != 0) {
			*fault = true;
		}
	}
	return done;
}

BUILD_ASSERT(offsetof(struct gnttab_unmap_grant_ref, status) ==
	     offsetof(struct gnttab_unmap_and_replace, status));
/* The continuation advances by the union's size: the same for both ops. */
BUILD_ASSERT(sizeof(union gnttab_unmap_elem) == sizeof(struct gnttab_unmap_grant_ref));
BUILD_ASSERT(sizeof(union gnttab_unmap_elem) == sizeof(struct gnttab_unmap_and_replace));

long gnttab_unmap_array(struct vcpu *v, bool replace, xen_guest_handle_t uop, unsigned int count)
{
	unsigned int i = 0U;
	bool fault = false;

	/* LOOP-BOUND: each round adds n >= 1 to i (a chunk returns fewer than n only
	 * with fault set, which returns); at most count rounds, preempted per batch. */
	while (i < count) {
		/* A chunk never straddles a preemption point. */
		unsigned int n = CONFIG_HYPERCALL_BATCH - (i % CONFIG_HYPERCALL_BATCH);

		if ((i != 0U) && hypercall_preempt_check(i)) {
			return (long)i;
		}
		n = (n < GNTTAB_UNMAP_CHUNK) ? n : GNTTAB_UNMAP_CHUNK;
		n = (n < (count - i)) ? n : (count - i);
		i += gnttab_unmap_chunk(v, replace, uop, i, n, &fault);
		if (fault) {
			return -XEN_EFAULT;
		}
	}
	return 0;
}
