/* SPDX-License-Identifier: MIT */
/*
 * Watches: the initial firing, events for changes at or below the watched
 * path, relative paths, depth, removal, permissions on events, duplicates,
 * UNWATCH, and a full queue losing events for its client only.
 */
#include "xst.h"

VERIFIES(REQ-XS-007)
static void test_initial_and_changes(void **state)
{
	(void)state;
	assert_string_equal(xst_watch(2, "/local/domain/2/data", "abs"), "OK");
	/* Fired once straight away, after the reply. */
	assert_true(xst_recv(2));
	assert_int_equal(xst_m.type, XS_WATCH_EVENT);
	assert_int_equal(xst_m.len, sizeof("/local/domain/2/data") + sizeof("abs"));
	assert_memory_equal(xst_m.data, "/local/domain/2/data\0abs", xst_m.len);
	assert_string_equal(xst_write(2, 0, "data/a/b", "1"), "OK");
	assert_true(xst_has_event(2, "/local/domain/2/data/a/b|abs"));
	assert_string_equal(xst_write(2, 0, "other", "1"), "OK");
	xst_events_clear();
	xst_poll_events(2);
	assert_int_equal(xst_nev[2], 0U);
	/* MKDIR fires, a MKDIR of what exists does not. */
	assert_string_equal(xst_mkdir(2, 0, "data/m"), "OK");
	assert_true(xst_has_event(2, "/local/domain/2/data/m|abs"));
	xst_events_clear();
	assert_string_equal(xst_mkdir(2, 0, "data/m"), "OK");
	xst_poll_events(2);
	assert_int_equal(xst_nev[2], 0U);
	/* SET_PERMS fires. */
	assert_string_equal(xst_set_perms(2, 0, "data/m", "n2,r3"), "OK");
	assert_true(xst_has_event(2, "/local/domain/2/data/m|abs"));
}

VERIFIES(REQ-XS-007)
static void test_relative(void **state)
{
	(void)state;
	assert_string_equal(xst_watch(2, "device", "rel"), "OK");
	assert_true(xst_has_event(2, "device|rel"));
	assert_string_equal(xst_write(2, 0, "/local/domain/2/device/vbd/51712/state", "1"), "OK");
	assert_true(xst_has_event(2, "device/vbd/51712/state|rel"));
	/* UNWATCH by the same relative path. */
	assert_string_equal(xst_unwatch(2, "device", "rel"), "OK");
	assert_string_equal(xst_unwatch(2, "device", "rel"), "ENOENT");
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "device/x", "1"), "OK");
	xst_poll_events(2);
	assert_int_equal(xst_nev[2], 0U);
}

VERIFIES(REQ-XS-007)
static void test_rm_events(void **state)
{
	(void)state;
	assert_string_equal(xst_write(2, 0, "data/a/b/c", "1"), "OK");
	assert_string_equal(xst_watch(2, "data/a/b/c", "leaf"), "OK");
	assert_string_equal(xst_watch(2, "data", "top"), "OK");
	assert_string_equal(xst_watch(2, "data/a/b/c/d", "below"), "OK");
	xst_events_clear();
	xst_poll_events(2);
	xst_events_clear();
	assert_string_equal(xst_rm(2, 0, "data/a"), "OK");
	/* The watched node itself went: its own path; the parent watch sees the root. */
	assert_true(xst_has_event(2, "data/a/b/c|leaf"));
	assert_true(xst_has_event(2, "data/a|top"));
	assert_false(xst_has_event(2, "data/a/b/c/d|below"));
}

VERIFIES(REQ-XS-007)
static void test_depth(void **state)
{
	(void)state;
	assert_string_equal(xst_req(2, XS_WATCH, 0, "data\0d1\0001", 10U), "OK");
	assert_true(xst_has_event(2, "data|d1"));
	assert_string_equal(xst_write(2, 0, "data/x", "1"), "OK");
	assert_true(xst_has_event(2, "data/x|d1"));
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "data/x/y", "1"), "OK");
	xst_poll_events(2);
	assert_int_equal(xst_nev[2], 0U);
	assert_string_equal(xst_req(2, XS_WATCH, 0, "data\0d0\0000", 10U), "OK");
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "data", "v"), "OK");
	assert_true(xst_has_event(2, "data|d0"));
	assert_true(xst_has_event(2, "data|d1"));
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "data/z", "v"), "OK");
	assert_false(xst_has_event(2, "data/z|d0"));
	assert_true(xst_has_event(2, "data/z|d1"));
}

VERIFIES(REQ-XS-007, REQ-XS-005)
static void test_permissions_on_events(void **state)
{
	(void)state;
	/* 3 watches 2's subtree: it cannot read it, so it hears nothing of it... */
	assert_string_equal(xst_watch(3, "/local/domain/2/data", "spy"), "OK");
	xst_events_clear();
	xst_poll_events(3);
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "data/private", "p"), "OK");
	xst_poll_events(3);
	assert_int_equal(xst_nev[3], 0U);
	/* ...until it is given the node (and then of changes to it). */
	assert_string_equal(xst_write(2, 0, "data/public", "p"), "OK");
	assert_string_equal(xst_set_perms(2, 0, "data/public", "n2,r3"), "OK");
	assert_true(xst_has_event(3, "/local/domain/2/data/public|spy"));
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "data/public", "q"), "OK");
	assert_true(xst_has_event(3, "/local/domain/2/data/public|spy"));
	assert_false(xst_has_event(3, "/local/domain/2/data/private|spy"));
	/* Taking the read right away still tells of that change (old permissions). */
	xst_events_clear();
	assert_string_equal(xst_set_perms(2, 0, "data/public", "n2"), "OK");
	assert_true(xst_has_event(3, "/local/domain/2/data/public|spy"));
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "data/public", "r"), "OK");
	xst_poll_events(3);
	assert_int_equal(xst_nev[3], 0U);
}

VERIFIES(REQ-XS-007)
static void test_duplicates_and_tokens(void **state)
{
	(void)state;
	assert_string_equal(xst_watch(2, "data", "t"), "OK");
	assert_string_equal(xst_watch(2, "data", "t"), "EEXIST");
	assert_string_equal(xst_watch(2, "/local/domain/2/data", "t"), "EEXIST");
	assert_string_equal(xst_watch(2, "data", "u"), "OK");
	assert_string_equal(xst_watch(3, "/local/domain/2/data", "t"), "OK"); /* per connection */
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "data/k", "1"), "OK");
	assert_true(xst_has_event(2, "data/k|t"));
	assert_true(xst_has_event(2, "data/k|u"));
	assert_string_equal(xst_watch(2, "data//x", "t"), "EINVAL");
	assert_string_equal(xst_unwatch(2, "data", "nope"), "ENOENT");
}

VERIFIES(REQ-XS-007)
static void test_special_watches(void **state)
{
	(void)state;
	assert_string_equal(xst_watch(2, "@releaseDomain", "rel"), "OK");
	assert_true(xst_has_event(2, "@releaseDomain|rel"));
	xst_events_clear();
	/* The store owns @releaseDomain: a client may not hear it. */
	xs_fire_special("@releaseDomain");
	xst_poll_events(2);
	assert_int_equal(xst_nev[2], 0U);
	{
		struct xs_perm p[2] = { { XST_SELF, XS_PERM_NONE }, { 2, XS_PERM_READ } };
		struct xs_view v = { 0 };
		struct xs_node *n = xs_view_get(&v, "@releaseDomain", 14U);
		assert_int_equal(xs_view_set_perms(&v, n, p, 2U), XS_OK);
	}
	xs_fire_special("@releaseDomain");
	assert_true(xst_has_event(2, "@releaseDomain|rel"));
	assert_false(xst_has_event(3, "@releaseDomain|rel"));
}

VERIFIES(REQ-XS-007, REQ-XS-009)
static void test_full_queue(void **state)
{
	uint32_t len;
	size_t took;
	int i;

	(void)state;
	/* 2 watches its data and never reads; 3 may write there and watches too. */
	assert_string_equal(xst_mkdir(2, 0, "data"), "OK");
	assert_string_equal(xst_set_perms(2, 0, "data", "n2,b3"), "OK");
	assert_string_equal(xst_watch(2, "data", "w2"), "OK");
	assert_string_equal(xst_watch(3, "/local/domain/2/data", "w3"), "OK");
	xst_drain(2);
	for (i = 0; i < 1000; i++) {
		assert_string_equal(xst_write(3, 0, "/local/domain/2/data/k", (i & 1) ? "a" : "b"),
				    "OK");
		xst_poll_events(3);
	}
	/* 2 lost events, 3 none. */
	assert_true(xst_c[2]->events_dropped > 0U);
	assert_int_equal(xst_c[3]->events_dropped, 0U);
	assert_true(xst_pending(2) > XS_OUT_BYTES - 64U);
	/* 2 is not served while its queue cannot take a largest reply. */
	assert_false(xs_conn_can_serve(xst_c[2]));
	{
		struct xsd_sockmsg h = { .type = XS_READ, .req_id = 9, .len = 5 };
		uint8_t m[sizeof(h) + 5];
		(void)memcpy(m, &h, sizeof(h));
		(void)memcpy(&m[sizeof(h)], "data", 5);
		took = xs_conn_input(xst_c[2], m, sizeof(m));
		assert_int_equal(took, sizeof(m) - 1U);
		/* Reading its queue unblocks it: the last byte is taken and served. */
		len = xst_pending(2);
		xst_drain(2);
		assert_true(len > 0U);
		took = xs_conn_input(xst_c[2], &m[sizeof(m) - 1U], 1U);
		assert_int_equal(took, 1U);
		assert_true(xst_recv(2));
		assert_int_equal(xst_m.req_id, 9U);
		assert_int_equal(xst_m.type, XS_READ);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_initial_and_changes, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_relative, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_rm_events, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_depth, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_permissions_on_events, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_duplicates_and_tokens, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_special_watches, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_full_queue, xst_setup, xst_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
