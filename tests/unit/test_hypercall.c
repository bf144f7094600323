/* SPDX-License-Identifier: MIT */
/* Hypercall dispatch, xen_version, console_io, sched_op, hvm_op, memory_op. */
#include "harness.h"
#include <string.h>
#include <public/version.h>
#include <public/sched.h>
#include <public/memory.h>
#include <public/hvm/params.h>

static struct domain *d1;

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 2);
	harness_domain(2, 1);
	return 0;
}

VERIFIES(REQ-HC-001)
static void test_unknown_hypercall_enosys(void **state)
{
	(void)state;
	assert_int_equal(harness_call(&d1->vcpu[0], 63, 0, 0, 0), -XEN_ENOSYS);
	assert_int_equal(harness_call(&d1->vcpu[0], 64, 0, 0, 0), -XEN_ENOSYS);
	assert_int_equal(harness_call(&d1->vcpu[0], ~(regval_t)0, 0, 0, 0), -XEN_ENOSYS);
	/* Legacy numbers Xen on Arm does not offer. */
	assert_int_equal(harness_call(&d1->vcpu[0], 6, 0, 0, 0), -XEN_ENOSYS);
	assert_int_equal(harness_call(&d1->vcpu[0], 16, 0, 0, 0), -XEN_ENOSYS);
}

VERIFIES(REQ-HC-002)
static void test_xen_version(void **state)
{
	struct xen_feature_info *fi;
	paddr_t p = harness_ram(3, 8);
	char *s = harness_gpa(d1, p);
	struct xen_compile_info *ci = harness_gpa(d1, p);

	(void)state;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version, XENVER_version, 0, 0),
			 (4 << 16) | 17);
	fi = harness_gpa(d1, p);
	fi->submap_idx = 0;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_get_features, p, 0), 0);
	/* Xen 4.17's bits for a dom0less domU on Arm. */
	assert_int_equal(fi->submap, (1U << XENFEAT_writable_page_tables) |
				     (1U << XENFEAT_auto_translated_physmap) |
				     (1U << XENFEAT_memory_op_vnode_supported) |
				     (1U << XENFEAT_ARM_SMCCC_supported) |
				     (1U << XENFEAT_not_direct_mapped));
	fi->submap_idx = 1;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_get_features, p, 0), -XEN_EINVAL);
	memset(s, 0x55, 1100);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_extraversion, p, 0), 0);
	assert_string_equal(s, "-bulkhead");
	assert_int_equal(s[XEN_EXTRAVERSION_LEN - 1], 0);
	assert_int_equal(s[XEN_EXTRAVERSION_LEN], 0x55);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_capabilities, p, 0), 0);
	assert_string_equal(s, "xen-3.0-aarch64 ");
	assert_int_equal(s[XEN_CAPABILITIES_INFO_LEN - 1], 0);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_compile_info, p, 0), 0);
	assert_int_equal(strncmp(ci->compiler, "gcc ", 4), 0);
	assert_string_equal(ci->compile_by, "bulkhead");
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_changeset, p, 0), 0);
	assert_true(strlen(s) < XEN_CHANGESET_INFO_LEN);
	memset(s, 0x55, 64);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_commandline, p, 0), 0);
	assert_string_equal(s, "<denied>");
	assert_int_equal((uint8_t)s[9], 0x55);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_guest_handle, p, 0), 0);
	assert_int_equal(s[0] | s[15], 0);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_platform_parameters, p, 0), 0);
	assert_int_equal(*(uint64_t *)s, 0x200000);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version, XENVER_pagesize, 0, 0),
			 4096);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version, XENVER_pagesize, p, 0),
			 -XEN_EINVAL);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version, XENVER_build_id, 0, 0),
			 -XEN_EPERM);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version, 11, p, 0),
			 -XEN_ENOSYS);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_get_features, 0x1000, 0), -XEN_EFAULT);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version,
				      XENVER_capabilities, 0x1000, 0), -XEN_EFAULT);
	/* Straddling the end of RAM: refused, not a partial copy reported as done. */
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_xen_version, XENVER_capabilities,
				      GUEST_RAM0_BASE + HARNESS_RAM_BYTES - 512, 0), -XEN_EFAULT);
}

VERIFIES(REQ-HC-003, REQ-CON-001)
static void test_console_io_write(void **state)
{
	paddr_t p = harness_ram(4, 0);

	(void)state;
	memcpy(harness_gpa(d1, p), "hello\nworld\n", 12);
	host_console_clear();
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_console_io, CONSOLEIO_write,
				      12, p), 0);
	assert_non_null(strstr(host_console_text(), "(d1) hello"));
	assert_non_null(strstr(host_console_text(), "(d1) world"));
}

VERIFIES(REQ-HC-004)
static void test_console_io_bad_pointer_efault(void **state)
{
	(void)state;
	/* Outside RAM, unmapped, wrapping, and straddling the end of RAM. */
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_console_io, CONSOLEIO_write, 4,
				      0x1000), -XEN_EFAULT);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_console_io, CONSOLEIO_write, 16,
				      ~(regval_t)7), -XEN_EFAULT);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_console_io, CONSOLEIO_write, 64,
				      GUEST_RAM0_BASE + HARNESS_RAM_BYTES - 32), -XEN_EFAULT);
	/* The hypervisor's own pages mapped into the guest are not buffers. */
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_console_io, 7, 4,
				      harness_ram(0, 0)), -XEN_ENOSYS);
}

VERIFIES(REQ-HC-005)
static void test_console_io_long_write_continues(void **state)
{
	paddr_t p = harness_ram(8, 0);
	char *buf = harness_gpa(d1, p);

	(void)state;
	memset(buf, 'x', 3 * CONFIG_CONSOLE_IO_MAX);
	buf[3 * CONFIG_CONSOLE_IO_MAX - 1] = '\n';
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_console_io, CONSOLEIO_write,
				      3 * CONFIG_CONSOLE_IO_MAX, p), 0);
	assert_int_equal(d1->vcpu[0].arch.continuations, 2);
}

static void ctrl_a3(void)
{
	console_input_byte('\x01');
	console_input_byte('\x01');
	console_input_byte('\x01');
}

VERIFIES(REQ-CON-002)
static void test_console_focus_skips_absent_partitions(void **state)
{
	struct domain *d2 = domain_by_id(2);
	char c;
	unsigned int i;

	(void)state;
	for (i = 0; i <= CONFIG_MAX_DOMAINS + 1U; i++) {
		console_input_byte('a');
		if (console_domain_read(d1, &c, 1) == 1) {
			break;
		}
		(void)console_domain_read(d2, &c, 1);
		ctrl_a3();
	}
	assert_true(i <= CONFIG_MAX_DOMAINS + 1U);
	/* d1 -> d2 -> the hypervisor -> d1: the empty slots d3.. are skipped. */
	ctrl_a3();
	console_input_byte('b');
	assert_int_equal(console_domain_read(d2, &c, 1), 1);
	assert_int_equal(c, 'b');
	ctrl_a3();
	console_input_byte('c');
	assert_int_equal(console_domain_read(d1, &c, 1), 0);
	assert_int_equal(console_domain_read(d2, &c, 1), 0);
	ctrl_a3();
	console_input_byte('d');
	assert_int_equal(console_domain_read(d1, &c, 1), 1);
	assert_int_equal(c, 'd');
}

VERIFIES(REQ-HC-006, REQ-DOM-001)
static void test_sched_shutdown(void **state)
{
	paddr_t p = harness_ram(2, 0);
	struct sched_shutdown *s = harness_gpa(d1, p);

	(void)state;
	s->reason = 99;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_sched_op, SCHEDOP_shutdown, p, 0),
			 -XEN_EINVAL);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_sched_op, SCHEDOP_shutdown, 8, 0),
			 -XEN_EFAULT);
	s->reason = SHUTDOWN_poweroff;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_sched_op, SCHEDOP_shutdown, p, 0),
			 0);
	assert_int_equal(d1->state, DOMAIN_SHUTDOWN);
	/* The other partition is untouched. */
	assert_int_equal(domain_by_id(2)->state, DOMAIN_RUNNING);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_sched_op, 42, p, 0), -XEN_ENOSYS);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_sched_op, SCHEDOP_yield, 0, 0), 0);
}

VERIFIES(REQ-HC-007)
static void test_hvm_get_param(void **state)
{
	paddr_t p = harness_ram(2, 64);
	struct xen_hvm_param *hp = harness_gpa(d1, p);

	(void)state;
	hp->domid = DOMID_SELF;
	hp->index = HVM_PARAM_STORE_PFN;
	hp->value = 77;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_hvm_op, HVMOP_get_param, p, 0), 0);
	assert_int_equal(hp->value, 0);
	hp->index = HVM_PARAM_CALLBACK_IRQ;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_hvm_op, HVMOP_get_param, p, 0), 0);
	assert_int_equal(hp->value & 0xff, GUEST_EVTCHN_PPI);
	hp->index = 1000;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_hvm_op, HVMOP_get_param, p, 0),
			 -XEN_EINVAL);
	hp->index = 0;
	hp->domid = 2;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_hvm_op, HVMOP_get_param, p, 0),
			 -XEN_EPERM);
	hp->domid = 33;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_hvm_op, HVMOP_get_param, p, 0),
			 -XEN_ESRCH);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_hvm_op, HVMOP_set_param, p, 0),
			 -XEN_ESRCH);
}

VERIFIES(REQ-MEM-001)
static void test_add_to_physmap_shared_info(void **state)
{
	paddr_t p = harness_ram(2, 128);
	struct xen_add_to_physmap *x = harness_gpa(d1, p);
	gfn_t gfn = (GUEST_GNTTAB_BASE >> 12) + 0xfff;
	mfn_t mfn;
	enum p2m_type t;

	(void)state;
	x->domid = DOMID_SELF;
	x->space = XENMAPSPACE_shared_info;
	x->idx = 0;
	x->gpfn = gfn;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), 0);
	assert_int_equal(p2m_lookup(&d1->p2m, gfn, &mfn, &t), 0);
	assert_int_equal(t, p2m_hyp_page);
	assert_ptr_equal(maddr_to_virt(mfn << 12), d1->shared_info);
	/* Placed once, as on Xen 4.17: moving it needs remove_from_physmap first. */
	x->gpfn = gfn - 1;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), -XEN_EBUSY);
	x->gpfn = gfn;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), -XEN_EBUSY);
	{
		struct xen_remove_from_physmap *r = harness_gpa(d1, harness_ram(2, 512));
		r->domid = DOMID_SELF;
		r->gpfn = gfn;
		assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op,
					      XENMEM_remove_from_physmap, harness_ram(2, 512), 0), 0);
	}
	assert_int_not_equal(p2m_lookup(&d1->p2m, gfn, &mfn, &t), 0);
	x->gpfn = gfn - 1;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), 0);
	assert_int_equal(p2m_lookup(&d1->p2m, gfn - 1, &mfn, &t), 0);
	x->idx = 1;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), -XEN_EINVAL);
	x->idx = 0;
	x->domid = 2;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), -XEN_EPERM);
	x->domid = DOMID_SELF;
	x->space = 77;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), -XEN_ENOSYS);
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, 99, p, 0),
			 -XEN_ENOSYS);
}

VERIFIES(REQ-MEM-002)
static void test_shared_info_over_ram_page(void **state)
{
	paddr_t p = harness_ram(2, 256);
	struct xen_add_to_physmap *x = harness_gpa(d1, p);
	gfn_t gfn = (GUEST_RAM0_BASE >> 12) + 0x10; /* inside a 2 MiB RAM block */
	mfn_t mfn;
	mfn_t next_before;
	mfn_t next_after;
	enum p2m_type t;

	(void)state;
	assert_int_equal(p2m_lookup(&d1->p2m, gfn + 1, &next_before, &t), 0);
	x->domid = DOMID_SELF;
	x->space = XENMAPSPACE_shared_info;
	x->idx = 0;
	x->gpfn = gfn;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), 0);
	assert_int_equal(p2m_lookup(&d1->p2m, gfn, &mfn, &t), 0);
	assert_int_equal(t, p2m_hyp_page);
	assert_ptr_equal(maddr_to_virt(mfn << 12), d1->shared_info);
	/* The rest of the block still maps the same RAM. */
	assert_int_equal(p2m_lookup(&d1->p2m, gfn + 1, &next_after, &t), 0);
	assert_int_equal(next_after, next_before);
	assert_int_equal(t, p2m_ram_rw);
	assert_true(p2m_fault_is_transient(&d1->p2m, gfn + 1));
	assert_false(p2m_fault_is_transient(&d1->p2m, 0x1000));
}

VERIFIES(REQ-MEM-003)
static void test_shared_info_never_over_grant_frame(void **state)
{
	paddr_t p = harness_ram(2, 256);
	struct xen_add_to_physmap *x = harness_gpa(d1, p);
	gfn_t gfn = GUEST_GNTTAB_BASE >> 12;

	(void)state;
	x->domid = DOMID_SELF;
	x->space = XENMAPSPACE_grant_table;
	x->idx = 0;
	x->gpfn = gfn;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), 0);
	x->space = XENMAPSPACE_shared_info;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), -XEN_EBUSY);
	x->gpfn = gfn + 1;
	assert_int_equal(harness_call(&d1->vcpu[0], __HYPERVISOR_memory_op, XENMEM_add_to_physmap,
				      p, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_unknown_hypercall_enosys, setup),
		cmocka_unit_test_setup(test_xen_version, setup),
		cmocka_unit_test_setup(test_console_io_write, setup),
		cmocka_unit_test_setup(test_console_io_bad_pointer_efault, setup),
		cmocka_unit_test_setup(test_console_io_long_write_continues, setup),
		cmocka_unit_test_setup(test_console_focus_skips_absent_partitions, setup),
		cmocka_unit_test_setup(test_sched_shutdown, setup),
		cmocka_unit_test_setup(test_hvm_get_param, setup),
		cmocka_unit_test_setup(test_add_to_physmap_shared_info, setup),
		cmocka_unit_test_setup(test_shared_info_over_ram_page, setup),
		cmocka_unit_test_setup(test_shared_info_never_over_grant_frame, setup),
	};
	return cmocka_run_group_tests_name("hypercall", tests, NULL, NULL);
}
