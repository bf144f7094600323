/* SPDX-License-Identifier: MIT */
/*
 * The store's message types one by one, answered as Xen's xenstored
 * answers them: payloads, paths, the error names, req_id/tx_id echoes.
 */
#include "xst.h"

VERIFIES(REQ-XS-001, REQ-XS-002)
static void test_read_write(void **state)
{
	(void)state;
	assert_string_equal(xst_write(2, 0, "/local/domain/2/data/x", "hello"), "OK");
	assert_string_equal(xst_read(2, 0, "/local/domain/2/data/x"), "hello");
	assert_int_equal(xst_m.len, 5U); /* no nul on the wire */
	/* Relative paths are below the client's home. */
	assert_string_equal(xst_read(2, 0, "data/x"), "hello");
	assert_string_equal(xst_write(2, 0, "data/x", "again"), "OK");
	assert_string_equal(xst_read(2, 0, "/local/domain/2/data/x"), "again");
	/* Missing parents were made, with empty values. */
	assert_string_equal(xst_read(2, 0, "data"), "");
	assert_int_equal(xst_m.len, 0U);
	assert_string_equal(xst_read(2, 0, "data/nothing"), "ENOENT");
	/* A value may hold nul bytes. */
	{
		static const char p[] = "data/bin\0a\0b";
		assert_string_equal(xst_req(2, XS_WRITE, 0, p, sizeof(p) - 1U), "OK");
		(void)xst_read(2, 0, "data/bin");
		assert_int_equal(xst_m.len, 3U);
		assert_memory_equal(xst_m.data, "a\0b", 3U);
	}
	/* An empty value. */
	assert_string_equal(xst_req(2, XS_WRITE, 0, "data/e", 7U), "OK");
	assert_string_equal(xst_read(2, 0, "data/e"), "");
}

VERIFIES(REQ-XS-001)
static void test_mkdir_rm(void **state)
{
	(void)state;
	assert_string_equal(xst_mkdir(2, 0, "data/a/b/c"), "OK");
	assert_string_equal(xst_read(2, 0, "data/a/b/c"), "");
	assert_string_equal(xst_write(2, 0, "data/a/b", "v"), "OK");
	/* MKDIR of an existing node leaves its value. */
	assert_string_equal(xst_mkdir(2, 0, "data/a/b"), "OK");
	assert_string_equal(xst_read(2, 0, "data/a/b"), "v");
	/* RM takes the subtree. */
	assert_string_equal(xst_rm(2, 0, "data/a"), "OK");
	assert_string_equal(xst_read(2, 0, "data/a/b/c"), "ENOENT");
	assert_string_equal(xst_read(2, 0, "data/a"), "ENOENT");
	/* Not there but its parent is: fine. Parent missing too: ENOENT. */
	assert_string_equal(xst_rm(2, 0, "data/a"), "OK");
	assert_string_equal(xst_rm(2, 0, "data/a/b"), "ENOENT");
	/* The root is not removable; a client cannot even write it. */
	assert_string_equal(xst_rm(2, 0, "/"), "EACCES");
	assert_int_equal(xs_store_rm("/local/domain/4"), XS_OK);
	assert_int_equal(xs_store_rm("/local/domain/4"), XS_ENOENT);
}

VERIFIES(REQ-XS-001)
static void test_directory(void **state)
{
	(void)state;
	assert_string_equal(xst_dir(2, 0, "data"), "ENOENT");
	assert_string_equal(xst_write(2, 0, "data/one", "1"), "OK");
	assert_string_equal(xst_write(2, 0, "data/two/deep", "2"), "OK");
	assert_string_equal(xst_mkdir(2, 0, "data/three"), "OK");
	{
		const char *d = xst_dir(2, 0, "data");
		/* Leaf names only, each once, any order. */
		assert_non_null(strstr(d, "one"));
		assert_non_null(strstr(d, "two"));
		assert_non_null(strstr(d, "three"));
		assert_null(strstr(d, "deep"));
		assert_int_equal(strlen(d), strlen("one,two,three"));
	}
	assert_string_equal(xst_dir(2, 0, "data/one"), "");
	assert_int_equal(xst_m.len, 0U);
	/* The root's children as the store sees them. */
	{
		struct xs_view v = { 0 };
		uint8_t b[256];
		uint32_t used;
		assert_int_equal(xs_view_children(&v, "/", 1U, b, sizeof(b), &used), XS_OK);
		assert_int_equal(used, sizeof("local"));
		assert_string_equal((const char *)b, "local");
	}
}

VERIFIES(REQ-XS-001)
static void test_directory_too_big(void **state)
{
	char path[64];
	int i;

	(void)state;
	/* 200 children of 24 bytes: more than one payload. */
	for (i = 0; i < 200; i++) {
		(void)snprintf(path, sizeof(path), "/local/domain/2/big/child-with-a-long-name%03d", i);
		assert_int_equal(xs_store_write(path, "", 0U, NULL, 0U), XS_OK);
	}
	assert_string_equal(xst_dir(2, 0, "big"), "E2BIG");
}

VERIFIES(REQ-XS-003)
static void test_bad_paths(void **state)
{
	static const char *const bad[] = {
		"data/", "data//x", "/local/domain/2/data/", "da ta", "data/x!", "", "data/\xc3\xa9",
		"@introduceDomain",
	};
	char longp[XENSTORE_REL_PATH_MAX + 2U];
	size_t i;

	(void)state;
	for (i = 0U; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_string_equal(xst_read(2, 0, bad[i]), "EINVAL");
		assert_string_equal(xst_write(2, 0, bad[i], "v"), "EINVAL");
	}
	/* Below /local/domain/<id>/ at most XENSTORE_REL_PATH_MAX bytes. */
	(void)memset(longp, 'a', sizeof(longp) - 1U);
	longp[sizeof(longp) - 1U] = '\0';
	assert_string_equal(xst_write(2, 0, longp, "v"), "EINVAL");
	longp[XENSTORE_REL_PATH_MAX] = '\0';
	assert_string_equal(xst_write(2, 0, longp, "v"), "OK");
	assert_string_equal(xst_read(2, 0, longp), "v");
	/* Legal punctuation. */
	assert_string_equal(xst_write(2, 0, "data/a-b_c@d", "v"), "OK");
}

VERIFIES(REQ-XS-003)
static void test_arg_shapes(void **state)
{
	(void)state;
	/* One argument means exactly one nul, at the end. */
	assert_string_equal(xst_req(2, XS_READ, 0, "data", 4U), "EINVAL");
	assert_string_equal(xst_req(2, XS_READ, 0, "data\0x", 7U), "EINVAL");
	assert_string_equal(xst_req(2, XS_READ, 0, "", 0U), "EINVAL");
	assert_string_equal(xst_req(2, XS_RM, 0, "data\0\0", 6U), "EINVAL");
	assert_string_equal(xst_req(2, XS_MKDIR, 0, "x", 1U), "EINVAL");
	assert_string_equal(xst_req(2, XS_DIRECTORY, 0, "", 0U), "EINVAL");
	/* WRITE needs a nul after the path. */
	assert_string_equal(xst_req(2, XS_WRITE, 0, "data/x", 6U), "EINVAL");
	/* WATCH: path and token (and a depth); UNWATCH: exactly two. */
	assert_string_equal(xst_req(2, XS_WATCH, 0, "data", 5U), "EINVAL");
	assert_string_equal(xst_req(2, XS_WATCH, 0, "a\0b\0c\0d", 8U), "EINVAL");
	assert_string_equal(xst_req(2, XS_WATCH, 0, "a\0b\0x", 6U), "EINVAL");
	assert_string_equal(xst_req(2, XS_UNWATCH, 0, "a\0b\0c", 6U), "EINVAL");
	/* SET_PERMS: a path and at least one permission. */
	assert_string_equal(xst_req(2, XS_SET_PERMS, 0, "data", 5U), "EINVAL");
}

VERIFIES(REQ-XS-004)
static void test_types(void **state)
{
	static const uint32_t priv[] = { XS_CONTROL, XS_INTRODUCE, XS_RELEASE,
					 XS_IS_DOMAIN_INTRODUCED, XS_RESUME, XS_SET_TARGET,
					 XS_SET_FEATURE, XS_GET_QUOTA, XS_SET_QUOTA };
	static const uint32_t nosys[] = { XS_WATCH_EVENT, XS_ERROR, 20U, XS_DIRECTORY_PART,
					  XS_GET_FEATURE, XS_TYPE_COUNT, 1000U, XS_INVALID };
	size_t i;

	(void)state;
	for (i = 0U; i < sizeof(priv) / sizeof(priv[0]); i++) {
		assert_string_equal(xst_req(2, priv[i], 0, "3\0", 2U), "EACCES");
	}
	for (i = 0U; i < sizeof(nosys) / sizeof(nosys[0]); i++) {
		assert_string_equal(xst_req(2, nosys[i], 0, "x", 2U), "ENOSYS");
		assert_int_equal(xst_m.type, XS_ERROR);
	}
}

VERIFIES(REQ-XS-001)
static void test_get_domain_path(void **state)
{
	(void)state;
	assert_string_equal(xst_req(2, XS_GET_DOMAIN_PATH, 0, "3", 2U), "/local/domain/3");
	assert_int_equal(xst_m.len, sizeof("/local/domain/3"));
	assert_string_equal(xst_req(2, XS_GET_DOMAIN_PATH, 0, "65535", 6U), "/local/domain/65535");
	assert_string_equal(xst_req(2, XS_GET_DOMAIN_PATH, 0, "", 1U), "/local/domain/0");
	assert_string_equal(xst_req(2, XS_GET_DOMAIN_PATH, 0, "65536", 6U), "EINVAL");
	assert_string_equal(xst_req(2, XS_GET_DOMAIN_PATH, 0, "3x", 3U), "EINVAL");
	assert_string_equal(xst_req(2, XS_GET_DOMAIN_PATH, 0, "0x3", 4U), "EINVAL");
	assert_string_equal(xst_req(2, XS_GET_DOMAIN_PATH, 0, "3", 1U), "EINVAL");
}

VERIFIES(REQ-XS-004)
static void test_ids_echoed(void **state)
{
	uint32_t id;
	uint32_t tx;

	(void)state;
	id = xst_send(2, XS_READ, 0, "nothing", 8U);
	assert_true(xst_recv(2));
	assert_int_equal(xst_m.type, XS_ERROR);
	assert_int_equal(xst_m.req_id, id);
	assert_int_equal(xst_m.tx_id, 0U);
	assert_string_equal(xst_m.data, "ENOENT");
	tx = xst_txn_start(2);
	assert_true(tx != 0U);
	id = xst_send(2, XS_WRITE, tx, "data/t\0v", 8U);
	assert_true(xst_recv(2));
	assert_int_equal(xst_m.type, XS_WRITE);
	assert_int_equal(xst_m.req_id, id);
	assert_int_equal(xst_m.tx_id, tx);
	assert_int_equal(xst_m.len, 3U);
	assert_string_equal(xst_m.data, "OK");
	/* An unknown transaction id: ENOENT, for every type but WATCH/UNWATCH. */
	assert_string_equal(xst_read(2, tx + 7U, "data"), "ENOENT");
	assert_string_equal(xst_watch(2, "data", "tok"), "OK");
	{
		uint32_t rid = xst_send(2, XS_UNWATCH, tx + 7U, "data\0tok", 9U);
		bool got = false;
		while (xst_recv(2)) {
			if (xst_m.req_id == rid) {
				assert_int_equal(xst_m.type, XS_UNWATCH);
				got = true;
			}
		}
		assert_true(got);
	}
}

VERIFIES(REQ-XS-004)
static void test_reset_watches(void **state)
{
	uint32_t tx;

	(void)state;
	assert_string_equal(xst_watch(2, "data", "a"), "OK");
	tx = xst_txn_start(2);
	assert_true(tx != 0U);
	assert_string_equal(xst_write(2, tx, "data/in-txn", "1"), "OK");
	assert_int_equal(xst_c[2]->watches, 1U);
	assert_string_equal(xst_req(2, XS_RESET_WATCHES, 0, "", 1U), "OK");
	assert_int_equal(xst_c[2]->watches, 0U);
	assert_int_equal(xst_c[2]->txns, 0U);
	assert_int_equal(xst_c[2]->memory, 0U);
	assert_string_equal(xst_read(2, tx, "data"), "ENOENT"); /* the transaction is gone */
	assert_string_equal(xst_unwatch(2, "data", "a"), "ENOENT");
	xst_events_clear();
	assert_string_equal(xst_write(2, 0, "data/x", "1"), "OK");
	xst_poll_events(2);
	assert_int_equal(xst_nev[2], 0U);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_write, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_mkdir_rm, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_directory, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_directory_too_big, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_bad_paths, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_arg_shapes, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_types, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_get_domain_path, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_ids_echoed, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_reset_watches, xst_setup, xst_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
