/* SPDX-License-Identifier: MIT */
/*
 * Event-channel stress under ThreadSanitizer: senders, a closer/re-binder
 * and a masker race on channels from d1 to d2 while d2's "guest" takes
 * upcalls as Linux does (clear upcall_pending, take the selector, scan
 * pending & ~mask, ack by clearing pending; unmask through EVTCHNOP_unmask).
 *
 * No lost event: each channel has an epoch, odd while the closer works on
 * it. A sender that sees the same even epoch before its send and after the
 * receiver's ack window, yet gets no ack within the timeout, lost an event.
 *
 * VERIFIES: REQ-EVT-027, REQ-EVT-026, REQ-EVT-007, REQ-EVT-011
 */
#include <bulkhead/domain.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/lib.h>
#include <arch_host.h>
#include <public/event_channel.h>
#include <public/errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NCHAN       4U
#define NSENDERS    2U
#define RUN_NS      (6ULL * 1000000000ULL)
#define ACK_TIMEOUT (3ULL * 1000000000ULL)

static struct domain *d1;
static struct domain *d2;
static volatile int stop;

struct chan {
	uint32_t epoch;        /* odd: being closed / re-bound */
	uint32_t lport;        /* d1's end */
	uint32_t rport;        /* d2's end */
	uint32_t ack;
};
static struct chan chans[NCHAN];
static uint32_t rport_to_chan[CONFIG_EVTCHN_MAX_PORTS];

static uint64_t n_sends;
static uint64_t n_checked;
static uint64_t n_lost;
static uint64_t n_rebinds;
static uint64_t n_unmasks;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void *gpa_ptr(struct domain *d, paddr_t gpa)
{
	return (uint8_t *)(uintptr_t)d->ram_maddr + (gpa - d->ram_gpa);
}

/* Each vCPU has its own argument page in its partition's RAM. */
static long op(struct vcpu *v, unsigned int cmd, void *arg, size_t size)
{
	paddr_t gpa = GUEST_RAM0_BASE + ((paddr_t)(16U + v->vcpu_id) << PAGE_SHIFT);
	long rc;

	memcpy(gpa_ptr(v->domain, gpa), arg, size);
	rc = host_hypercall(v, __HYPERVISOR_event_channel_op, cmd, gpa, 0, 0, 0);
	memcpy(arg, gpa_ptr(v->domain, gpa), size);
	return rc;
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
		printf("FAIL: stress_evtchn setup (domain_create)\n");
		exit(1);
	}
	d = domain_by_id(id);
	d->state = DOMAIN_RUNNING;
	for (i = 0; i < nr_vcpus; i++) {
		d->vcpu[i].online = true;
	}
	return d;
}

static void bind_chan(unsigned int k)
{
	struct evtchn_alloc_unbound a = { .dom = DOMID_SELF, .remote_dom = 1 };
	struct evtchn_bind_interdomain b = { .remote_dom = 2 };

	if (op(&d2->vcpu[2], EVTCHNOP_alloc_unbound, &a, sizeof(a)) != 0) {
		printf("FAIL: stress_evtchn alloc_unbound\n");
		exit(1);
	}
	b.remote_port = a.port;
	if (op(&d1->vcpu[NSENDERS], EVTCHNOP_bind_interdomain, &b, sizeof(b)) != 0) {
		printf("FAIL: stress_evtchn bind_interdomain\n");
		exit(1);
	}
	__atomic_store_n(&rport_to_chan[a.port], k, __ATOMIC_RELEASE);
	__atomic_store_n(&chans[k].rport, a.port, __ATOMIC_RELEASE);
	__atomic_store_n(&chans[k].lport, b.local_port, __ATOMIC_RELEASE);
}

/* Pending on d2 and either masked or announced by selector and upcall. */
static bool deliverable(uint32_t rp)
{
	struct shared_info *si = d2->shared_info;
	uint64_t bit = 1ULL << (rp % 64U);

	if ((__atomic_load_n(&si->evtchn_pending[rp / 64U], __ATOMIC_ACQUIRE) & bit) == 0U) {
		return false;
	}
	if ((__atomic_load_n(&si->evtchn_mask[rp / 64U], __ATOMIC_ACQUIRE) & bit) != 0U) {
		return true;
	}
	return ((__atomic_load_n(&si->vcpu_info[0].evtchn_pending_sel, __ATOMIC_ACQUIRE) >>
		 (rp / 64U)) & 1U) != 0U &&
	       __atomic_load_n(&si->vcpu_info[0].evtchn_upcall_pending, __ATOMIC_ACQUIRE) != 0U;
}

static void *sender(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;
	struct vcpu *v = &d1->vcpu[id];
	unsigned int k = id;

	host_set_cpu(id);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		unsigned int ck = k;
		struct chan *c = &chans[ck];
		uint32_t e0 = __atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE);
		struct evtchn_send s;
		uint64_t t0;
		uint64_t t_start;
		long rc;

		k = (k + NSENDERS) % NCHAN;
		if (e0 & 1U) {
			continue;
		}
		s.port = __atomic_load_n(&c->lport, __ATOMIC_ACQUIRE);
		__atomic_store_n(&c->ack, 0U, __ATOMIC_RELEASE);
		rc = op(v, EVTCHNOP_send, &s, sizeof(s));
		__atomic_fetch_add(&n_sends, 1U, __ATOMIC_RELAXED);
		if (rc != 0) {
			/* Only a port closed under us may refuse a send. */
			if (__atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE) == e0) {
				printf("FAIL: stress_evtchn send on live port %u: %ld\n", s.port, rc);
				__atomic_fetch_add(&n_lost, 1U, __ATOMIC_RELAXED);
			}
			continue;
		}
		t0 = now_ns();
		t_start = t0;
		for (;;) {
			while (__atomic_load_n(&c->ack, __ATOMIC_ACQUIRE) == 0U &&
			       __atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE) == e0 &&
			       now_ns() - t0 < ACK_TIMEOUT) {
				sched_yield();
			}
			/*
			 * On a loaded machine the receiver may just not have run: wait on
			 * while the event is still visibly deliverable to it.
			 */
			if ((__atomic_load_n(&c->ack, __ATOMIC_ACQUIRE) != 0U) ||
			    (__atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE) != e0) ||
			    !deliverable(__atomic_load_n(&c->rport, __ATOMIC_ACQUIRE)) ||
			    __atomic_load_n(&stop, __ATOMIC_ACQUIRE) ||
			    (now_ns() - t_start > 10U * ACK_TIMEOUT)) {
				break;
			}
			t0 = now_ns() - ACK_TIMEOUT / 2U;
		}
		if (__atomic_load_n(&c->ack, __ATOMIC_ACQUIRE) != 0U) {
			__atomic_fetch_add(&n_checked, 1U, __ATOMIC_RELAXED);
		} else if ((__atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE) == e0) &&
			   !__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
			uint32_t rp = __atomic_load_n(&c->rport, __ATOMIC_ACQUIRE);
			struct shared_info *si = d2->shared_info;
			printf("FAIL: stress_evtchn lost event on channel %u (port %u -> d2:%u): "
			       "d1 state %u remote %u, d2 state %u, pending %d mask %d sel %lx upcall %u\n",
			       ck, s.port, rp, __atomic_load_n(&d1->ev.chn[s.port].state, __ATOMIC_ACQUIRE),
			       d1->ev.chn[s.port].remote_port,
			       __atomic_load_n(&d2->ev.chn[rp].state, __ATOMIC_ACQUIRE),
			       (int)((__atomic_load_n(&si->evtchn_pending[rp / 64], __ATOMIC_ACQUIRE) >> (rp % 64)) & 1),
			       (int)((__atomic_load_n(&si->evtchn_mask[rp / 64], __ATOMIC_ACQUIRE) >> (rp % 64)) & 1),
			       (unsigned long)__atomic_load_n(&si->vcpu_info[0].evtchn_pending_sel, __ATOMIC_ACQUIRE),
			       __atomic_load_n(&si->vcpu_info[0].evtchn_upcall_pending, __ATOMIC_ACQUIRE));
			__atomic_fetch_add(&n_lost, 1U, __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

/* d2 vCPU 0 as a Linux guest taking 2-level upcalls. */
static void *receiver(void *arg)
{
	struct shared_info *si = d2->shared_info;
	struct vcpu_info *vi = &si->vcpu_info[0];

	(void)arg;
	host_set_cpu(8);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		uint64_t sel;

		if (__atomic_exchange_n(&vi->evtchn_upcall_pending, 0, __ATOMIC_ACQ_REL) == 0) {
			sched_yield();
			continue;
		}
		sel = __atomic_exchange_n(&vi->evtchn_pending_sel, 0, __ATOMIC_ACQ_REL);
		while (sel != 0U) {
			unsigned int w = (unsigned int)__builtin_ctzll(sel);
			uint64_t bits = __atomic_load_n(&si->evtchn_pending[w], __ATOMIC_ACQUIRE) &
					~__atomic_load_n(&si->evtchn_mask[w], __ATOMIC_ACQUIRE);

			sel &= sel - 1U;
			while (bits != 0U) {
				unsigned int b = (unsigned int)__builtin_ctzll(bits);
				uint32_t port = w * 64U + b;

				bits &= bits - 1U;
				__atomic_fetch_and(&si->evtchn_pending[w], ~(1ULL << b), __ATOMIC_ACQ_REL);
				if (port < CONFIG_EVTCHN_MAX_PORTS) {
					uint32_t k = __atomic_load_n(&rport_to_chan[port], __ATOMIC_ACQUIRE);
					if (k < NCHAN) {
						__atomic_store_n(&chans[k].ack, 1U, __ATOMIC_RELEASE);
					}
				}
			}
		}
	}
	return NULL;
}

/* d2 vCPU 1 masking and unmasking its ports as Linux's irq code does. */
static void *masker(void *arg)
{
	struct shared_info *si = d2->shared_info;
	struct vcpu *v = &d2->vcpu[1];
	unsigned int k = 0;

	(void)arg;
	host_set_cpu(9);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		uint32_t port = __atomic_load_n(&chans[k].rport, __ATOMIC_ACQUIRE);
		uint64_t bit = 1ULL << (port % 64U);
		struct evtchn_unmask u = { .port = port };

		k = (k + 1U) % NCHAN;
		__atomic_fetch_or(&si->evtchn_mask[port / 64U], bit, __ATOMIC_ACQ_REL);
		sched_yield();
		/* Unmask: the hypervisor re-raises what arrived meanwhile. */
		if (op(v, EVTCHNOP_unmask, &u, sizeof(u)) != 0) {
			printf("FAIL: stress_evtchn unmask %u\n", port);
			__atomic_fetch_add(&n_lost, 1U, __ATOMIC_RELAXED);
		}
		__atomic_fetch_add(&n_unmasks, 1U, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Close one end of a channel (alternating sides) and bind it again. */
static void *closer(void *arg)
{
	unsigned int round = 0;

	(void)arg;
	host_set_cpu(10);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		unsigned int k = round % NCHAN;
		struct chan *c = &chans[k];
		struct evtchn_close cl;
		struct evtchn_bind_interdomain b;

		__atomic_fetch_add(&c->epoch, 1U, __ATOMIC_ACQ_REL);
		if (round & 1U) {
			/* d1 closes mid-send; d2's end waits for d1 again. */
			cl.port = c->lport;
			if (op(&d1->vcpu[NSENDERS], EVTCHNOP_close, &cl, sizeof(cl)) != 0) {
				printf("FAIL: stress_evtchn close d1:%u\n", cl.port);
				exit(1);
			}
			b.remote_dom = 2;
			b.remote_port = c->rport;
			if (op(&d1->vcpu[NSENDERS], EVTCHNOP_bind_interdomain, &b, sizeof(b)) != 0) {
				printf("FAIL: stress_evtchn re-bind d1\n");
				exit(1);
			}
			__atomic_store_n(&c->lport, b.local_port, __ATOMIC_RELEASE);
		} else {
			/* d2 (the receiver) closes its end and binds back. */
			cl.port = c->rport;
			if (op(&d2->vcpu[2], EVTCHNOP_close, &cl, sizeof(cl)) != 0) {
				printf("FAIL: stress_evtchn close d2:%u\n", cl.port);
				exit(1);
			}
			__atomic_store_n(&rport_to_chan[cl.port], NCHAN, __ATOMIC_RELEASE);
			b.remote_dom = 1;
			b.remote_port = c->lport;
			if (op(&d2->vcpu[2], EVTCHNOP_bind_interdomain, &b, sizeof(b)) != 0) {
				printf("FAIL: stress_evtchn re-bind d2\n");
				exit(1);
			}
			__atomic_store_n(&rport_to_chan[b.local_port], k, __ATOMIC_RELEASE);
			__atomic_store_n(&c->rport, b.local_port, __ATOMIC_RELEASE);
			/*
			 * As Linux unmasks a port it binds: a mask the masker left on a
			 * port closed under it (unmask of a closed port does nothing, as
			 * in Xen) must not silence the port's next user.
			 */
			{
				struct evtchn_unmask u = { .port = b.local_port };
				if (op(&d2->vcpu[2], EVTCHNOP_unmask, &u, sizeof(u)) != 0) {
					printf("FAIL: stress_evtchn unmask after bind\n");
					exit(1);
				}
			}
		}
		__atomic_fetch_add(&c->epoch, 1U, __ATOMIC_ACQ_REL);
		__atomic_fetch_add(&n_rebinds, 1U, __ATOMIC_RELAXED);
		round++;
		/* Let a few sends complete between re-binds. */
		for (int i = 0; i < 50; i++) {
			sched_yield();
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t t[NSENDERS + 3U];
	unsigned int i;
	uint64_t t0;

	host_set_cpu(11);
	for (i = 0; i < CONFIG_EVTCHN_MAX_PORTS; i++) {
		rport_to_chan[i] = NCHAN;
	}
	d1 = make_domain(1, NSENDERS + 1U);
	d2 = make_domain(2, 3);
	for (i = 0; i < NCHAN; i++) {
		bind_chan(i);
	}
	for (i = 0; i < NSENDERS; i++) {
		pthread_create(&t[i], NULL, sender, (void *)(uintptr_t)i);
	}
	pthread_create(&t[NSENDERS], NULL, receiver, NULL);
	pthread_create(&t[NSENDERS + 1U], NULL, masker, NULL);
	pthread_create(&t[NSENDERS + 2U], NULL, closer, NULL);
	t0 = now_ns();
	while (now_ns() - t0 < RUN_NS) {
		struct timespec ts = { 0, 100000000L };
		nanosleep(&ts, NULL);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < NSENDERS + 3U; i++) {
		pthread_join(t[i], NULL);
	}
	printf("stress_evtchn: %lu sends, %lu acknowledged on live channels, %lu re-binds, "
	       "%lu unmasks, %lu lost\n", (unsigned long)n_sends, (unsigned long)n_checked,
	       (unsigned long)n_rebinds, (unsigned long)n_unmasks, (unsigned long)n_lost);
	if (n_lost != 0U) {
		printf("FAIL: stress_evtchn_no_lost_event\n");
		return 1;
	}
	if ((n_checked < 1000U) || (n_rebinds < 10U) || (n_unmasks < 10U)) {
		printf("FAIL: stress_evtchn_coverage (too few operations)\n");
		return 1;
	}
	printf("PASS: stress_evtchn_no_lost_event\n");
	printf("PASS: stress_evtchn_close_rebind_races\n");
	return 0;
}
