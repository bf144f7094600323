/* SPDX-License-Identifier: MIT */
/*
 * Touches an address the partition does not own (by default the first byte
 * after its RAM): the hypervisor must stop this partition alone with a
 * stage-2 fault. Getting past the access is a failure.
 */
#include <guest/guest.h>

int test_main(void)
{
	uint64_t addr = rt_arg_u64("addr", rt.ram_base + rt.ram_size);
	bool write = rt_arg_u64("write", 0) != 0;

	mdelay(rt_arg_u64("delay_ms", 0));
	printf("%s: touching 0x%lx (%s)\n", rt_tag(), addr, write ? "write" : "read");
	if (write) {
		*(volatile uint32_t *)addr = 0xdeadbeefU;
		printf("%s: wrote 0x%lx and was NOT stopped\n", rt_tag(), addr);
	} else {
		uint32_t v = *(volatile uint32_t *)addr;

		printf("%s: read 0x%x at 0x%lx and was NOT stopped\n", rt_tag(), v, addr);
	}
	return 1;
}
