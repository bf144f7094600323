/* SPDX-License-Identifier: MIT */
/*
 * Transactions: isolation until commit, abort, EAGAIN on conflicting
 * changes (and only then), events at commit, the rules for START and END.
 */
#include "xst.h"

VERIFIES(REQ-XS-008)
static void test_isolation_and_commit(void **state)
{
	uint32_t t;

	(void)state;
	assert_string_equal(xst_write(2, 0, "data/a", "old"), "OK");
	t = xst_txn_start(2);
	assert_true(t != 0U);
	assert_string_equal(xst_write(2, t, "data/a", "new"), "OK");
	assert_string_equal(xst_write(2, t, "data/b/c", "made"), "OK");
	/* Inside: its own writes. Outside: nothing yet. */
	assert_string_equal(xst_read(2, t, "data/a"), "new");
	assert_string_equal(xst_read(2, t, "data/b/c"), "made");
	assert_string_equal(xst_read(2, t, "data/b"), "");
	assert_string_equal(xst_read(2, 0, "data/a"), "old");
	assert_string_equal(xst_read(2, 0, "data/b"), "ENOENT");
	{
		const char *d = xst_dir(2, t, "data");
		assert_int_equal(strlen(d), 3U);
		assert_non_null(strstr(d, "a"));
		assert_non_null(strstr(d, "b"));
	}
	assert_string_equal(xst_dir(2, 0, "data"), "a");
	assert_string_equal(xst_txn_end(2, t, true), "OK");
	assert_string_equal(xst_read(2, 0, "data/a"), "new");
	assert_string_equal(xst_read(2, 0, "data/b/c"), "made");
	/* The transaction id is gone. */
	assert_string_equal(xst_read(2, t, "data/a"), "ENOENT");
	assert_string_equal(xst_txn_end(2, t, true), "ENOENT");
	/* Nothing left behind: all of it is main tree now. */
	assert_int_equal(xst_c[2]->txn_nodes, 0U);
	assert_int_equal(xst_c[2]->memory, 0U);
}

VERIFIES(REQ-XS-008)
static void test_abort_and_rm(void **state)
{
	uint32_t t;

	(void)state;
	assert_string_equal(xst_write(2, 0, "data/keep/x", "1"), "OK");
	t = xst_txn_start(2);
	assert_string_equal(xst_rm(2, t, "data/keep"), "OK");
	assert_string_equal(xst_read(2, t, "data/keep/x"), "ENOENT");
	assert_string_equal(xst_dir(2, t, "data"), "");
	assert_string_equal(xst_write(2, t, "data/new", "1"), "OK");
	assert_string_equal(xst_txn_end(2, t, false), "OK");
	assert_string_equal(xst_read(2, 0, "data/keep/x"), "1");
	assert_string_equal(xst_read(2, 0, "data/new"), "ENOENT");
	/* Now committed: the removal happens. */
	t = xst_txn_start(2);
	assert_string_equal(xst_rm(2, t, "data/keep"), "OK");
	assert_string_equal(xst_write(2, t, "data/keep/y", "2"), "OK");
	assert_string_equal(xst_txn_end(2, t, true), "OK");
	assert_string_equal(xst_read(2, 0, "data/keep/x"), "ENOENT");
	assert_string_equal(xst_read(2, 0, "data/keep/y"), "2");
	assert_int_equal(xs.stats.commits, 1U);
}

VERIFIES(REQ-XS-008)
static void test_conflicts(void **state)
{
	uint32_t t1;
	uint32_t t2;

	(void)state;
	assert_string_equal(xst_write(2, 0, "data/n", "0"), "OK");
	assert_string_equal(xst_set_perms(2, 0, "data", "n2,b3"), "OK");
	assert_string_equal(xst_set_perms(2, 0, "data/n", "n2,b3"), "OK");
	/* Both read and write the same node: the second commit loses. */
	t1 = xst_txn_start(2);
	t2 = xst_txn_start(3);
	assert_string_equal(xst_read(2, t1, "data/n"), "0");
	assert_string_equal(xst_read(3, t2, "/local/domain/2/data/n"), "0");
	assert_string_equal(xst_write(2, t1, "data/n", "1"), "OK");
	assert_string_equal(xst_write(3, t2, "/local/domain/2/data/n", "2"), "OK");
	assert_string_equal(xst_txn_end(2, t1, true), "OK");
	assert_string_equal(xst_txn_end(3, t2, true), "EAGAIN");
	assert_string_equal(xst_read(2, 0, "data/n"), "1");
	assert_int_equal(xs.stats.conflicts, 1U);
	/* A write outside a transaction conflicts with a transaction that read the node. */
	t1 = xst_txn_start(2);
	assert_string_equal(xst_read(2, t1, "data/n"), "1");
	assert_string_equal(xst_write(3, 0, "/local/domain/2/data/n", "3"), "OK");
	assert_string_equal(xst_write(2, t1, "data/other", "x"), "OK");
	assert_string_equal(xst_txn_end(2, t1, true), "EAGAIN");
	assert_string_equal(xst_read(2, 0, "data/other"), "ENOENT");
	/* Touching different nodes: both commit. */
	assert_string_equal(xst_write(2, 0, "data/p", "0"), "OK");
	assert_string_equal(xst_write(2, 0, "data/q", "0"), "OK");
	t1 = xst_txn_start(2);
	t2 = xst_txn_start(2);
	assert_string_equal(xst_write(2, t1, "data/p", "1"), "OK");
	assert_string_equal(xst_write(2, t2, "data/q", "1"), "OK");
	assert_string_equal(xst_txn_end(2, t1, true), "OK");
	assert_string_equal(xst_txn_end(2, t2, true), "OK");
	/* A node that appeared since it was seen absent. */
	t1 = xst_txn_start(2);
	assert_string_equal(xst_read(2, t1, "data/late"), "ENOENT");
	assert_string_equal(xst_write(2, 0, "data/late", "x"), "OK");
	assert_string_equal(xst_txn_end(2, t1, true), "EAGAIN");
	/* A child added to a listed directory. */
	t1 = xst_txn_start(2);
	(void)xst_dir(2, t1, "data");
	assert_string_equal(xst_write(2, 0, "data/sibling", "x"), "OK");
	assert_string_equal(xst_txn_end(2, t1, true), "EAGAIN");
	/* A node removed meanwhile. */
	t1 = xst_txn_start(2);
	assert_string_equal(xst_write(2, t1, "data/p", "2"), "OK");
	assert_string_equal(xst_rm(2, 0, "data/p"), "OK");
	assert_string_equal(xst_txn_end(2, t1, true), "EAGAIN");
	assert_string_equal(xst_read(2, 0, "data/p"), "ENOENT");
}

VERIFIES(REQ-XS-008, REQ-XS-007)
static void test_events_at_commit(void **state)
{
	uint32_t t;

	(void)state;
	assert_string_equal(xst_watch(3, "/local/domain/3/data", "w"), "OK");
	assert_string_equal(xst_write(3, 0, "/local/domain/3/data/gone", "x"), "OK");
	xst_poll_events(3);
	xst_events_clear();
	t = xst_txn_start(3);
	assert_string_equal(xst_write(3, t, "data/x", "1"), "OK");
	assert_string_equal(xst_rm(3, t, "data/gone"), "OK");
	xst_poll_events(3);
	assert_int_equal(xst_nev[3], 0U);
	assert_string_equal(xst_txn_end(3, t, true), "OK");
	assert_true(xst_has_event(3, "/local/domain/3/data/x|w"));
	assert_true(xst_has_event(3, "/local/domain/3/data/gone|w"));
	/* An aborted transaction fires nothing. */
	xst_events_clear();
	t = xst_txn_start(3);
	assert_string_equal(xst_write(3, t, "data/y", "1"), "OK");
	assert_string_equal(xst_txn_end(3, t, false), "OK");
	xst_poll_events(3);
	assert_int_equal(xst_nev[3], 0U);
}

VERIFIES(REQ-XS-008)
static void test_start_end_rules(void **state)
{
	uint32_t t;
	uint32_t u;

	(void)state;
	t = xst_txn_start(2);
	assert_true(t != 0U);
	/* No nesting. */
	assert_string_equal(xst_req(2, XS_TRANSACTION_START, t, "", 1U), "EBUSY");
	/* T or F only; checked before the transaction. */
	assert_string_equal(xst_req(2, XS_TRANSACTION_END, t, "X", 2U), "EINVAL");
	assert_string_equal(xst_req(2, XS_TRANSACTION_END, t, "TT", 3U), "EINVAL");
	assert_string_equal(xst_req(2, XS_TRANSACTION_END, 0U, "X", 2U), "EINVAL");
	assert_string_equal(xst_req(2, XS_TRANSACTION_END, 0U, "T", 2U), "ENOENT");
	/* Ids are per connection and distinct. */
	u = xst_txn_start(2);
	assert_true((u != 0U) && (u != t));
	assert_string_equal(xst_read(3, t, "data"), "ENOENT");
	assert_string_equal(xst_txn_end(3, t, false), "ENOENT");
	assert_string_equal(xst_txn_end(2, t, false), "OK");
	assert_string_equal(xst_txn_end(2, u, false), "OK");
	assert_int_equal(xst_c[2]->txns, 0U);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_isolation_and_commit, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_abort_and_rm, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_conflicts, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_events_at_commit, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_start_end_rules, xst_setup, xst_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
