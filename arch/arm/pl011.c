/* SPDX-License-Identifier: MIT */
/* PL011 UART: the hypervisor's console (polled output, interrupt-driven input). */
#include <bulkhead/config.h>

#if CONFIG_UART_PL011
#include <bulkhead/arch.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/console.h>
#include <asm/gic_seam.h>
#include <asm/setup.h>

#define UART_DR   U(0x00)
#define UART_FR   U(0x18)
#define UART_LCRH U(0x2c)
#define UART_CR   U(0x30)
#define UART_IMSC U(0x38)
#define UART_ICR  U(0x44)
#define FR_TXFF   (U(1) << 5)
#define FR_RXFE   (U(1) << 4)
#define CR_UARTEN (U(1) << 0)
#define CR_TXE    ((uint32_t)1U << 8)
#define CR_RXE    ((uint32_t)1U << 9)
#define LCRH_FEN  (U(1) << 4)
#define LCRH_WLEN8 (U(3) << 5)
#define IMSC_RXIM (U(1) << 4)
#define IMSC_RTIM (U(1) << 6)
/* A stuck transmitter must not hang the hypervisor in printk. */
#define TX_SPIN_MAX U(100000)

static volatile uint32_t *uart_reg(uint32_t off)
{
	return (volatile uint32_t *)(uintptr_t)(hw_machine.uart_base + off);
}

void arch_console_putc(char c)
{
	unsigned int spins = 0U;

	if (hw_machine.uart_base == 0U) {
		return;		/* before machine_setup(): no console yet */
	}
	while (((*uart_reg(UART_FR) & FR_TXFF) != 0U) && (spins < TX_SPIN_MAX)) {
		spins++;
	}
	*uart_reg(UART_DR) = (uint32_t)(unsigned char)c;
}

void uart_init(void)
{
	/* Firmware (or QEMU) chose the baud rate: keep it, enable FIFOs, 8N1. */
	*uart_reg(UART_LCRH) = LCRH_FEN | LCRH_WLEN8;
	*uart_reg(UART_CR) = CR_UARTEN | CR_TXE | CR_RXE;
}

static void pl011_irq(unsigned int intid)
{
	unsigned int n = 0U;

	(void)intid;
	/* Bounded by the FIFO depth (32) with room to spare. */
	while (((*uart_reg(UART_FR) & FR_RXFE) == 0U) && (n < 64U)) {
		uint32_t byte = *uart_reg(UART_DR) & 0xffU;

		console_input_byte((char)byte);
		n++;
	}
	*uart_reg(UART_ICR) = IMSC_RXIM | IMSC_RTIM;
}

void uart_enable_rx_irq(void)
{
	if (gic_route_irq(hw_machine.uart_intid, pl011_irq) == 0) {
		*uart_reg(UART_IMSC) = IMSC_RXIM | IMSC_RTIM;
	}
}

#endif /* CONFIG_UART_PL011 */
