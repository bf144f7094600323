/* SPDX-License-Identifier: MIT */
/*
 * Array sizes for tools/check-dtb: the largest values Kconfig allows, so
 * the parser holds any configuration; the limits it checks against come
 * from the build's own autoconf.h or .config at run time.
 */
#define CONFIG_HOST 1
#define CONFIG_MAX_DOMAINS 64
#define CONFIG_MAX_VCPUS 64
#define CONFIG_NR_CPUS 64
#define CONFIG_EVTCHN_MAX_PORTS 4096
#define CONFIG_VGIC_NR_SPIS 960
#define CONFIG_GNTTAB_MAX_FRAMES 64
#define CONFIG_GNTTAB_MAPTRACK_ENTRIES 65536
#define CONFIG_STATIC_SHM_REGIONS 16
