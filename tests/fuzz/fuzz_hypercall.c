/* SPDX-License-Identifier: MIT */
/* The shared libFuzzer entry point of the hypercall harnesses. */
#include "fuzz_hypercall.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bulkhead/console.h>
#include <bulkhead/domain.h>
#include <bulkhead/gnttab.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/lib.h>
#include <bulkhead/mm.h>
#include <bulkhead/spinlock.h>
#include <public/grant_table.h>
#include <arch_host.h>

#define FUZZ_RAM_BYTES   (UL(1) << 20)
#define FUZZ_WINDOW_PAGES U(8)          /* guest pages the fuzzer fills */
#define FUZZ_WINDOW      (FUZZ_WINDOW_PAGES << PAGE_SHIFT)
#define FUZZ_MAX_CALLS   U(12)
#define FUZZ_GRANTS      U(8)           /* d2 entries the fuzzer writes */

struct reader {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct reader *r, unsigned int bytes)
{
	uint64_t v = 0U;
	unsigned int i;

	for (i = 0U; i < bytes; i++) {
		v <<= 8;
		if (r->n > 0U) {
			v |= r->p[0];
			r->p++;
			r->n--;
		}
	}
	return v;
}

/* A hypervisor panic on guest input is the bug this fuzzer hunts. */
static void fuzz_panic(void)
{
	fprintf(stderr, "fuzz: hypervisor panic:\n%s\n", host_console_text());
	abort();
}

static struct domain *fuzz_domain(domid_t id, uint32_t nr_vcpus)
{
	struct domain *d = host_domain_running(id, nr_vcpus, FUZZ_RAM_BYTES);

	if (d == NULL) {
		fprintf(stderr, "fuzz: domain_create(%u) failed\n", id);
		abort();
	}
	return d;
}

static uint8_t *guest_ptr(struct domain *d, paddr_t gpa)
{
	mfn_t mfn;
	enum p2m_type t;

	if (p2m_lookup(&d->p2m, gaddr_to_gfn(gpa), &mfn, &t) != 0) {
		abort();
	}
	return (uint8_t *)maddr_to_virt(mfn_to_maddr(mfn)) + PAGE_OFFSET_OF(gpa);
}

static void reset(void)
{
	unsigned int i;

	for (i = 0U; i < CONFIG_MAX_DOMAINS; i++) {
		memset(&domains[i], 0, sizeof(domains[i]));
	}
	host_mm_reset();
	lock_check_reset();
	host_console_clear();
	host_set_cpu(0U);
	host_set_current(NULL);
	host_set_panic_hook(fuzz_panic);
}

/*
 * A guest pointer: mostly into the start of the window, where the input's
 * bytes land (so the structures the call reads are fuzzed), else anywhere in
 * the window, else any address at all.
 */
static regval_t pick_ptr(struct reader *r)
{
	uint8_t mode = (uint8_t)take(r, 1U);

	if (mode < 160U) {
		return GUEST_RAM0_BASE + (take(r, 1U) * 8U);
	}
	if (mode < 224U) {
		return GUEST_RAM0_BASE + (take(r, 2U) % FUZZ_WINDOW);
	}
	return (regval_t)take(r, 8U);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size };
	struct domain *dom[2];
	unsigned int calls, i, page;

	reset();
	dom[0] = fuzz_domain(1, 2);
	dom[1] = fuzz_domain(2, 1);
	calls = 1U + (unsigned int)(take(&r, 1U) % FUZZ_MAX_CALLS);

	/* d2 grants: what a peer put in its table, possibly nonsense. */
	for (i = 0U; i < FUZZ_GRANTS; i++) {
		struct grant_entry_v1 *e = &dom[1]->gt.shared[i];
		e->domid = (domid_t)take(&r, 1U);
		e->frame = (uint32_t)((GUEST_RAM0_BASE >> PAGE_SHIFT) + take(&r, 1U));
		e->flags = (uint16_t)take(&r, 2U);
	}

	/* Call descriptors, then the rest of the input is guest memory of both. */
	struct {
		unsigned int caller;
		regval_t a[3];
	} call[FUZZ_MAX_CALLS];
	for (i = 0U; i < calls; i++) {
		uint8_t who = (uint8_t)take(&r, 1U);
		regval_t cmd = take(&r, 1U) % (fuzz_target.max_cmd + 1U);

		if ((who & 0x40U) != 0U) {
			cmd = (regval_t)take(&r, 4U);  /* any number, continuation bits too */
		}

		call[i].caller = who % 3U;   /* d1 vCPU0, d1 vCPU1, d2 vCPU0 */
		call[i].a[0] = cmd;
		switch (fuzz_target.layout) {
		case FUZZ_CMD_PTR:
			call[i].a[1] = pick_ptr(&r);
			call[i].a[2] = 0U;
			break;
		case FUZZ_CMD_PTR_COUNT:
			call[i].a[1] = pick_ptr(&r);
			call[i].a[2] = (regval_t)take(&r, 2U);
			if ((who & 0x80U) != 0U) {
				call[i].a[2] = (regval_t)take(&r, 8U);  /* huge counts too */
			}
			break;
		case FUZZ_CMD_ID_PTR:
			call[i].a[1] = (who & 0x80U) ? (regval_t)take(&r, 4U) : take(&r, 1U) % 3U;
			call[i].a[2] = pick_ptr(&r);
			break;
		}
	}
	for (page = 0U; page < FUZZ_WINDOW_PAGES; page++) {
		unsigned int d;
		for (d = 0U; d < 2U; d++) {
			uint8_t *p = guest_ptr(dom[d], GUEST_RAM0_BASE + ((paddr_t)page << PAGE_SHIFT));
			size_t n = (r.n < PAGE_SIZE) ? r.n : PAGE_SIZE;
			memset(p, 0, PAGE_SIZE);
			memcpy(p, r.p, n);
			r.p += n;
			r.n -= n;
		}
	}

	for (i = 0U; i < calls; i++) {
		struct vcpu *v = (call[i].caller == 2U) ? &dom[1]->vcpu[0]
							: &dom[0]->vcpu[call[i].caller];
		if (v->domain->state != DOMAIN_RUNNING) {
			continue;   /* a shutdown or crash stops the partition's calls */
		}
		host_set_cpu(v->pcpu);
		(void)host_hypercall(v, fuzz_target.nr, call[i].a[0], call[i].a[1], call[i].a[2],
				     0U, 0U);
	}
	return 0;
}
