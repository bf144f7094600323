/* SPDX-License-Identifier: MIT */
/*
 * map_grant_ref / unmap_grant_ref / unmap_and_replace, one element each.
 *
 * The whole operation runs under the granter's table lock (read side) and
 * the grant's active-entry lock: pin, stage-2 update and maptrack entry
 * change together, so a restart of the granter (write lock) never sees a
 * half-made mapping. The stage-2 update itself takes no lock: the grant
 * window's last-level tables exist from boot and one entry is one atomic
 * store (arch/arm/p2m.c). Maptrack fields are written only under the
 * granter's locks; flags last, so a reader that sees flags sees the rest.
 */
#include "gnttab_priv.h"

void gnttab_map_one(struct vcpu *v, struct gnttab_map_grant_ref *op)
{
	struct domain *ld = v->domain;
	struct domain *rd;
	struct grant_table *rgt;
	struct gnttab_active *act;
	struct gnttab_maptrack *mt;
	bool readonly = (op->flags & GNTMAP_readonly) != 0U;
	uint32_t handle;
	gfn_t gfn = gaddr_to_gfn(op->host_addr);
	int16_t rc;

	if ((op->flags & (GNTMAP_device_map | GNTMAP_host_map)) == 0U) {
		op->status = GNTST_bad_gntref;
		return;
	}
	/* No device or PTE mappings for a translated guest (Xen: HVM). */
	if ((op->flags & (GNTMAP_device_map | GNTMAP_application_map | GNTMAP_contains_pte)) != 0U) {
		op->status = GNTST_general_error;
		return;
	}
	rd = domain_by_id(op->dom);
	if (rd == NULL) {
		op->status = GNTST_bad_domain;
		return;
	}
	handle = gnttab_maptrack_get(v);
	if (handle == GNTTAB_INVALID_HANDLE) {
		op->status = GNTST_no_space;
		return;
	}
	rgt = &rd->gt;
	gnttab_read_lock(rgt);
	if (op->ref >= gnttab_nr_entries(rgt)) {
		gnttab_read_unlock(rgt);
		gnttab_maptrack_put(v, handle);
		op->status = GNTST_bad_gntref;
		return;
	}
	act = gnttab_act_acquire(rgt, op->ref);
	rc = gnttab_pin(rd, act, op->ref, ld->domain_id, readonly, true);
	if (rc == GNTST_okay) {
		/* Arm accepts host_map (+ readonly) only; guest bits included. */
		if (((op->flags & ~GNTMAP_readonly) != GNTMAP_host_map) ||
		    (p2m_set_entry(&ld->p2m, gfn, act->mfn,
				   readonly ? p2m_grant_map_ro : p2m_grant_map_rw, true) != 0)) {
			gnttab_unpin(rgt, act, op->ref, readonly);
			rc = GNTST_general_error;
		}
	}
	if (rc == GNTST_okay) {
		mt = &ld->gt.maptrack[handle];
		write_atomic(&mt->ref, op->ref);
		write_atomic(&mt->domid, rd->domain_id);
		write_atomic(&mt->gfn, (uint32_t)gfn);
		store_release(&mt->flags, (uint16_t)(op->flags & (GNTMAP_host_map | GNTMAP_readonly)));
		op->dev_bus_addr = mfn_to_maddr(act->mfn);
		op->handle = handle;
	}
	gnttab_act_release(act);
	gnttab_read_unlock(rgt);
	if (rc != GNTST_okay) {
		gnttab_maptrack_put(v, handle);
	}
	op->status = rc;
}

/*
 * A mapping whose granter restarted was already removed; the first unmap
 * of the handle frees it and succeeds, any later one finds it free.
 */
static int16_t gnttab_unmap_revoked(struct vcpu *v, struct gnttab_maptrack *mt,
				    uint32_t handle, uint16_t flags)
{
	uint16_t expect = flags;

	if (!atomic_cmpxchg(&mt->flags, &expect, (uint16_t)0U)) {
		return GNTST_bad_handle;
	}
	gnttab_maptrack_put(v, handle);
	return GNTST_okay;
}

static int16_t gnttab_unmap_locked(struct vcpu *v, struct gnttab_maptrack *mt, struct domain *rd,
				   struct gnttab_active *act, uint64_t host_addr,
				   uint64_t dev_bus_addr, uint64_t new_addr, bool *freed)
{
	struct domain *ld = v->domain;
	uint16_t flags = read_atomic(&mt->flags);
	grant_ref_t ref = read_atomic(&mt->ref);
	mfn_t old_mfn;
	enum p2m_type old_t;

	if ((dev_bus_addr != 0U) && (dev_bus_addr != mfn_to_maddr(act->mfn))) {
		return GNTST_general_error;
	}
	/* Xen leaves the mapping alone when no host address is given. */
	if ((host_addr == 0U) || ((flags & GNTMAP_host_map) == 0U)) {
		return GNTST_okay;
	}
	/* Arm cannot replace; and only the address mapped may be unmapped. */
	if ((new_addr != 0U) || (gaddr_to_gfn(host_addr) != read_atomic(&mt->gfn))) {
		return GNTST_general_error;
	}
	if ((p2m_lookup(&ld->p2m, gaddr_to_gfn(host_addr), &old_mfn, &old_t) != 0) ||
	    ((old_t != p2m_grant_map_rw) && (old_t != p2m_grant_map_ro)) || (old_mfn != act->mfn)) {
		return GNTST_general_error;
	}
	/* Invalidates the TLB entry of this VMID only. */
	(void)p2m_clear_entry(&ld->p2m, gaddr_to_gfn(host_addr), NULL, NULL);
	gnttab_unpin(&rd->gt, act, ref, (flags & GNTMAP_readonly) != 0U);
	store_release(&mt->flags, (uint16_t)0U);
	*freed = true;
	return GNTST_okay;
}

void gnttab_unmap_one(struct vcpu *v, uint64_t host_addr, uint64_t dev_bus_addr,
		      uint64_t new_addr, grant_handle_t handle, int16_t *status)
{
	struct domain *ld = v->domain;
	struct gnttab_maptrack *mt;
	struct domain *rd;
	struct grant_table *rgt;
	struct gnttab_active *act;
	uint16_t flags;
	domid_t dom;
	grant_ref_t ref;
	bool freed = false;
	bool revoked = false;
	int16_t rc;

	if (handle >= CONFIG_GNTTAB_MAPTRACK_ENTRIES) {
		*status = GNTST_bad_handle;
		return;
	}
	mt = &ld->gt.maptrack[handle];
	flags = load_acquire(&mt->flags);
	if (flags == 0U) {
		*status = GNTST_bad_handle;
		return;
	}
	if ((flags & MAPTRACK_REVOKED) != 0U) {
		*status = gnttab_unmap_revoked(v, mt, handle, flags);
		return;
	}
	dom = read_atomic(&mt->domid);
	ref = read_atomic(&mt->ref);
	rd = domain_by_id(dom);
	if (rd == NULL) {
		*status = GNTST_bad_handle;
		return;
	}
	rgt = &rd->gt;
	gnttab_read_lock(rgt);
	if (ref >= gnttab_nr_entries(rgt)) {
		gnttab_read_unlock(rgt);
		*status = GNTST_bad_handle;
		return;
	}
	act = gnttab_act_acquire(rgt, ref);
	/* Another vCPU may have unmapped (and reused) the handle meanwhile. */
	flags = read_atomic(&mt->flags);
	if ((flags == 0U) || (read_atomic(&mt->domid) != dom) || (read_atomic(&mt->ref) != ref)) {
		rc = GNTST_bad_handle;
	} else if ((flags & MAPTRACK_REVOKED) != 0U) {
		revoked = true; /* handled below, without the granter's locks */
		rc = GNTST_okay;
	} else {
		rc = gnttab_unmap_locked(v, mt, rd, act, host_addr, dev_bus_addr, new_addr, &freed);
	}
	gnttab_act_release(act);
	gnttab_read_unlock(rgt);
	if (revoked) {
		rc = gnttab_unmap_revoked(v, mt, handle, flags);
	}
	if (freed) {
		gnttab_maptrack_put(v, handle);
	}
	*status = rc;
}
