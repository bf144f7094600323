/* SPDX-License-Identifier: MIT */
/* Smallest partition: says who it is, what it runs on, and powers off. */
#include <guest/guest.h>

int test_main(void)
{
	long v = xen_version();

	printf("hello from %s: xen_version %ld.%ld, %u vCPU(s), RAM 0x%lx+0x%lx\n", rt_tag(),
	       v >> 16, v & 0xffff, rt.nr_cpus, rt.ram_base, rt.ram_size);
	mdelay(rt_arg_u64("delay_ms", 0));
	printf("%s: done\n", rt_tag());
	return 0;
}
