/* SPDX-License-Identifier: MIT */
/*
 * Emulated PL011 (SBSA generic UART subset plus the PL011 registers Linux's
 * amba-pl011 driver and earlycon touch). Output goes to the partition's
 * console line; input comes from the console when the partition has the
 * focus. Transmission is instantaneous, so the TX FIFO is always empty and
 * TXRIS always set until cleared; RXRIS follows the RX FIFO.
 *
 * The interrupt is level-like: whenever an event leaves a masked-in
 * interrupt set (MIS != 0), the SPI is raised again, so a driver that
 * acknowledges only part of the work (Linux writes half a FIFO per TX
 * interrupt) is interrupted again.
 */
#include <bulkhead/vpl011.h>
#include <bulkhead/mmio.h>
#include <bulkhead/domain.h>
#include <bulkhead/console.h>
#include <bulkhead/lib.h>
#include <public/arch-arm.h>
#include <public/errno.h>

#define UART_DR    U(0x000)
/* 0x004 UARTRSR/ECR: no receive errors are modelled, so it reads as zero. */
#define UART_FR    U(0x018)
#define UART_ILPR  U(0x020)
#define UART_IBRD  U(0x024)
#define UART_FBRD  U(0x028)
#define UART_LCRH  U(0x02c)
#define UART_CR    U(0x030)
#define UART_IFLS  U(0x034)
#define UART_IMSC  U(0x038)
#define UART_RIS   U(0x03c)
#define UART_MIS   U(0x040)
#define UART_ICR   U(0x044)
#define UART_DMACR U(0x048)
#define UART_ID0   U(0xfe0)

#define FR_RXFE    (U(1) << 4)
/* FR bit 5, TXFF, stays clear: the transmit FIFO drains at once. */
#define FR_RXFF    (U(1) << 6)
#define FR_TXFE    (U(1) << 7)
#define INT_RX     (U(1) << 4)
#define INT_TX     (U(1) << 5)
#define INT_RT     (U(1) << 6)
#define INT_ALL    U(0x7ff)
#define VPL011_FIFO U(16)

struct vpl011 {
	spinlock_t lock;
	struct domain *d;
	uint32_t imsc;
	uint32_t tx_ris;       /* INT_TX until the guest clears it */
	uint32_t cr, lcrh, ibrd, fbrd, ifls, ilpr, dmacr;
	char rx[VPL011_FIFO];
	uint32_t rx_head;
	uint32_t rx_count;
};

static struct vpl011 vpl011s[CONFIG_MAX_DOMAINS];

static void vpl011_refill(struct vpl011 *u)
{
	/* LOOP-BOUND: rx_count grows by 1 each round that does not break, up to VPL011_FIFO. */
	while (u->rx_count < VPL011_FIFO) {
		char c;
		if (console_domain_read(u->d, &c, 1U) != 1U) {
			break;
		}
		u->rx[(u->rx_head + u->rx_count) % VPL011_FIFO] = c;
		u->rx_count++;
	}
}

static uint32_t vpl011_ris(const struct vpl011 *u)
{
	return u->tx_ris | ((u->rx_count != 0U) ? (INT_RX | INT_RT) : 0U);
}

static uint32_t vpl011_reg_read(struct vpl011 *u, uint32_t reg)
{
	/* PL011 r1p5 peripheral and PrimeCell IDs, as amba-pl011 probes them. */
	static const uint8_t vpl011_ids[8] = { 0x11, 0x10, 0x14, 0x00, 0x0d, 0xf0, 0x05, 0xb1 };
	uint32_t val = 0U;

	switch (reg) {
	case UART_DR:
		vpl011_refill(u);
		if (u->rx_count != 0U) {
			val = (uint8_t)u->rx[u->rx_head];
			u->rx_head = (u->rx_head + 1U) % VPL011_FIFO;
			u->rx_count--;
		}
		break;
	case UART_FR:
		vpl011_refill(u);
		val = FR_TXFE;
		if (u->rx_count == 0U) {
			val |= FR_RXFE;
		}
		if (u->rx_count == VPL011_FIFO) {
			val |= FR_RXFF;
		}
		break;
	case UART_ILPR: val = u->ilpr; break;
	case UART_IBRD: val = u->ibrd; break;
	case UART_FBRD: val = u->fbrd; break;
	case UART_LCRH: val = u->lcrh; break;
	case UART_CR: val = u->cr; break;
	case UART_IFLS: val = u->ifls; break;
	case UART_IMSC: val = u->imsc; break;
	case UART_RIS:
		vpl011_refill(u);
		val = vpl011_ris(u);
		break;
	case UART_MIS:
		vpl011_refill(u);
		val = vpl011_ris(u) & u->imsc;
		break;
	case UART_DMACR: val = u->dmacr; break;
	default:
		if ((reg >= UART_ID0) && (reg < UART_ID0 + 0x20U)) {
			val = vpl011_ids[(reg - UART_ID0) / 4U];
		}
		break; /* RSR and reserved: read as zero */
	}
	return val;
}

/* A write to a register other than DR (vpl011_write), under u's lock. */
static inline __attribute__((always_inline)) void vpl011_reg_write(struct vpl011 *u, uint32_t reg,
								    uint32_t val)
{
	switch (reg) {
	case UART_ILPR: u->ilpr = val & 0xffU; break;
	case UART_IBRD: u->ibrd = val & 0xffffU; break;
	case UART_FBRD: u->fbrd = val & 0x3fU; break;
	case UART_LCRH: u->lcrh = val & 0xffU; break;
	case UART_CR: u->cr = val & 0xffffU; break;
	case UART_IFLS: u->ifls = val & 0x3fU; break;
	case UART_IMSC: u->imsc = val & INT_ALL; break;
	case UART_ICR:
		if ((val & INT_TX) != 0U) {
			u->tx_ris = 0U;
		}
		break; /* RX interrupts follow the FIFO level */
	case UART_DMACR: u->dmacr = val & 0x7U; break;
	default:
		break; /* RSR/ECR clears errors we never have; reserved: ignored */
	}
}

static void vpl011_update_irq(struct vpl011 *u, bool level)
{
	if (level) {
		arch_vcpu_raise_irq(&u->d->vcpu[0], GUEST_VPL011_SPI);
	}
}

static int vpl011_read(struct vcpu *v, paddr_t off, unsigned int size, uint64_t *val, void *priv)
{
	struct vpl011 *u = priv;
	uint32_t word;
	bool level;

	(void)v;
	if (size > 4U) {
		return -XEN_EINVAL;
	}
	spin_lock(&u->lock);
	word = vpl011_reg_read(u, (uint32_t)off & ~U(3));
	level = (vpl011_ris(u) & u->imsc) != 0U;
	spin_unlock(&u->lock);
	*val = word >> ((off & 3U) * 8U);
	/* A DR read may leave more input: keep the interrupt asserted. */
	vpl011_update_irq(u, level && ((off & ~(paddr_t)3U) == UART_DR));
	return 0;
}

/* The UART's interrupt, raised again (a masked-in interrupt is set); 0 for vpl011_write. */
static __attribute__((noinline)) int vpl011_raise(struct vpl011 *u)
{
	vpl011_update_irq(u, true);
	return 0;
}

/* A DR write: the byte to the console, TXRIS set (the FIFO drained at once). */
static __attribute__((noinline)) int vpl011_write_dr(struct vpl011 *u, uint32_t val)
{
	char tx = (char)(uint8_t)val;
	bool level;

	spin_lock(&u->lock);
	u->tx_ris = INT_TX;
	level = (vpl011_ris(u) & u->imsc) != 0U;
	spin_unlock(&u->lock);
	console_domain_write(u->d, &tx, 1U);
	vpl011_update_irq(u, level);
	return 0;
}

/*
 * Any other register, u's lock held: the write, then the interrupt raised
 * again when an IMSC or ICR write leaves a masked-in interrupt set.
 */
static inline __attribute__((always_inline)) int vpl011_write_held(struct vpl011 *u, uint32_t reg,
								   uint32_t val)
{
	bool level;

	vpl011_reg_write(u, reg, val);
	level = ((reg == UART_IMSC) || (reg == UART_ICR)) && ((vpl011_ris(u) & u->imsc) != 0U);
	spin_unlock(&u->lock);
	return level ? vpl011_raise(u) : 0;
}

/* vpl011_write_held when the lock was not free at once: wait for it. */
static __attribute__((noinline)) int vpl011_write_wait(struct vpl011 *u, uint32_t reg,
							uint32_t val)
{
	spin_lock(&u->lock);
	return vpl011_write_held(u, reg, val);
}

/*
 * A register write. Anything but DR (a driver's IMSC, ICR, CR writes) takes
 * the lock with spin_trylock_inline and makes no call but tail calls, so it
 * builds no frame; a taken lock is waited for in vpl011_write_wait.
 */
static int vpl011_write(struct vcpu *v, paddr_t off, unsigned int size, uint64_t val, void *priv)
{
	struct vpl011 *u = priv;
	uint32_t reg = (uint32_t)off & ~U(3);
	uint32_t word = (uint32_t)(val << ((off & 3U) * 8U));

	(void)v;
	if (size > 4U) {
		return -XEN_EINVAL;
	}
	if (reg == UART_DR) {
		return vpl011_write_dr(u, word);
	}
	if (!spin_trylock_inline(&u->lock)) {
		return vpl011_write_wait(u, reg, word);
	}
	return vpl011_write_held(u, reg, word);
}

static const struct mmio_ops vpl011_ops = {
	.read = vpl011_read,
	.write = vpl011_write,
};

int vpl011_domain_init(struct domain *d)
{
	struct vpl011 *u;

	if ((d->domain_id == 0U) || (d->domain_id > CONFIG_MAX_DOMAINS)) {
		return -XEN_EINVAL;
	}
	u = &vpl011s[d->domain_id - 1U];
	(void)memset(u, 0, sizeof(*u));
	spin_lock_init(&u->lock, LOCK_CLASS_VUART);
	u->d = d;
	u->tx_ris = INT_TX;
	u->cr = U(0x300); /* TXE | RXE, as after reset */
	u->lcrh = 0U;
	return mmio_register(d, GUEST_PL011_BASE, GUEST_PL011_SIZE, &vpl011_ops, u);
}

void vpl011_rx_notify(struct domain *d)
{
	struct vpl011 *u;
	bool level;

	if ((d == NULL) || (d->domain_id == 0U) || (d->domain_id > CONFIG_MAX_DOMAINS) ||
	    !d->cfg.vpl011) {
		return;
	}
	u = &vpl011s[d->domain_id - 1U];
	if (u->d != d) {
		return;
	}
	spin_lock(&u->lock);
	vpl011_refill(u);
	level = (vpl011_ris(u) & u->imsc & (INT_RX | INT_RT)) != 0U;
	spin_unlock(&u->lock);
	vpl011_update_irq(u, level);
}
