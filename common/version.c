/* SPDX-License-Identifier: MIT */
/* xen_version: what a Xen-aware guest probes first. */
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/lib.h>
#include <public/version.h>
#include <public/errno.h>

/* Guests compare against Xen's numbers; we answer as the 4.17 we mimic. */
#define BULKHEAD_XEN_MAJOR U(4)
#define BULKHEAD_XEN_MINOR U(17)

/* Out of line, so that the sub-ops that only return a number build no frame. */
static __attribute__((noinline)) long xenver_extraversion(xen_guest_handle_t arg)
{
	xen_extraversion_t extra;

	(void)memset(extra, 0, sizeof(extra));
	(void)memcpy(extra, "-bulkhead", 9U);
	return (copy_to_guest(arg, extra, sizeof(extra)) != 0) ? -XEN_EFAULT : 0;
}

static __attribute__((noinline)) long xenver_get_features(xen_guest_handle_t arg)
{
	struct xen_feature_info fi;

	if (copy_from_guest(&fi, arg, sizeof(fi)) != 0) {
		return -XEN_EFAULT;
	}
	fi.submap = 0U;
	if (fi.submap_idx == 0U) {
		const uint32_t one = 1U;
		fi.submap = (one << XENFEAT_writable_page_tables) |
			    (one << XENFEAT_auto_translated_physmap) |
			    (one << XENFEAT_ARM_SMCCC_supported) | (one << XENFEAT_not_direct_mapped);
	}
	return (copy_to_guest(arg, &fi, sizeof(fi)) != 0) ? -XEN_EFAULT : 0;
}

long do_xen_version(unsigned int cmd, xen_guest_handle_t arg)
{
	switch (cmd) {
	case XENVER_version: {
		const uint32_t major = BULKHEAD_XEN_MAJOR;
		const uint32_t ver = (major << 16U) | BULKHEAD_XEN_MINOR;
		return (long)ver;
	}
	case XENVER_extraversion:
		return xenver_extraversion(arg);
	case XENVER_get_features:
		return xenver_get_features(arg);
	case XENVER_pagesize: {
		const unsigned long size = PAGE_SIZE;
		return (long)size;
	}
	default:
		/* Xen answers sub-ops it does not offer a domU with -EPERM or
		 * -EINVAL; unknown numbers are -ENOSYS. */
		return -XEN_ENOSYS;
	}
}
