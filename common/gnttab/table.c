/* SPDX-License-Identifier: MIT */
/*
 * Grant-table storage: each partition's frames and active entries are
 * static, CONFIG_GNTTAB_MAX_FRAMES of them (Xen's 64 by default); its
 * device-tree node may lower its limit (max_grant_frames). The frames are
 * hypervisor pages that the owner sees where it asks
 * (XENMAPSPACE_grant_table); the table "grows" as Xen's does, from one
 * frame up to the limit, so query_size and the bounds checks answer what
 * Xen would. The pool is not zeroed at boot: a frame and its active entries
 * are initialised when the table first grows to it, and a restart clears
 * only what was ever initialised.
 */
#include "gnttab_priv.h"
#include <bulkhead/lib.h>

BUILD_ASSERT(CONFIG_GNTTAB_MAX_FRAMES <= 64); /* frame_lost is one 64-bit word */
BUILD_ASSERT((GNTTAB_ENTRIES_PER_FRAME * sizeof(struct grant_entry_v1)) == PAGE_SIZE);

#define GNTTAB_INITIAL_FRAMES U(1)

/* Zero frames [from, to) and their active entries. */
static void gnttab_frames_init(struct grant_table *gt, uint32_t from, uint32_t to)
{
	size_t frames = (size_t)to - (size_t)from;
	uint32_t i;

	(void)memset(&gt->shared[from * GNTTAB_ENTRIES_PER_FRAME], 0, frames * PAGE_SIZE);
	for (i = from * GNTTAB_ENTRIES_PER_FRAME; i < to * GNTTAB_ENTRIES_PER_FRAME; i++) {
		spin_lock_init(&gt->active[i].lock, LOCK_CLASS_GNTTAB_ACTIVE);
		gt->active[i].pin = 0U;
		gt->active[i].domid = DOMID_INVALID;
		gt->active[i].mfn = 0U;
	}
}

void gnttab_table_grow(struct grant_table *gt, uint32_t nr_frames)
{
	if (nr_frames > gt->init_frames) {
		gnttab_frames_init(gt, gt->init_frames, nr_frames);
		gt->init_frames = nr_frames;
	}
	if (nr_frames > gt->nr_frames) {
		gt->nr_frames = nr_frames;
	}
}

/* Revoke every grant and forget where the frames were mapped. */
void gnttab_table_clear(struct domain *d)
{
	struct grant_table *gt = &d->gt;
	uint32_t i;

	gnttab_frames_init(gt, 0U, gt->init_frames);
	for (i = 0U; i < CONFIG_GNTTAB_MAX_FRAMES; i++) {
		gt->frame_gfn[i] = INVALID_GFN;
	}
	gt->frame_lost = 0U;
	gt->nr_frames = 0U;
	gnttab_table_grow(gt, GNTTAB_INITIAL_FRAMES);
}

int gnttab_domain_init(struct domain *d)
{
	static struct grant_entry_v1 gnttab_frames[CONFIG_MAX_DOMAINS][GNTTAB_MAX_ENTRIES]
		__page_aligned BOOT_NOINIT;
	static struct gnttab_active gnttab_active_pool[CONFIG_MAX_DOMAINS][GNTTAB_MAX_ENTRIES]
		__cacheline_aligned BOOT_NOINIT;
	static uint8_t gnttab_sink_pool[CONFIG_MAX_DOMAINS][PAGE_SIZE] __page_aligned;
	struct grant_table *gt = &d->gt;

	rwlock_init(&gt->lock, LOCK_CLASS_GNTTAB);
	gt->resetting = false;
	gt->shared = gnttab_frames[d->domain_id - 1U];
	gt->active = gnttab_active_pool[d->domain_id - 1U];
	gt->sink = gnttab_sink_pool[d->domain_id - 1U];
	gt->sink_mfn = maddr_to_mfn(virt_to_maddr(gt->sink));
	gt->init_frames = 0U;
	/* The parser checked the sizes against the pool; 0: a partition made without it. */
	gt->max_frames = CONFIG_GNTTAB_MAX_FRAMES;
	gt->maptrack_limit = CONFIG_GNTTAB_MAPTRACK_ENTRIES;
	if (d->cfg.max_grant_frames != 0U) {
		gt->max_frames = MIN(d->cfg.max_grant_frames, (uint32_t)CONFIG_GNTTAB_MAX_FRAMES);
		gt->maptrack_limit = (uint32_t)MIN((uint64_t)d->cfg.max_maptrack_frames *
						   GNTTAB_MAPTRACK_PER_FRAME,
						   (uint64_t)CONFIG_GNTTAB_MAPTRACK_ENTRIES);
	}
	gnttab_table_clear(d);
	gnttab_maptrack_init(d);
	return 0;
}

int gnttab_map_frame(struct domain *d, uint64_t idx, gfn_t gfn)
{
	struct grant_table *gt = &d->gt;
	mfn_t mfn;
	mfn_t old_mfn;
	enum p2m_type old_t;
	int rc = 0;

	/* v1 only: a status-frame index is just out of range, as on Xen/Arm. */
	if (idx >= gt->max_frames) {
		return -XEN_EINVAL;
	}
	write_lock(&gt->lock);
	if ((gt->frame_gfn[idx] != INVALID_GFN) || (((gt->frame_lost >> idx) & 1U) != 0U)) {
		/* Xen 4.17 answers -EBUSY even for the same gfn. */
		rc = -XEN_EBUSY;
	} else if ((p2m_lookup(&d->p2m, gfn, &old_mfn, &old_t) == 0) &&
		   ((old_t == p2m_grant_map_rw) || (old_t == p2m_grant_map_ro) ||
		    (old_t == p2m_hyp_page))) {
		/* Never silently drop a grant mapping or another shared page. */
		rc = -XEN_EBUSY;
	} else {
		rc = p2m_prealloc(&d->p2m, gfn, 1U);
	}
	if (rc == 0) {
		/* Initialised before the partition can see it. */
		gnttab_table_grow(gt, (uint32_t)idx + 1U);
		mfn = maddr_to_mfn(virt_to_maddr(&gt->shared[idx * GNTTAB_ENTRIES_PER_FRAME]));
		rc = p2m_set_entry(&d->p2m, gfn, mfn, p2m_hyp_page, false);
	}
	if (rc == 0) {
		gt->frame_gfn[idx] = gfn;
	}
	write_unlock(&gt->lock);
	return rc;
}

void gnttab_seed_entry(struct domain *d, uint32_t ref, domid_t domid, gfn_t gfn)
{
	struct grant_entry_v1 *e = &d->gt.shared[ref];

	/* As a granting guest does: the flags last. */
	write_atomic(&e->domid, domid);
	write_atomic(&e->frame, (uint32_t)gfn);
	smp_wmb();
	write_atomic(&e->flags, (uint16_t)GTF_permit_access);
}

int gnttab_unmap_frame(struct domain *d, gfn_t gfn, bool lose)
{
	struct grant_table *gt = &d->gt;
	int rc = -XEN_ENOENT;
	uint32_t i;

	write_lock(&gt->lock);
	for (i = 0U; (i < CONFIG_GNTTAB_MAX_FRAMES) && (rc != 0); i++) {
		if (gt->frame_gfn[i] == gfn) {
			(void)p2m_clear_entry(&d->p2m, gfn, NULL, NULL);
			gt->frame_gfn[i] = INVALID_GFN;
			if (lose) {
				gt->frame_lost |= (uint64_t)1U << i;
			}
			rc = 0;
		}
	}
	write_unlock(&gt->lock);
	return rc;
}

uint32_t gnttab_nr_pins(struct domain *d)
{
	uint32_t i;
	uint32_t pins = 0U;

	for (i = 0U; i < (d->gt.init_frames * GNTTAB_ENTRIES_PER_FRAME); i++) {
		uint32_t p = read_atomic(&d->gt.active[i].pin);
		pins += (p & GNTPIN_HSTW_MASK) + ((p & GNTPIN_HSTR_MASK) >> 8);
	}
	return pins;
}
