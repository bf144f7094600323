/* SPDX-License-Identifier: MIT */
/*
 * What the device tree (dom0less binding) asks for one partition. Kept
 * apart from domain.h so the build-time checker (tools/check-dtb) can use
 * the parser without the rest of the hypervisor's headers.
 */
#ifndef BULKHEAD_DOMAIN_CONFIG_H
#define BULKHEAD_DOMAIN_CONFIG_H

#include <bulkhead/config.h>
#include <bulkhead/types.h>

#define DOMAIN_NAME_LEN U(32)
#define DOMAIN_MAX_MODULES U(3)
#define DOMAIN_MAX_STATIC_EVTCHN U(8)
#define DOMAIN_BOOTARGS_LEN U(256)
/* Xen 4.17's defaults and limits for a domain's grant table. */
#define DOMAIN_XEN_GRANT_FRAMES U(64)
#define DOMAIN_XEN_MAPTRACK_FRAMES U(1024)
#define DOMAIN_MAX_IOMEM U(8)      /* xen,reg ranges of a partition's assigned devices */
#define DOMAIN_MAX_DEV_IRQS U(16)  /* interrupts of a partition's assigned devices */
#define DOMAIN_GIC_PHANDLE U(65000) /* Xen's GUEST_PHANDLE_GIC */
#define DOMAIN_MAX_MEM_BANKS U(4)  /* xen,static-mem ranges */
#define DOMAIN_PFDT_MAX U(4096)    /* bytes of a partial device tree (multiboot,device-tree) */
#define DOMAIN_MAX_VBDS U(4)       /* virtual disks one partition serves (bulkhead,vbd) */
#define DOMAIN_SHM_ID_LEN U(16)    /* Xen's MAX_SHM_ID_LENGTH: xen,shm-id and its NUL */

enum restart_policy {
	RESTART_NEVER = 0, /* stay stopped, others keep running (default) */
	RESTART_ALWAYS,    /* restart on crash and on reboot requests */
	RESTART_ON_REBOOT, /* restart only on reboot requests (Xen's behaviour) */
};

struct boot_module {
	paddr_t start;
	uint64_t size;         /* 0: absent */
};

struct static_evtchn {
	uint32_t local_port;
	uint16_t remote_domid;
	uint32_t remote_port;
};

/* A range of machine RAM. */
struct ram_range {
	paddr_t maddr;
	uint64_t size;
};

/* Device memory given to a partition (xen,reg = <host size guest>). */
struct iomem_map {
	paddr_t maddr;
	paddr_t gaddr;
	uint64_t size;
};

/* A physical SPI routed to the partition as the same virtual INTID. */
struct dev_irq {
	uint16_t intid;
	bool edge;              /* from the host node's flags: edge, else level */
};

/*
 * A virtual disk (a bulkhead,vbd node in the frontend's domain node,
 * docs/device-tree.md), kept by the partition that serves it: its bytes
 * are at `offset` in that partition's disk region.
 */
struct vbd_config {
	uint16_t fe;            /* domid of the partition that sees it */
	uint32_t devid;         /* Xen's vdev number: 202 << 8 | disk << 4 (xvda 51712) */
	char name[8];           /* virtual-device, "xvda" */
	uint64_t bytes;
	uint64_t offset;
	bool readonly;
	bool persistent;        /* feature-persistent offered */
	uint32_t max_indirect;  /* feature-max-indirect-segments, 0: none */
	uint32_t max_ring_order;
	uint32_t max_queues;
	uint32_t max_pers;      /* persistent grants per ring */
};

/*
 * A static shared memory region as one partition maps it (Xen 4.17's
 * xen,domain-shared-memory-v1 node): the owner's as its own RAM, every
 * other partition's as a foreign mapping. Never scrubbed at a restart.
 */
struct shm_map {
	paddr_t maddr;
	paddr_t gaddr;
	uint64_t size;
	char id[DOMAIN_SHM_ID_LEN];  /* xen,shm-id: the guest's reserved-memory xen,id */
	bool owner;             /* role = "owner" */
};

struct domain_config {
	char name[DOMAIN_NAME_LEN];       /* the xen,domain node's name */
	uint32_t nr_vcpus;
	uint64_t mem_bytes;
	paddr_t mem_maddr;      /* bulkhead,memory-base: fixed placement, or 0 */
	/* Fixed RAM (bulkhead,memory-base, xen,static-mem): its ranges, 0 when placed at boot. */
	uint32_t nr_mem_banks;
	struct ram_range mem_bank[DOMAIN_MAX_MEM_BANKS];
	bool direct_map;        /* direct-map: guest-physical RAM = machine RAM */
	uint32_t pcpus[CONFIG_MAX_VCPUS]; /* physical CPU of each vCPU */
	bool pcpus_fixed;       /* from bulkhead,cpus (else assigned in DT order) */
	struct boot_module kernel;
	struct boot_module ramdisk;
	struct boot_module dtb; /* multiboot,device-tree (passthrough fragment) */
	char bootargs[DOMAIN_BOOTARGS_LEN];
	bool vpl011;
	bool enhanced;          /* xen,enhanced: /hypervisor node, grant table, evtchn */
	bool xs_client;         /* xen,enhanced with xenstore: served by the xenstore partition */
	bool xs_server;         /* capabilities has DOMAIN_CAPS_XENSTORE: the xenstore partition */
	/*
	 * Grant-table sizes (Xen's max_grant_frames, max_maptrack_frames): the
	 * parser fills Xen's default when the node says nothing; 0 grant frames
	 * (a partition made without the parser) means all the pool holds.
	 */
	uint32_t max_grant_frames;
	uint32_t max_maptrack_frames;
	enum restart_policy restart;
	uint32_t nr_static_evtchn;
	struct static_evtchn static_evtchn[DOMAIN_MAX_STATIC_EVTCHN];
	/* Device assignment (the multiboot,device-tree module's /passthrough). */
	uint32_t gic_phandle;   /* the partial tree's /gic phandle, else DOMAIN_GIC_PHANDLE */
	uint32_t nr_spis;       /* Xen's nr_spis (at most CONFIG_VGIC_NR_SPIS, the default) */
	uint32_t nr_iomem;
	struct iomem_map iomem[DOMAIN_MAX_IOMEM];
	uint32_t nr_dev_irqs;
	struct dev_irq dev_irq[DOMAIN_MAX_DEV_IRQS];
	/* Virtual disks it serves, and the region holding them (kept across its restarts). */
	uint32_t nr_vbds;
	struct vbd_config vbd[DOMAIN_MAX_VBDS];
	uint64_t vbd_bytes;
	paddr_t vbd_maddr;      /* placed at boot */
	/* Static shared memory it maps, in device-tree order. */
	uint32_t nr_shm;
	struct shm_map shm[CONFIG_STATIC_SHM_REGIONS];
};

#endif
