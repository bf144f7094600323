/* SPDX-License-Identifier: MIT */
/*
 * Domain capabilities of the device-tree `capabilities` property (Xen's
 * public/bootfdt.h): a domain node without it has none. Bulkhead has no
 * control or hardware domain; it accepts only the xenstore capability.
 */
#ifndef PUBLIC_BOOTFDT_H
#define PUBLIC_BOOTFDT_H

#define DOMAIN_CAPS_CONTROL  (1U << 0)
#define DOMAIN_CAPS_HARDWARE (1U << 1)
#define DOMAIN_CAPS_XENSTORE (1U << 2)
#define DOMAIN_CAPS_MASK     (DOMAIN_CAPS_CONTROL | DOMAIN_CAPS_HARDWARE | DOMAIN_CAPS_XENSTORE)

#endif
