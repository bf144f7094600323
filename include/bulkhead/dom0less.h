/* SPDX-License-Identifier: MIT */
/*
 * The Xen dom0less binding (xen docs/misc/arm/device-tree/booting.txt):
 * /chosen nodes with compatible = "xen,domain" become partitions, d1 being
 * the first such node. The same parser runs at boot and at build time
 * (tools/check-dtb), against limits the caller gives, so both print the
 * same message: "<node path>: <what>, <limit>".
 */
#ifndef BULKHEAD_DOM0LESS_H
#define BULKHEAD_DOM0LESS_H

#include <bulkhead/domain_config.h>
#include <bulkhead/fdt.h>

#define DOM0LESS_MAX_BANKS U(8)
#define DOM0LESS_ERR_LEN   U(192)

struct mem_range {
	paddr_t base;
	uint64_t size;
};

struct dom0less_limits {
	uint32_t max_domains;   /* CONFIG_MAX_DOMAINS */
	uint32_t max_vcpus;     /* CONFIG_MAX_VCPUS */
	uint32_t nr_cpus;       /* CONFIG_NR_CPUS */
	uint32_t board_cpus;    /* CPUs the machine has; 0: unknown */
	uint32_t evtchn_ports;  /* CONFIG_EVTCHN_MAX_PORTS */
	uint32_t nr_banks;      /* machine RAM; 0: not checked */
	struct mem_range banks[DOM0LESS_MAX_BANKS];
};

struct dom0less_config {
	uint32_t nr_domains;
	struct domain_config dom[CONFIG_MAX_DOMAINS];
	int node[CONFIG_MAX_DOMAINS];   /* offset of each xen,domain node */
	uint32_t pcpus_used;            /* highest physical CPU used + 1 */
};

/* Limits from this build's Kconfig; board_cpus and banks left empty. */
void dom0less_default_limits(struct dom0less_limits *lim);
/*
 * From the system tree: board_cpus from /cpus (the lower of the two when
 * the caller set one), RAM banks from /memory unless the caller set them.
 */
void dom0less_limits_from_dt(const struct fdt *f, struct dom0less_limits *lim);
/* Parse and check; on error returns a negative FDT_ERR_* and a message. */
int dom0less_parse(const struct fdt *f, const struct dom0less_limits *lim,
		   struct dom0less_config *out, char *err, size_t errlen);

bool mem_range_overlap(paddr_t a, uint64_t asz, paddr_t b, uint64_t bsz);
/* Whether [base, base+size) lies inside one of the banks. */
bool mem_range_in_banks(const struct mem_range *banks, uint32_t n, paddr_t base,
			uint64_t size);

#endif
