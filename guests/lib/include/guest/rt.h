/* SPDX-License-Identifier: MIT */
/* Runtime: start-up facts, bootargs, exit, per-CPU identity, barriers. */
#ifndef GUEST_RT_H
#define GUEST_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <guest/layout.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* What the runtime learnt from the partition's device tree at start. */
struct rt_info {
	const void *dtb;
	uint64_t ram_base;
	uint64_t ram_size;
	unsigned int nr_cpus;
	const char *bootargs;       /* "" when none */
	bool has_hypervisor_node;   /* /hypervisor (xen,enhanced) */
	uint64_t gnttab_base;
	uint64_t gnttab_size;
	unsigned int evtchn_intid;  /* from /hypervisor interrupts, else 31 */
	bool has_vpl011;
};

extern struct rt_info rt;
/* CNTPCT_EL0 read by the partition's very first instruction (boot bench). */
extern uint64_t rt_entry_cntpct;
/* A test's synchronous-exception handler: true when it handled it (and moved *elr on). */
extern bool (*rt_sync_hook)(uint64_t *elr, uint64_t esr);

/* Value of "key=value" in bootargs copied into buf; false when absent. */
bool rt_arg(const char *key, char *buf, size_t len);
/* Numeric bootarg (decimal or 0x hex), or def when absent or malformed. */
uint64_t rt_arg_u64(const char *key, uint64_t def);
/* The "tag=" bootarg (partition label in test output), or "?" */
const char *rt_tag(void);

/* Shut the partition down: status 0 -> SHUTDOWN_poweroff, else crash. */
__attribute__((noreturn)) void rt_exit(int status);

/* Index of the calling vCPU (0 for the boot vCPU). */
static inline unsigned int rt_cpu(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, tpidr_el1" : "=r"(v));
	return (unsigned int)v;
}

static inline void rt_wfi(void) { __asm__ volatile("wfi" ::: "memory"); }
static inline void rt_dsb(void) { __asm__ volatile("dsb sy" ::: "memory"); }
static inline void rt_irq_enable(void) { __asm__ volatile("msr daifclr, #2" ::: "memory"); }
static inline void rt_irq_disable(void) { __asm__ volatile("msr daifset, #2" ::: "memory"); }

static inline uint32_t mmio_read32(uint64_t addr)
{
	uint32_t v = *(volatile uint32_t *)addr;

	__asm__ volatile("dmb ld" ::: "memory");
	return v;
}

static inline void mmio_write32(uint64_t addr, uint32_t v)
{
	__asm__ volatile("dmb st" ::: "memory");
	*(volatile uint32_t *)addr = v;
}

/* Freestanding string helpers (the compiler may also call these). */
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

/* Identity MMU (mmu.c). */
void mmu_init(void);
void mmu_enable(void);

#endif
