/* SPDX-License-Identifier: MIT */
/* System register access and the EL2 control bits Bulkhead sets. */
#ifndef ASM_SYSREGS_H
#define ASM_SYSREGS_H

#include <bulkhead/types.h>

/* HCR_EL2 */
#define HCR_VM    (ULL(1) << 0)
#define HCR_SWIO  (ULL(1) << 1)
#define HCR_PTW   (ULL(1) << 2)
#define HCR_FMO   (ULL(1) << 3)
#define HCR_IMO   (ULL(1) << 4)
#define HCR_AMO   (ULL(1) << 5)
#define HCR_FB    (ULL(1) << 9)
#define HCR_BSU_IS (ULL(1) << 10)
#define HCR_TWI   (ULL(1) << 13)
#define HCR_TWE   (ULL(1) << 14)
#define HCR_TIDCP (ULL(1) << 20)
#define HCR_TACR  (ULL(1) << 21)
#define HCR_TSC   (ULL(1) << 19)
#define HCR_RW    (ULL(1) << 31)

/* SCTLR_EL2 (non-VHE) */
#define SCTLR_EL2_RES1 ULL(0x30c50830)
#define SCTLR_M   (ULL(1) << 0)
#define SCTLR_A   (ULL(1) << 1)
#define SCTLR_C   (ULL(1) << 2)
#define SCTLR_SA  (ULL(1) << 3)
#define SCTLR_I   (ULL(1) << 12)
#define SCTLR_WXN (ULL(1) << 19)
/* SCTLR_EL1 at reset: RES1 bits only, MMU and caches off. */
#define SCTLR_EL1_RESET ULL(0x30d00800)

/* ESR_ELx */
#define ESR_EC_SHIFT U(26)
#define ESR_EC(esr) ((uint32_t)(((esr) >> ESR_EC_SHIFT) & U(0x3f)))
#define ESR_IL      (ULL(1) << 25)
#define ESR_ISS(esr) ((uint32_t)((esr) & U(0x1ffffff)))
#define EC_UNKNOWN   U(0x00)
#define EC_WFX       U(0x01)
#define EC_HVC32     U(0x12)
#define EC_SMC32     U(0x13)
#define EC_HVC64     U(0x16)
#define EC_SMC64     U(0x17)
#define EC_SYSREG    U(0x18)
#define EC_IABT_LOW  U(0x20)
#define EC_IABT_CUR  U(0x21)
#define EC_DABT_LOW  U(0x24)
#define EC_DABT_CUR  U(0x25)

/* Data abort ISS */
#define DABT_ISV    U(0x01000000)   /* bit 24 */
#define DABT_SAS(i) (((i) >> 22) & U(3))
#define DABT_SSE    U(0x00200000)   /* bit 21 */
#define DABT_SRT(i) (((i) >> 16) & U(0x1f))
#define DABT_SF     U(0x00008000)   /* bit 15 */
#define DABT_S1PTW  (U(1) << 7)
#define DABT_WNR    (U(1) << 6)
#define FSC_MASK    U(0x3f)
#define FSC_TYPE(f) ((f) & U(0x3c))
#define FSC_TRANSLATION U(0x04)
#define FSC_ACCESS      U(0x08)
#define FSC_PERMISSION  U(0x0c)

/* CNTHCTL_EL2 (non-VHE) */
#define CNTHCTL_EL1PCTEN (U(1) << 0)
#define CNTHCTL_EL1PCEN  (U(1) << 1)

#define CPTR_EL2_RES1 ULL(0x33ff)

#ifndef __ASSEMBLER__
#define sysreg_read(r) ({ uint64_t v__; __asm__ volatile("mrs %0, " #r : "=r"(v__)); v__; })
#define sysreg_write(r, v) __asm__ volatile("msr " #r ", %0" ::"r"((uint64_t)(v)) : "memory")

static inline void isb(void) { __asm__ volatile("isb" ::: "memory"); }
static inline void dsb_ish(void) { __asm__ volatile("dsb ish" ::: "memory"); }
static inline void dsb_ishst(void) { __asm__ volatile("dsb ishst" ::: "memory"); }
static inline void dsb_nsh(void) { __asm__ volatile("dsb nsh" ::: "memory"); }
static inline void wfi(void) { __asm__ volatile("wfi" ::: "memory"); }
#define DAIF_I (U(1) << 7)   /* PSTATE.I as DAIF reads it: IRQs masked */
static inline void local_irq_disable(void) { __asm__ volatile("msr daifset, #2" ::: "memory"); }
static inline void local_irq_enable(void) { __asm__ volatile("msr daifclr, #2" ::: "memory"); }
#endif

#endif
