/* SPDX-License-Identifier: MIT */
/*
 * xen_version: what a Xen-aware guest probes first. Every sub-op answers a
 * partition as Xen 4.17 answers a dom0less domU on Arm under its default
 * XSM policy (same codes, same feature bits; guests/memop checks both):
 * the build strings are Bulkhead's own, the command line is "<denied>"
 * and the build id -EPERM, as for any unprivileged domain.
 */
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/lib.h>
#include <bulkhead/console.h>
#include <public/version.h>
#include <public/errno.h>

/* Guests compare against Xen's numbers; we answer as the 4.17 we mimic. */
#define BULKHEAD_XEN_MAJOR U(4)
#define BULKHEAD_XEN_MINOR U(17)

/* The commit the image is built from (arch/arm/arm.mk generates buildinfo.h). */
#ifndef BULKHEAD_CHANGESET
#define BULKHEAD_CHANGESET "unavailable"
#endif
#ifndef BULKHEAD_COMPILE_DATE
#define BULKHEAD_COMPILE_DATE ""
#endif

/* Xen 4.17 arm64's HYPERVISOR_VIRT_START: meaningless to a translated guest, kept as Xen's. */
#define XEN_ARM64_VIRT_START ULL(0x200000)

/* s (shorter than size) and zeros up to size, as Xen copies its fixed arrays. */
static long version_copy_string(xen_guest_handle_t arg, const char *s, size_t size)
{
	/* The zero padding of the fixed-size string sub-ops: never written, and
	 * not const so that its KiB of zeros lies in .bss, not in the image. */
	static char version_zeros[XEN_CAPABILITIES_INFO_LEN];
	size_t len = strnlen(s, size - 1U);

	if ((copy_to_guest(arg, s, len) != 0) ||
	    (copy_to_guest(arg + len, version_zeros, size - len) != 0)) {
		return -XEN_EFAULT;
	}
	return 0;
}

static long version_compile_info(xen_guest_handle_t arg)
{
	struct xen_compile_info ci;

	(void)memset(&ci, 0, sizeof(ci));
	(void)bh_snprintf(ci.compiler, sizeof(ci.compiler), "gcc %s", __VERSION__);
	(void)bh_snprintf(ci.compile_by, sizeof(ci.compile_by), "bulkhead");
	(void)bh_snprintf(ci.compile_date, sizeof(ci.compile_date), "%s", BULKHEAD_COMPILE_DATE);
	return (copy_to_guest(arg, &ci, sizeof(ci)) != 0) ? -XEN_EFAULT : 0;
}

static long version_get_features(xen_guest_handle_t arg)
{
	const uint32_t one = 1U;
	struct xen_feature_info fi;

	if (copy_from_guest(&fi, arg, sizeof(fi)) != 0) {
		return -XEN_EFAULT;
	}
	if (fi.submap_idx != 0U) {
		return -XEN_EINVAL; /* Xen defines submap 0 only */
	}
	/* A translated, not direct-mapped domU on Arm; vnode flags are accepted (and ignored). */
	fi.submap = (one << XENFEAT_writable_page_tables) | (one << XENFEAT_auto_translated_physmap) |
		    (one << XENFEAT_memory_op_vnode_supported) | (one << XENFEAT_ARM_SMCCC_supported) |
		    (one << XENFEAT_not_direct_mapped);
	return (copy_to_guest(arg, &fi, sizeof(fi)) != 0) ? -XEN_EFAULT : 0;
}

/* The sub-ops that copy to or from the guest: out of line, so the others build no frame. */
static __attribute__((noinline)) long version_copy_op(unsigned int cmd, xen_guest_handle_t arg)
{
	switch (cmd) {
	case XENVER_extraversion:
		return version_copy_string(arg, "-bulkhead", XEN_EXTRAVERSION_LEN);
	case XENVER_compile_info:
		return version_compile_info(arg);
	case XENVER_capabilities:
		/* AArch64 partitions only: Xen also lists xen-3.0-armv7l. */
		return version_copy_string(arg, "xen-3.0-aarch64 ", XEN_CAPABILITIES_INFO_LEN);
	case XENVER_changeset:
		return version_copy_string(arg, BULKHEAD_CHANGESET, XEN_CHANGESET_INFO_LEN);
	case XENVER_platform_parameters: {
		struct xen_platform_parameters pp = { XEN_ARM64_VIRT_START };
		return (copy_to_guest(arg, &pp, sizeof(pp)) != 0) ? -XEN_EFAULT : 0;
	}
	case XENVER_get_features:
		return version_get_features(arg);
	case XENVER_guest_handle:
		/* A dom0less domU is created with an all-zero handle. */
		return version_copy_string(arg, "", XEN_DOMAIN_HANDLE_LEN);
	case XENVER_commandline: {
		/* What the default XSM policy shows an unprivileged domain: the string and its NUL. */
		static const char xen_deny[] = "<denied>";
		return (copy_to_guest(arg, xen_deny, sizeof(xen_deny)) != 0) ? -XEN_EFAULT : 0;
	}
	default:
		return -XEN_ENOSYS;
	}
}

long do_xen_version(unsigned int cmd, xen_guest_handle_t arg)
{
	switch (cmd) {
	case XENVER_version: {
		const uint32_t major = BULKHEAD_XEN_MAJOR;
		const uint32_t ver = (major << 16U) | BULKHEAD_XEN_MINOR;
		return (long)ver;
	}
	case XENVER_pagesize: {
		const unsigned long size = PAGE_SIZE;
		return (arg != 0U) ? -XEN_EINVAL : (long)size;
	}
	case XENVER_build_id:
		return -XEN_EPERM;
	default:
		return version_copy_op(cmd, arg);
	}
}
