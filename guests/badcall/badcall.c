/* SPDX-License-Identifier: MIT */
/*
 * Hypercalls the hypervisor must refuse with Xen's exact codes: unknown
 * numbers give -ENOSYS (-38); console_io on a buffer that is not the
 * caller's RAM gives -EFAULT (-14), whether stage 1 or stage 2 rejects it.
 */
#include <guest/guest.h>

static int check(const char *what, long got, long want)
{
	printf("%s: %s returned %ld (expected %ld)%s\n", rt_tag(), what, got, want,
	       got == want ? "" : " MISMATCH");
	return got == want ? 0 : 1;
}

int test_main(void)
{
	static const uint64_t unknown[] = { 63, 64, 1000, 6 };
	uint64_t beyond_ram = rt.ram_base + rt.ram_size;
	char what[64];
	unsigned int i;
	int fails = 0;

	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		snprintf(what, sizeof(what), "unknown hypercall %lu", unknown[i]);
		fails += check(what, xen_hypercall(unknown[i], 0, 0, 0, 0, 0), -XEN_ENOSYS);
	}
	/* Stage 2: mapped at stage 1 (identity) but not the partition's memory. */
	snprintf(what, sizeof(what), "console_io buffer 0x%lx", beyond_ram);
	fails += check(what, HYPERVISOR_console_io(CONSOLEIO_write, 16, (void *)beyond_ram),
		       -XEN_EFAULT);
	/* Stage 1: beyond the 4 GiB the partition maps at all. */
	fails += check("console_io buffer 0x100000000",
		       HYPERVISOR_console_io(CONSOLEIO_write, 16, (void *)0x100000000ULL),
		       -XEN_EFAULT);
	/* A buffer that starts in RAM and runs past its end. */
	snprintf(what, sizeof(what), "console_io buffer 0x%lx crossing the RAM end",
		 beyond_ram - 8U);
	fails += check(what, HYPERVISOR_console_io(CONSOLEIO_write, 16,
						   (void *)(beyond_ram - 8U)), -XEN_EFAULT);
	if (!fails)
		printf("%s: badcall all refused as expected\n", rt_tag());
	return fails;
}
