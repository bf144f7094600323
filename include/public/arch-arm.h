/* SPDX-License-Identifier: MIT */
/* Xen guest ABI, arm64 architecture part. */
#ifndef PUBLIC_ARCH_ARM_H
#define PUBLIC_ARCH_ARM_H

#include <stddef.h>
#include <stdint.h>

/* Compile-time check of an ABI layout fact. */
#define XEN_ABI_ASSERT(cond) _Static_assert(cond, #cond)

/* Immediate of the hypercall HVC; anything else is not a Xen hypercall. */
#define XEN_HYPERCALL_TAG 0xEA1U

typedef uint64_t xen_pfn_t;
typedef uint64_t xen_ulong_t;
/* A guest handle inside a struct is always 8 bytes, 8-byte aligned. */
typedef uint64_t xen_guest_handle_t;

#define XEN_PAGE_SHIFT 12U
#define XEN_PAGE_SIZE  4096U

/* Guest physical memory map of a domU (Xen 4.17 arch-arm.h). */
#define GUEST_GICD_BASE        0x03001000ULL
#define GUEST_GICD_SIZE        0x00001000ULL /* GICv2: GICC follows at 0x03002000 */
#define GUEST_GICC_BASE        0x03002000ULL
#define GUEST_GICC_SIZE        0x00002000ULL
#define GUEST_GICV3_GICD_BASE  0x03001000ULL
#define GUEST_GICV3_GICD_SIZE  0x00010000ULL
#define GUEST_GICV3_GICR0_BASE 0x03020000ULL
#define GUEST_GICV3_GICR0_SIZE 0x01000000ULL
#define GUEST_GICV3_RDIST_STRIDE 0x20000ULL
#define GUEST_PL011_BASE       0x22000000ULL
#define GUEST_PL011_SIZE       0x00001000ULL
#define GUEST_VPL011_SPI       32U
#define GUEST_GNTTAB_BASE      0x38000000ULL
#define GUEST_GNTTAB_SIZE      0x01000000ULL
/* The magic pages (console, xenstore ring, ...) of a domU: page n at base + n pages. */
#define GUEST_MAGIC_BASE       0x39000000ULL
#define GUEST_MAGIC_SIZE       0x01000000ULL
#define XENSTORE_PFN_OFFSET    1ULL
#define GUEST_RAM0_BASE        0x40000000ULL
#define GUEST_RAM0_SIZE        0xc0000000ULL
#define GUEST_EVTCHN_PPI       31U
#define GUEST_TIMER_VIRT_PPI   27U
#define GUEST_TIMER_PHYS_S_PPI 29U
#define GUEST_TIMER_PHYS_NS_PPI 30U

#endif
