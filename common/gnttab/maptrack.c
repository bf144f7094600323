/* SPDX-License-Identifier: MIT */
/*
 * Maptrack: the handles a partition gets for the grants it maps. A fixed
 * pool per partition, divided among its vCPUs at creation; each vCPU
 * allocates from and frees to its own list (its own cache line and lock),
 * so mapping vCPUs never share a written line. A vCPU whose list is empty
 * steals one entry from the next vCPU that has one; entries thus drift to
 * the vCPUs that map. Nothing blocks and nothing is allocated: an empty
 * pool is GNTST_no_space. In the base and split configurations the whole
 * pool is one list under one lock, as in Xen before 2015.
 */
#include "gnttab_priv.h"
#include <bulkhead/lib.h>

static struct gnttab_maptrack
	maptrack_pool[CONFIG_MAX_DOMAINS][CONFIG_GNTTAB_MAPTRACK_ENTRIES] __cacheline_aligned;

static void freelist_init(struct gnttab_freelist *fl)
{
	spin_lock_init(&fl->lock, LOCK_CLASS_MAPTRACK);
	fl->head = GNTTAB_INVALID_HANDLE;
	fl->nr_free = 0U;
}

/* Chain [first, last) onto fl; boot/restart only, no concurrency. */
static void freelist_fill(struct gnttab_freelist *fl, struct gnttab_maptrack *pool,
			  uint32_t first, uint32_t last)
{
	uint32_t h;

	for (h = last; h > first; h--) {
		pool[h - 1U].next = fl->head;
		fl->head = h - 1U;
		fl->nr_free++;
	}
}

static uint32_t freelist_pop(struct gnttab_freelist *fl, struct gnttab_maptrack *pool)
{
	uint32_t h;

	spin_lock(&fl->lock);
	h = fl->head;
	if (h != GNTTAB_INVALID_HANDLE) {
		fl->head = pool[h].next;
		/* Atomic: thieves peek at nr_free without the lock. */
		write_atomic(&fl->nr_free, fl->nr_free - 1U);
	}
	spin_unlock(&fl->lock);
	return h;
}

static void freelist_push(struct gnttab_freelist *fl, struct gnttab_maptrack *pool, uint32_t h)
{
	spin_lock(&fl->lock);
	pool[h].next = fl->head;
	fl->head = h;
	write_atomic(&fl->nr_free, fl->nr_free + 1U);
	spin_unlock(&fl->lock);
}

void gnttab_maptrack_init(struct domain *d)
{
	struct gnttab_maptrack *pool = maptrack_pool[d->domain_id - 1U];
	/* max_maptrack_frames: handles past the limit are never handed out. */
	uint32_t n = MIN(d->gt.maptrack_limit, (uint32_t)CONFIG_GNTTAB_MAPTRACK_ENTRIES);
	uint32_t i;

	(void)memset(pool, 0, sizeof(maptrack_pool[0]));
	d->gt.maptrack = pool;
	freelist_init(&d->gt.maptrack_list);
	for (i = 0U; i < d->nr_vcpus; i++) {
		freelist_init(&d->vcpu[i].gnttab.maptrack_list);
	}
#if GNTTAB_PERCPU_MAPTRACK
	for (i = 0U; i < d->nr_vcpus; i++) {
		freelist_fill(&d->vcpu[i].gnttab.maptrack_list, pool, (i * n) / d->nr_vcpus,
			      ((i + 1U) * n) / d->nr_vcpus);
	}
#else
	freelist_fill(&d->gt.maptrack_list, pool, 0U, n);
#endif
}

uint32_t gnttab_maptrack_get(struct vcpu *v)
{
	struct domain *d = v->domain;
	struct gnttab_maptrack *pool = d->gt.maptrack;
#if GNTTAB_PERCPU_MAPTRACK
	uint32_t h = freelist_pop(&v->gnttab.maptrack_list, pool);
	uint32_t k;

	/* Steal: at most one attempt per other vCPU, one lock at a time. */
	for (k = 1U; (h == GNTTAB_INVALID_HANDLE) && (k < d->nr_vcpus); k++) {
		struct vcpu *victim = &d->vcpu[(v->vcpu_id + k) % d->nr_vcpus];

		if (read_atomic(&victim->gnttab.maptrack_list.nr_free) != 0U) {
			h = freelist_pop(&victim->gnttab.maptrack_list, pool);
		}
	}
	return h;
#else
	return freelist_pop(&d->gt.maptrack_list, pool);
#endif
}

void gnttab_maptrack_put(struct vcpu *v, uint32_t handle)
{
	struct domain *d = v->domain;

#if GNTTAB_PERCPU_MAPTRACK
	/* To the freeing vCPU's own list: its line is already local. */
	freelist_push(&v->gnttab.maptrack_list, d->gt.maptrack, handle);
#else
	freelist_push(&d->gt.maptrack_list, d->gt.maptrack, handle);
#endif
}

static uint32_t freelist_audit(struct gnttab_freelist *fl, const struct gnttab_maptrack *pool,
			       bool *consistent)
{
	uint32_t n = 0U;
	uint32_t h;

	spin_lock(&fl->lock);
	h = fl->head;
	while ((h != GNTTAB_INVALID_HANDLE) && (n <= CONFIG_GNTTAB_MAPTRACK_ENTRIES)) {
		if ((h >= CONFIG_GNTTAB_MAPTRACK_ENTRIES) || (read_atomic(&pool[h].flags) != 0U)) {
			*consistent = false;
			break;
		}
		n++;
		h = pool[h].next;
	}
	if (n != fl->nr_free) {
		*consistent = false;
	}
	spin_unlock(&fl->lock);
	return n;
}

uint32_t gnttab_maptrack_nr_free(struct domain *d, bool *consistent)
{
	const struct gnttab_maptrack *pool = d->gt.maptrack;
	uint32_t nr_free = freelist_audit(&d->gt.maptrack_list, pool, consistent);
	uint32_t in_use = 0U;
	uint32_t i;

	for (i = 0U; i < d->nr_vcpus; i++) {
		nr_free += freelist_audit(&d->vcpu[i].gnttab.maptrack_list, pool, consistent);
	}
	for (i = 0U; i < CONFIG_GNTTAB_MAPTRACK_ENTRIES; i++) {
		if (read_atomic(&pool[i].flags) != 0U) {
			in_use++;
		}
	}
	/* A handle on two lists, or on none, breaks the sum. */
	if ((nr_free + in_use) != MIN(d->gt.maptrack_limit, (uint32_t)CONFIG_GNTTAB_MAPTRACK_ENTRIES)) {
		*consistent = false;
	}
	return nr_free;
}
