/* SPDX-License-Identifier: MIT */
/*
 * Grant-table scalability bench (make bench-gnttab). One backend partition
 * with T vCPU threads maps and unmaps grants of T frontend partitions
 * (thread t uses frontend t), through the real hypercall path: argument
 * copy, grant-table locks and pins, maptrack, stage-2 insert and removal
 * (TLB invalidation counted, not executed). One op = map + unmap.
 * With --reference each thread has its own backend too: the same work
 * with nothing shared, which is what the machine itself allows.
 * Prints "config,threads,ops_per_sec".
 */

#include <bulkhead/domain.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/lib.h>
#include <bulkhead/mm.h>
#include <arch_host.h>
#include <public/grant_table.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REFS      16U
#define FIRST_REF 8U

static unsigned int nthreads;
static bool reference;
static uint64_t run_ns;
static volatile bool go, stop;
static uint64_t total_ops;
static unsigned int errors;

static void make_domain(domid_t id, uint32_t vcpus)
{
	struct domain_config cfg;
	uint32_t i;

	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_vcpus = vcpus;
	cfg.mem_bytes = UL(1) << 20;
	for (i = 0; i < vcpus; i++) {
		cfg.pcpus[i] = i;
	}
	if (domain_create(id, &cfg) != 0) {
		fprintf(stderr, "bench_gnttab: cannot create d%u\n", id);
		exit(1);
	}
	domain_by_id(id)->state = DOMAIN_RUNNING;
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

/* Frontend of thread t is d(1+t); the backend is d(T+1), or d(T+1+t). */
static domid_t frontend_of(unsigned int t)
{
	return (domid_t)(1U + t);
}

static struct vcpu *backend_vcpu(unsigned int t)
{
	if (reference) {
		return &domain_by_id((domid_t)(nthreads + 1U + t))->vcpu[0];
	}
	return &domain_by_id((domid_t)(nthreads + 1U))->vcpu[t];
}

static void *worker(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;
	struct vcpu *v = backend_vcpu(t);
	/* Each thread its own argument page and its own 64-page slice of the window. */
	paddr_t args = GUEST_RAM0_BASE + ((paddr_t)(1U + (reference ? 0U : t)) << PAGE_SHIFT);
	struct gnttab_map_grant_ref *m = gpa_ptr(v->domain, args);
	struct gnttab_unmap_grant_ref *u = gpa_ptr(v->domain, args + 64U);
	paddr_t window = GUEST_GNTTAB_BASE + ((paddr_t)(t * 64U) << PAGE_SHIFT);
	uint64_t ops = 0;
	unsigned int i = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t % (unsigned int)sysconf(_SC_NPROCESSORS_ONLN), &set);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	host_set_cpu(t);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) {
		sched_yield();
	}
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		m->host_addr = window + ((paddr_t)(i % REFS) << PAGE_SHIFT);
		m->flags = GNTMAP_host_map;
		m->ref = FIRST_REF + (i % REFS);
		m->dom = frontend_of(t);
		if ((host_hypercall(v, __HYPERVISOR_grant_table_op, GNTTABOP_map_grant_ref, args, 1, 0,
				    0) != 0) ||
		    (m->status != GNTST_okay)) {
			__atomic_fetch_add(&errors, 1U, __ATOMIC_RELAXED);
			break;
		}
		u->host_addr = m->host_addr;
		u->dev_bus_addr = 0;
		u->handle = m->handle;
		if ((host_hypercall(v, __HYPERVISOR_grant_table_op, GNTTABOP_unmap_grant_ref,
				    args + 64U, 1, 0, 0) != 0) ||
		    (u->status != GNTST_okay)) {
			__atomic_fetch_add(&errors, 1U, __ATOMIC_RELAXED);
			break;
		}
		ops++;
		i++;
	}
	__atomic_fetch_add(&total_ops, ops, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *name;
	pthread_t th[64];
	uint64_t t0, t1, flushes;
	unsigned int t, r;

	if (argc < 4) {
		fprintf(stderr, "usage: %s NAME THREADS MS [--reference]\n", argv[0]);
		return 2;
	}
	name = argv[1];
	nthreads = (unsigned int)atoi(argv[2]);
	run_ns = (uint64_t)atoi(argv[3]) * 1000000ULL;
	reference = (argc > 4) && (strcmp(argv[4], "--reference") == 0);
	if ((nthreads == 0U) || (nthreads > 31U) || (nthreads > CONFIG_MAX_VCPUS) ||
	    ((reference ? 2U : 1U) * nthreads + 1U > CONFIG_MAX_DOMAINS)) {
		fprintf(stderr, "bench_gnttab: unsupported thread count %u\n", nthreads);
		return 2;
	}
	host_mm_reset();
	for (t = 0; t < nthreads; t++) {
		struct domain *fe;

		make_domain(frontend_of(t), 1);
		fe = domain_by_id(frontend_of(t));
		for (r = FIRST_REF; r < FIRST_REF + REFS; r++) {
			fe->gt.shared[r].domid = reference ? (domid_t)(nthreads + 1U + t)
							   : (domid_t)(nthreads + 1U);
			fe->gt.shared[r].frame = (uint32_t)gaddr_to_gfn(GUEST_RAM0_BASE) + 32U + r;
			__atomic_store_n(&fe->gt.shared[r].flags, (uint16_t)GTF_permit_access,
					 __ATOMIC_RELEASE);
		}
	}
	if (reference) {
		for (t = 0; t < nthreads; t++) {
			make_domain((domid_t)(nthreads + 1U + t), 1);
		}
	} else {
		make_domain((domid_t)(nthreads + 1U), nthreads);
	}
	for (t = 0; t < nthreads; t++) {
		pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t);
	}
	flushes = host_tlb_flushes_vmid;
	t0 = arch_now_ns();
	__atomic_store_n(&go, true, __ATOMIC_RELEASE);
	while (arch_now_ns() - t0 < run_ns) {
		usleep(10000);
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELEASE);
	for (t = 0; t < nthreads; t++) {
		pthread_join(th[t], NULL);
	}
	t1 = arch_now_ns();
	if ((errors != 0U) || (host_tlb_flushes_vmid - flushes != total_ops)) {
		fprintf(stderr, "bench_gnttab: %u errors, %lu flushes for %lu ops\n", errors,
			(unsigned long)(host_tlb_flushes_vmid - flushes), (unsigned long)total_ops);
		return 1;
	}
	printf("%s,%u,%.0f\n", name, nthreads, (double)total_ops * 1e9 / (double)(t1 - t0));
	return 0;
}
