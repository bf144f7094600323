/* SPDX-License-Identifier: MIT */
/* arm-internal entry points between head.S, setup, smp, traps and the run loop. */
#ifndef ASM_SETUP_H
#define ASM_SETUP_H

#include <bulkhead/types.h>
#include <asm/regs.h>

struct vcpu;

void arch_setup(paddr_t dtb);
/* The hardware from the system DTB into `hw_machine`, mapped at EL2; refuses the boot on error. */
void machine_setup(paddr_t dtb);
/*
 * Console UART driver, one per build (boards/Kconfig CONFIG_UART_*:
 * arch/arm/pl011.c, uart_scif.c, uart_lpuart.c). Each also provides
 * arch_console_putc(). Firmware set the line up: init keeps its baud rate.
 */
void uart_init(void);
void uart_enable_rx_irq(void);
void timer_init(void);
void timer_cpu_init(void);
/* Arm the EL2 physical timer (CNTHP) for an absolute time; 0 disarms. */
void timer_set_deadline(uint64_t ns);
uint64_t timer_ns_to_ticks(uint64_t ns);

__noreturn void arch_cpu_loop(void);
__noreturn void vcpu_enter(struct cpu_regs *regs);
uint64_t arch_smp_boot(void);
/* PSCI call to the firmware over SMC. */
int64_t psci_smc(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3);

/* Guest PSCI over HVC #0 / SMC #0: true if fn was a PSCI (or SMCCC) call. */
bool vpsci_handle(struct vcpu *v, const struct cpu_regs *r, int64_t *result);
void vcpu_inject_undef(struct vcpu *v, struct cpu_regs *r);
void vcpu_sysregs_reset(struct vcpu *v);
/* vCPU id of a guest MPIDR value, or -1. */
int vcpu_id_of_mpidr(uint64_t mpidr);
bool vcpu_runnable(const struct vcpu *v);

void hyp_backtrace(uint64_t fp);

#endif
