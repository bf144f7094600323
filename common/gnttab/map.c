/* SPDX-License-Identifier: MIT */
/*
 * map_grant_ref, one element (unmaps: unmap.c).
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
		stat_inc(&v->stats.gnttab_maps);
	}
	gnttab_act_release(act);
	gnttab_read_unlock(rgt);
	if (rc != GNTST_okay) {
		gnttab_maptrack_put(v, handle);
	}
	op->status = rc;
}
