/* SPDX-License-Identifier: MIT */
/*
 * Emulated SBSA/PL011 UART of a partition (the dom0less `vpl011` property),
 * at GUEST_PL011_BASE with SPI GUEST_VPL011_SPI, like Xen's.
 */
#ifndef BULKHEAD_VPL011_H
#define BULKHEAD_VPL011_H

#include <bulkhead/types.h>

struct domain;

/* Register the UART's MMIO region for d and reset its state. */
int vpl011_domain_init(struct domain *d);
/* Console input for d arrived (console_input_byte): refill, raise RX. */
void vpl011_rx_notify(struct domain *d);

#endif
