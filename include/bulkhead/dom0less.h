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
#define DOM0LESS_ERR_LEN   U(256)
#define DOM0LESS_MAX_HYP_DEVS U(16)
#define DOM0LESS_PFDT_MAX  DOMAIN_PFDT_MAX
#define DOM0LESS_MAX_HYP_RAM U(12)

struct mem_range {
	paddr_t base;
	uint64_t size;
};

/* MMIO the hypervisor itself uses, and the interrupt it takes there (or 0). */
struct dom0less_hyp_dev {
	paddr_t base;
	uint64_t size;
	uint32_t intid;
	int node;               /* its node in the system tree, or -1 */
	const char *what;       /* "the hypervisor's UART", "the GIC", ... */
};

/*
 * Copy len bytes of boot-module memory at addr into buf (the partial device
 * trees): 0, or a negative error when that memory cannot be read.
 */
typedef int (*dom0less_read_fn)(void *ctx, paddr_t addr, void *buf, size_t len);

struct dom0less_limits {
	uint32_t max_domains;   /* CONFIG_MAX_DOMAINS */
	uint32_t max_vcpus;     /* CONFIG_MAX_VCPUS */
	uint32_t nr_cpus;       /* CONFIG_NR_CPUS */
	uint32_t board_cpus;    /* CPUs the machine has; 0: unknown */
	uint32_t evtchn_ports;  /* CONFIG_EVTCHN_MAX_PORTS */
	uint32_t gnttab_frames; /* CONFIG_GNTTAB_MAX_FRAMES */
	uint32_t maptrack_entries; /* CONFIG_GNTTAB_MAPTRACK_ENTRIES */
	uint32_t nr_banks;      /* machine RAM; 0: not checked */
	struct mem_range banks[DOM0LESS_MAX_BANKS];
	uint32_t vgic_nr_spis;  /* CONFIG_VGIC_NR_SPIS */
	uint32_t nr_hyp_devs;   /* the hypervisor's own devices and image */
	struct dom0less_hyp_dev hyp_devs[DOM0LESS_MAX_HYP_DEVS];
	uint32_t shm_regions;   /* CONFIG_STATIC_SHM_REGIONS */
	uint32_t p2m_pool_pages; /* CONFIG_P2M_POOL_PAGES */
	/* RAM no partition may share: the hypervisor image, the boot DTB, reserved memory. */
	uint32_t nr_hyp_ram;
	struct dom0less_hyp_dev hyp_ram[DOM0LESS_MAX_HYP_RAM];
	dom0less_read_fn read_module;   /* NULL: partial device trees are refused */
	void *read_ctx;
};

/* A static shared memory region (xen,shm-id) and the partitions that map it. */
struct dom0less_shm {
	char id[DOMAIN_SHM_ID_LEN];
	paddr_t maddr;
	uint64_t size;
	uint16_t owner;         /* domid of the role = "owner" node; 0: DOMID_IO, as on Xen */
	bool roleless;          /* a node without role: the owner is DOMID_IO */
	uint64_t users;         /* bit d-1: partition d maps it */
	int node;               /* the first node naming it */
};

struct dom0less_config {
	uint32_t nr_domains;
	struct domain_config dom[CONFIG_MAX_DOMAINS];
	int node[CONFIG_MAX_DOMAINS];   /* offset of each xen,domain node */
	uint32_t pcpus_used;            /* highest physical CPU used + 1 */
	uint32_t nr_shm;                /* distinct static shared memory regions */
	struct dom0less_shm shm[CONFIG_STATIC_SHM_REGIONS];
};

/* Limits from this build's Kconfig; board_cpus, banks and devices left empty. */
void dom0less_default_limits(struct dom0less_limits *lim);
/*
 * From the system tree: board_cpus from /cpus (the lower of the two when
 * the caller set one), RAM banks from /memory unless the caller set them.
 */
void dom0less_limits_from_dt(const struct fdt *f, struct dom0less_limits *lim);
/*
 * The GIC and the console UART (/chosen stdout-path) of the system tree as
 * devices of the hypervisor: nothing may be assigned over them.
 */
void dom0less_hyp_devices_from_dt(const struct fdt *f, struct dom0less_limits *lim);
/*
 * RAM a shared memory region must keep out of (the hypervisor image, the
 * boot DTB, /memreserve/ and /reserved-memory); false when full.
 */
bool dom0less_add_hyp_ram(struct dom0less_limits *lim, paddr_t base, uint64_t size,
			  const char *what);
/* The tree's /memreserve/ entries and /reserved-memory regions as dom0less_add_hyp_ram(). */
void dom0less_hyp_ram_from_dt(const struct fdt *f, struct dom0less_limits *lim);
/* Add one (the boot adds the board's and the hypervisor image); false when full. */
bool dom0less_add_hyp_dev(struct dom0less_limits *lim, paddr_t base, uint64_t size,
			  uint32_t intid, int node, const char *what);
/* Parse and check; on error returns a negative FDT_ERR_* and a message. */
int dom0less_parse(const struct fdt *f, const struct dom0less_limits *lim,
		   struct dom0less_config *out, char *err, size_t errlen);

bool mem_range_overlap(paddr_t a, uint64_t asz, paddr_t b, uint64_t bsz);
/* Whether [base, base+size) lies inside one of the banks. */
bool mem_range_in_banks(const struct mem_range *banks, uint32_t n, paddr_t base,
			uint64_t size);

#endif
