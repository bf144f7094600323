/* SPDX-License-Identifier: MIT */
/*
 * Grant-table stress (ThreadSanitizer build). T backend vCPU threads map,
 * copy and unmap grants of F frontend partitions while each frontend's
 * vCPU revokes and re-grants (following the guest protocol, on the same
 * 32-bit word the hypervisor updates) and a restart thread resets one
 * frontend from time to time. Every status must be one the ABI allows for
 * that race; at the end every pin count is zero and every maptrack entry
 * is free exactly once.
 * VERIFIES: REQ-GNT-016, REQ-GNT-017, REQ-GNT-018, REQ-GNT-007
 */
#include <bulkhead/domain.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/lib.h>
#include <bulkhead/mm.h>
#include <arch_host.h>
#include <public/grant_table.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sched.h>

#define T          4U   /* backend vCPUs */
#define F          4U   /* frontends */
#define R          32U  /* grants per frontend */
#define FIRST_REF  8U
#define BACKEND    (F + 1U)
#define RUN_NS     (8ULL * 1000000000ULL)
#define MAX_HELD   40U  /* mappings one backend vCPU holds at once */

static volatile bool stop;
static volatile bool fe_pause[F + 1U];
static volatile bool fe_paused[F + 1U];
static unsigned int failures;
static uint64_t maps_ok, maps_refused, copies_ok, unmaps_ok, resets;

static void fail(const char *what, long v)
{
	__atomic_fetch_add(&failures, 1U, __ATOMIC_RELAXED);
	fprintf(stderr, "stress_gnttab: %s (%ld)\n", what, v);
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void *gpa_ptr(struct domain *d, paddr_t gpa)
{
	mfn_t mfn;
	enum p2m_type t;

	if (p2m_lookup(&d->p2m, gaddr_to_gfn(gpa), &mfn, &t) != 0) {
		abort();
	}
	return (uint8_t *)maddr_to_virt(mfn_to_maddr(mfn)) + PAGE_OFFSET_OF(gpa);
}

static uint32_t *entry_word(struct domain *d, grant_ref_t ref)
{
	return (uint32_t *)(void *)&d->gt.shared[ref];
}

static void guest_grant(struct domain *fe, grant_ref_t ref, bool ro)
{
	struct grant_entry_v1 *e = &fe->gt.shared[ref];
	uint32_t flags = GTF_permit_access | (ro ? GTF_readonly : 0U);

	__atomic_store_n(&e->frame, (uint32_t)gaddr_to_gfn(GUEST_RAM0_BASE) + 16U + ref,
			 __ATOMIC_RELAXED);
	/* Flags last, in one store with the domid, as the word the hypervisor reads. */
	__atomic_store_n(entry_word(fe, ref), flags | ((uint32_t)BACKEND << 16), __ATOMIC_RELEASE);
}

/* The Linux revoke: only when neither reading nor writing is set. */
static bool guest_revoke(struct domain *fe, grant_ref_t ref)
{
	uint32_t *w = entry_word(fe, ref);
	uint32_t cur = __atomic_load_n(w, __ATOMIC_ACQUIRE);

	while ((cur & (GTF_reading | GTF_writing)) == 0U) {
		if (__atomic_compare_exchange_n(w, &cur, cur & 0xffff0000U, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			return true;
		}
	}
	return false;
}

static void *frontend(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;
	struct domain *fe = domain_by_id((domid_t)id);
	uint32_t seed = 0x9e3779b9U * id;

	host_set_cpu(T + id);
	host_set_current(&fe->vcpu[0]);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		grant_ref_t ref = FIRST_REF + (rnd(&seed) % R);

		if (__atomic_load_n(&fe_pause[id], __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&fe_paused[id], true, __ATOMIC_RELEASE);
			while (__atomic_load_n(&fe_pause[id], __ATOMIC_ACQUIRE) &&
			       !__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
				sched_yield();
			}
			__atomic_store_n(&fe_paused[id], false, __ATOMIC_RELEASE);
			continue;
		}
		if (guest_revoke(fe, ref)) {
			guest_grant(fe, ref, (rnd(&seed) & 3U) == 0U);
		}
	}
	return NULL;
}

/* A restart of frontend 1: its vCPU stops, the table is reset, it re-grants. */
static void *restarter(void *arg)
{
	struct domain *fe = domain_by_id(1);
	grant_ref_t r;

	(void)arg;
	host_set_cpu(T + F + 1U);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		usleep(200000);
		__atomic_store_n(&fe_pause[1], true, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&fe_paused[1], __ATOMIC_ACQUIRE)) {
			if (__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
				return NULL;
			}
			sched_yield();
		}
		gnttab_domain_reset(fe);
		for (r = FIRST_REF; r < FIRST_REF + R; r++) {
			guest_grant(fe, r, false);
		}
		resets++;
		__atomic_store_n(&fe_pause[1], false, __ATOMIC_RELEASE);
	}
	return NULL;
}

struct held {
	paddr_t addr;
	uint32_t handle;
};

static void *backend(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;
	struct domain *be = domain_by_id(BACKEND);
	struct vcpu *v = &be->vcpu[t];
	paddr_t args = GUEST_RAM0_BASE + ((paddr_t)(1U + t) << PAGE_SHIFT);
	struct gnttab_map_grant_ref *m = gpa_ptr(be, args);
	struct gnttab_unmap_grant_ref *u = gpa_ptr(be, args);
	struct gnttab_copy *c = gpa_ptr(be, args);
	struct held held[MAX_HELD];
	uint32_t seed = 0x1234567U + t;
	uint64_t ok = 0, refused = 0, copied = 0, unmapped = 0;

	host_set_cpu(t);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		unsigned int n = 1U + (rnd(&seed) % MAX_HELD);
		unsigned int i, nheld = 0;

		for (i = 0; i < n; i++) {
			domid_t fe = (domid_t)(1U + (rnd(&seed) % F));
			bool ro = (rnd(&seed) & 1U) != 0U;
			long rc;

			memset(m, 0, sizeof(*m));
			m->host_addr = GUEST_GNTTAB_BASE + ((paddr_t)(256U + t * MAX_HELD + i) << 12);
			m->flags = GNTMAP_host_map | (ro ? GNTMAP_readonly : 0U);
			m->ref = FIRST_REF + (rnd(&seed) % R);
			m->dom = fe;
			rc = host_hypercall(v, __HYPERVISOR_grant_table_op, GNTTABOP_map_grant_ref,
					    args, 1, 0, 0);
			if (rc != 0) {
				fail("map hypercall", rc);
			} else if (m->status == GNTST_okay) {
				held[nheld].addr = m->host_addr;
				held[nheld].handle = m->handle;
				nheld++;
				ok++;
			} else if ((m->status == GNTST_general_error) ||
				   (m->status == GNTST_bad_domain) ||
				   (m->status == GNTST_no_space)) {
				/* Revoked, read-only, restarting, or the pool is busy elsewhere. */
				refused++;
			} else {
				fail("map status", m->status);
			}
		}
		/* A copy from a grant into our own page, racing everything else. */
		memset(c, 0, sizeof(*c));
		c->source.domid = (domid_t)(1U + (rnd(&seed) % F));
		c->source.u.ref = FIRST_REF + (rnd(&seed) % R);
		c->dest.domid = DOMID_SELF;
		c->dest.u.gmfn = gaddr_to_gfn(GUEST_RAM0_BASE) + 64U + t;
		c->len = 64;
		c->flags = GNTCOPY_source_gref;
		if (host_hypercall(v, __HYPERVISOR_grant_table_op, GNTTABOP_copy, args, 1, 0, 0) !=
		    0) {
			fail("copy hypercall", 0);
		} else if (c->status == GNTST_okay) {
			copied++;
		} else if ((c->status != GNTST_general_error) && (c->status != GNTST_bad_domain)) {
			fail("copy status", c->status);
		}
		/* Unmap in batches of random size: one invalidation per chunk, racing restarts. */
		for (i = 0; i < nheld;) {
			unsigned int k, nb = 1U + (rnd(&seed) % (nheld - i));

			for (k = 0; k < nb; k++) {
				memset(&u[k], 0, sizeof(u[k]));
				u[k].host_addr = held[i + k].addr;
				u[k].handle = held[i + k].handle;
				u[k].status = 0x55;
			}
			if (host_hypercall(v, __HYPERVISOR_grant_table_op, GNTTABOP_unmap_grant_ref,
					   args, nb, 0, 0) != 0) {
				fail("unmap hypercall", 0);
			}
			for (k = 0; k < nb; k++) {
				if (u[k].status != GNTST_okay) {
					/* Even a mapping revoked by a restart unmaps with okay. */
					fail("unmap status", u[k].status);
				} else {
					unmapped++;
				}
			}
			i += nb;
		}
	}
	__atomic_fetch_add(&maps_ok, ok, __ATOMIC_RELAXED);
	__atomic_fetch_add(&maps_refused, refused, __ATOMIC_RELAXED);
	__atomic_fetch_add(&copies_ok, copied, __ATOMIC_RELAXED);
	__atomic_fetch_add(&unmaps_ok, unmapped, __ATOMIC_RELAXED);
	return NULL;
}

static void make_domain(domid_t id, uint32_t vcpus)
{
	struct domain_config cfg;
	struct domain *d;
	uint32_t i;

	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_vcpus = vcpus;
	cfg.mem_bytes = UL(1) << 20;
	for (i = 0; i < vcpus; i++) {
		cfg.pcpus[i] = i;
	}
	if (domain_create(id, &cfg) != 0) {
		fprintf(stderr, "cannot create d%u\n", id);
		exit(1);
	}
	d = domain_by_id(id);
	d->state = DOMAIN_RUNNING;
}

static void check(bool cond, const char *name)
{
	printf("%s: %s\n", cond ? "PASS" : "FAIL", name);
}

int main(void)
{
	pthread_t be[T], fe[F + 1U], rs;
	uint64_t start = arch_now_ns();
	unsigned int i;
	grant_ref_t r;
	bool consistent = true;
	uint32_t pins = 0;

	/* The host's emulated machine RAM, as the unit-test harness sets it up. */
	host_mm_reset();
	for (i = 1; i <= F; i++) {
		make_domain((domid_t)i, 1);
		for (r = FIRST_REF; r < FIRST_REF + R; r++) {
			guest_grant(domain_by_id((domid_t)i), r, false);
		}
	}
	make_domain(BACKEND, T);
	for (i = 0; i < T; i++) {
		pthread_create(&be[i], NULL, backend, (void *)(uintptr_t)i);
	}
	for (i = 1; i <= F; i++) {
		pthread_create(&fe[i], NULL, frontend, (void *)(uintptr_t)i);
	}
	pthread_create(&rs, NULL, restarter, NULL);
	while (arch_now_ns() - start < RUN_NS) {
		usleep(100000);
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELEASE);
	for (i = 0; i < T; i++) {
		pthread_join(be[i], NULL);
	}
	for (i = 1; i <= F; i++) {
		pthread_join(fe[i], NULL);
	}
	pthread_join(rs, NULL);

	for (i = 1; i <= F; i++) {
		pins += gnttab_nr_pins(domain_by_id((domid_t)i));
		for (r = FIRST_REF; r < FIRST_REF + R; r++) {
			uint32_t w = *entry_word(domain_by_id((domid_t)i), r);
			if ((w & (GTF_reading | GTF_writing)) != 0U) {
				fail("flags left set", (long)w);
			}
		}
	}
	printf("# maps %lu ok, %lu refused; copies %lu; unmaps %lu; restarts %lu\n",
	       (unsigned long)maps_ok, (unsigned long)maps_refused, (unsigned long)copies_ok,
	       (unsigned long)unmaps_ok, (unsigned long)resets);
	check(failures == 0U, "gnttab stress: every status allowed for its race");
	check(maps_ok > 0U && unmaps_ok == maps_ok && copies_ok > 0U,
	      "gnttab stress: maps, copies and unmaps all happened");
	check(pins == 0U, "gnttab stress: every pin count is zero");
	check(gnttab_maptrack_nr_free(domain_by_id(BACKEND), &consistent) ==
		      CONFIG_GNTTAB_MAPTRACK_ENTRIES && consistent,
	      "gnttab stress: every maptrack entry is free exactly once");
	check(resets > 0U, "gnttab stress: frontend restarts raced the backend");
	return 0;
}
