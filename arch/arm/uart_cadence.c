/* SPDX-License-Identifier: MIT */
/*
 * Cadence UART (Xilinx Zynq UltraScale+ MPSoC and Zynq-7000 "xuartps",
 * compatible "cdns,uart-r1p12"): the hypervisor's console (UART0 on the
 * ZCU102). Register layout from the Zynq UltraScale+ Device Register
 * Reference (UG1087, module UART) and Linux drivers/tty/serial/
 * xilinx_uartps.c. The controller leaves reset with its transmitter and
 * receiver disabled; the interrupt status bits are write-1-to-clear.
 */
#include <bulkhead/config.h>

#if CONFIG_UART_CADENCE
#include <bulkhead/arch.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/console.h>
#include <asm/gic_seam.h>
#include <asm/setup.h>

#define CDNS_CR     U(0x00)		/* control */
#define CDNS_MR     U(0x04)		/* mode: character length, parity, stop bits */
#define CDNS_IER    U(0x08)		/* interrupt enable */
#define CDNS_IDR    U(0x0c)		/* interrupt disable */
#define CDNS_ISR    U(0x14)		/* interrupt status, write 1 to clear */
#define CDNS_RXTOUT U(0x1c)		/* receiver timeout, in 4 bit times */
#define CDNS_RXWM   U(0x20)		/* receiver FIFO trigger level */
#define CDNS_SR     U(0x2c)		/* channel status */
#define CDNS_FIFO   U(0x30)		/* TX and RX FIFO */
#define CR_RX_EN    (U(1) << 2)
#define CR_RX_DIS   (U(1) << 3)
#define CR_TX_EN    (U(1) << 4)
#define CR_TX_DIS   (U(1) << 5)
#define CR_RSTTO    (U(1) << 6)
#define MR_8N1      (U(1) << 5)		/* PAR = 0b1xx: no parity; 8 bits, 1 stop bit */
#define SR_REMPTY   (U(1) << 1)
#define SR_TFUL     (U(1) << 4)
#define INT_RTRIG   (U(1) << 0)		/* RX FIFO at its trigger level */
#define INT_TIMEOUT (U(1) << 8)		/* RX idle after a byte */
#define INT_ALL     U(0x3fff)
#define CDNS_FIFO_DEPTH U(64)
/* A stuck transmitter must not hang the hypervisor in printk. */
#define TX_SPIN_MAX U(100000)

static volatile uint32_t *cdns_reg(uint32_t off)
{
	return (volatile uint32_t *)(uintptr_t)(hw_machine.uart_base + off);
}

void arch_console_putc(char c)
{
	unsigned int spins = 0U;

	if (hw_machine.uart_base == 0U) {
		return;		/* before machine_setup(): no console yet */
	}
	while (((*cdns_reg(CDNS_SR) & SR_TFUL) != 0U) && (spins < TX_SPIN_MAX)) {
		spins++;
	}
	*cdns_reg(CDNS_FIFO) = (uint32_t)(unsigned char)c;
}

void uart_init(void)
{
	/* A mode register still at its reset value (0: even parity) was set up by nobody. */
	if (*cdns_reg(CDNS_MR) == 0U) {
		*cdns_reg(CDNS_MR) = MR_8N1;
	}
	/* Keep the baud rate the boot loader set; only make sure both directions run. */
	*cdns_reg(CDNS_CR) = (*cdns_reg(CDNS_CR) & ~(CR_TX_DIS | CR_RX_DIS)) | CR_TX_EN | CR_RX_EN;
}

static void cdns_irq(unsigned int intid)
{
	unsigned int n = 0U;

	(void)intid;
	/* Bounded by the FIFO depth, with room to spare. */
	while (((*cdns_reg(CDNS_SR) & SR_REMPTY) == 0U) && (n < (2U * CDNS_FIFO_DEPTH))) {
		console_input_byte((char)(*cdns_reg(CDNS_FIFO) & 0xffU));
		n++;
	}
	/* Overruns and framing errors lose bytes, never the console: clear all and go on. */
	*cdns_reg(CDNS_ISR) = *cdns_reg(CDNS_ISR) & INT_ALL;
}

void uart_enable_rx_irq(void)
{
	if (gic_route_irq(hw_machine.uart_intid, cdns_irq) == 0) {
		*cdns_reg(CDNS_IDR) = INT_ALL;
		*cdns_reg(CDNS_ISR) = INT_ALL;
		*cdns_reg(CDNS_RXWM) = 1U;
		*cdns_reg(CDNS_RXTOUT) = 10U;
		*cdns_reg(CDNS_CR) = *cdns_reg(CDNS_CR) | CR_RSTTO;
		*cdns_reg(CDNS_IER) = INT_RTRIG | INT_TIMEOUT;
	}
}

#endif /* CONFIG_UART_CADENCE */
