/* SPDX-License-Identifier: MIT */
/*
 * Resets itself. A restarted partition gets fresh memory, so it cannot
 * count its incarnations; the scenario counts the "incarnation" lines on
 * the console instead (each one shows a restart took place).
 * how=psci (default): PSCI SYSTEM_RESET; how=sched: SCHEDOP_shutdown(reboot).
 */
#include <guest/guest.h>

int test_main(void)
{
	char how[8] = "psci";
	long rc;

	(void)rt_arg("how", how, sizeof(how));
	printf("%s: incarnation start, cntpct 0x%lx\n", rt_tag(), cntpct());
	mdelay(rt_arg_u64("delay_ms", 200));
	printf("%s: requesting reset (%s)\n", rt_tag(), how);
	if (strcmp(how, "sched") == 0)
		rc = xen_shutdown(SHUTDOWN_reboot);
	else
		rc = (long)psci_system_reset();
	printf("%s: reset request returned %ld\n", rt_tag(), rc);
	return 1;
}
