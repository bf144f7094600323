/* SPDX-License-Identifier: MIT */
/* vcpu_op: register_vcpu_info and register_runstate_memory_area. */
#include "evtchn_test.h"

#define VI_PAGE 30U

static struct domain *d1;
static struct domain *d2;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 2);
	d2 = harness_domain(2, 1);
	memset(harness_gpa(d1, harness_ram(VI_PAGE, 0)), 0, 4096);
	return 0;
}

static long reg_vi(struct vcpu *caller, unsigned int vcpuid, uint64_t gfn, uint32_t offset)
{
	paddr_t a = harness_ram(EV_ARG_PAGE, 0);
	struct vcpu_register_vcpu_info r = { .mfn = gfn, .offset = offset, .rsvd = 0 };

	memcpy(harness_gpa(caller->domain, a), &r, sizeof(r));
	return harness_call(caller, __HYPERVISOR_vcpu_op, VCPUOP_register_vcpu_info, vcpuid, a);
}

VERIFIES(REQ-EVT-023)
static void test_register_vcpu_info_rules(void **state)
{
	struct vcpu *v0 = &d1->vcpu[0];
	struct vcpu *v1 = &d1->vcpu[1];
	uint64_t gfn = gaddr_to_gfn(harness_ram(VI_PAGE, 0));

	(void)state;
	assert_int_equal(reg_vi(v0, 2, gfn, 0), -XEN_ENOENT);
	assert_int_equal(reg_vi(v0, 0, gfn, 4096 - 48 + 8), -XEN_ENXIO);
	assert_int_equal(reg_vi(v0, 0, gfn, 4), -XEN_ENXIO);
	/* Not the partition's RAM. */
	assert_int_equal(reg_vi(v0, 0, 0x10, 0), -XEN_EINVAL);
	assert_int_equal(reg_vi(v0, 0, gaddr_to_gfn(GUEST_GNTTAB_BASE), 0), -XEN_EINVAL);
	/* Another vCPU while it runs. */
	assert_int_equal(reg_vi(v0, 1, gfn, 64), -XEN_EINVAL);
	v1->online = false;
	assert_int_equal(reg_vi(v0, 1, gfn, 64), 0);
	v1->online = true;
	/* Once only. */
	assert_int_equal(reg_vi(v1, 1, gfn, 128), -XEN_EINVAL);
	/* The last legal offset. */
	assert_int_equal(reg_vi(v0, 0, gfn, 4096 - 48), 0);
	assert_int_equal(reg_vi(v0, 0, gfn, 0), -XEN_EINVAL);
	/* Bad argument pointer. */
	assert_int_equal(harness_call(v0, __HYPERVISOR_vcpu_op, VCPUOP_register_vcpu_info, 0,
				      0x1000), -XEN_EFAULT);
}

VERIFIES(REQ-EVT-023, REQ-EVT-014)
static void test_vcpu_info_moves_delivery(void **state)
{
	struct vcpu *v0 = &d1->vcpu[0];
	uint64_t gfn = gaddr_to_gfn(harness_ram(VI_PAGE, 0));
	struct vcpu_info *slot = &d1->shared_info->vcpu_info[0];
	struct vcpu_info *vi = harness_gpa(d1, harness_ram(VI_PAGE, 256));
	int64_t maps = host_global_maps;
	long a;
	long b;

	(void)state;
	slot->time.version = 42;
	assert_int_equal(reg_vi(v0, 0, gfn, 256), 0);
	assert_int_equal(host_global_maps, maps + 1);
	/* Old contents copied; every selector set; one spurious upcall. */
	assert_int_equal(vi->time.version, 42);
	assert_int_equal(vi->evtchn_pending_sel, ~0ULL);
	assert_int_equal(vi->evtchn_upcall_pending, 1);
	assert_int_equal(v0->arch.irqs_raised, 1);
	/* Events now land in the registered copy. */
	vi->evtchn_upcall_pending = 0;
	vi->evtchn_pending_sel = 0;
	a = ev_alloc(v0, DOMID_SELF, 2);
	b = ev_bind(&d2->vcpu[0], 1, (uint32_t)a);
	assert_int_equal(ev_send(&d2->vcpu[0], (uint32_t)b), 0);
	assert_int_equal(vi->evtchn_upcall_pending, 1);
	assert_int_equal(slot->evtchn_upcall_pending, 0);
	assert_int_equal(v0->arch.irqs_raised, 2);
	/* A restart releases the mapping and returns to the shared_info slot. */
	evtchn_domain_reset(d1);
	assert_int_equal(host_global_maps, maps);
	assert_ptr_equal(d1->vcpu[0].vcpu_info, slot);
	assert_null(d1->vcpu[1].vcpu_info);
	assert_int_equal(reg_vi(v0, 0, gfn, 256), 0);
}

VERIFIES(REQ-EVT-023)
static void test_secondary_vcpu_zeroed(void **state)
{
	struct vcpu *v1 = &d1->vcpu[1];
	uint64_t gfn = gaddr_to_gfn(harness_ram(VI_PAGE, 0));
	struct vcpu_info *vi = harness_gpa(d1, harness_ram(VI_PAGE, 512));

	(void)state;
	memset(vi, 0xaa, sizeof(*vi));
	assert_int_equal(reg_vi(v1, 1, gfn, 512), 0);
	/* It had no vcpu_info: the new one starts clean (plus the forced bits). */
	assert_int_equal(vi->time.version, 0);
	assert_int_equal(vi->evtchn_upcall_mask, 0);
	assert_int_equal(vi->evtchn_pending_sel, ~0ULL);
	assert_int_equal(v1->arch.irqs_raised, 1);
}

VERIFIES(REQ-EVT-024, REQ-EVT-023)
static void test_runstate_and_other_ops(void **state)
{
	struct vcpu *v0 = &d1->vcpu[0];
	paddr_t a = harness_ram(EV_ARG_PAGE, 0);
	paddr_t area = harness_ram(VI_PAGE, 1024);
	struct vcpu_runstate_info *rs = harness_gpa(d1, area);
	unsigned int cmd;

	(void)state;
	memset(rs, 0xff, sizeof(*rs));
	memcpy(harness_gpa(d1, a), &area, sizeof(area));
	assert_int_equal(harness_call(v0, __HYPERVISOR_vcpu_op, VCPUOP_register_runstate_memory_area,
				      1, a), 0);
	assert_int_equal(rs->state, RUNSTATE_running);
	assert_true(rs->state_entry_time != ~0ULL);
	/* An unusable area is not this call's error (as Xen on Arm). */
	area = 0x1000;
	memcpy(harness_gpa(d1, a), &area, sizeof(area));
	assert_int_equal(harness_call(v0, __HYPERVISOR_vcpu_op, VCPUOP_register_runstate_memory_area,
				      0, a), 0);
	assert_int_equal(harness_call(v0, __HYPERVISOR_vcpu_op, VCPUOP_register_runstate_memory_area,
				      0, 0x1000), -XEN_EFAULT);
	assert_int_equal(harness_call(v0, __HYPERVISOR_vcpu_op, VCPUOP_register_runstate_memory_area,
				      5, a), -XEN_ENOENT);
	/* Everything else Xen on Arm refuses with -EINVAL. */
	for (cmd = 0U; cmd < 16U; cmd++) {
		if ((cmd == VCPUOP_register_vcpu_info) ||
		    (cmd == VCPUOP_register_runstate_memory_area)) {
			continue;
		}
		assert_int_equal(harness_call(v0, __HYPERVISOR_vcpu_op, cmd, 0, a), -XEN_EINVAL);
	}
	assert_int_equal(harness_call(v0, __HYPERVISOR_vcpu_op, 3, 9, a), -XEN_ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_register_vcpu_info_rules, setup),
		cmocka_unit_test_setup(test_vcpu_info_moves_delivery, setup),
		cmocka_unit_test_setup(test_secondary_vcpu_zeroed, setup),
		cmocka_unit_test_setup(test_runstate_and_other_ops, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
