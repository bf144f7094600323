/* SPDX-License-Identifier: MIT */
/* System register and MMIO accessors of the GIC drivers. */
#ifndef ARM_GIC_SYSREG_H
#define ARM_GIC_SYSREG_H

#include <bulkhead/types.h>

#define gic_read_sysreg(name) ({                                           \
	uint64_t _v;                                                        \
	__asm__ volatile("mrs %0, " #name : "=r"(_v));                      \
	_v;                                                                 \
})
#define gic_write_sysreg(name, v) \
	__asm__ volatile("msr " #name ", %0" ::"r"((uint64_t)(v)) : "memory")
#define gic_isb() __asm__ volatile("isb" ::: "memory")
#define gic_dsb() __asm__ volatile("dsb sy" ::: "memory")

static inline uint32_t mmio_read32(paddr_t a)
{
	uint32_t v = *(volatile uint32_t *)(uintptr_t)a;

	__asm__ volatile("" ::: "memory");
	return v;
}

static inline void mmio_write32(paddr_t a, uint32_t v)
{
	__asm__ volatile("dsb st" ::: "memory");
	*(volatile uint32_t *)(uintptr_t)a = v;
}

static inline uint64_t mmio_read64(paddr_t a)
{
	uint64_t v = *(volatile uint64_t *)(uintptr_t)a;

	__asm__ volatile("" ::: "memory");
	return v;
}

static inline void mmio_write64(paddr_t a, uint64_t v)
{
	__asm__ volatile("dsb st" ::: "memory");
	*(volatile uint64_t *)(uintptr_t)a = v;
}

static inline void mmio_write8(paddr_t a, uint8_t v)
{
	__asm__ volatile("dsb st" ::: "memory");
	*(volatile uint8_t *)(uintptr_t)a = v;
}

/* Common distributor offsets (v2 and v3). */
#define GICD_CTLR        U(0x0000)
#define GICD_TYPER       U(0x0004)
#define GICD_IGROUPR     U(0x0080)
#define GICD_ISENABLER   U(0x0100)
#define GICD_ICENABLER   U(0x0180)
#define GICD_ISPENDR     U(0x0200)
#define GICD_ICPENDR     U(0x0280)
#define GICD_ICACTIVER   U(0x0380)
#define GICD_IPRIORITYR  U(0x0400)
#define GICD_ITARGETSR   U(0x0800)
#define GICD_ICFGR       U(0x0c00)
#define GICD_SGIR        U(0x0f00)
#define GICD_IROUTER     U(0x6000)

#endif
