/* SPDX-License-Identifier: MIT */
/* Shared set-up for host unit tests: partitions with RAM, vCPUs as threads. */
#ifndef TESTS_HARNESS_H
#define TESTS_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <bulkhead/domain.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/mm.h>
#include <bulkhead/console.h>
#include <arch_host.h>
#include <public/errno.h>
#include <public/grant_table.h>

#define HARNESS_RAM_BYTES (UL(1) << 20)

/* Forget every partition and all boot-time memory. */
void harness_reset(void);
/* Create partition id with nr_vcpus vCPUs and 1 MiB of RAM, running. */
struct domain *harness_domain(domid_t id, uint32_t nr_vcpus);
/* Host pointer to guest physical address gpa of d (must be RAM). */
void *harness_gpa(struct domain *d, paddr_t gpa);
/* Issue a hypercall as vCPU v. */
long harness_call(struct vcpu *v, regval_t nr, regval_t a0, regval_t a1, regval_t a2);
/* A guest physical address in d's RAM, at page `page`, offset `off`. */
paddr_t harness_ram(unsigned int page, unsigned int off);
/* Expect a panic (lock order, etc.) from fn; returns true if it panicked. */
bool harness_expect_panic(void (*fn)(void *), void *arg);

/* Grant tables: d's v1 entry ref as its guest sees it (the hypervisor frame). */
struct grant_entry_v1 *harness_gnt_entry(struct domain *d, uint32_t ref);
/* Grant ref of d to domain `to` on frame gfn, as a guest does: flags last. */
void harness_gnt_grant(struct domain *d, uint32_t ref, domid_t to, gfn_t gfn, uint16_t flags);

/* Pages the host arch "cleaned to the point of coherency" (arch/host/host.c). */
extern int64_t host_page_cleans;

/* Requirement IDs a test verifies (docs/requirements); read by tools. */
#define VERIFIES(...) /* requirement trace: __VA_ARGS__ */

#endif
