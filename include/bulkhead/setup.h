/* SPDX-License-Identifier: MIT */
/* From the system device tree to created partitions (common/setup.c, boot_setup.c). */
#ifndef BULKHEAD_SETUP_H
#define BULKHEAD_SETUP_H

#include <bulkhead/dom0less.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/mm.h>

/* Largest system DTB accepted (the arm64 boot protocol's limit). */
#define BOOT_DTB_MAX (UL(2) << 20)

/* What boot needs to know of the machine (the system DTB on arm, tests on the host). */
struct boot_machine {
	uint32_t nr_cpus;
	uint32_t gic_version;
	uint32_t nr_banks;
	struct mm_boot_range banks[DOM0LESS_MAX_BANKS];
	uint32_t nr_reserved;   /* /reserved-memory: never partition RAM */
	struct mm_boot_range reserved[HW_MAX_RESERVED];
	paddr_t hyp_start;      /* hypervisor image, reserved */
	paddr_t hyp_end;
	const struct hw_desc *hw;   /* CPUs each partition may use are checked; NULL: not */
	uint32_t nr_devs;       /* the hypervisor's devices (from the device tree): never assigned */
	struct dom0less_hyp_dev devs[DOM0LESS_MAX_HYP_DEVS];
};

/* The parsed configuration of the last boot_setup() (for tests and the summary). */
extern struct dom0less_config boot_config;

/*
 * Validate dtb, parse and check the partitions, reserve the image, the DTB
 * and every module, place RAM, create and load each partition, close boot
 * allocation. Prints a message naming the node and the limit on error and
 * returns it negative; prints the boot summary on success.
 */
int boot_setup(const void *dtb, const struct boot_machine *m);

/*
 * After the secondary CPUs were started: every vCPU's physical CPU is in
 * online (bit n: CPU n). Prints "<partition node>: vCPU v on physical CPU
 * p ..., which did not come online" and returns -XEN_ENODEV otherwise.
 */
int boot_check_online(uint64_t online);

/* Entered by arch_setup() on CPU0 with the system DTB; never returns. */
__noreturn void start_hypervisor(const void *dtb);

#endif
