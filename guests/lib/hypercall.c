/* SPDX-License-Identifier: MIT */
/* Xen arm64 hypercall convention: HVC #0xEA1, x16 = number, x0-x4 = args. */
#include <guest/hypercall.h>

long xen_hypercall(uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		   uint64_t a4)
{
	register uint64_t x0 __asm__("x0") = a0;
	register uint64_t x1 __asm__("x1") = a1;
	register uint64_t x2 __asm__("x2") = a2;
	register uint64_t x3 __asm__("x3") = a3;
	register uint64_t x4 __asm__("x4") = a4;
	register uint64_t x16 __asm__("x16") = nr;

	/* Xen may clobber x1-x4 and x16 (a debug Xen poisons them). */
	__asm__ volatile("hvc #0xEA1"
			 : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3), "+r"(x4), "+r"(x16)
			 :
			 : "memory");
	return (long)x0;
}

long xen_shutdown(unsigned int reason)
{
	struct sched_shutdown s = { .reason = reason };

	return HYPERVISOR_sched_op(SCHEDOP_shutdown, &s);
}

long xen_version(void)
{
	return HYPERVISOR_xen_version(XENVER_version, (void *)0);
}

long xen_add_to_physmap(unsigned int space, uint64_t idx, uint64_t gfn)
{
	struct xen_add_to_physmap a = {
		.domid = DOMID_SELF, .size = 0, .space = space, .idx = idx, .gpfn = gfn,
	};

	return HYPERVISOR_memory_op(XENMEM_add_to_physmap, &a);
}
