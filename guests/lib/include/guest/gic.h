/* SPDX-License-Identifier: MIT */
/*
 * The partition's virtual GIC (v3: GICD + GICR and ICC system registers;
 * v2: GICD + GICC), found from the device tree, and IRQ dispatch.
 */
#ifndef GUEST_GIC_H
#define GUEST_GIC_H

#include <stdbool.h>
#include <stdint.h>

typedef void (*irq_handler_t)(unsigned int intid);

/* Distributor (boot vCPU only) and this vCPU's interface; false if no GIC node. */
bool gic_init(void);
/* This vCPU's interface only (secondaries). */
void gic_cpu_init(void);
/* 3 or 2, 0 before gic_init. */
unsigned int gic_version(void);
/* The distributor's address (0 before gic_init): an MMIO the hypervisor emulates. */
uint64_t gic_dist_base(void);
/* Enable a PPI (16..31) on the calling vCPU with a handler. */
void gic_enable_ppi(unsigned int intid, irq_handler_t handler);
void gic_disable_ppi(unsigned int intid);
/* Enable SPI intid (32..127) routed to vCPU cpu, with a handler (run before the EOI). */
void gic_enable_spi(unsigned int intid, irq_handler_t handler, unsigned int cpu);
void gic_disable_spi(unsigned int intid);
/* Route SPI intid to vCPU cpu (GICv3 IROUTER, GICv2 ITARGETSR). */
void gic_route_spi(unsigned int intid, unsigned int cpu);
/* Acknowledge, dispatch and end one interrupt (from the IRQ vector). */
void gic_handle_irq(void);
/* Interrupts taken per INTID by this partition (all vCPUs). */
unsigned int gic_irq_count(unsigned int intid);

#endif
