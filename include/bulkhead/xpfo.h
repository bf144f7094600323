/* SPDX-License-Identifier: MIT */
/*
 * Exclusive page ownership: the debug check that the hypervisor's own (EL2)
 * page tables map no partition RAM except the pages the ABI shares with it
 * while they are registered (docs/xpfo.md). The walk of the table format is
 * arch/arm/xpfo_walk.c (plain memory reads, so the host links it too); what
 * a mapping is allowed to be is judged here, in common code.
 */
#ifndef BULKHEAD_XPFO_H
#define BULKHEAD_XPFO_H

#include <bulkhead/config.h>
#include <bulkhead/types.h>

/* Where the EL2 tables are and which windows hold partition pages. */
struct xpfo_tables {
	const uint64_t *root;        /* level-1 table, 512 entries of 1 GiB (39-bit VA) */
	uint64_t cpu_slots_va;       /* CPU c's temporary slots: c * per_cpu ... + per_cpu - 1 */
	uint32_t cpu_slots_per_cpu;
	uint32_t nr_cpus;
	uint64_t global_slots_va;    /* long-lived mappings of registered shared pages */
	uint32_t nr_global_slots;
};

enum xpfo_fault {
	XPFO_OK = 0,
	XPFO_BAD_DESC,         /* a descriptor the tables' builder never writes */
	XPFO_LEAK,             /* partition RAM mapped outside the slot windows */
	XPFO_LEAK_OWN_SLOT,    /* a temporary slot of the checking CPU left mapped */
	XPFO_LEAK_GLOBAL,      /* a global slot maps a page nobody has registered */
	XPFO_SHARED_UNMAPPED,  /* a registered shared page is not mapped at EL2 */
};

struct xpfo_report {
	uint32_t tables;       /* table descriptors followed (levels 1 and 2) */
	uint32_t leaves;       /* valid block and page descriptors */
	uint32_t shared;       /* registered shared pages found mapped */
	uint32_t transient;    /* other CPUs' temporary slots in use */
	uint32_t shared_by_dom[CONFIG_MAX_DOMAINS];
	enum xpfo_fault fault;
	uint64_t bad_va;
	paddr_t bad_pa;
};

/* A leaf of the walk: [va, va + size) maps machine [pa, pa + size). Nonzero stops it. */
struct xpfo_walk_ctx;
typedef int (*xpfo_leaf_fn)(struct xpfo_walk_ctx *ctx, uint64_t va, paddr_t pa,
			    uint64_t size);

/*
 * Visit every valid descriptor of every level under root; fn for each
 * block or page. Returns fn's first nonzero answer, XPFO_BAD_DESC (with
 * *bad_va) for a level-3 descriptor of the reserved type, else 0.
 */
int xpfo_pt_walk(const uint64_t *root, xpfo_leaf_fn fn, struct xpfo_walk_ctx *ctx,
		 uint32_t *tables, uint64_t *bad_va);
/* Machine address va translates to (false: not mapped). */
bool xpfo_pt_lookup(const uint64_t *root, uint64_t va, paddr_t *pa);

/* The arch's tables (false when it has none to walk: no XPFO, or a host test without). */
bool arch_xpfo_tables(struct xpfo_tables *t);

/*
 * Walk t as CPU cpu sees it and judge every leaf against the live
 * partitions and their registered shared pages (taking each partition's
 * event lock in turn). Returns r->fault.
 */
enum xpfo_fault xpfo_walk(const struct xpfo_tables *t, unsigned int cpu, struct xpfo_report *r);
/*
 * CONFIG_XPFO_WALK: walk the arch's tables now, print one line saying when
 * (after partition domid, if not 0), and panic on any fault. No-op
 * otherwise. Call it with no lock held.
 */
void xpfo_check(const char *when, unsigned int domid);
/* CONFIG_XPFO_WALK, at boot: plant two leaks in the real tables; panic unless both are caught. */
void xpfo_selftest(void);

#endif
