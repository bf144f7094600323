/* SPDX-License-Identifier: MIT */
/*
 * The machine as the system device tree describes it: CPUs (MPIDRs from
 * /cpus, the boot CPU first), RAM banks, the GIC, the generic timer's
 * interrupts and the console UART (/chosen/stdout-path). Read once at boot
 * on CPU0, and by tools/check-dtb from the same code, so both refuse a tree
 * with the same message ("<node path>: <what>"). Addresses are translated
 * through every parent bus's `ranges` to CPU physical addresses.
 */
#ifndef BULKHEAD_HWDESC_H
#define BULKHEAD_HWDESC_H

#include <bulkhead/config.h>
#include <bulkhead/dom0less.h>
#include <bulkhead/fdt.h>

#define HW_ERR_LEN      U(192)
#define HW_PATH_LEN     U(96)
#define HW_MAX_RESERVED U(8)
#define HW_MPIDR_MASK   ULL(0xff00ffffff)   /* Aff3, Aff2, Aff1, Aff0 */
#define HW_BOOT_FIRST   (~ULL(0))           /* boot CPU: the first one listed */

/* generic timer interrupts, in the binding's order (0: the secure physical timer) */
#define HW_TIMER_PHYS     U(1)
#define HW_TIMER_VIRT     U(2)
#define HW_TIMER_HYP      U(3)
#define HW_TIMER_NR       U(4)

enum hw_psci { HW_PSCI_NONE = 0, HW_PSCI_SMC, HW_PSCI_HVC };

/* Console UART types, one driver each (arch/arm/uart_*.c, Kconfig UART_*). */
enum hw_uart { HW_UART_PL011 = 0, HW_UART_SCIF, HW_UART_LPUART, HW_UART_CADENCE, HW_UART_NR };

struct hw_desc {
	uint32_t nr_cpus;                      /* used: at most CONFIG_NR_CPUS */
	uint32_t cpus_listed;                  /* device_type "cpu" nodes in /cpus */
	uint64_t mpidr[CONFIG_NR_CPUS];        /* affinity fields, boot CPU first */
	int cpu_node[CONFIG_NR_CPUS];
	bool cpu_psci[CONFIG_NR_CPUS];         /* enable-method = "psci" */
	enum hw_psci psci;                     /* /psci method */
	uint32_t nr_banks;
	struct mem_range banks[DOM0LESS_MAX_BANKS];
	uint32_t nr_reserved;                  /* /reserved-memory children with a reg */
	struct mem_range reserved[HW_MAX_RESERVED];
	int gic_node;
	uint32_t gic_version;                  /* 2 or 3 */
	struct mem_range gicd;
	struct mem_range gicr;                 /* v3: the (one) redistributor region */
	struct mem_range gicc;                 /* v2: CPU interface, as the tree gives it */
	struct mem_range gich;                 /* v2: virtual interface control */
	struct mem_range gicv;                 /* v2: virtual CPU interface */
	uint32_t gic_maint_intid;
	uint32_t timer_intid[HW_TIMER_NR];
	uint32_t timer_freq_hz;                /* the timer node's clock-frequency; 0: none */
	int uart_node;
	enum hw_uart uart_type;
	paddr_t uart_base;
	uint64_t uart_size;
	uint32_t uart_intid;
};

/*
 * Fill hw from the tree. boot_mpidr: MPIDR affinity of the CPU running
 * this (HW_BOOT_FIRST: the first CPU listed); it becomes CPU 0 and the
 * other CPUs follow in the tree's order. gic_version and uart are what
 * this build drives. Returns 0, or a negative FDT_ERR_* with the message.
 */
int hw_from_dt(const struct fdt *f, uint64_t boot_mpidr, uint32_t gic_version,
	       enum hw_uart uart, struct hw_desc *hw, char *err, size_t errlen);

/*
 * Leave [base, base+size) out of the RAM banks (firmware carve-outs the
 * tree does not describe). Returns 0 or -FDT_ERR_NOSPACE (too many banks).
 */
int hw_carve(struct hw_desc *hw, paddr_t base, uint64_t size);

/*
 * Every partition's vCPUs on CPUs the hypervisor can start: listed in
 * /cpus and, but for the boot CPU, with enable-method "psci" and an SMC
 * PSCI conduit. Message: "<partition node>: vCPU v on physical CPU p ...".
 */
int hw_check_placement(const struct fdt *f, const struct hw_desc *hw,
		       const struct dom0less_config *cfg, char *err, size_t errlen);

/* The machine of this boot (arch/arm/hw_machine.c fills it on CPU0, before any other CPU runs). */
extern struct hw_desc hw_machine;

/* One line per part, "hw: <what>: ...", through out (printk or a host printf). */
void hw_describe(const struct fdt *f, const struct hw_desc *hw,
		 void (*out)(const char *line));

/* Compatible strings each console driver takes; name for messages. */
bool hw_uart_matches(enum hw_uart uart, const void *compat, int len);
const char *hw_uart_name(enum hw_uart uart);

/* Entry idx of node's reg as a CPU physical address (through every ranges). */
int hw_dt_reg(const struct fdt *f, int node, unsigned int idx, paddr_t *addr, uint64_t *size);
/* Interrupt idx of node as a GIC INTID (the interrupt parent must be gic). */
int hw_dt_irq(const struct fdt *f, int node, int gic, unsigned int idx, uint32_t *intid);

#endif
