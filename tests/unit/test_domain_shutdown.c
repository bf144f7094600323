/* SPDX-License-Identifier: MIT */
/*
 * When the run ends: only after every partition has stopped for good and
 * every stop in progress (its devices masked, its mappings checked, a
 * restart) has finished. The host's arch_domain_stop hook opens a window in
 * the middle of one partition's stop, where another partition stops.
 */
#include "harness.h"
#include <string.h>
#include <bulkhead/lib.h>
#include <public/sched.h>

static struct domain *d1;
static struct domain *d2;
/* What the hook saw once the nested shutdown had returned. */
static int off_status_inside;
static bool hook_done;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	host_system_off_status = -1;
	d1 = harness_domain(1, 1);
	d2 = harness_domain(2, 1);
	off_status_inside = -2;
	hook_done = false;
	return 0;
}

static void shutdown_d1(void *arg)
{
	domain_shutdown(d1, (uint32_t)(uintptr_t)arg);
}

static void shutdown_d2(void *arg)
{
	(void)arg;
	domain_shutdown(d2, SHUTDOWN_poweroff);
}

/* During d1's stop, d2 (the last one running) stops and finishes first. */
static void stop_d2_inside(struct domain *d)
{
	if (d != d1) {
		return;
	}
	host_domain_stop_hook = NULL;
	domain_shutdown(d2, SHUTDOWN_poweroff);
	off_status_inside = host_system_off_status;
	hook_done = true;
}

VERIFIES(REQ-ROB-008)
static void test_last_stop_turns_off(void **state)
{
	(void)state;
	domain_shutdown(d1, SHUTDOWN_poweroff);
	assert_int_equal(host_system_off_status, -1);
	assert_true(harness_expect_panic(shutdown_d2, NULL));
	assert_int_equal(host_system_off_status, 0);
	assert_true(strstr(host_console_text(), "all partitions stopped, status 0") != NULL);
}

VERIFIES(REQ-ROB-008)
static void test_off_waits_for_a_stop_in_progress(void **state)
{
	(void)state;
	host_domain_stop_hook = stop_d2_inside;
	/* d1's stop, finishing last, ends the run; a crash makes status 1. */
	assert_true(harness_expect_panic(shutdown_d1, (void *)(uintptr_t)SHUTDOWN_crash));
	assert_true(hook_done);
	assert_int_equal(off_status_inside, -1);
	assert_int_equal(host_system_off_status, 1);
	assert_true(strstr(host_console_text(), "all partitions stopped, status 1") != NULL);
}

/*
 * d1 crashes and is restarting when d2 stops: the run goes on. The harness's
 * partitions have no kernel image, so the restart then fails and leaves d1
 * stopped, and that (the last stop to finish) ends the run.
 */
VERIFIES(REQ-ROB-008)
static void test_no_off_while_restarting(void **state)
{
	(void)state;
	d1->cfg.restart = RESTART_ALWAYS;
	host_domain_stop_hook = stop_d2_inside;
	assert_true(harness_expect_panic(shutdown_d1, (void *)(uintptr_t)SHUTDOWN_crash));
	assert_true(hook_done);
	assert_int_equal(off_status_inside, -1);
	assert_int_equal(read_atomic(&d1->state), DOMAIN_CRASHED);
	assert_true(strstr(host_console_text(), "(d1) restart failed") != NULL);
	assert_int_equal(host_system_off_status, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_last_stop_turns_off, setup),
		cmocka_unit_test_setup(test_off_waits_for_a_stop_in_progress, setup),
		cmocka_unit_test_setup(test_no_off_while_restarting, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
