/* SPDX-License-Identifier: MIT */
/*
 * Persistent grants of one ring. Linux's blkfront, once both ends say
 * feature-persistent, copies data through a pool of pages it grants once
 * and reuses; after each response it tries to revoke every grant the
 * request used and keeps (at the head of its free list, reused first) the
 * ones the backend still has mapped. So the backend decides which grants
 * are persistent: the first `max` it sees stay mapped until the ring is
 * disconnected, any beyond are mapped for one request and unmapped before
 * its response (Linux then revokes them and prefers the kept ones). The
 * table is open addressing on the gref, filled but never thinned: a ring's
 * grants only all go at once.
 */
#include "vbd.h"

static uint32_t pers_mask(const struct vbd_pers *p)
{
	uint32_t n = 1U;

	/* Buckets: the power of two at or above twice the bound (load <= 1/2). */
	while ((n < 2U * p->max) && (n < 2U * VBD_MAX_PERS)) {
		n *= 2U;
	}
	return n - 1U;
}

static uint32_t pers_hash(uint32_t gref)
{
	return gref * 2654435761U; /* Knuth's multiplicative hash */
}

void vbd_pers_init(struct vbd_pers *p, unsigned int max, unsigned int first_slot)
{
	p->max = (max > VBD_MAX_PERS) ? VBD_MAX_PERS : max;
	p->used = 0U;
	p->first_slot = first_slot;
	memset(p->bucket, 0, sizeof(p->bucket));
}

struct vbd_pgrant *vbd_pers_find(struct vbd_pers *p, uint32_t gref)
{
	uint32_t mask = pers_mask(p);
	uint32_t b = pers_hash(gref) & mask;
	uint32_t i;

	/* LOOP-BOUND: at most mask + 1 buckets, and at least half of them are empty. */
	for (i = 0U; (i <= mask) && (p->bucket[b] != 0U); i++) {
		struct vbd_pgrant *g = &p->g[p->bucket[b] - 1U];

		if (g->gref == gref) {
			return g;
		}
		b = (b + 1U) & mask;
	}
	return NULL;
}

bool vbd_pers_room(const struct vbd_pers *p, uint32_t *slot)
{
	if (p->used >= p->max) {
		return false;
	}
	*slot = p->first_slot + p->used;
	return true;
}

void vbd_pers_add(struct vbd_pers *p, uint32_t gref, uint32_t handle, uint32_t slot, void *va)
{
	uint32_t mask = pers_mask(p);
	uint32_t b = pers_hash(gref) & mask;
	uint32_t i;

	if (p->used >= p->max) {
		return;
	}
	for (i = 0U; (i <= mask) && (p->bucket[b] != 0U); i++) {
		b = (b + 1U) & mask;
	}
	p->g[p->used] = (struct vbd_pgrant){ .gref = gref, .handle = handle, .slot = slot, .va = va };
	p->used++;
	p->bucket[b] = (uint16_t)p->used;
}

unsigned int vbd_pers_release(struct vbd_pers *p, uint16_t dom)
{
	static struct vbd_map um[64];
	unsigned int done = 0U;

	while (done < p->used) {
		unsigned int n = 0U;

		while ((n < 64U) && (done + n < p->used)) {
			const struct vbd_pgrant *g = &p->g[done + n];

			um[n] = (struct vbd_map){ .dom = dom, .gref = g->gref, .slot = g->slot,
						  .va = g->va, .handle = g->handle };
			n++;
		}
		vbd_plat_unmap(um, n);
		done += n;
	}
	p->used = 0U;
	memset(p->bucket, 0, sizeof(p->bucket));
	return done;
}

unsigned int vbd_fit_maptrack(struct vbd_dev *devs, unsigned int n, unsigned int maptrack)
{
	unsigned int rings = 0U;
	unsigned int pages = 0U;
	unsigned int tmp = BLKIF_MAX_SEGMENTS_PER_REQUEST;
	unsigned int fair;
	unsigned int lowered = 0U;
	unsigned int i;

	for (i = 0U; i < n; i++) {
		const struct vbd_offer *o = &devs[i].offer;
		/* An indirect request's segments and its indirect pages, mapped at once. */
		unsigned int t = o->max_indirect +
				 ((o->max_indirect + BLKIF_SEGS_PER_INDIRECT_FRAME - 1U) /
				  BLKIF_SEGS_PER_INDIRECT_FRAME);
		tmp = (t > tmp) ? t : tmp;
		rings += o->max_queues;
		pages += o->max_queues << o->max_ring_order;
	}
	fair = ((rings != 0U) && (maptrack > tmp + pages)) ? (maptrack - tmp - pages) / rings : 0U;
	for (i = 0U; i < n; i++) {
		struct vbd_offer *o = &devs[i].offer;
		if (o->persistent && (o->max_pers > fair)) {
			vbd_log("%s: d%u %s: %u persistent grants per ring, not %u: %u mappings in "
				"all (maptrack=)\n", vbd_plat_tag(), devs[i].fe, devs[i].name, fair,
				o->max_pers, maptrack);
			o->max_pers = fair;
			o->persistent = fair != 0U;
			lowered++;
		}
	}
	return lowered;
}
