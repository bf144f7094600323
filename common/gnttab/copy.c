/* SPDX-License-Identifier: MIT */
/*
 * GNTTABOP_copy, one element: each side is a grant ref of some partition
 * or a frame of the caller's own. A grant is pinned (reading, or writing
 * for the destination) for the duration of the copy only; the table locks
 * are dropped during the memcpy, as in Xen, so a copy never holds two
 * tables' locks at once. Both pages are reached through this CPU's copy
 * scratch slots (bulkhead/arch.h): RAM of their partitions, pinned or
 * checked in the p2m.
 */
#include "gnttab_priv.h"
#include <bulkhead/lib.h>

struct copy_side {
	struct domain *d;
	grant_ref_t ref;
	bool pinned;
	bool readonly;
	mfn_t mfn;
};

static int16_t copy_resolve(const struct gnttab_copy_ptr *p, bool is_gref, struct copy_side *s)
{
	/* Only the caller's own frames may be named by frame number. */
	if (!is_gref && (p->domid != DOMID_SELF)) {
		return GNTST_permission_denied;
	}
	s->d = domain_resolve(p->domid);
	return (s->d == NULL) ? GNTST_bad_domain : GNTST_okay;
}

static int16_t copy_claim(struct vcpu *v, const struct gnttab_copy_ptr *p, bool is_gref,
			  struct copy_side *s)
{
	struct grant_table *gt = &s->d->gt;
	struct gnttab_active *act;
	enum p2m_type t;
	int16_t rc;

	if (!is_gref) {
		if (p2m_lookup(&s->d->p2m, p->u.gmfn, &s->mfn, &t) != 0) {
			return GNTST_bad_page;
		}
		if ((t == p2m_ram_rw) || (s->readonly && (t == p2m_ram_ro))) {
			return GNTST_okay;
		}
		return GNTST_bad_page;
	}
	gnttab_read_lock(gt);
	if (p->u.ref >= gnttab_nr_entries(gt)) {
		gnttab_read_unlock(gt);
		return GNTST_bad_gntref;
	}
	act = gnttab_act_acquire(gt, p->u.ref);
	rc = gnttab_pin(s->d, act, p->u.ref, v->domain->domain_id, s->readonly, false);
	if (rc == GNTST_okay) {
		s->mfn = act->mfn;
		s->ref = p->u.ref;
		s->pinned = true;
	}
	gnttab_act_release(act);
	gnttab_read_unlock(gt);
	return rc;
}

static void copy_release(struct copy_side *s)
{
	struct grant_table *gt;
	struct gnttab_active *act;

	if (!s->pinned) {
		return;
	}
	gt = &s->d->gt;
	gnttab_read_lock(gt);
	act = gnttab_act_acquire(gt, s->ref);
	gnttab_unpin(gt, act, s->ref, s->readonly);
	gnttab_act_release(act);
	gnttab_read_unlock(gt);
	s->pinned = false;
}

void gnttab_copy_one(struct vcpu *v, struct gnttab_copy *op)
{
	struct copy_side src = { .readonly = true };
	struct copy_side dst = { .readonly = false };
	bool src_gref = (op->flags & GNTCOPY_source_gref) != 0U;
	bool dst_gref = (op->flags & GNTCOPY_dest_gref) != 0U;
	int16_t rc;

	/* Xen's order: both domains, then source, then destination, then ranges. */
	rc = copy_resolve(&op->source, src_gref, &src);
	if (rc == GNTST_okay) {
		rc = copy_resolve(&op->dest, dst_gref, &dst);
	}
	if (rc == GNTST_okay) {
		rc = copy_claim(v, &op->source, src_gref, &src);
	}
	if (rc == GNTST_okay) {
		rc = copy_claim(v, &op->dest, dst_gref, &dst);
	}
	if ((rc == GNTST_okay) && (((uint32_t)op->source.offset + op->len > PAGE_SIZE) ||
				   ((uint32_t)op->dest.offset + op->len > PAGE_SIZE))) {
		rc = GNTST_bad_copy_arg;
	}
	if ((rc == GNTST_okay) && (src.mfn == dst.mfn)) {
		/* One frame, one mapping: memmove sees an overlap of the two ranges. */
		uint8_t *p = arch_map_scratch(ARCH_SCRATCH_SRC, mfn_to_maddr(src.mfn));

		(void)memmove(&p[op->dest.offset], &p[op->source.offset], op->len);
		arch_unmap_scratch(ARCH_SCRATCH_SRC, p);
	} else if (rc == GNTST_okay) {
		uint8_t *s = arch_map_scratch(ARCH_SCRATCH_SRC, mfn_to_maddr(src.mfn));
		uint8_t *d = arch_map_scratch(ARCH_SCRATCH_DST, mfn_to_maddr(dst.mfn));

		/* Two frames cannot overlap. */
		(void)memcpy(&d[op->dest.offset], &s[op->source.offset], op->len);
		arch_unmap_scratch(ARCH_SCRATCH_DST, d);
		arch_unmap_scratch(ARCH_SCRATCH_SRC, s);
	} else {
		/* Refused: the status says why. */
	}
	copy_release(&dst);
	copy_release(&src);
	op->status = rc;
}
