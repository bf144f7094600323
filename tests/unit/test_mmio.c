/* SPDX-License-Identifier: MIT */
/* MMIO emulation registry: registration limits, lookup, sizes, truncation. */
#include "harness.h"
#include <bulkhead/mmio.h>

static struct domain *d1;
static struct domain *d2;

struct fake_dev {
	paddr_t last_off;
	unsigned int last_size;
	uint64_t last_val;
	uint64_t read_val;
	int rc;
	unsigned int reads;
	unsigned int writes;
};

static int fake_read(struct vcpu *v, paddr_t off, unsigned int size, uint64_t *val, void *priv)
{
	struct fake_dev *f = priv;

	(void)v;
	f->last_off = off;
	f->last_size = size;
	f->reads++;
	*val = f->read_val;
	return f->rc;
}

static int fake_write(struct vcpu *v, paddr_t off, unsigned int size, uint64_t val, void *priv)
{
	struct fake_dev *f = priv;

	(void)v;
	f->last_off = off;
	f->last_size = size;
	f->last_val = val;
	f->writes++;
	return f->rc;
}

static const struct mmio_ops fake_ops = { .read = fake_read, .write = fake_write };
static const struct mmio_ops read_only_ops = { .read = fake_read, .write = NULL };

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1);
	d2 = harness_domain(2, 1);
	mmio_domain_reset(d1);
	mmio_domain_reset(d2);
	return 0;
}

VERIFIES(REQ-ARM-008)
static void test_dispatch_reaches_handler_with_offset(void **state)
{
	struct fake_dev dev = { .read_val = 0x1234 };
	uint64_t val = 0xabcd;

	(void)state;
	assert_int_equal(mmio_register(d1, 0x10000, 0x1000, &fake_ops, &dev), 0);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x10010, true, 4, &val), 0);
	assert_int_equal(dev.writes, 1);
	assert_int_equal(dev.last_off, 0x10);
	assert_int_equal(dev.last_size, 4);
	assert_int_equal(dev.last_val, 0xabcd);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x10ff8, false, 8, &val), 0);
	assert_int_equal(dev.reads, 1);
	assert_int_equal(dev.last_off, 0xff8);
	assert_int_equal(val, 0x1234);
}

VERIFIES(REQ-ARM-008)
static void test_values_truncated_to_access_size(void **state)
{
	struct fake_dev dev = { .read_val = ~0ULL };
	uint64_t val = 0x1122334455667788ULL;

	(void)state;
	assert_int_equal(mmio_register(d1, 0x20000, 0x100, &fake_ops, &dev), 0);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x20000, true, 2, &val), 0);
	assert_int_equal(dev.last_val, 0x7788);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x20000, true, 1, &val), 0);
	assert_int_equal(dev.last_val, 0x88);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x20004, false, 1, &val), 0);
	assert_int_equal(val, 0xff);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x20004, false, 4, &val), 0);
	assert_int_equal(val, 0xffffffffULL);
}

VERIFIES(REQ-ARM-007, REQ-ARM-008)
static void test_unmapped_address_is_enoent(void **state)
{
	struct fake_dev dev = { 0 };
	uint64_t val = 0;

	(void)state;
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x22000000, false, 4, &val), -XEN_ENOENT);
	assert_int_equal(mmio_register(d1, 0x30000, 0x1000, &fake_ops, &dev), 0);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x2ffff, false, 1, &val), -XEN_ENOENT);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x31000, false, 1, &val), -XEN_ENOENT);
	assert_int_equal(dev.reads + dev.writes, 0);
}

VERIFIES(REQ-ARM-008)
static void test_bad_size_and_straddle_rejected(void **state)
{
	struct fake_dev dev = { 0 };
	uint64_t val = 0;

	(void)state;
	assert_int_equal(mmio_register(d1, 0x40000, 0x100, &fake_ops, &dev), 0);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x40000, false, 3, &val), -XEN_EINVAL);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x40000, false, 16, &val), -XEN_EINVAL);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x400fc, false, 8, &val), -XEN_EINVAL);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x400fc, false, 4, &val), 0);
	assert_int_equal(dev.reads, 1);
}

VERIFIES(REQ-ARM-008)
static void test_register_rejects_overlap_empty_wrap(void **state)
{
	struct fake_dev dev = { 0 };

	(void)state;
	assert_int_equal(mmio_register(d1, 0x50000, 0x1000, &fake_ops, &dev), 0);
	assert_int_equal(mmio_register(d1, 0x50800, 0x1000, &fake_ops, &dev), -XEN_EINVAL);
	assert_int_equal(mmio_register(d1, 0x4f000, 0x1001, &fake_ops, &dev), -XEN_EINVAL);
	assert_int_equal(mmio_register(d1, 0x4f000, 0x1000, &fake_ops, &dev), 0); /* adjacent */
	assert_int_equal(mmio_register(d1, 0x60000, 0, &fake_ops, &dev), -XEN_EINVAL);
	assert_int_equal(mmio_register(d1, ~0ULL - 0xfff, 0x2000, &fake_ops, &dev), -XEN_EINVAL);
	assert_int_equal(mmio_register(d1, 0x60000, 0x1000, NULL, &dev), -XEN_EINVAL);
}

VERIFIES(REQ-ARM-008)
static void test_table_full_is_enospc(void **state)
{
	struct fake_dev dev = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < CONFIG_MAX_MMIO_REGIONS; i++) {
		assert_int_equal(mmio_register(d1, 0x100000 + i * 0x1000, 0x1000, &fake_ops, &dev), 0);
	}
	assert_int_equal(mmio_register(d1, 0x900000, 0x1000, &fake_ops, &dev), -XEN_ENOSPC);
	/* Another partition's table is its own. */
	assert_int_equal(mmio_register(d2, 0x900000, 0x1000, &fake_ops, &dev), 0);
	/* A restart starts afresh. */
	mmio_domain_reset(d1);
	assert_int_equal(mmio_register(d1, 0x900000, 0x1000, &fake_ops, &dev), 0);
}

VERIFIES(REQ-ARM-008)
static void test_regions_private_to_partition(void **state)
{
	struct fake_dev dev = { 0 };
	uint64_t val = 0;

	(void)state;
	assert_int_equal(mmio_register(d1, 0x70000, 0x1000, &fake_ops, &dev), 0);
	assert_int_equal(mmio_dispatch(&d2->vcpu[0], 0x70000, false, 4, &val), -XEN_ENOENT);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x70000, false, 4, &val), 0);
	mmio_domain_reset(d1);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x70000, false, 4, &val), -XEN_ENOENT);
	assert_int_equal(mmio_dispatch(NULL, 0x70000, false, 4, &val), -XEN_ENOENT);
}

VERIFIES(REQ-ARM-007, REQ-ARM-008)
static void test_handler_errors_propagate(void **state)
{
	struct fake_dev dev = { .rc = -XEN_EPERM };
	uint64_t val = 5;

	(void)state;
	assert_int_equal(mmio_register(d1, 0x80000, 0x1000, &fake_ops, &dev), 0);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x80000, true, 4, &val), -XEN_EPERM);
	assert_int_equal(mmio_register(d1, 0x81000, 0x1000, &read_only_ops, &dev), 0);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], 0x81000, true, 4, &val), -XEN_EACCES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_dispatch_reaches_handler_with_offset, setup),
		cmocka_unit_test_setup(test_values_truncated_to_access_size, setup),
		cmocka_unit_test_setup(test_unmapped_address_is_enoent, setup),
		cmocka_unit_test_setup(test_bad_size_and_straddle_rejected, setup),
		cmocka_unit_test_setup(test_register_rejects_overlap_empty_wrap, setup),
		cmocka_unit_test_setup(test_table_full_is_enospc, setup),
		cmocka_unit_test_setup(test_regions_private_to_partition, setup),
		cmocka_unit_test_setup(test_handler_errors_propagate, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
