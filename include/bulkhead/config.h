/* SPDX-License-Identifier: MIT */
/* Kconfig values, with the defaults the host build relies on. */
#ifndef BULKHEAD_CONFIG_H
#define BULKHEAD_CONFIG_H

#include <generated/autoconf.h>

#ifndef CONFIG_HOST
#define CONFIG_HOST 0
#endif

/* Tested in C expressions, so it needs a value when Kconfig says n. */
#ifndef CONFIG_BOOT_SCRUB
#define CONFIG_BOOT_SCRUB 0
#endif

#endif
