/* SPDX-License-Identifier: MIT */
/*
 * NXP LPUART, 32-bit register layout (i.MX8QM/QXP, i.MX7ULP): the
 * hypervisor's console (LPUART0 on the i.MX8QM MEK). Layout from the
 * i.MX8QM reference manual (LPUART chapter) and Linux
 * drivers/tty/serial/fsl_lpuart.c. STAT error flags are write-1-to-clear.
 */
#include <bulkhead/config.h>

#if CONFIG_UART_LPUART
#include <bulkhead/arch.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/console.h>
#include <asm/gic_seam.h>
#include <asm/setup.h>

#define LPUART_STAT  U(0x14)
#define LPUART_CTRL  U(0x18)
#define LPUART_DATA  U(0x1c)
#define STAT_TDRE    (U(1) << 23)	/* TX FIFO at or below its watermark */
#define STAT_RDRF    (U(1) << 21)	/* RX FIFO above its watermark */
#define STAT_OR      (U(1) << 19)
#define STAT_NF      (U(1) << 18)
#define STAT_FE      (U(1) << 17)
#define STAT_PF      (U(1) << 16)
#define CTRL_ORIE    (U(1) << 27)
#define CTRL_RIE     (U(1) << 21)
#define CTRL_TE      (U(1) << 19)
#define CTRL_RE      (U(1) << 18)
#define RX_BURST_MAX U(64)
/* A stuck transmitter must not hang the hypervisor in printk. */
#define TX_SPIN_MAX U(100000)

static volatile uint32_t *lpuart_reg(uint32_t off)
{
	return (volatile uint32_t *)(uintptr_t)(hw_machine.uart_base + off);
}

void arch_console_putc(char c)
{
	unsigned int spins = 0U;

	if (hw_machine.uart_base == 0U) {
		return;		/* before machine_setup(): no console yet */
	}
	while (((*lpuart_reg(LPUART_STAT) & STAT_TDRE) == 0U) && (spins < TX_SPIN_MAX)) {
		spins++;
	}
	*lpuart_reg(LPUART_DATA) = (uint32_t)(unsigned char)c;
}

void uart_init(void)
{
	/* The boot loader chose the baud rate and pins: only make sure both directions run. */
	*lpuart_reg(LPUART_CTRL) |= CTRL_TE | CTRL_RE;
}

static void lpuart_irq(unsigned int intid)
{
	unsigned int n = 0U;

	(void)intid;
	while (((*lpuart_reg(LPUART_STAT) & STAT_RDRF) != 0U) && (n < RX_BURST_MAX)) {
		console_input_byte((char)(*lpuart_reg(LPUART_DATA) & 0xffU));
		n++;
	}
	/* An overrun stops reception until cleared: drop the lost bytes and go on. */
	*lpuart_reg(LPUART_STAT) = STAT_OR | STAT_NF | STAT_FE | STAT_PF;
}

void uart_enable_rx_irq(void)
{
	if (gic_route_irq(hw_machine.uart_intid, lpuart_irq) == 0) {
		*lpuart_reg(LPUART_CTRL) |= CTRL_RIE | CTRL_ORIE;
	}
}

#endif /* CONFIG_UART_LPUART */
