/* SPDX-License-Identifier: MIT */
/*
 * Exclusive page ownership, checked: every leaf of the EL2 tables is judged
 * against the live partitions' RAM. Partition RAM may appear only in a
 * temporary slot of another CPU (a copy in flight there) or in a global
 * slot holding a page its partition has registered (vcpu_info, FIFO control
 * block, event array page); and every registered page must be mapped. The
 * global slots are judged per partition under its event lock, the lock every
 * registration and release holds, so a walk racing a registration on another
 * CPU sees either both the mapping and the registration or neither.
 */
#include <bulkhead/xpfo.h>
#include <bulkhead/domain.h>
#include <bulkhead/console.h>
#include <bulkhead/lib.h>
#include <bulkhead/mm.h>

BUILD_ASSERT(((U(2) * (unsigned int)CONFIG_MAX_VCPUS) + EVTCHN_FIFO_MAX_PAGES) ==
	     EVTCHN_SHARED_PAGES_MAX);

struct xpfo_walk_ctx {
	const struct xpfo_tables *t;
	unsigned int self_cpu;
	struct xpfo_report *r;
};

static bool dom_owns(const struct domain *d, paddr_t pa, uint64_t size)
{
	uint32_t i;

	if ((pa < d->cfg.vbd_maddr + d->cfg.vbd_bytes) && (d->cfg.vbd_maddr < pa + size)) {
		return true;   /* the disks it serves */
	}
	for (i = 0U; (i < d->nr_ram_banks) && (i < DOMAIN_MAX_MEM_BANKS); i++) {
		const struct ram_bank *b = &d->ram_bank[i];
		if ((pa < b->maddr + b->size) && (b->maddr < pa + size)) {
			return true;
		}
	}
	return false;
}

static bool dom_live(const struct domain *d)
{
	return read_atomic(&d->state) != DOMAIN_FREE;
}

/* A partition whose RAM [pa, pa + size) overlaps, or NULL. */
static const struct domain *ram_owner(paddr_t pa, uint64_t size)
{
	unsigned int i;

	for (i = 0U; i < CONFIG_MAX_DOMAINS; i++) {
		if (dom_live(&domains[i]) && dom_owns(&domains[i], pa, size)) {
			return &domains[i];
		}
	}
	return NULL;
}

static bool in_window(uint64_t va, uint64_t base, uint64_t pages)
{
	return (va >= base) && (((va - base) >> PAGE_SHIFT) < pages);
}

static int xpfo_leaf(struct xpfo_walk_ctx *c, uint64_t va, paddr_t pa, uint64_t size)
{
	const struct xpfo_tables *t = c->t;
	uint64_t cpu_pages = (uint64_t)t->nr_cpus * t->cpu_slots_per_cpu;

	c->r->leaves++;
	if (ram_owner(pa, size) == NULL) {
		return 0; /* the image, the DTB, devices: the hypervisor's own */
	}
	c->r->bad_va = va;
	c->r->bad_pa = pa;
	if ((size == PAGE_SIZE) && in_window(va, t->cpu_slots_va, cpu_pages)) {
		uint64_t cpu = ((va - t->cpu_slots_va) >> PAGE_SHIFT) / t->cpu_slots_per_cpu;
		/* The checking CPU maps nothing while it checks: its slots must be empty. */
		if (cpu == c->self_cpu) {
			return (int)XPFO_LEAK_OWN_SLOT;
		}
		c->r->transient++;
		return 0;
	}
	if ((size == PAGE_SIZE) && in_window(va, t->global_slots_va, t->nr_global_slots)) {
		return 0; /* judged with its partition's registrations below */
	}
	return (int)XPFO_LEAK;
}

static bool page_listed(const void *const *pages, unsigned int n, uint64_t va)
{
	unsigned int i;

	for (i = 0U; i < n; i++) {
		if ((uint64_t)(uintptr_t)pages[i] == va) {
			return true;
		}
	}
	return false;
}

/* d's global slots against d's registrations; d->ev.lock held. */
static enum xpfo_fault judge_shared(const struct xpfo_tables *t, const struct domain *d,
				    struct xpfo_report *r, uint32_t *count)
{
	/* EVTCHN_SHARED_PAGES_MAX, spelled out: both terms come from Kconfig. */
	const void *pages[(U(2) * (unsigned int)CONFIG_MAX_VCPUS) + EVTCHN_FIFO_MAX_PAGES];
	unsigned int n = evtchn_shared_pages(d, pages, (unsigned int)ARRAY_SIZE(pages));
	unsigned int i;
	paddr_t pa;

	for (i = 0U; i < t->nr_global_slots; i++) {
		uint64_t va = t->global_slots_va + ((uint64_t)i << PAGE_SHIFT);
		if (!xpfo_pt_lookup(t->root, va, &pa) || !dom_owns(d, pa, PAGE_SIZE)) {
			continue;
		}
		if (!page_listed(pages, n, va)) {
			r->bad_va = va;
			r->bad_pa = pa;
			return XPFO_LEAK_GLOBAL;
		}
		(*count)++;
	}
	for (i = 0U; i < n; i++) {
		uint64_t va = (uint64_t)(uintptr_t)pages[i];
		if (!in_window(va, t->global_slots_va, t->nr_global_slots) ||
		    !xpfo_pt_lookup(t->root, va, &pa) || !dom_owns(d, pa, PAGE_SIZE)) {
			r->bad_va = va;
			r->bad_pa = 0U;
			return XPFO_SHARED_UNMAPPED;
		}
	}
	return XPFO_OK;
}

enum xpfo_fault xpfo_walk(const struct xpfo_tables *t, unsigned int cpu, struct xpfo_report *r)
{
	struct xpfo_walk_ctx c = { .t = t, .self_cpu = cpu, .r = r };
	unsigned int i;
	int rc;

	(void)memset(r, 0, sizeof(*r));
	rc = xpfo_pt_walk(t->root, xpfo_leaf, &c, &r->tables, &r->bad_va);
	if (rc != 0) {
		r->fault = (enum xpfo_fault)rc;
		return r->fault;
	}
	for (i = 0U; i < CONFIG_MAX_DOMAINS; i++) {
		struct domain *d = &domains[i];
		enum xpfo_fault f;
		if (!dom_live(d)) {
			continue;
		}
		spin_lock(&d->ev.lock);
		f = judge_shared(t, d, r, &r->shared_by_dom[i]);
		spin_unlock(&d->ev.lock);
		if (f != XPFO_OK) {
			r->fault = f;
			return f;
		}
		r->shared += r->shared_by_dom[i];
	}
	return XPFO_OK;
}

#if defined(CONFIG_XPFO_WALK)
static const char *fault_name(enum xpfo_fault f)
{
	switch (f) {
	case XPFO_BAD_DESC:
		return "reserved descriptor";
	case XPFO_LEAK:
		return "partition RAM mapped";
	case XPFO_LEAK_OWN_SLOT:
		return "temporary slot left mapped";
	case XPFO_LEAK_GLOBAL:
		return "unregistered page in a global slot";
	case XPFO_SHARED_UNMAPPED:
		return "registered shared page not mapped";
	default:
		return "ok";
	}
}

/*
 * Positive control on the real tables, as the boot probe has one: a page of
 * the first partition left in this CPU's temporary slot, then in a global
 * slot nobody registered, must each be caught.
 */
void xpfo_selftest(void)
{
	struct xpfo_tables t;
	struct xpfo_report r;
	enum xpfo_fault own;
	enum xpfo_fault global;
	mfn_t mfn;
	void *va;

	if (!arch_xpfo_tables(&t) || !dom_live(&domains[0])) {
		return;
	}
	mfn = maddr_to_mfn(domains[0].ram_maddr);
	va = map_domain_page(mfn);
	own = xpfo_walk(&t, arch_cpu_id(), &r);
	unmap_domain_page(va);
	va = map_domain_page_global(mfn);
	global = xpfo_walk(&t, arch_cpu_id(), &r);
	unmap_domain_page_global(va);
	if ((own != XPFO_LEAK_OWN_SLOT) || (global != XPFO_LEAK_GLOBAL)) {
		panic("xpfo: walk self-test: missed a planted mapping (%d, %d)", (int)own,
		      (int)global);
	}
	printk("xpfo: walk self-test: a slot left mapped and an unregistered shared page "
	       "are caught\n");
}

void xpfo_check(const char *when, unsigned int domid)
{
	char what[48];
	struct xpfo_tables t;
	struct xpfo_report r;
	char doms[12U * CONFIG_MAX_DOMAINS];
	size_t len = 0U;
	unsigned int i;

	doms[0] = '\0';
	if (!arch_xpfo_tables(&t)) {
		return;
	}
	if (domid != 0U) {
		(void)bh_snprintf(what, sizeof(what), "d%u %s", domid, when);
	} else {
		(void)bh_snprintf(what, sizeof(what), "%s", when);
	}
	if (xpfo_walk(&t, arch_cpu_id(), &r) != XPFO_OK) {
		panic("xpfo: el2 walk FAILED (%s): %s at va 0x%llx pa 0x%llx", what,
		      fault_name(r.fault), (unsigned long long)r.bad_va,
		      (unsigned long long)r.bad_pa);
	}
	for (i = 0U; (i < CONFIG_MAX_DOMAINS) && (len < sizeof(doms)); i++) {
		if (dom_live(&domains[i])) {
			int n = bh_snprintf(&doms[len], sizeof(doms) - len, " d%u:%u",
					    domains[i].domain_id, r.shared_by_dom[i]);
			len += (n > 0) ? (size_t)n : 0U;
		}
	}
	printk("xpfo: el2 walk ok (%s): %u pages shared [%s ], %u transient, %u leaves, "
	       "%u tables\n", what, r.shared, doms, r.transient, r.leaves, r.tables);
}
#else
void xpfo_selftest(void)
{
}

void xpfo_check(const char *when, unsigned int domid)
{
	(void)when;
	(void)domid;
}
#endif
