/* SPDX-License-Identifier: MIT */
/*
 * The xenbus state machine of one virtual disk (guests/blkback/vbd_bus.c)
 * against the fake store and a frontend that writes what Linux's
 * xen-blkfront writes.
 */
#include "vbdt.h"

static const struct vbd_offer all = { .persistent = true, .max_indirect = 64U,
				      .max_ring_order = 3U, .max_queues = 4U, .max_pers = 128U };
static struct vbdt_fe fe;

static int setup(void **state)
{
	(void)state;
	vbdt_reset();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* Nothing a test leaves connected may stay mapped or bound once closed. */
	return 0;
}

static const char *be(const char *key)
{
	static char p[160];

	snprintf(p, sizeof(p), "/local/domain/%u/backend/vbd/%u/51712/%s", VBDT_BE, VBDT_FE, key);
	return vbdt_read(p);
}

static void start(struct vbd_dev *d)
{
	assert_int_equal(vbd_dev_start(d), 0);
	(void)vbdt_dispatch();
}

/* InitWait with the offered features; Connected with the size once the frontend is Initialised. */
static void test_handshake(void **state)
{
	VERIFIES(REQ-BLK-011, REQ-BLK-012)
	struct vbd_dev *d = vbdt_dev(0, VBDT_FE, "xvda", &all);

	(void)state;
	assert_int_equal(d->devid, 51712U);
	start(d);
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateInitWait);
	assert_string_equal(be("feature-flush-cache"), "1");
	assert_string_equal(be("feature-persistent"), "1");
	assert_string_equal(be("feature-max-indirect-segments"), "64");
	assert_string_equal(be("max-ring-page-order"), "3");
	assert_string_equal(be("multi-queue-max-queues"), "4");
	assert_string_equal(be("sectors"), "8192");
	assert_string_equal(be("sector-size"), "512");
	assert_string_equal(be("physical-sector-size"), "4096");
	assert_string_equal(be("info"), "0");

	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 1U, true);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateConnected);
	assert_int_equal(d->nr_rings, 1U);
	assert_true(d->persistent);
	assert_int_equal(vbdt_mapped(), 1U);   /* the ring page */
	assert_int_equal(vbdt_bound(), 1U);
	vbdt_fe_state(&fe, XenbusStateConnected);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateConnected);
	vbdt_fe_connected(&fe);
	assert_true(fe.pers_on);
	assert_int_equal(fe.max_indirect, 32U);
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 0U, 4096U, 1U));

	/* Closing: everything of the frontend unmapped and unbound; then Closed. */
	vbdt_fe_state(&fe, XenbusStateClosing);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateClosing);
	assert_int_equal(vbdt_mapped(), 0U);
	assert_int_equal(vbdt_bound(), 0U);
	vbdt_fe_state(&fe, XenbusStateClosed);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateClosed);

	/* A frontend that starts again finds InitWait and connects again. */
	vbdt_fe_state(&fe, XenbusStateInitialising);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateInitWait);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 1U, true);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateConnected);
	assert_int_equal(d->connects, 2U);
	vbd_dev_disconnect(d);
	assert_int_equal(vbdt_mapped(), 0U);
}

/* What was not offered is not given: persistent off, no indirect, one page, one queue. */
static void test_offer_none(void **state)
{
	VERIFIES(REQ-BLK-012)
	static const struct vbd_offer none = { .max_queues = 1U, .max_pers = 128U };
	struct vbd_dev *d = vbdt_dev(0, VBDT_FE, "xvda", &none);

	(void)state;
	start(d);
	assert_string_equal(be("feature-persistent"), "0");
	assert_null(be("feature-max-indirect-segments"));
	assert_string_equal(be("max-ring-page-order"), "0");
	assert_string_equal(be("multi-queue-max-queues"), "1");
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 1U, true);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateConnected);
	assert_false(d->persistent);
	vbdt_fe_connected(&fe);
	assert_false(fe.pers_on);
	assert_int_equal(fe.max_indirect, 0U);
	/* Each request's grants are unmapped before its response (the frontend asserts it). */
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 8U, 11U * 4096U, 2U));
	assert_int_equal(vbdt_mapped(), 1U);
	vbd_dev_disconnect(d);
}

/* Several queues of several pages, each with its own ring and channel. */
static void test_multi_queue_multi_page(void **state)
{
	VERIFIES(REQ-BLK-013)
	struct vbd_dev *d = vbdt_dev(0, VBDT_FE, "xvda", &all);
	unsigned int i;

	(void)state;
	start(d);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 2U, 3U, true);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateConnected);
	assert_int_equal(d->nr_rings, 3U);
	assert_int_equal(d->ring[0].size, 128U);
	assert_int_equal(vbdt_mapped(), 12U);
	assert_int_equal(vbdt_bound(), 3U);
	vbdt_fe_connected(&fe);
	for (i = 0U; i < 3U; i++) {
		assert_true(vbdt_fe_roundtrip(d, &fe, i, 64U * i, 32U * 4096U, 10U + i));
	}
	vbd_dev_disconnect(d);
	assert_int_equal(vbdt_mapped(), 0U);
	assert_int_equal(vbdt_bound(), 0U);
}

static void expect_fatal(struct vbd_dev *d, const char *msg)
{
	char p[160];
	const char *v;

	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateClosing);
	snprintf(p, sizeof(p), "/local/domain/%u/error/backend/vbd/%u/51712/error", VBDT_BE,
		 VBDT_FE);
	v = vbdt_read(p);
	assert_non_null(v);
	assert_non_null(strstr(v, msg));
	assert_int_equal(vbdt_mapped(), 0U);
	assert_int_equal(vbdt_bound(), 0U);
	assert_int_equal(d->connect_errors, 1U);
}

/* A frontend asking for more than was offered is refused with xenbus_dev_fatal. */
static void test_refusals(void **state)
{
	VERIFIES(REQ-BLK-014)
	static const struct vbd_offer small = { .max_ring_order = 1U, .max_queues = 2U,
						.max_pers = 16U };
	struct vbd_dev *d;
	char p[160];

	(void)state;
	d = vbdt_dev(0, VBDT_FE, "xvda", &small);
	start(d);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 2U, 1U, false);
	expect_fatal(d, "ring-page-order");

	vbdt_reset();
	d = vbdt_dev(0, VBDT_FE, "xvda", &small);
	start(d);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 3U, false);
	expect_fatal(d, "multi-queue-num-queues");

	vbdt_reset();
	d = vbdt_dev(0, VBDT_FE, "xvda", &small);
	start(d);
	snprintf(p, sizeof(p), "/local/domain/%u/device/vbd/51712/protocol", VBDT_FE);
	vbdt_write(p, "x86_32-abi");
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 1U, false);
	vbdt_write(p, "x86_32-abi");
	vbdt_fe_state(&fe, XenbusStateInitialised);
	expect_fatal(d, "protocol");

	/* A ring reference that was never granted: nothing stays mapped. */
	vbdt_reset();
	d = vbdt_dev(0, VBDT_FE, "xvda", &small);
	start(d);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 1U, 1U, false);
	snprintf(p, sizeof(p), "/local/domain/%u/device/vbd/51712/ring-ref1", VBDT_FE);
	vbdt_write(p, "4000");
	vbdt_fe_state(&fe, XenbusStateInitialised);
	expect_fatal(d, "mapping ring-ref");

	/* A channel that is not the frontend's unbound port for us. */
	vbdt_reset();
	d = vbdt_dev(0, VBDT_FE, "xvda", &small);
	start(d);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 1U, false);
	snprintf(p, sizeof(p), "/local/domain/%u/device/vbd/51712/event-channel", VBDT_FE);
	vbdt_write(p, "40");
	vbdt_fe_state(&fe, XenbusStateInitialised);
	expect_fatal(d, "binding event-channel");

	/* Missing and malformed nodes. */
	vbdt_reset();
	d = vbdt_dev(0, VBDT_FE, "xvda", &small);
	start(d);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 1U, false);
	snprintf(p, sizeof(p), "/local/domain/%u/device/vbd/51712/ring-ref", VBDT_FE);
	vbdt_write(p, "12x");
	vbdt_fe_state(&fe, XenbusStateInitialised);
	expect_fatal(d, "reading ring-ref");
}

/* The frontend's node goes (its partition restarts): disconnect, InitWait for the next one. */
static void test_frontend_gone(void **state)
{
	VERIFIES(REQ-BLK-015)
	struct vbd_dev *d = vbdt_dev(0, VBDT_FE, "xvda", &all);
	char p[96];

	(void)state;
	start(d);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 1U, 2U, true);
	(void)vbdt_dispatch();
	vbdt_fe_connected(&fe);
	assert_true(vbdt_fe_roundtrip(d, &fe, 1U, 0U, 8U * 4096U, 3U));
	assert_true(vbdt_mapped() > 4U);  /* rings and persistent grants */
	snprintf(p, sizeof(p), "/local/domain/%u", VBDT_FE);
	vbdt_rm(p);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_mapped(), 0U);
	assert_int_equal(vbdt_bound(), 0U);
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateInitWait);
	/* The store builds its node again; the new frontend connects. */
	vbdt_store_nodes(VBDT_FE, 51712U);
	(void)vbdt_dispatch();
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 1U, true);
	(void)vbdt_dispatch();
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateConnected);
	vbdt_fe_connected(&fe);
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 0U, 4096U, 4U));
	vbd_dev_disconnect(d);
}

/*
 * The backend restarts under a connected frontend: the store rebuilds the
 * backend's node, the new incarnation finds the frontend Connected, takes
 * its ring over where the old one's published responses end, serves what
 * is left, and the disk has every write once.
 */
static void test_backend_takeover(void **state)
{
	VERIFIES(REQ-BLK-016)
	struct vbd_dev *d = vbdt_dev(0, VBDT_FE, "xvda", &all);
	uint8_t buf[4096];
	unsigned int i;

	(void)state;
	start(d);
	vbdt_fe_init(&fe, VBDT_FE, 51712U, 0U, 1U, true);
	(void)vbdt_dispatch();
	vbdt_fe_state(&fe, XenbusStateConnected);
	(void)vbdt_dispatch();
	vbdt_fe_connected(&fe);
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 100U, 4096U, 5U));
	/* Two requests served, two more in the ring when the backend dies. */
	for (i = 0U; i < 4U; i++) {
		vbdt_pattern(buf, sizeof(buf), 20U + i);
		(void)vbdt_fe_submit(&fe, 0U, BLKIF_OP_WRITE, 200U + 8U * i, 4096U, buf);
		if (i == 1U) {
			(void)vbdt_fe_push(&fe, 0U);
			while (vbd_dev_serve(d)) {
			}
		}
	}
	(void)vbdt_fe_push(&fe, 0U);
	assert_int_equal(vbdt_fe_complete(&fe, 0U), 2U);
	/* The hypervisor's restart removes the old incarnation's mappings and ports. */
	vbd_dev_disconnect(d);
	assert_int_equal(vbdt_mapped(), 0U);
	vbdt_rm("/local/domain/1");
	vbdt_store_be_nodes(VBDT_FE, 51712U);
	d = vbdt_dev(1, VBDT_FE, "xvda", &all);
	d->disk.base = vbdt_disk[0];
	start(d);
	assert_int_equal(vbdt_be_state(VBDT_FE, 51712U), XenbusStateConnected);
	while (vbd_dev_serve(d)) {
	}
	assert_int_equal(vbdt_fe_complete(&fe, 0U), 2U);
	assert_int_equal(fe.failed, 0U);
	for (i = 0U; i < 4U; i++) {
		vbdt_pattern(buf, sizeof(buf), 20U + i);
		assert_memory_equal(&vbdt_disk[0][(200U + 8U * i) * 512U], buf, sizeof(buf));
	}
	/* And it goes on, persistent grants mapped again as they come. */
	for (i = 0U; i < 4U; i++) {
		fe.q[0].shadow[i].busy = false;
	}
	assert_true(vbdt_fe_roundtrip(d, &fe, 0U, 300U, 4096U, 6U));
	vbd_dev_disconnect(d);
	assert_int_equal(vbdt_mapped(), 0U);
}

/* Persistent grants bounded by the maptrack the partition has; each disk's share equal. */
static void test_fit_maptrack(void **state)
{
	VERIFIES(REQ-BLK-027)
	struct vbd_dev d[3];
	unsigned int i;

	(void)state;
	memset(d, 0, sizeof(d));
	for (i = 0U; i < 3U; i++) {
		d[i].offer = (struct vbd_offer){ .persistent = true, .max_indirect = 32U,
						 .max_ring_order = 0U, .max_queues = 1U,
						 .max_pers = 256U };
	}
	/* Room for everything: nothing lowered. */
	assert_int_equal(vbd_fit_maptrack(d, 3U, 1024U), 0U);
	assert_int_equal(d[0].offer.max_pers, 256U);
	/* 256 mappings: one request's 32 + 1, three ring pages, the rest in three. */
	assert_int_equal(vbd_fit_maptrack(d, 3U, 256U), 3U);
	for (i = 0U; i < 3U; i++) {
		assert_int_equal(d[i].offer.max_pers, (256U - 33U - 3U) / 3U);
		assert_true(d[i].offer.persistent);
	}
	assert_true(3U * d[0].offer.max_pers + 33U + 3U <= 256U);
	/* Several queues of several pages count each ring; a smaller offer is kept. */
	d[0].offer = (struct vbd_offer){ .persistent = true, .max_indirect = 256U,
					 .max_ring_order = 2U, .max_queues = 4U, .max_pers = 1024U };
	d[1].offer.max_pers = 8U;
	d[2].offer.persistent = false;
	d[2].offer.max_pers = 1024U;
	assert_int_equal(vbd_fit_maptrack(d, 3U, 1024U), 1U);
	/* 256 + 1 transient, 16 + 1 + 1 ring pages, 6 rings. */
	assert_int_equal(d[0].offer.max_pers, (1024U - 257U - 18U) / 6U);
	assert_int_equal(d[1].offer.max_pers, 8U);
	assert_int_equal(d[2].offer.max_pers, 1024U);  /* not offered: not counted against */
	/* No room at all: persistent grants are not offered. */
	assert_int_equal(vbd_fit_maptrack(d, 1U, 100U), 1U);
	assert_int_equal(d[0].offer.max_pers, 0U);
	assert_false(d[0].offer.persistent);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_handshake, setup, teardown),
		cmocka_unit_test_setup_teardown(test_offer_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multi_queue_multi_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frontend_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_backend_takeover, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fit_maptrack, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
