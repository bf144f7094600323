/* SPDX-License-Identifier: MIT */
/*
 * The initial tree of a partition (xs_tree.c): Xen's paths and values,
 * owned by the partition, private to it; removal when it goes.
 */
#include "xst.h"

static const struct xs_domain_info d2 = {
	.domid = 2, .name = "linux", .vcpus = 2, .memory_kib = 131072, .client = true,
	.port = 3, .ring_gfn = 0x39001,
};

static int setup_tree(void **state)
{
	(void)state;
	xs_init(XST_SELF, NULL);
	(void)memset(xst_c, 0, sizeof(xst_c));
	assert_int_equal(xs_tree_add_domain(&d2), XS_OK);
	{
		struct xs_domain_info d3 = { .domid = 3, .name = "rtos", .vcpus = 1,
					     .memory_kib = 16384, .client = true, .port = 1,
					     .ring_gfn = 0x39001 };
		assert_int_equal(xs_tree_add_domain(&d3), XS_OK);
	}
	xst_c[2] = &xs.conn[xs_conn_open(2)];
	xst_c[3] = &xs.conn[xs_conn_open(3)];
	xst_events_clear();
	return 0;
}

VERIFIES(REQ-XS-011)
static void test_paths(void **state)
{
	static const char *const want[][2] = {
		{ "name", "linux" },
		{ "domid", "2" },
		{ "cpu/0/availability", "online" },
		{ "cpu/1/availability", "online" },
		{ "memory/static-max", "131072" },
		{ "memory/target", "131072" },
		{ "memory/videoram", "-1" },
		{ "control/feature-suspend", "" },
		{ "control/sysrq", "" },
		{ "control/platform-feature-multiprocessor-suspend", "1" },
		{ "device", "" },
		{ "drivers", "" },
		{ "feature", "" },
		{ "attr", "" },
		{ "store/port", "3" },
		{ "store/ring-ref", "233473" },
		{ "control/shutdown", "" },
		{ "control/feature-poweroff", "1" },
		{ "control/feature-reboot", "1" },
		{ "control/platform-feature-xs_reset_watches", "1" },
		{ "device/suspend/event-channel", "" },
		{ "data", "" },
	};
	size_t i;

	(void)state;
	for (i = 0U; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_string_equal(xst_read(2, 0, want[i][0]), want[i][1]);
	}
	assert_string_equal(xst_read(2, 0, "cpu/2/availability"), "ENOENT");
	assert_string_equal(xst_get_perms(2, 0, "/local/domain/2"), "n2");
	assert_string_equal(xst_get_perms(2, 0, "control/shutdown"), "n2");
	/* The partition may write all of its home, and nobody else may look. */
	assert_string_equal(xst_write(2, 0, "control/feature-suspend", "1"), "OK");
	assert_string_equal(xst_read(3, 0, "/local/domain/2/name"), "EACCES");
	assert_string_equal(xst_read(3, 0, "name"), "rtos");
	assert_true(xs_dom_find(2)->nodes < 64U);
}

VERIFIES(REQ-XS-011, REQ-XS-007)
static void test_remove(void **state)
{
	(void)state;
	assert_string_equal(xst_write(2, 0, "data/x", "1"), "OK");
	assert_string_equal(xst_mkdir(3, 0, "data/inbox"), "OK");
	assert_string_equal(xst_set_perms(3, 0, "data/inbox", "n3,b2"), "OK");
	assert_string_equal(xst_write(2, 0, "/local/domain/3/data/inbox/from2", "1"), "OK");
	assert_string_equal(xst_watch(3, "data/inbox", "w"), "OK");
	xst_events_clear();
	xs_tree_remove_domain(2);
	assert_string_equal(xst_read(3, 0, "data/inbox/from2"), "ENOENT");
	assert_true(xst_has_event(3, "data/inbox/from2|w"));
	assert_int_equal(xs_dom_find(2)->nodes, 0U);
	assert_int_equal(xs_dom_find(2)->memory, 0U);
	/* And back, as for a restarted partition. */
	assert_int_equal(xs_tree_add_domain(&d2), XS_OK);
	assert_string_equal(xst_read(2, 0, "name"), "linux");
	assert_string_equal(xst_read(2, 0, "data/x"), "ENOENT");
}

/* d3 serves d2 two disks: xvda (51712) and a read-only xvdb (51728). */
static const struct xs_vbd disks[] = {
	{ .be = 3, .fe = 2, .devid = 51712, .readonly = false },
	{ .be = 3, .fe = 2, .devid = 51728, .readonly = true },
};

VERIFIES(REQ-BLK-022)
static void test_vbds(void **state)
{
	static const char *const fe[][2] = {
		{ "device/vbd/51712/backend", "/local/domain/3/backend/vbd/2/51712" },
		{ "device/vbd/51712/backend-id", "3" },
		{ "device/vbd/51712/virtual-device", "51712" },
		{ "device/vbd/51712/device-type", "disk" },
		{ "device/vbd/51712/state", "1" },
		{ "device/vbd/51728/virtual-device", "51728" },
	};
	static const char *const be[][2] = {
		{ "backend/vbd/2/51712/frontend", "/local/domain/2/device/vbd/51712" },
		{ "backend/vbd/2/51712/frontend-id", "2" },
		{ "backend/vbd/2/51712/online", "1" },
		{ "backend/vbd/2/51712/removable", "0" },
		{ "backend/vbd/2/51712/mode", "w" },
		{ "backend/vbd/2/51712/device-type", "disk" },
		{ "backend/vbd/2/51712/state", "1" },
		{ "backend/vbd/2/51728/mode", "r" },
	};
	size_t i;

	(void)state;
	assert_int_equal(xs_tree_add_vbds(2, disks, 2U), XS_OK);
	assert_int_equal(xs_tree_add_vbds(3, disks, 2U), XS_OK);
	for (i = 0U; i < sizeof(fe) / sizeof(fe[0]); i++) {
		assert_string_equal(xst_read(2, 0, fe[i][0]), fe[i][1]);
	}
	for (i = 0U; i < sizeof(be) / sizeof(be[0]); i++) {
		assert_string_equal(xst_read(3, 0, be[i][0]), be[i][1]);
	}
	/* Each end owns its half and the other reads it, nothing more. */
	assert_string_equal(xst_get_perms(2, 0, "device/vbd/51712"), "n2,r3");
	assert_string_equal(xst_get_perms(2, 0, "device/vbd/51712/state"), "n2,r3");
	assert_string_equal(xst_get_perms(3, 0, "backend/vbd/2/51712"), "n3,r2");
	assert_string_equal(xst_read(3, 0, "/local/domain/2/device/vbd/51712/state"), "1");
	assert_string_equal(xst_read(2, 0, "/local/domain/3/backend/vbd/2/51712/state"), "1");
	assert_string_equal(xst_write(3, 0, "/local/domain/2/device/vbd/51712/state", "4"),
			    "EACCES");
	assert_string_equal(xst_write(2, 0, "/local/domain/3/backend/vbd/2/51712/state", "4"),
			    "EACCES");
	assert_string_equal(xst_read(3, 0, "/local/domain/2/name"), "EACCES");
	/* What the frontend writes in its node (its ring) the backend reads. */
	assert_string_equal(xst_write(2, 0, "device/vbd/51712/ring-ref", "8"), "OK");
	assert_string_equal(xst_read(3, 0, "/local/domain/2/device/vbd/51712/ring-ref"), "8");
	/* The backend watches the frontend's state; it fires when the frontend goes and is back. */
	assert_string_equal(xst_watch(3, "/local/domain/2/device/vbd/51712/state", "0"), "OK");
	xst_events_clear();
	xs_tree_remove_domain(2);
	xst_poll_events(3);
	assert_true(xst_has_event(3, "/local/domain/2/device/vbd/51712/state|0"));
	assert_string_equal(xst_read(3, 0, "backend/vbd/2/51712/state"), "1");
	assert_int_equal(xs_tree_add_domain(&d2), XS_OK);
	assert_int_equal(xs_tree_add_vbds(2, disks, 2U), XS_OK);
	assert_string_equal(xst_read(3, 0, "/local/domain/2/device/vbd/51712/state"), "1");
	assert_string_equal(xst_read(3, 0, "/local/domain/2/device/vbd/51712/ring-ref"), "ENOENT");
	/* The backend's half comes back with its home too. */
	xs_tree_remove_domain(3);
	/* Gone (its nearest ancestor, /local/domain, is not d2's to read). */
	assert_string_equal(xst_read(2, 0, "/local/domain/3/backend/vbd/2/51712/state"), "EACCES");
	{
		struct xs_domain_info d3 = { .domid = 3, .name = "rtos", .vcpus = 1,
					     .memory_kib = 16384, .client = true, .port = 1,
					     .ring_gfn = 0x39001 };
		assert_int_equal(xs_tree_add_domain(&d3), XS_OK);
	}
	assert_int_equal(xs_tree_add_vbds(3, disks, 2U), XS_OK);
	assert_string_equal(xst_read(2, 0, "/local/domain/3/backend/vbd/2/51712/frontend-id"), "2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_paths, setup_tree, xst_teardown),
		cmocka_unit_test_setup_teardown(test_remove, setup_tree, xst_teardown),
		cmocka_unit_test_setup_teardown(test_vbds, setup_tree, xst_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
