/* SPDX-License-Identifier: MIT */
/*
 * The fatal path: registers and a frame-pointer backtrace on the console,
 * then halt (or leave QEMU with status 3 so a test fails fast). All output
 * goes through printk_unlocked(): the CPU may hold the console lock, and a
 * locked printk could re-enter panic through the lock-order check.
 */
#include <bulkhead/arch.h>
#include <bulkhead/console.h>
#include <asm/percpu.h>
#include <asm/setup.h>
#include <asm/sysregs.h>

#define BACKTRACE_MAX U(32)
#define PANIC_EXIT_STATUS 3

/* Walk frame records {fp, lr} while they stay inside this CPU's stack. */
void hyp_backtrace(uint64_t fp)
{
	struct pcpu *pc = this_pcpu();
	uint64_t top = pc->stack_top;
	uint64_t bottom = top - CONFIG_STACK_SIZE;
	uint64_t cur = fp;
	unsigned int n;

	printk_unlocked("Backtrace:\n");
	for (n = 0U; n < BACKTRACE_MAX; n++) {
		const uint64_t *rec = (const uint64_t *)(uintptr_t)cur;

		/* The record is read only once its address is known to lie in the stack. */
		if ((cur < bottom) || (cur + 16U > top) || ((cur & 15U) != 0U) || (rec[1] == 0U)) {
			break;
		}
		printk_unlocked("  [<%016llx>]\n", (unsigned long long)rec[1]);
		cur = rec[0];
	}
}

static void dump_regs(const struct cpu_regs *r)
{
	unsigned int i;

	for (i = 0U; i < 30U; i += 2U) {
		printk_unlocked("  x%02u %016llx  x%02u %016llx\n", i, (unsigned long long)r->x[i], i + 1U,
		       (unsigned long long)r->x[i + 1U]);
	}
	printk_unlocked("  x30 %016llx  sp  %016llx\n", (unsigned long long)r->x[30],
	       (unsigned long long)r->sp);
	printk_unlocked("  elr %016llx  spsr %08llx\n", (unsigned long long)r->elr,
	       (unsigned long long)r->spsr);
}

static __noreturn void hyp_die(void)
{
#if CONFIG_SEMIHOSTING_EXIT
	arch_system_off(PANIC_EXIT_STATUS);
#else
	for (;;) {
		local_irq_disable();
		wfi();
	}
#endif
}

__noreturn void arch_panic_halt(void)
{
	local_irq_disable();
	printk_unlocked("CPU%u halted by panic\n", arch_cpu_id());
	hyp_backtrace((uint64_t)(uintptr_t)__builtin_frame_address(0));
	hyp_die();
}

/* SError at EL2, or an exception from a vector Bulkhead never uses. */
__noreturn void hyp_fatal_handler(struct cpu_regs *r, uint64_t serror)
{
	printk_unlocked("\n*** Bulkhead PANIC on CPU%u: %s at EL2, ESR %08llx FAR %016llx\n",
	       arch_cpu_id(), serror ? "SError" : "unexpected exception",
	       (unsigned long long)sysreg_read(esr_el2), (unsigned long long)sysreg_read(far_el2));
	dump_regs(r);
	hyp_backtrace(r->x[29]);
	hyp_die();
}

#if CONFIG_SEMIHOSTING_EXIT
extern char semihost_hlt[];
#endif

/* Synchronous exception at EL2: a hypervisor bug, except one case. */
void hyp_sync_handler(struct cpu_regs *r)
{
	uint64_t esr = sysreg_read(esr_el2);

#if CONFIG_SEMIHOSTING_EXIT
	if ((ESR_EC(esr) == EC_UNKNOWN) && (r->elr == (uint64_t)(uintptr_t)semihost_hlt)) {
		/* QEMU without semihosting: skip the HLT, PSCI SYSTEM_OFF follows. */
		r->elr += 4U;
		return;
	}
#endif
	printk_unlocked("\n*** Bulkhead PANIC on CPU%u: synchronous exception at EL2\n", arch_cpu_id());
	printk_unlocked("  ESR %08llx (EC 0x%x) FAR %016llx\n", (unsigned long long)esr, ESR_EC(esr),
	       (unsigned long long)sysreg_read(far_el2));
	dump_regs(r);
	hyp_backtrace(r->x[29]);
	hyp_die();
}
