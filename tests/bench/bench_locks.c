/* SPDX-License-Identifier: MIT */
/*
 * make bench-locks: how long a CPU waits for the grant-table active-entry
 * lock, the maptrack free lists and the event-channel lock, beside how long
 * each is held. T threads are the vCPUs of one partition and run the real
 * hypercalls (common code, host build) that take the lock, contending on
 * one object or each on its own:
 *
 *   gnttab_active  one:      every thread maps and unmaps the same grant
 *                  distinct: thread t the grant of its own frontend
 *   maptrack       one:      the split-locks library: one free list (one
 *                            lock) for the whole backend
 *                  distinct: split-locks+percpu: each vCPU its own list
 *   evtchn         one:      every thread sends on the same channel
 *                  distinct: thread t on its own channel
 *
 * The library is built with CONFIG_LOCK_TIMING (common/spinlock.c), which
 * reports every acquisition and release to the hooks below; with
 * CONFIG_LOCK_TAS the same code runs on a test-and-set lock for contrast.
 *
 * Preemption of a host thread: each thread is pinned to its own CPU
 * (T <= nproc), the waiter reads the clock at every look at the lock, and a
 * gap of more than GAP_NS between two looks marks the wait "disturbed"
 * (the thread lost its CPU or took an interrupt while waiting); a holder
 * compares its CPU time with the wall time of the hold, and a hold that
 * lost the CPU marks every wait that overlapped it as disturbed too, as does
 * a disturbed waiter ahead (its ticket came up while it was off its CPU, so
 * the lock sat idle: the ticket lock's known weakness under preemption). A wait is
 * checked against the ticket lock's bound, ahead x (longest hold + longest
 * hand-over), ahead being the tickets before its own (the holder included).
 * Context switches (getrusage RUSAGE_THREAD) are counted per point.
 *
 * usage: bench_locks LABEL WORKLOAD LOCK SHARING THREADS MS
 *   WORKLOAD gnttab|evtchn, LOCK gnttab_active|maptrack|evtchn, SHARING one|distinct
 * Prints "row,LABEL,T,SHARING,wait_median_ns,wait_p999_ns,wait_max_ns,hold_max_ns"
 * and "bound,LABEL,T,SHARING,acquisitions,contended,ahead_max,hold_median_ns,
 * hold_p999_ns,hold_clean_max_ns,handover_max_ns,worst_wait_per_ahead_ns,bound_per_ahead_ns,
 * over_bound,over_bound_disturbed,disturbed,passed_max,overtaken,context_switches":
 * passed_max is the most acquisitions by other CPUs during one wait, overtaken
 * the waits that more acquisitions passed than there were tickets ahead (a
 * FIFO lock: none; test-and-set: as many as chance gives); hold_clean_max is
 * the longest hold whose holder kept its CPU (thread CPU time against wall
 * time), handover_max the longest hand-over to an undisturbed waiter, the
 * bound their sum per ticket ahead; over_bound counts undisturbed waits above
 * it, over_bound_disturbed the disturbed ones (waiter or a holder ahead of it
 * lost its CPU), worst_wait_per_ahead the largest undisturbed wait / ahead.
 */
#include <bulkhead/domain.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/lib.h>
#include <bulkhead/mm.h>
#include <bulkhead/spinlock.h>
#include <arch_host.h>
#include <public/event_channel.h>
#include <public/grant_table.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#ifndef CONFIG_LOCK_TIMING
#error "bench_locks needs a library built with CONFIG_LOCK_TIMING"
#endif

#define MAX_T 31U
#define GAP_NS 1500U
#define FIRST_REF 8U
#define PORT_STRIDE 64U

/* Log-linear histogram: exact below 256 ns, then 32 buckets per power of two (~3%). */
#define HB_LINEAR 256U
#define HB_SUB 32U
#define HB_N (HB_LINEAR + 48U * HB_SUB)

static unsigned int hbucket(uint64_t v)
{
	unsigned int e;

	if (v < HB_LINEAR) {
		return (unsigned int)v;
	}
	e = 63U - (unsigned int)__builtin_clzll(v);   /* >= 8 */
	if (e > 55U) {
		return HB_N - 1U;
	}
	return HB_LINEAR + (e - 8U) * HB_SUB + (unsigned int)((v >> (e - 5U)) & (HB_SUB - 1U));
}

/* The smallest value of bucket b (a value in b is at least this). */
static uint64_t hlow(unsigned int b)
{
	unsigned int e;

	if (b < HB_LINEAR) {
		return b;
	}
	e = (b - HB_LINEAR) / HB_SUB + 8U;
	return ((uint64_t)HB_SUB + (b - HB_LINEAR) % HB_SUB) << (e - 5U);
}

struct hist {
	uint64_t n[HB_N];
	uint64_t count;
	uint64_t max;
};

static void hadd(struct hist *h, uint64_t v)
{
	h->n[hbucket(v)]++;
	h->count++;
	h->max = (v > h->max) ? v : h->max;
}

static void hmerge(struct hist *a, const struct hist *b)
{
	unsigned int i;

	for (i = 0; i < HB_N; i++) {
		a->n[i] += b->n[i];
	}
	a->count += b->count;
	a->max = (b->max > a->max) ? b->max : a->max;
}

/* Value at quantile q (the low edge of its bucket; the max is exact). */
static uint64_t hquant(const struct hist *h, double q)
{
	uint64_t want = (uint64_t)((double)h->count * q);
	uint64_t acc = 0;
	unsigned int i;

	if (h->count == 0U) {
		return 0;
	}
	for (i = 0; i < HB_N; i++) {
		acc += h->n[i];
		if (acc > want) {
			uint64_t v = hlow(i);
			return (v > h->max) ? h->max : v;
		}
	}
	return h->max;
}

/* Samples above x: only buckets wholly above it (so a count never overstates). */
static uint64_t habove(const struct hist *h, uint64_t x)
{
	uint64_t c = 0;
	unsigned int i;

	for (i = 0; i < HB_N; i++) {
		if (hlow(i) > x) {
			c += h->n[i];
		}
	}
	return c;
}

struct stats {
	struct hist wait;
	struct hist hold;
	struct hist hold_clean;     /* holds the holder kept its CPU through */
	struct hist handover;
	struct hist per_ahead[2];   /* wait / ahead of contended waits: [1] disturbed */
	uint64_t contended;
	uint64_t disturbed;
	uint64_t overtaken;         /* waits that more acquisitions passed than were ahead */
	uint64_t passed_max;        /* most acquisitions by others during one wait */
	uint32_t ahead_max;
};

struct held {
	const spinlock_t *l;
	uint64_t t_acq;
	uint64_t cpu_acq;
};

struct tstate {
	struct stats st;
	struct held stack[8];
	unsigned int depth;
	uint64_t ctxsw;
} __attribute__((aligned(64)));

static struct tstate tstates[MAX_T];
static _Thread_local struct tstate *me;
static uint8_t target_class;

/* When each lock was last released: a hand-over is the next acquisition's time minus it. */
#define REL_SLOTS 16384U
static struct {
	const void *key;
	uint64_t t;        /* last release */
	uint64_t t_dist;   /* last release of a hold whose holder lost its CPU */
	uint64_t acq;      /* acquisitions so far */
} rel[REL_SLOTS];

/* This thread's CPU time: a hold that took longer in wall time lost the CPU. */
static uint64_t cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static unsigned int rel_slot(const void *l, bool insert)
{
	unsigned int i = (unsigned int)(((uintptr_t)l >> 3) * 2654435761U) % REL_SLOTS;
	unsigned int k;

	for (k = 0; k < REL_SLOTS; k++, i = (i + 1U) % REL_SLOTS) {
		const void *key = __atomic_load_n(&rel[i].key, __ATOMIC_ACQUIRE);
		const void *none = NULL;

		if (key == l) {
			return i;
		}
		if (key == NULL) {
			if (!insert) {
				return REL_SLOTS;
			}
			if (__atomic_compare_exchange_n(&rel[i].key, &none, l, false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE) ||
			    none == l) {
				return i;
			}
		}
	}
	return REL_SLOTS;
}

uint64_t lock_timing_requested(const spinlock_t *l)
{
	unsigned int slot;

	if ((me == NULL) || (l->lclass != target_class)) {
		return 0;
	}
	slot = rel_slot(l, true);
	return (slot < REL_SLOTS) ? __atomic_load_n(&rel[slot].acq, __ATOMIC_ACQUIRE) : 0U;
}

void lock_timing_acquired(const spinlock_t *l, uint64_t t_request, uint64_t t_acquired,
			  uint32_t ahead, uint64_t max_gap, uint64_t token)
{
	struct stats *s;
	uint64_t wait = t_acquired - t_request;
	unsigned int aslot;
	uint64_t passed;

	if ((me == NULL) || (l->lclass != target_class) || (me->depth >= 8U)) {
		return;
	}
	/* Acquisitions of l by others between our request and now. */
	aslot = rel_slot(l, true);
	passed = (aslot < REL_SLOTS) ? __atomic_fetch_add(&rel[aslot].acq, 1U, __ATOMIC_ACQ_REL) - token
				     : 0U;
	me->st.passed_max = (passed > me->st.passed_max) ? passed : me->st.passed_max;
	me->st.overtaken += (passed > ahead) ? 1U : 0U;
	me->stack[me->depth].l = l;
	me->stack[me->depth].t_acq = t_acquired;
	me->stack[me->depth].cpu_acq = cpu_now();
	me->depth++;
	s = &me->st;
	hadd(&s->wait, wait);
	if (max_gap > GAP_NS) {
		/*
		 * A ticket came up while its waiter was off its CPU: the lock sat idle,
		 * and every waiter behind it waited that long too (mark them).
		 */
		unsigned int slot = rel_slot(l, true);

		if (slot < REL_SLOTS) {
			__atomic_store_n(&rel[slot].t_dist, t_acquired, __ATOMIC_RELEASE);
		}
	}
	if (ahead != 0U) {
		unsigned int slot = rel_slot(l, false);
		/* Disturbed: this waiter lost its CPU, or a holder ahead of it did. */
		bool disturbed = max_gap > GAP_NS;

		s->contended++;
		s->ahead_max = (ahead > s->ahead_max) ? ahead : s->ahead_max;
		if (slot < REL_SLOTS) {
			uint64_t t_rel = __atomic_load_n(&rel[slot].t, __ATOMIC_ACQUIRE);
			uint64_t t_dist = __atomic_load_n(&rel[slot].t_dist, __ATOMIC_ACQUIRE);

			disturbed = disturbed || (t_dist >= t_request);
			if (!disturbed && (t_rel != 0U) && (t_acquired >= t_rel) &&
			    (t_acquired - t_rel <= wait)) {
				hadd(&s->handover, t_acquired - t_rel);
			}
		}
		s->disturbed += disturbed ? 1U : 0U;
		hadd(&s->per_ahead[disturbed ? 1 : 0], wait / ahead);
	}
}

void lock_timing_releasing(const spinlock_t *l)
{
	uint64_t now;
	unsigned int i;

	if ((me == NULL) || (l->lclass != target_class)) {
		return;
	}
	bool lost = false;
	uint64_t cpu_rel = cpu_now();

	/* The hold ends here, just before spin_unlock's release store: the hand-over starts. */
	now = arch_now_ns();
	for (i = me->depth; i > 0U; i--) {
		if (me->stack[i - 1U].l == l) {
			uint64_t hold = now - me->stack[i - 1U].t_acq;
			uint64_t cpu = cpu_rel - me->stack[i - 1U].cpu_acq;

			hadd(&me->st.hold, hold);
			lost = hold > cpu + GAP_NS;
			if (!lost) {
				hadd(&me->st.hold_clean, hold);
			}
			me->stack[i - 1U] = me->stack[me->depth - 1U];
			me->depth--;
			break;
		}
	}
	i = rel_slot(l, true);
	if (i < REL_SLOTS) {
		if (lost) {
			__atomic_store_n(&rel[i].t_dist, now, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&rel[i].t, now, __ATOMIC_RELEASE);
	}
}

static unsigned int nthreads;
static bool one;
static bool evtchn;
static volatile bool go, stop;
static unsigned int errors;

static struct domain *make_domain(domid_t id, uint32_t vcpus)
{
	struct domain *d = host_domain_running(id, vcpus, UL(1) << 20);
	uint32_t i;

	if (d == NULL) {
		fprintf(stderr, "bench_locks: cannot create d%u\n", id);
		exit(1);
	}
	for (i = 0; i < vcpus; i++) {
		d->vcpu[i].online = true;
	}
	return d;
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

/* Grants: frontends d1..dT, the backend d(T+1) with T vCPUs. */
static void gnttab_setup(void)
{
	unsigned int t;

	for (t = 0; t < nthreads; t++) {
		struct domain *fe = make_domain((domid_t)(1U + t), 1);

		fe->gt.shared[FIRST_REF].domid = (domid_t)(nthreads + 1U);
		fe->gt.shared[FIRST_REF].frame = (uint32_t)gaddr_to_gfn(GUEST_RAM0_BASE) + 64U;
		__atomic_store_n(&fe->gt.shared[FIRST_REF].flags, (uint16_t)GTF_permit_access,
				 __ATOMIC_RELEASE);
	}
	make_domain((domid_t)(nthreads + 1U), nthreads);
}

static bool gnttab_op(unsigned int t)
{
	struct vcpu *v = &domain_by_id((domid_t)(nthreads + 1U))->vcpu[t];
	paddr_t args = GUEST_RAM0_BASE + ((paddr_t)(1U + t) << PAGE_SHIFT);
	struct gnttab_map_grant_ref *m = gpa_ptr(v->domain, args);
	struct gnttab_unmap_grant_ref *u = gpa_ptr(v->domain, args + 64U);

	m->host_addr = GUEST_GNTTAB_BASE + ((paddr_t)t << PAGE_SHIFT);
	m->flags = GNTMAP_host_map;
	m->ref = FIRST_REF;
	m->dom = (domid_t)(one ? 1U : 1U + t);
	if ((host_hypercall(v, __HYPERVISOR_grant_table_op, GNTTABOP_map_grant_ref, args, 1, 0, 0) !=
	     0) ||
	    (m->status != GNTST_okay)) {
		return false;
	}
	u->host_addr = m->host_addr;
	u->dev_bus_addr = 0;
	u->handle = m->handle;
	return (host_hypercall(v, __HYPERVISOR_grant_table_op, GNTTABOP_unmap_grant_ref, args + 64U,
			       1, 0, 0) == 0) &&
	       (u->status == GNTST_okay);
}

/* Events: senders are d1's vCPUs, channels end in d2 (static, bound as at boot). */
static void evtchn_setup(void)
{
	struct domain *a = make_domain(1, nthreads);
	struct domain *b = make_domain(2, 1);
	unsigned int t;

	host_set_current(NULL);
	for (t = 0; t < (one ? 1U : nthreads); t++) {
		struct static_evtchn sc = { .local_port = t * PORT_STRIDE + 1U,
					    .remote_domid = a->domain_id,
					    .remote_port = t * PORT_STRIDE + 1U };

		if (evtchn_bind_static(b, &sc) != 0) {
			fprintf(stderr, "bench_locks: cannot bind channel %u\n", t);
			exit(1);
		}
	}
}

static bool evtchn_op(unsigned int t)
{
	struct vcpu *v = &domain_by_id(1)->vcpu[t];
	paddr_t gpa = GUEST_RAM0_BASE + ((paddr_t)(16U + t) << PAGE_SHIFT);
	uint32_t port = (one ? 0U : t) * PORT_STRIDE + 1U;

	memcpy(gpa_ptr(v->domain, gpa), &port, sizeof(port));
	return host_hypercall(v, __HYPERVISOR_event_channel_op, EVTCHNOP_send, gpa, 0, 0, 0) == 0;
}

static void *worker(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;
	struct rusage r0, r1;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t % (unsigned int)sysconf(_SC_NPROCESSORS_ONLN), &set);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	host_set_cpu(t);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) {
		sched_yield();
	}
	getrusage(RUSAGE_THREAD, &r0);
	me = &tstates[t];
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (!(evtchn ? evtchn_op(t) : gnttab_op(t))) {
			__atomic_fetch_add(&errors, 1U, __ATOMIC_RELAXED);
			break;
		}
	}
	me = NULL;
	getrusage(RUSAGE_THREAD, &r1);
	tstates[t].ctxsw = (uint64_t)(r1.ru_nivcsw - r0.ru_nivcsw) + (uint64_t)(r1.ru_nvcsw - r0.ru_nvcsw);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct stats all;
	const char *label, *lock;
	pthread_t th[MAX_T];
	uint64_t ms, ctxsw = 0, bound, over, over_dist, worst;
	unsigned int t, i;

	if (argc != 7) {
		fprintf(stderr, "usage: %s LABEL gnttab|evtchn gnttab_active|maptrack|evtchn "
				"one|distinct THREADS MS\n", argv[0]);
		return 2;
	}
	label = argv[1];
	evtchn = strcmp(argv[2], "evtchn") == 0;
	lock = argv[3];
	one = strcmp(argv[4], "one") == 0;
	nthreads = (unsigned int)atoi(argv[5]);
	ms = (uint64_t)atoi(argv[6]);
	target_class = (uint8_t)(strcmp(lock, "gnttab_active") == 0 ? LOCK_CLASS_GNTTAB_ACTIVE :
				 strcmp(lock, "maptrack") == 0	   ? LOCK_CLASS_MAPTRACK :
									     LOCK_CLASS_EVTCHN);
	if ((nthreads == 0U) || (nthreads > MAX_T) || (nthreads > CONFIG_MAX_VCPUS) ||
	    (nthreads + 1U > CONFIG_MAX_DOMAINS) ||
	    (evtchn && ((nthreads - 1U) * PORT_STRIDE + 1U >= CONFIG_EVTCHN_MAX_PORTS))) {
		fprintf(stderr, "bench_locks: unsupported thread count %u\n", nthreads);
		return 2;
	}
	host_mm_reset();
	host_set_cpu(CONFIG_NR_CPUS - 1U);
	if (evtchn) {
		evtchn_setup();
	} else {
		gnttab_setup();
	}
	for (t = 0; t < nthreads; t++) {
		pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t);
	}
	__atomic_store_n(&go, true, __ATOMIC_RELEASE);
	usleep((useconds_t)(ms * 1000U));
	__atomic_store_n(&stop, true, __ATOMIC_RELEASE);
	for (t = 0; t < nthreads; t++) {
		pthread_join(th[t], NULL);
	}
	if (errors != 0U) {
		fprintf(stderr, "bench_locks: %u operations failed\n", errors);
		return 1;
	}
	for (t = 0; t < nthreads; t++) {
		struct stats *s = &tstates[t].st;

		hmerge(&all.wait, &s->wait);
		hmerge(&all.hold, &s->hold);
		hmerge(&all.hold_clean, &s->hold_clean);
		hmerge(&all.handover, &s->handover);
		for (i = 0; i < 2; i++) {
			hmerge(&all.per_ahead[i], &s->per_ahead[i]);
		}
		all.contended += s->contended;
		all.overtaken += s->overtaken;
		all.passed_max = (s->passed_max > all.passed_max) ? s->passed_max : all.passed_max;
		all.disturbed += s->disturbed;
		all.ahead_max = (s->ahead_max > all.ahead_max) ? s->ahead_max : all.ahead_max;
		ctxsw += tstates[t].ctxsw;
	}
	if (all.wait.count == 0U) {
		fprintf(stderr, "bench_locks: no acquisition of the %s lock\n", lock);
		return 1;
	}
	/*
	 * A waiter with n tickets ahead waits at most n holds and n hand-overs:
	 * the longest of each that no preemption stretched (hold_clean, and the
	 * hand-overs of undisturbed waits).
	 */
	bound = all.hold_clean.max + all.handover.max;
	over = habove(&all.per_ahead[0], bound);
	over_dist = habove(&all.per_ahead[1], bound);
	worst = all.per_ahead[0].max;
	printf("row,%s,%u,%s,%lu,%lu,%lu,%lu\n", label, nthreads, one ? "one" : "distinct",
	       (unsigned long)hquant(&all.wait, 0.5), (unsigned long)hquant(&all.wait, 0.999),
	       (unsigned long)all.wait.max, (unsigned long)all.hold.max);
	printf("bound,%s,%u,%s,%lu,%lu,%u,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu\n", label,
	       nthreads,
	       one ? "one" : "distinct", (unsigned long)all.wait.count,
	       (unsigned long)all.contended, all.ahead_max, (unsigned long)hquant(&all.hold, 0.5),
	       (unsigned long)hquant(&all.hold, 0.999),
	       (unsigned long)all.hold_clean.max, (unsigned long)all.handover.max,
	       (unsigned long)worst,
	       (unsigned long)bound, (unsigned long)over, (unsigned long)over_dist,
	       (unsigned long)all.disturbed, (unsigned long)all.passed_max,
	       (unsigned long)all.overtaken, (unsigned long)ctxsw);
	return 0;
}
