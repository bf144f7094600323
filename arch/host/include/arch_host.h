/* SPDX-License-Identifier: MIT */
/* Host-only helpers for tests, fuzzers and benches. */
#ifndef ARCH_HOST_H
#define ARCH_HOST_H

#include <bulkhead/types.h>

struct vcpu;
struct domain;

#define HOST_CONSOLE_BUF U(65536)
#define HOST_MAX_CONTINUATIONS U(1000000)

typedef void (*host_panic_fn)(void);
typedef void (*host_tlb_fn)(uint16_t vmid);

/* TLB invalidations, counted per CPU (no shared line), summed when read. */
uint64_t host_tlb_flush_count(void);      /* one IPA of one VMID */
uint64_t host_tlb_flush_vmid_count(void); /* a whole VMID */
uint16_t host_tlb_last_vmid(void);        /* of the calling CPU's last one */
#define host_tlb_flushes (host_tlb_flush_count())
#define host_tlb_flushes_vmid (host_tlb_flush_vmid_count())
/* Called at each invalidation on the calling thread (tests of ordering). */
void host_set_tlb_hook(host_tlb_fn fn);
/* Count of arch_dcache_maintain() calls that did clean and/or invalidate. */
extern uint64_t host_dcache_ops;
extern int host_console_echo;
/* map_domain_page_global() mappings not yet unmapped. */
extern int64_t host_global_maps;
extern int host_system_off_status;
/* Called at the end of arch_domain_stop: a test's window into a stop in progress. */
extern void (*host_domain_stop_hook)(struct domain *d);

void host_set_cpu(unsigned int cpu);
void host_set_current(struct vcpu *v);
/* Called instead of abort() on panic: a test may longjmp out. */
void host_set_panic_hook(host_panic_fn fn);
void host_mm_reset(void);
struct xpfo_tables;
/* Tables arch_xpfo_tables() reports (NULL: none, the default). */
void host_xpfo_set_tables(const struct xpfo_tables *t);
const char *host_console_text(void);
void host_console_clear(void);
/*
 * Create partition id with nr_vcpus vCPUs (on CPUs 0..n-1) and ram_bytes of
 * RAM, already running, as tests, fuzzers and benches need it; NULL when
 * domain_create() refuses.
 */
struct domain *host_domain_running(uint16_t id, uint32_t nr_vcpus, uint64_t ram_bytes);
/* Issue a hypercall as vCPU v would, following continuations. */
long host_hypercall(struct vcpu *v, regval_t nr, regval_t a0, regval_t a1, regval_t a2,
		    regval_t a3, regval_t a4);

#endif
