/* SPDX-License-Identifier: MIT */
/*
 * Renesas SCIF (R-Car Gen3, e.g. SCIF2 on Salvator-X): the hypervisor's
 * console. Register layout from the R-Car Gen3 hardware manual (SCIF
 * chapter) and Linux drivers/tty/serial/sh-sci.c. SCFSR flags are cleared by
 * writing 0 after reading 1; writing 1 leaves a flag alone, so a clear is a
 * write of the complement.
 */
#include <bulkhead/config.h>

#if CONFIG_UART_SCIF
#include <bulkhead/arch.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/console.h>
#include <asm/gic_seam.h>
#include <asm/setup.h>

#define SCSCR   U(0x08)		/* 16-bit serial control */
#define SCFTDR  U(0x0c)		/* 8-bit transmit FIFO data */
#define SCFSR   U(0x10)		/* 16-bit serial status */
#define SCFRDR  U(0x14)		/* 8-bit receive FIFO data */
#define SCFDR   U(0x1c)		/* 16-bit FIFO data count: TX 12:8, RX 4:0 */
#define SCLSR   U(0x24)		/* 16-bit line status: ORER bit 0 */
#define SCSCR_RIE  (U(1) << 6)
#define SCSCR_TE   (U(1) << 5)
#define SCSCR_RE   (U(1) << 4)
#define SCSCR_REIE (U(1) << 3)
#define SCFSR_ER   (U(1) << 7)
#define SCFSR_TEND (U(1) << 6)
#define SCFSR_TDFE (U(1) << 5)
#define SCFSR_BRK  (U(1) << 4)
#define SCFSR_FER  (U(1) << 3)
#define SCFSR_PER  (U(1) << 2)
#define SCFSR_RDF  (U(1) << 1)
#define SCFSR_DR   (U(1) << 0)
#define SCIF_FIFO  U(16)
/* A stuck transmitter must not hang the hypervisor in printk. */
#define TX_SPIN_MAX U(100000)

static volatile uint16_t *scif16(uint32_t off)
{
	return (volatile uint16_t *)(uintptr_t)(hw_machine.uart_base + off);
}

static volatile uint8_t *scif8(uint32_t off)
{
	return (volatile uint8_t *)(uintptr_t)(hw_machine.uart_base + off);
}

static unsigned int scif_tx_count(void)
{
	return (*scif16(SCFDR) >> 8) & U(0x1f);
}

void arch_console_putc(char c)
{
	unsigned int spins = 0U;

	if (hw_machine.uart_base == 0U) {
		return;		/* before machine_setup(): no console yet */
	}
	while ((scif_tx_count() >= SCIF_FIFO) && (spins < TX_SPIN_MAX)) {
		spins++;
	}
	*scif8(SCFTDR) = (uint8_t)c;
	*scif16(SCFSR) = (uint16_t)~(SCFSR_TDFE | SCFSR_TEND);
}

void uart_init(void)
{
	/* The boot loader chose the baud rate and pins: only make sure both directions run. */
	*scif16(SCSCR) = (uint16_t)(*scif16(SCSCR) | SCSCR_TE | SCSCR_RE);
}

static void scif_irq(unsigned int intid)
{
	unsigned int n = 0U;

	(void)intid;
	/* Bounded by the FIFO depth with room to spare. */
	while (((*scif16(SCFDR) & U(0x1f)) != 0U) && (n < 2U * SCIF_FIFO)) {
		console_input_byte((char)*scif8(SCFRDR));
		n++;
	}
	/* Errors and overruns lose bytes, never the console: clear and go on. */
	*scif16(SCFSR) = (uint16_t)~(SCFSR_ER | SCFSR_BRK | SCFSR_FER | SCFSR_PER |
				      SCFSR_RDF | SCFSR_DR);
	*scif16(SCLSR) = 0U;
}

void uart_enable_rx_irq(void)
{
	if (gic_route_irq(hw_machine.uart_intid, scif_irq) == 0) {
		*scif16(SCSCR) = (uint16_t)(*scif16(SCSCR) | SCSCR_RIE | SCSCR_REIE);
	}
}

#endif /* CONFIG_UART_SCIF */
