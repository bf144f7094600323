/* SPDX-License-Identifier: MIT */
/*
 * Grant tables across a partition restart (domain_restart). Three steps:
 * 1. release the mappings d holds of others' grants (as Xen does when a
 *    domain dies), one granter lock at a time; d's vCPUs are stopped, so
 *    none can use a stale translation before the one invalidation of d's
 *    VMID at the end;
 * 2. under d's write lock, stop new pins and revoke every mapping others
 *    hold of d's grants: their stage-2 entry is pointed at the holder's own
 *    scratch page (gt.sink), their maptrack entry is marked revoked (their
 *    later unmap succeeds, removes the scratch entry and frees the handle),
 *    and each such partition's VMID is invalidated once, before the lock is
 *    dropped and so before step 3 can see the pins gone. The holder, say a
 *    backend in the middle of a request, keeps running: it reads and writes
 *    its own scratch page instead of a fault, as on Xen, where a dead
 *    domain's granted pages stay alive until their mappers unmap them;
 *    d's new incarnation, whose RAM is scrubbed and reused, is never seen
 *    through the old mapping. A mapping that
 *    its holder is unmapping (UNMAPPING: entry removed, invalidation not
 *    yet done) keeps its pin until the holder's own invalidation;
 * 3. wait for in-flight copies (pinned without locks) to drain, then wipe
 *    the table. Step 3 is bounded by the longest copy of one page: the
 *    resetting flag refuses any new pin.
 */
#include "gnttab_priv.h"
#include <bulkhead/lib.h>

static void gnttab_release_own(struct domain *d)
{
	struct gnttab_maptrack *pool = d->gt.maptrack;
	uint32_t h;
	bool removed = false;

	for (h = 0U; h < CONFIG_GNTTAB_MAPTRACK_ENTRIES; h++) {
		struct gnttab_maptrack *mt = &pool[h];
		uint16_t flags = load_acquire(&mt->flags);
		struct domain *rd;
		struct gnttab_active *act;
		grant_ref_t ref;

		if ((flags == 0U) || ((flags & MAPTRACK_REVOKED) != 0U)) {
			continue;
		}
		rd = domain_by_id(read_atomic(&mt->domid));
		ref = read_atomic(&mt->ref);
		/* GCOVR_EXCL_START COV-003 */
		if (rd == NULL) {
			continue;
		}
		/* GCOVR_EXCL_STOP */
		gnttab_read_lock(&rd->gt);
		act = gnttab_act_acquire(&rd->gt, ref);
		/* The granter's own restart may have revoked it meanwhile. */
		flags = read_atomic(&mt->flags);
		if ((flags != 0U) && ((flags & MAPTRACK_REVOKED) == 0U)) {
			if (p2m_remove_entry(&d->p2m, read_atomic(&mt->gfn)) == 0) {
				removed = true;
			}
			gnttab_unpin(&rd->gt, act, ref, (flags & GNTMAP_readonly) != 0U);
			store_release(&mt->flags, (uint16_t)0U);
		}
		gnttab_act_release(act);
		gnttab_read_unlock(&rd->gt);
	}
	if (removed) {
		p2m_flush_tlb(&d->p2m);
	}
}

/* Caller holds d's table write lock. */
static void gnttab_revoke_foreign(struct domain *d)
{
	domid_t id;
	uint32_t h;

	for (id = 1U; id <= CONFIG_MAX_DOMAINS; id++) {
		struct domain *od = domain_by_id(id);
		bool removed = false;

		if ((od == NULL) || (od == d)) {
			continue;
		}
		for (h = 0U; h < CONFIG_GNTTAB_MAPTRACK_ENTRIES; h++) {
			struct gnttab_maptrack *mt = &od->gt.maptrack[h];
			uint16_t flags = load_acquire(&mt->flags);
			struct gnttab_active *act;
			grant_ref_t ref;

			/* Entries naming d change only under d's lock: stable here. */
			if ((flags == 0U) || ((flags & (MAPTRACK_REVOKED | MAPTRACK_UNMAPPING)) != 0U) ||
			    (read_atomic(&mt->domid) != d->domain_id)) {
				continue;
			}
			ref = read_atomic(&mt->ref);
			act = &d->gt.active[ref];
			if (p2m_replace_entry(&od->p2m, read_atomic(&mt->gfn), od->gt.sink_mfn,
					      ((flags & GNTMAP_readonly) != 0U) ? p2m_grant_map_ro
										: p2m_grant_map_rw) == 0) {
				removed = true;
				stat_inc(&d->gnttab_forced_unmaps);
			}
			write_atomic(&act->pin, act->pin - (((flags & GNTMAP_readonly) != 0U)
								    ? GNTPIN_HSTR_INC
								    : GNTPIN_HSTW_INC));
			store_release(&mt->flags, (uint16_t)(flags | MAPTRACK_REVOKED));
		}
		if (removed) {
			p2m_flush_tlb(&od->p2m);
		}
	}
}

void gnttab_domain_reset(struct domain *d)
{
	struct grant_table *gt = &d->gt;
	uint32_t i;

	gnttab_release_own(d);
	/* What the old incarnation wrote through revoked mappings stays behind. */
	(void)memset(gt->sink, 0, PAGE_SIZE);

	write_lock(&gt->lock);
	write_atomic(&gt->resetting, true);
	gnttab_revoke_foreign(d);
	write_unlock(&gt->lock);

	for (i = 0U; i < (gt->init_frames * GNTTAB_ENTRIES_PER_FRAME); i++) {
		/* LOOP-BOUND: waits out maps and copies already inside their bounded critical
		 * sections; resetting (set above) makes new ones fail with GNTST_bad_domain. */
		while (load_acquire(&gt->active[i].pin) != 0U) {
			/* GCOVR_EXCL_START COV-004 */
			cpu_relax();
			/* GCOVR_EXCL_STOP */
		}
	}

	write_lock(&gt->lock);
	gnttab_table_clear(d);
	write_atomic(&gt->resetting, false);
	write_unlock(&gt->lock);
	/* d's vCPUs are stopped: nobody else touches d's own free lists. */
	gnttab_maptrack_init(d);
}
