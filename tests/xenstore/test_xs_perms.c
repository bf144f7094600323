/* SPDX-License-Identifier: MIT */
/*
 * Permissions: a client reads and writes its own home and what it is
 * given, nothing else; the owner's rights, per-domain entries and the
 * default; what SET_PERMS accepts; what an error may tell.
 */
#include "xst.h"

VERIFIES(REQ-XS-005)
static void test_own_and_others(void **state)
{
	(void)state;
	assert_string_equal(xst_write(2, 0, "data/secret", "s"), "OK");
	/* Another client: refused for every access, existing or not. */
	assert_string_equal(xst_read(3, 0, "/local/domain/2/data/secret"), "EACCES");
	assert_string_equal(xst_read(3, 0, "/local/domain/2/data/none"), "EACCES");
	assert_string_equal(xst_write(3, 0, "/local/domain/2/data/secret", "x"), "EACCES");
	assert_string_equal(xst_write(3, 0, "/local/domain/2/data/new", "x"), "EACCES");
	assert_string_equal(xst_mkdir(3, 0, "/local/domain/2/data/new"), "EACCES");
	assert_string_equal(xst_rm(3, 0, "/local/domain/2/data/secret"), "EACCES");
	assert_string_equal(xst_dir(3, 0, "/local/domain/2"), "EACCES");
	assert_string_equal(xst_get_perms(3, 0, "/local/domain/2/data"), "EACCES");
	assert_string_equal(xst_set_perms(3, 0, "/local/domain/2/data", "n3"), "EACCES");
	/* Nor the store's own tree. */
	assert_string_equal(xst_dir(3, 0, "/local/domain"), "EACCES");
	assert_string_equal(xst_write(3, 0, "/tool/x", "x"), "EACCES");
	assert_string_equal(xst_read(3, 0, "/"), "EACCES");
	/* Unchanged by the attempts. */
	assert_string_equal(xst_read(2, 0, "data/secret"), "s");
	assert_string_equal(xst_read(2, 0, "data/new"), "ENOENT");
	/* The owner may see that a node is missing; only the owner. */
	assert_string_equal(xst_read(2, 0, "data/none"), "ENOENT");
}

VERIFIES(REQ-XS-005, REQ-XS-006)
static void test_given(void **state)
{
	(void)state;
	assert_string_equal(xst_write(2, 0, "data/shared", "v"), "OK");
	assert_string_equal(xst_set_perms(2, 0, "data/shared", "n2,r3"), "OK");
	assert_string_equal(xst_get_perms(2, 0, "data/shared"), "n2,r3");
	/* 3 reads it, cannot write it; 4 still nothing. */
	assert_string_equal(xst_read(3, 0, "/local/domain/2/data/shared"), "v");
	assert_string_equal(xst_get_perms(3, 0, "/local/domain/2/data/shared"), "n2,r3");
	assert_string_equal(xst_write(3, 0, "/local/domain/2/data/shared", "w"), "EACCES");
	assert_string_equal(xst_read(4, 0, "/local/domain/2/data/shared"), "EACCES");
	/* Both ways, and the default for everyone else. */
	assert_string_equal(xst_set_perms(2, 0, "data/shared", "r2,b3"), "OK");
	assert_string_equal(xst_write(3, 0, "/local/domain/2/data/shared", "w"), "OK");
	assert_string_equal(xst_read(4, 0, "/local/domain/2/data/shared"), "w");
	assert_string_equal(xst_write(4, 0, "/local/domain/2/data/shared", "x"), "EACCES");
	assert_string_equal(xst_set_perms(2, 0, "data/shared", "n2,w3"), "OK");
	assert_string_equal(xst_read(3, 0, "/local/domain/2/data/shared"), "EACCES");
	assert_string_equal(xst_write(3, 0, "/local/domain/2/data/shared", "y"), "OK");
	/* The owner always has everything, whatever its own entry says. */
	assert_string_equal(xst_set_perms(2, 0, "data/shared", "n2,n2"), "OK");
	assert_string_equal(xst_read(2, 0, "data/shared"), "y");
}

VERIFIES(REQ-XS-005, REQ-XS-006)
static void test_create_in_given_dir(void **state)
{
	(void)state;
	assert_string_equal(xst_mkdir(2, 0, "data/inbox"), "OK");
	assert_string_equal(xst_set_perms(2, 0, "data/inbox", "n2,b3"), "OK");
	/* 3 creates below it and owns what it creates (the rest inherited). */
	assert_string_equal(xst_write(3, 0, "/local/domain/2/data/inbox/from3/msg", "hi"), "OK");
	assert_string_equal(xst_get_perms(3, 0, "/local/domain/2/data/inbox/from3/msg"), "n3,b3");
	assert_string_equal(xst_get_perms(3, 0, "/local/domain/2/data/inbox/from3"), "n3,b3");
	/* 3's node is charged to 3. */
	assert_int_equal(xs_dom_find(3)->nodes, 3U); /* its home, from3, msg */
	/* 2 sees nothing below: not its node. */
	assert_string_equal(xst_read(2, 0, "data/inbox/from3/msg"), "EACCES");
	assert_string_equal(xst_set_perms(3, 0, "/local/domain/2/data/inbox/from3/msg", "n3,r2"),
			    "OK");
	assert_string_equal(xst_read(2, 0, "data/inbox/from3/msg"), "hi");
}

VERIFIES(REQ-XS-006)
static void test_set_perms_rules(void **state)
{
	(void)state;
	assert_string_equal(xst_mkdir(2, 0, "data/p"), "OK");
	/* Only the store changes owners. */
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n3"), "EPERM");
	/* An owner the store does not know: ENOENT; a peer it does not know is ignored. */
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n99"), "ENOENT");
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n2,r99"), "OK");
	assert_string_equal(xst_get_perms(2, 0, "data/p"), "n2,r99");
	/* Malformed entries. */
	assert_string_equal(xst_set_perms(2, 0, "data/p", "x2"), "EINVAL");
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n"), "EINVAL");
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n2,r3x"), "EINVAL");
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n2,r70000"), "EINVAL");
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n0x2"), "OK"); /* strtol base 0 */
	/* More entries than the quota (5). */
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n2,r3,r4,r5,r2,r3"), "ENOSPC");
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n2,r3,r4,r5,r2"), "OK");
	/* A node that is not there, a path that is not valid. */
	assert_string_equal(xst_set_perms(2, 0, "data/none", "n2"), "ENOENT");
	assert_string_equal(xst_set_perms(2, 0, "data//p", "n2"), "EINVAL");
	/* A reader is not an owner. */
	assert_string_equal(xst_set_perms(2, 0, "data/p", "n2,b3"), "OK");
	assert_string_equal(xst_set_perms(3, 0, "/local/domain/2/data/p", "n2,b3"), "EACCES");
}

VERIFIES(REQ-XS-005)
static void test_special_nodes(void **state)
{
	(void)state;
	/* Special paths are only for GET_PERMS, SET_PERMS, WATCH, UNWATCH; the store owns them. */
	assert_string_equal(xst_get_perms(2, 0, "@introduceDomain"), "EACCES");
	assert_string_equal(xst_set_perms(2, 0, "@releaseDomain", "n2"), "EACCES");
	assert_string_equal(xst_get_perms(2, 0, "@other"), "EACCES");
	{
		struct xs_view v = { 0 };
		struct xs_node *n = xs_view_get(&v, "@releaseDomain", 14U);
		assert_non_null(n);
		assert_int_equal(n->perms[0].dom, XST_SELF);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_own_and_others, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_given, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_create_in_given_dir, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_set_perms_rules, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_special_nodes, xst_setup, xst_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
