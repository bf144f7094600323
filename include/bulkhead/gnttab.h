/* SPDX-License-Identifier: MIT */
/*
 * Grant tables (Xen ABI v1): per-partition state embedded in struct domain
 * and struct vcpu. Frames, active entries and maptrack pools are static
 * arrays sized by Kconfig (common/gnttab/); these structures only point at
 * them. Locking follows docs/locking.md, "Grant tables".
 */
#ifndef BULKHEAD_GNTTAB_H
#define BULKHEAD_GNTTAB_H

#include <bulkhead/config.h>
#include <bulkhead/spinlock.h>
#include <public/xen.h>

struct domain;
struct vcpu;
struct grant_entry_v1;
struct gnttab_active;
struct gnttab_maptrack;

#define GNTTAB_ENTRIES_PER_FRAME U(512)
#define GNTTAB_MAX_ENTRIES (CONFIG_GNTTAB_MAX_FRAMES * GNTTAB_ENTRIES_PER_FRAME)
#define GNTTAB_INVALID_HANDLE U(0xffffffff)
/* Maptrack entries in one 4 KiB frame (Xen counts max_maptrack_frames in these). */
#define GNTTAB_MAPTRACK_PER_FRAME U(256)
/* Unmap elements per TLB invalidation (common/gnttab/unmap.c). */
#define GNTTAB_UNMAP_CHUNK U(16)

/*
 * The lock configurations of Xen's 2015 measurement: BASE serialises the
 * whole table (and the maptrack pool) on one lock each; SPLIT adds the
 * rwlock and per-entry locks; SPLIT_PERCPU adds per-vCPU maptrack lists.
 */
#if defined(CONFIG_GNTTAB_LOCK_BASE)
#define GNTTAB_SPLIT_LOCKS 0
#define GNTTAB_PERCPU_MAPTRACK 0
#elif defined(CONFIG_GNTTAB_LOCK_SPLIT)
#define GNTTAB_SPLIT_LOCKS 1
#define GNTTAB_PERCPU_MAPTRACK 0
#else
#define GNTTAB_SPLIT_LOCKS 1
#define GNTTAB_PERCPU_MAPTRACK 1
#endif

/* A maptrack free list: per vCPU (SPLIT_PERCPU) or per partition. */
struct gnttab_freelist {
	spinlock_t lock;
	uint32_t head;    /* GNTTAB_INVALID_HANDLE when empty */
	uint32_t nr_free;
} __cacheline_aligned;

struct grant_table {
	/* Written by every map/unmap/copy of this table: its own line. */
	rwlock_t lock __cacheline_aligned;
	/* Below: read-mostly, changed only under the write lock. */
	uint32_t nr_frames __cacheline_aligned; /* frames the guest may use */
	uint32_t max_frames;             /* max_grant_frames: query_size's max_nr_frames */
	uint32_t init_frames;            /* frames initialised so far (the pool is BOOT_NOINIT) */
	uint32_t maptrack_limit;         /* max_maptrack_frames, in entries */
	bool resetting;                  /* restart in progress: no new pins */
	struct grant_entry_v1 *shared;   /* the static frames */
	struct gnttab_active *active;    /* shadow of each entry in use */
	gfn_t frame_gfn[CONFIG_GNTTAB_MAX_FRAMES]; /* INVALID_GFN when unmapped */
	/* Frames given back with decrease_reservation: never placed again (Xen). */
	uint64_t frame_lost;
	/* Mappings this partition holds of others' grants. */
	struct gnttab_maptrack *maptrack;
	/*
	 * This partition's own scratch page: a mapping it holds of a grant whose
	 * granter restarted points here until it unmaps the handle (reset.c).
	 */
	mfn_t sink_mfn;
	uint8_t *sink;
	struct gnttab_freelist maptrack_list; /* unused with per-vCPU lists */
};

struct gnttab_vcpu {
	struct gnttab_freelist maptrack_list;
};

int gnttab_domain_init(struct domain *d);
/*
 * Partition restart: revoke d's grants, remove every mapping other
 * partitions hold of them (their later unmap succeeds and frees the
 * handle), release d's own mappings of others. d's vCPUs must be stopped.
 */
void gnttab_domain_reset(struct domain *d);
long do_grant_table_op(unsigned int cmd, xen_guest_handle_t uop, unsigned int count);
/*
 * What a domain builder writes for the guest before it runs (Xen's
 * gnttab_seed_entry): reserved entry ref of d granting frame gfn to domid.
 */
void gnttab_seed_entry(struct domain *d, uint32_t ref, domid_t domid, gfn_t gfn);
/* XENMAPSPACE_grant_table: frame idx of d's table, or -errno. */
int gnttab_map_frame(struct domain *d, uint64_t idx, gfn_t gfn);
/*
 * Take the grant-table frame d placed at gfn out of its stage 2 (remove_from_physmap,
 * decrease_reservation); with lose, that frame can never be placed again, as
 * on Xen, where decrease_reservation drops its allocation reference. 0, or
 * -ENOENT when no frame sits at gfn.
 */
int gnttab_unmap_frame(struct domain *d, gfn_t gfn, bool lose);

/* Audit (tests, stress, bench): sum of pin counts of d's table. */
uint32_t gnttab_nr_pins(struct domain *d);
/* Audit: free maptrack entries of d, and whether each is free exactly once. */
uint32_t gnttab_maptrack_nr_free(struct domain *d, bool *consistent);

#endif
