/* SPDX-License-Identifier: MIT */
/*
 * Host build of the arch interface: threads are physical CPUs, the process
 * address space is machine memory (a machine address is the host pointer),
 * and guest virtual addresses are guest physical (a guest with its MMU
 * off). TLB invalidations and interrupts are counted so tests can assert
 * them.
 */
#include <bulkhead/arch.h>
#include <bulkhead/domain.h>
#include <bulkhead/mm.h>
#include <bulkhead/hypercall.h>
#include <bulkhead/xpfo.h>
#include <public/errno.h>
#include <arch_host.h>
#include <bulkhead/console.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_THREAD__)
uint64_t tsan_fence_word; /* see smp_mb() in bulkhead/atomic.h */
#endif

static _Thread_local unsigned int host_cpu;
static _Thread_local struct vcpu *host_current;
static _Thread_local host_panic_fn host_panic_hook;
static _Thread_local host_tlb_fn host_tlb_hook;

/*
 * Counted per CPU and summed on demand: one shared counter would be a hot
 * line every unmap writes, which is exactly what the benches measure.
 */
struct host_tlb_count {
	uint64_t ipa;
	uint64_t vmid;
	uint16_t last_vmid;
} __cacheline_aligned;
static struct host_tlb_count host_tlb[CONFIG_NR_CPUS];

static char host_console_buf[HOST_CONSOLE_BUF];
static size_t host_console_len;
int host_console_echo;

/* Boot-time "machine RAM" for partitions. */
static uint8_t host_ram[CONFIG_HOST_RAM_MB << 20] __attribute__((aligned(2 << 20)));

unsigned int arch_cpu_id(void)
{
	return host_cpu;
}

struct vcpu *arch_current_vcpu(void)
{
	return host_current;
}

void host_set_cpu(unsigned int cpu)
{
	host_cpu = cpu % CONFIG_NR_CPUS;
}

void host_set_current(struct vcpu *v)
{
	host_current = v;
}

void host_set_panic_hook(host_panic_fn fn)
{
	host_panic_hook = fn;
}

int arch_gva_to_ipa(const struct vcpu *v, vaddr_t gva, bool write, paddr_t *ipa)
{
	(void)v;
	(void)write;
	*ipa = gva;
	return 0;
}

/* The host's stage 1 is the identity; stage 2 is the partition's p2m. */
int arch_gva_to_maddr(const struct vcpu *v, vaddr_t gva, bool write, paddr_t *ma)
{
	mfn_t mfn;
	enum p2m_type t;

	if ((v == NULL) || (p2m_lookup(&v->domain->p2m, gaddr_to_gfn(gva), &mfn, &t) != 0)) {
		return -XEN_EFAULT;
	}
	if (write && ((t == p2m_ram_ro) || (t == p2m_grant_map_ro))) {
		return -XEN_EFAULT;
	}
	*ma = mfn_to_maddr(mfn) | PAGE_OFFSET_OF(gva);
	return 0;
}

void *arch_map_scratch(unsigned int slot, paddr_t ma)
{
	(void)slot;
	return (void *)(uintptr_t)ma;
}

void arch_unmap_scratch(unsigned int slot, void *va)
{
	(void)slot;
	(void)va;
}

void *arch_map_page(mfn_t mfn)
{
	return (void *)(uintptr_t)mfn_to_maddr(mfn);
}

void arch_unmap_page(void *va)
{
	(void)va;
}

/* Pages cleaned to the point of coherency: tests check who pays for it. */
int64_t host_page_cleans;

void arch_unmap_page_clean(void *va)
{
	(void)va;
	__atomic_fetch_add(&host_page_cleans, 1, __ATOMIC_RELAXED);
}

void arch_clear_page(void *va)
{
	(void)memset(va, 0, PAGE_SIZE);
	__atomic_fetch_add(&host_page_cleans, 1, __ATOMIC_RELAXED);
}

/* Live long-lived mappings: tests check every one is released. */
int64_t host_global_maps;

void *map_domain_page_global(mfn_t mfn)
{
	__atomic_fetch_add(&host_global_maps, 1, __ATOMIC_RELAXED);
	return (void *)(uintptr_t)mfn_to_maddr(mfn);
}

void unmap_domain_page_global(void *va)
{
	(void)va;
	__atomic_fetch_sub(&host_global_maps, 1, __ATOMIC_RELAXED);
}

/* No EL2 tables on the host: a test hands in fabricated ones. */
static struct xpfo_tables host_xpfo;
static bool host_xpfo_set;

void host_xpfo_set_tables(const struct xpfo_tables *t)
{
	host_xpfo_set = (t != NULL);
	if (t != NULL) {
		host_xpfo = *t;
	}
}

bool arch_xpfo_tables(struct xpfo_tables *t)
{
	if (host_xpfo_set) {
		*t = host_xpfo;
	}
	return host_xpfo_set;
}

paddr_t virt_to_maddr(const void *va)
{
	return (paddr_t)(uintptr_t)va;
}

void *maddr_to_virt(paddr_t ma)
{
	return (void *)(uintptr_t)ma;
}

/* The host's "machine RAM" is one bank: the static array above. */
void host_mm_reset(void)
{
	struct mm_boot_range bank = {
		.base = (paddr_t)(uintptr_t)host_ram,
		.size = sizeof(host_ram),
	};

	(void)mm_boot_init(&bank, 1U);
}

/* Programs that create partitions without harness_reset() still have RAM. */
__attribute__((constructor)) static void host_mm_init(void)
{
	host_mm_reset();
}

void host_set_tlb_hook(host_tlb_fn fn)
{
	host_tlb_hook = fn;
}

void arch_tlb_flush_ipa(uint16_t vmid, paddr_t ipa)
{
	(void)ipa;
	__atomic_fetch_add(&host_tlb[host_cpu].ipa, 1U, __ATOMIC_RELAXED);
	__atomic_store_n(&host_tlb[host_cpu].last_vmid, vmid, __ATOMIC_RELAXED);
	if (host_tlb_hook != NULL) {
		host_tlb_hook(vmid);
	}
}

void arch_tlb_flush_vmid(uint16_t vmid)
{
	__atomic_fetch_add(&host_tlb[host_cpu].vmid, 1U, __ATOMIC_RELAXED);
	__atomic_store_n(&host_tlb[host_cpu].last_vmid, vmid, __ATOMIC_RELAXED);
	if (host_tlb_hook != NULL) {
		host_tlb_hook(vmid);
	}
}

uint64_t host_tlb_flush_count(void)
{
	uint64_t n = 0U;
	unsigned int c;

	for (c = 0U; c < CONFIG_NR_CPUS; c++) {
		n += __atomic_load_n(&host_tlb[c].ipa, __ATOMIC_RELAXED);
	}
	return n;
}

uint64_t host_tlb_flush_vmid_count(void)
{
	uint64_t n = 0U;
	unsigned int c;

	for (c = 0U; c < CONFIG_NR_CPUS; c++) {
		n += __atomic_load_n(&host_tlb[c].vmid, __ATOMIC_RELAXED);
	}
	return n;
}

uint16_t host_tlb_last_vmid(void)
{
	return __atomic_load_n(&host_tlb[host_cpu].last_vmid, __ATOMIC_RELAXED);
}

uint64_t host_dcache_ops;

void arch_dcache_maintain(const void *va, size_t len, bool clean, bool inval)
{
	(void)va;
	(void)len;
	if (clean || inval) {
		__atomic_fetch_add(&host_dcache_ops, 1U, __ATOMIC_RELAXED);
	}
}

void arch_vcpu_raise_irq(struct vcpu *v, unsigned int virq)
{
	__atomic_fetch_add(&v->arch.irqs_raised, 1U, __ATOMIC_RELAXED);
	__atomic_store_n(&v->arch.last_irq, virq, __ATOMIC_RELAXED);
}

void arch_vcpu_kick(struct vcpu *v)
{
	__atomic_fetch_add(&v->arch.kicks, 1U, __ATOMIC_RELAXED);
}

void arch_hypercall_continue(struct vcpu *v)
{
	v->arch.continued = true;
}

void arch_hypercall_set_arg(struct vcpu *v, unsigned int i, regval_t val)
{
	if (i < HYPERCALL_NR_ARGS) {
		v->arch.args[i] = val;
	}
}

void arch_console_putc(char c)
{
	if (host_console_len < sizeof(host_console_buf) - 1U) {
		host_console_buf[host_console_len] = c;
		host_console_len++;
		host_console_buf[host_console_len] = '\0';
	}
	if (host_console_echo != 0) {
		(void)fputc(c, stderr);
	}
}

const char *host_console_text(void)
{
	return host_console_buf;
}

void host_console_clear(void)
{
	host_console_len = 0U;
	host_console_buf[0] = '\0';
}

uint64_t arch_now_ns(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL) + (uint64_t)ts.tv_nsec;
}

__noreturn void arch_panic_halt(void)
{
	if (host_panic_hook != NULL) {
		host_panic_hook();
	}
	abort();
}

int arch_domain_init(struct domain *d)
{
	(void)d;
	return 0;
}

void arch_vcpu_reset(struct vcpu *v, vaddr_t pc, regval_t arg)
{
	(void)pc;
	(void)arg;
	v->arch.continued = false;
}

void arch_domain_stop(struct domain *d)
{
	uint32_t i;

	for (i = 0U; i < d->nr_vcpus; i++) {
		d->vcpu[i].online = false;
	}
	if (host_domain_stop_hook != NULL) {
		host_domain_stop_hook(d);
	}
}

void arch_domain_start(struct domain *d)
{
	d->vcpu[0].online = true;
}

int host_system_off_status = -1;
void (*host_domain_stop_hook)(struct domain *d);

__noreturn void arch_system_off(int status)
{
	host_system_off_status = status;
	if (host_panic_hook != NULL) {
		host_panic_hook();
	}
	exit(status);
}

long host_hypercall(struct vcpu *v, regval_t nr, regval_t a0, regval_t a1, regval_t a2,
		    regval_t a3, regval_t a4)
{
	long rc;
	unsigned int rounds = 0U;

	host_set_current(v);
	v->arch.args[0] = a0;
	v->arch.args[1] = a1;
	v->arch.args[2] = a2;
	v->arch.args[3] = a3;
	v->arch.args[4] = a4;
	for (;;) {
		v->arch.continued = false;
		rc = hypercall_dispatch(nr, v->arch.args);
		if (!v->arch.continued) {
			break;
		}
		/* As on hardware: x0 carries the result, which is the new arg 0. */
		v->arch.args[0] = (regval_t)rc;
		rounds++;
		if (rounds > HOST_MAX_CONTINUATIONS) {
			break;
		}
	}
	v->arch.continuations = rounds;
	return rc;
}

struct domain *host_domain_running(domid_t id, uint32_t nr_vcpus, uint64_t ram_bytes)
{
	struct domain_config cfg;
	struct domain *d;
	uint32_t i;

	(void)memset(&cfg, 0, sizeof(cfg));
	(void)bh_snprintf(cfg.name, sizeof(cfg.name), "d%u", id);
	cfg.nr_vcpus = nr_vcpus;
	cfg.mem_bytes = ram_bytes;
	for (i = 0U; (i < nr_vcpus) && (i < CONFIG_MAX_VCPUS); i++) {
		cfg.pcpus[i] = i;
	}
	if (domain_create(id, &cfg) != 0) {
		return NULL;
	}
	d = domain_by_id(id);
	d->state = DOMAIN_RUNNING;
	for (i = 0U; i < nr_vcpus; i++) {
		d->vcpu[i].online = true;
	}
	return d;
}
