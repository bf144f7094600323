/* SPDX-License-Identifier: MIT */
/*
 * Quotas per client and hostile clients: each limit refuses with ENOSPC
 * (transactions as Xen: the failed transaction then ends with ENOMEM), a
 * payload over the limit stops that connection only, malformed and
 * flooding clients leave the others served.
 */
#include "xst.h"

static struct xs_quota small_q;

static int setup_small(void **state)
{
	(void)state;
	xs_quota_default(&small_q);
	small_q.nodes = 8U;
	small_q.watches = 3U;
	small_q.txns = 2U;
	small_q.txn_nodes = 6U;
	small_q.memory = 4096U;
	small_q.node_size = 100U;
	return xst_setup_q(&small_q);
}

VERIFIES(REQ-XS-009)
static void test_nodes(void **state)
{
	char p[32];
	int i;

	(void)state;
	/* Its home counts: 7 more. */
	for (i = 0; i < 7; i++) {
		(void)snprintf(p, sizeof(p), "n%d", i);
		assert_string_equal(xst_write(2, 0, p, "v"), "OK");
	}
	assert_string_equal(xst_write(2, 0, "n7", "v"), "ENOSPC");
	/* A write that would make two (a parent too) is refused whole. */
	assert_string_equal(xst_rm(2, 0, "n6"), "OK");
	assert_string_equal(xst_write(2, 0, "d/e", "v"), "ENOSPC");
	assert_string_equal(xst_read(2, 0, "d"), "ENOENT");
	/* Rewriting existing nodes is fine; others are not affected. */
	assert_string_equal(xst_write(2, 0, "n0", "w"), "OK");
	assert_string_equal(xst_write(3, 0, "n0", "v"), "OK");
	assert_int_equal(xs_dom_find(2)->nodes, 7U);
}

VERIFIES(REQ-XS-009)
static void test_sizes(void **state)
{
	char big[200];

	(void)state;
	(void)memset(big, 'x', sizeof(big) - 1U);
	big[sizeof(big) - 1U] = '\0';
	big[100] = '\0';
	assert_string_equal(xst_write(2, 0, "v", big), "OK");
	big[100] = 'x';
	big[101] = '\0';
	assert_string_equal(xst_write(2, 0, "v", big), "ENOSPC");
	assert_int_equal(strlen(xst_read(2, 0, "v")), 100U);
}

VERIFIES(REQ-XS-009)
static void test_memory(void **state)
{
	char v[101];
	char p[16];
	int i;
	int ok = 0;

	(void)state;
	(void)memset(v, 'm', 100);
	v[100] = '\0';
	/* 4 KiB of nodes at about 128 bytes each: the memory quota comes first. */
	small_q.nodes = 100U;
	xs.quota.nodes = 100U;
	for (i = 0; i < 64; i++) {
		(void)snprintf(p, sizeof(p), "m%d", i);
		if (strcmp(xst_write(2, 0, p, v), "OK") == 0) {
			ok++;
		} else {
			assert_string_equal(xst_m.data, "ENOSPC");
			break;
		}
	}
	assert_true((ok > 20) && (ok < 40));
	assert_true(xs_dom_find(2)->memory <= 4096U);
	assert_string_equal(xst_write(3, 0, "m0", v), "OK");
}

VERIFIES(REQ-XS-009)
static void test_watches_txns(void **state)
{
	uint32_t t1;
	uint32_t t2;

	(void)state;
	assert_string_equal(xst_watch(2, "a", "1"), "OK");
	assert_string_equal(xst_watch(2, "a", "2"), "OK");
	assert_string_equal(xst_watch(2, "a", "3"), "OK");
	assert_string_equal(xst_watch(2, "a", "4"), "ENOSPC");
	assert_string_equal(xst_watch(3, "a", "4"), "OK");
	t1 = xst_txn_start(2);
	t2 = xst_txn_start(2);
	assert_true((t1 != 0U) && (t2 != 0U));
	assert_int_equal(xst_txn_start(2), 0U);
	assert_string_equal(xst_m.data, "ENOSPC");
	assert_true(xst_txn_start(3) != 0U);
	/* Entries of all its transactions: at most 6. */
	assert_string_equal(xst_write(2, t1, "t/a/b", "v"), "OK"); /* home seen, t, t/a, t/a/b */
	assert_string_equal(xst_write(2, t2, "u", "v"), "OK");     /* home seen, u */
	assert_string_equal(xst_write(2, t2, "w", "v"), "ENOSPC");
	assert_string_equal(xst_txn_end(2, t2, true), "ENOMEM");
	assert_string_equal(xst_read(2, 0, "u"), "ENOENT");
	assert_string_equal(xst_txn_end(2, t1, true), "OK");
	assert_string_equal(xst_read(2, 0, "t/a/b"), "v");
	assert_int_equal(xst_c[2]->txn_nodes, 0U);
}

VERIFIES(REQ-XS-009)
static void test_commit_quota(void **state)
{
	uint32_t t;

	(void)state;
	small_q.txn_nodes = 20U;
	xs.quota.txn_nodes = 20U;
	/* home, a, b, a/n0..a/n2: 6 nodes. */
	assert_string_equal(xst_write(2, 0, "a/n0", "v"), "OK");
	assert_string_equal(xst_write(2, 0, "a/n1", "v"), "OK");
	assert_string_equal(xst_write(2, 0, "a/n2", "v"), "OK");
	assert_string_equal(xst_mkdir(2, 0, "b"), "OK");
	t = xst_txn_start(2);
	assert_string_equal(xst_write(2, t, "b/x1", "v"), "OK");
	assert_string_equal(xst_write(2, t, "b/x2", "v"), "OK");
	/* Meanwhile, elsewhere (no conflict), two more: 8. */
	assert_string_equal(xst_write(2, 0, "a/n3", "v"), "OK");
	assert_string_equal(xst_write(2, 0, "a/n4", "v"), "OK");
	/* 8 + 2 > 8: refused at commit, nothing applied. */
	assert_string_equal(xst_txn_end(2, t, true), "ENOSPC");
	assert_string_equal(xst_read(2, 0, "b/x1"), "ENOENT");
	assert_int_equal(xs_dom_find(2)->nodes, 8U);
	assert_int_equal(xst_c[2]->memory, 0U);
}

VERIFIES(REQ-XS-010)
static void test_oversized_payload(void **state)
{
	struct xsd_sockmsg h = { .type = XS_WRITE, .req_id = 1, .len = XENSTORE_PAYLOAD_MAX + 1U };
	size_t took;

	(void)state;
	took = xs_conn_input(xst_c[2], (const uint8_t *)&h, sizeof(h));
	assert_int_equal(took, sizeof(h));
	assert_int_equal(xst_c[2]->error, XENSTORE_ERROR_PROTO);
	/* Nothing more is taken from it; the others are served. */
	assert_int_equal(xs_conn_input(xst_c[2], (const uint8_t *)"abc", 3U), 0U);
	assert_false(xs_conn_can_serve(xst_c[2]));
	assert_string_equal(xst_write(3, 0, "ok", "1"), "OK");
	/* A reset (the ring reconnect) brings it back. */
	xs_conn_reset(xst_c[2]);
	assert_string_equal(xst_write(2, 0, "ok", "1"), "OK");
	/* Exactly the maximum is fine. */
	{
		static uint8_t p[XENSTORE_PAYLOAD_MAX];
		(void)memset(p, 'a', sizeof(p));
		(void)memcpy(p, "big", 4U);
		assert_string_equal(xst_req(2, XS_WRITE, 0, p, sizeof(p)), "ENOSPC");
		assert_string_equal(xst_req(2, XS_READ, 0, p, sizeof(p)), "EINVAL");
	}
}

VERIFIES(REQ-XS-010)
static void test_garbage(void **state)
{
	static const char alphabet[] = "ab/\0\0@-_x1234/local/domain/2/TF";
	uint8_t msg[16U + 64U];
	uint32_t seed = 12345U;
	int i;

	(void)state;
	/* Random requests: types, transaction ids, payloads of path-ish bytes and nuls. */
	for (i = 0; i < 20000; i++) {
		struct xsd_sockmsg h;
		uint32_t j;
		size_t k;
		seed = seed * 1103515245U + 12345U;
		h.type = (seed >> 8) % 30U;
		h.req_id = (uint32_t)i;
		h.tx_id = (seed >> 16) % 3U;
		h.len = (seed >> 20) % 64U;
		(void)memcpy(msg, &h, sizeof(h));
		for (j = 0U; j < h.len; j++) {
			seed = seed * 1103515245U + 12345U;
			msg[16U + j] = (uint8_t)alphabet[(seed >> 16) % (sizeof(alphabet) - 1U)];
		}
		k = xs_conn_input(xst_c[2], msg, 16U + h.len);
		assert_int_equal(k, 16U + h.len);
		/* Exactly one reply (perhaps after watch events), echoing the id. */
		{
			bool replied = false;
			while (xst_recv(2)) {
				if (xst_m.type == XS_WATCH_EVENT) {
					continue;
				}
				assert_false(replied);
				assert_int_equal(xst_m.req_id, (uint32_t)i);
				replied = true;
			}
			assert_true(replied);
		}
		if ((i % 1000) == 0) {
			assert_string_equal(xst_write(3, 0, "alive", "1"), "OK");
		}
	}
	assert_int_equal(xst_c[2]->requests, 20000U);
	assert_true(xst_c[2]->errors > 1000U);
	assert_true(xst_c[2]->errors < 20000U);
	assert_string_equal(xst_read(3, 0, "alive"), "1");
}

VERIFIES(REQ-XS-010)
static void test_flood(void **state)
{
	int i;
	int served_before;

	(void)state;
	/* 2 sends requests and never reads: after its queue fills it is not served. */
	for (i = 0; i < 10000; i++) {
		struct xsd_sockmsg h = { .type = XS_READ, .req_id = (uint32_t)i, .len = 5 };
		uint8_t m[sizeof(h) + 5];
		(void)memcpy(m, &h, sizeof(h));
		(void)memcpy(&m[sizeof(h)], "data", 5);
		if (xs_conn_input(xst_c[2], m, sizeof(m)) != sizeof(m)) {
			break;
		}
	}
	assert_true(i < 10000);
	assert_true(xst_pending(2) <= XS_OUT_BYTES);
	served_before = (int)xst_c[2]->requests;
	assert_true(served_before == i);
	/* 3 is served as before. */
	assert_string_equal(xst_write(3, 0, "x", "1"), "OK");
	assert_string_equal(xst_read(3, 0, "x"), "1");
	/* Every reply 2 gets is whole and in order. */
	for (i = 0; i < served_before; i++) {
		assert_true(xst_recv(2));
		assert_int_equal(xst_m.req_id, (uint32_t)i);
		assert_int_equal(xst_m.type, XS_ERROR);
		assert_string_equal(xst_m.data, "ENOENT");
	}
	assert_false(xst_recv(2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nodes, setup_small, xst_teardown),
		cmocka_unit_test_setup_teardown(test_sizes, setup_small, xst_teardown),
		cmocka_unit_test_setup_teardown(test_memory, setup_small, xst_teardown),
		cmocka_unit_test_setup_teardown(test_watches_txns, setup_small, xst_teardown),
		cmocka_unit_test_setup_teardown(test_commit_quota, setup_small, xst_teardown),
		cmocka_unit_test_setup_teardown(test_oversized_payload, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_garbage, xst_setup, xst_teardown),
		cmocka_unit_test_setup_teardown(test_flood, xst_setup, xst_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
