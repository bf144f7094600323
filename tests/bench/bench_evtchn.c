/* SPDX-License-Identifier: MIT */
/*
 * make bench-evtchn: T sender threads, the vCPUs of partition 1, each send
 * on their own channel to partition 2, whose vCPU t takes the event as a
 * guest does (acks the pending bit, then EVTCHNOP_unmask). Run against
 * the library built for one CONFIG_EVTCHN_LOCK_* choice; with --reference
 * every thread gets its own pair of partitions: the same work with nothing
 * shared, i.e. what the machine allows.
 *
 * Prints one CSV row: config,threads,sends_per_sec,lock_acquisitions,
 * lock_contended (event-channel lock classes only); with --profile, the
 * whole lock profile after it.
 */
#include <bulkhead/domain.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/lib.h>
#include <arch_host.h>
#include <public/event_channel.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_T 16U
/* 512 ports apart: each thread's pending bit in its own cache line. */
#define PORT_STRIDE 512U

struct worker {
	struct vcpu *sender;
	struct vcpu *receiver;
	uint32_t lport;
	uint32_t rport;
	uint64_t sends;
	pthread_t th;
} __attribute__((aligned(64)));

static struct worker workers[MAX_T];
static volatile int go;
static volatile int stop;

static void *gpa_ptr(struct domain *d, paddr_t gpa)
{
	return (uint8_t *)(uintptr_t)d->ram_maddr + (gpa - d->ram_gpa);
}

static struct domain *make_domain(domid_t id, uint32_t nr_vcpus)
{
	struct domain_config cfg;
	struct domain *d;
	uint32_t i;

	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "d%u", id);
	cfg.nr_vcpus = nr_vcpus;
	cfg.mem_bytes = 1U << 20;
	for (i = 0; i < nr_vcpus; i++) {
		cfg.pcpus[i] = i;
	}
	if (domain_create(id, &cfg) != 0) {
		fprintf(stderr, "bench_evtchn: cannot create d%u\n", id);
		exit(1);
	}
	d = domain_by_id(id);
	d->state = DOMAIN_RUNNING;
	for (i = 0; i < nr_vcpus; i++) {
		d->vcpu[i].online = true;
	}
	return d;
}

static long op(struct vcpu *v, unsigned int cmd, uint32_t port)
{
	paddr_t gpa = GUEST_RAM0_BASE + ((paddr_t)(16U + v->vcpu_id) << PAGE_SHIFT);

	memcpy(gpa_ptr(v->domain, gpa), &port, sizeof(port));
	return host_hypercall(v, __HYPERVISOR_event_channel_op, cmd, gpa, 0, 0, 0);
}

static void *run(void *arg)
{
	struct worker *w = arg;
	struct domain *rd = w->receiver->domain;
	uint64_t *pend = (uint64_t *)&rd->shared_info->evtchn_pending[w->rport / 64U];
	uint64_t bit = 1ULL << (w->rport % 64U);
	uint64_t n = 0;

	host_set_cpu((unsigned int)(w - workers));
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) {
	}
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (op(w->sender, EVTCHNOP_send, w->lport) != 0) {
			fprintf(stderr, "bench_evtchn: send failed\n");
			exit(1);
		}
		/* The receiving guest: ack, then unmask as Linux does on Arm. */
		__atomic_fetch_and(pend, ~bit, __ATOMIC_ACQ_REL);
		if (op(w->receiver, EVTCHNOP_unmask, w->rport) != 0) {
			fprintf(stderr, "bench_evtchn: unmask failed\n");
			exit(1);
		}
		n++;
	}
	w->sends = n;
	return NULL;
}

static void profile_evtchn(uint64_t *acq, uint64_t *cont)
{
	static const enum lock_class cls[] = { LOCK_CLASS_EVTCHN_DOMAIN, LOCK_CLASS_EVTCHN,
					       LOCK_CLASS_EVTCHN_QUEUE };
	struct lock_profile p;
	unsigned int i;

	*acq = 0;
	*cont = 0;
	for (i = 0; i < sizeof(cls) / sizeof(cls[0]); i++) {
		lock_profile_sum(cls[i], &p);
		*acq += p.acquisitions;
		*cont += p.contended;
	}
}

int main(int argc, char **argv)
{
	const char *config;
	unsigned int t;
	unsigned int nt;
	unsigned int ms;
	bool reference = false;
	bool profile = false;
	struct timespec t0;
	struct timespec t1;
	struct timespec dur;
	uint64_t total = 0;
	uint64_t acq;
	uint64_t cont;
	double secs;
	int i;

	if (argc < 4) {
		fprintf(stderr, "usage: %s config threads ms [--reference] [--profile]\n", argv[0]);
		return 2;
	}
	config = argv[1];
	nt = (unsigned int)atoi(argv[2]);
	ms = (unsigned int)atoi(argv[3]);
	for (i = 4; i < argc; i++) {
		reference |= strcmp(argv[i], "--reference") == 0;
		profile |= strcmp(argv[i], "--profile") == 0;
	}
	if ((nt == 0U) || (nt > MAX_T) || ((nt - 1U) * PORT_STRIDE + 1U >= CONFIG_EVTCHN_MAX_PORTS) ||
	    (2U * nt > CONFIG_MAX_DOMAINS)) {
		fprintf(stderr, "bench_evtchn: bad thread count %u\n", nt);
		return 2;
	}
	host_set_cpu(CONFIG_NR_CPUS - 1U);
	if (reference) {
		for (t = 0; t < nt; t++) {
			struct domain *a = make_domain((domid_t)(2U * t + 1U), 1);
			struct domain *b = make_domain((domid_t)(2U * t + 2U), 1);
			workers[t].sender = &a->vcpu[0];
			workers[t].receiver = &b->vcpu[0];
			workers[t].lport = 1;
			workers[t].rport = 1;
		}
	} else {
		struct domain *a = make_domain(1, nt);
		struct domain *b = make_domain(2, nt);
		for (t = 0; t < nt; t++) {
			workers[t].sender = &a->vcpu[t];
			workers[t].receiver = &b->vcpu[t];
			workers[t].lport = t * PORT_STRIDE + 1U;
			workers[t].rport = t * PORT_STRIDE + 1U;
		}
	}
	for (t = 0; t < nt; t++) {
		struct worker *w = &workers[t];
		struct static_evtchn sc = { .local_port = w->rport,
					    .remote_domid = w->sender->domain->domain_id,
					    .remote_port = w->lport };
		struct evtchn_bind_vcpu bv = { .port = w->rport, .vcpu = w->receiver->vcpu_id };
		paddr_t gpa = GUEST_RAM0_BASE + (15U << PAGE_SHIFT);

		/* Bound as at boot: no calling vCPU. */
		host_set_current(NULL);
		if (evtchn_bind_static(w->receiver->domain, &sc) != 0) {
			fprintf(stderr, "bench_evtchn: cannot bind channel %u\n", t);
			return 1;
		}
		/* Each receiving vCPU takes its own channel's events. */
		memcpy(gpa_ptr(w->receiver->domain, gpa), &bv, sizeof(bv));
		if (host_hypercall(w->receiver, __HYPERVISOR_event_channel_op, EVTCHNOP_bind_vcpu, gpa,
				   0, 0, 0) != 0) {
			fprintf(stderr, "bench_evtchn: bind_vcpu failed\n");
			return 1;
		}
		pthread_create(&w->th, NULL, run, w);
	}
	lock_profile_reset();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	dur.tv_sec = ms / 1000U;
	dur.tv_nsec = (long)(ms % 1000U) * 1000000L;
	nanosleep(&dur, NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (t = 0; t < nt; t++) {
		pthread_join(workers[t].th, NULL);
		total += workers[t].sends;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	profile_evtchn(&acq, &cont);
	printf("%s,%u,%.0f,%lu,%lu\n", config, nt, (double)total / secs, (unsigned long)acq,
	       (unsigned long)cont);
	if (profile) {
		fflush(stdout);
		host_console_echo = 1;
		fprintf(stderr, "lock profile, %s, T=%u:\n", config, nt);
		lock_profile_print();
	}
	return 0;
}
