/* SPDX-License-Identifier: MIT */
/* Emulated PL011: output, input, flags, interrupt raising, IDs, restart. */
#include "harness.h"
#include <string.h>
#include <bulkhead/mmio.h>
#include <bulkhead/vpl011.h>
#include <public/arch-arm.h>

#define DR   0x000
#define FR   0x018
#define CR   0x030
#define IMSC 0x038
#define RIS  0x03c
#define MIS  0x040
#define ICR  0x044
#define FR_RXFE (1U << 4)
#define FR_TXFF (1U << 5)
#define FR_TXFE (1U << 7)
#define INT_RX  (1U << 4)
#define INT_TX  (1U << 5)

static struct domain *d1;

static uint64_t rd(unsigned int off)
{
	uint64_t v = 0xdeadbeef;

	assert_int_equal(mmio_dispatch(&d1->vcpu[0], GUEST_PL011_BASE + off, false, 4, &v), 0);
	return v;
}

static void wr(unsigned int off, uint64_t v)
{
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], GUEST_PL011_BASE + off, true, 4, &v), 0);
}

static void drain_input(void)
{
	unsigned int n = 0;

	while (((rd(FR) & FR_RXFE) == 0) && (n++ < 1000)) {
		(void)rd(DR);
	}
}

static int setup(void **state)
{
	(void)state;
	harness_reset();
	d1 = harness_domain(1, 1);
	d1->cfg.vpl011 = true;
	mmio_domain_reset(d1);
	assert_int_equal(vpl011_domain_init(d1), 0);
	drain_input();
	host_console_clear();
	d1->vcpu[0].arch.irqs_raised = 0;
	return 0;
}

VERIFIES(REQ-ARM-009)
static void test_output_goes_to_partition_console(void **state)
{
	const char *s = "uart ok\n";

	(void)state;
	assert_true((rd(FR) & FR_TXFE) != 0);
	assert_true((rd(FR) & FR_TXFF) == 0);
	for (; *s != '\0'; s++) {
		wr(DR, (uint8_t)*s);
	}
	assert_non_null(strstr(host_console_text(), "(d1) uart ok"));
}

VERIFIES(REQ-ARM-009)
static void test_byte_write_to_dr(void **state)
{
	uint64_t c = 'Z';

	(void)state;
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], GUEST_PL011_BASE + DR, true, 1, &c), 0);
	c = '\n';
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], GUEST_PL011_BASE + DR, true, 1, &c), 0);
	assert_non_null(strstr(host_console_text(), "(d1) Z"));
}

VERIFIES(REQ-ARM-009)
static void test_input_reaches_dr_and_fr(void **state)
{
	(void)state;
	assert_true((rd(FR) & FR_RXFE) != 0);
	console_input_byte('x');
	console_input_byte('y');
	assert_true((rd(FR) & FR_RXFE) == 0);
	assert_true((rd(RIS) & INT_RX) != 0);
	assert_int_equal(rd(DR), 'x');
	assert_int_equal(rd(DR), 'y');
	assert_true((rd(FR) & FR_RXFE) != 0);
	assert_int_equal(rd(RIS) & INT_RX, 0);
	assert_int_equal(rd(DR), 0); /* empty FIFO reads zero */
}

VERIFIES(REQ-ARM-009)
static void test_rx_interrupt_only_when_unmasked(void **state)
{
	struct vcpu *v = &d1->vcpu[0];

	(void)state;
	console_input_byte('a');
	assert_int_equal(v->arch.irqs_raised, 0);
	assert_int_equal(rd(MIS) & INT_RX, 0);
	drain_input();
	wr(IMSC, INT_RX);
	console_input_byte('b');
	assert_int_equal(v->arch.irqs_raised, 1);
	assert_int_equal(v->arch.last_irq, GUEST_VPL011_SPI);
	assert_true((rd(MIS) & INT_RX) != 0);
	assert_int_equal(rd(DR), 'b');
	assert_int_equal(rd(MIS) & INT_RX, 0);
}

VERIFIES(REQ-ARM-009)
static void test_tx_interrupt_cleared_and_rearmed(void **state)
{
	struct vcpu *v = &d1->vcpu[0];
	uint64_t before;

	(void)state;
	assert_true((rd(RIS) & INT_TX) != 0);
	wr(ICR, INT_TX);
	assert_int_equal(rd(RIS) & INT_TX, 0);
	wr(IMSC, INT_TX);
	assert_int_equal(v->arch.irqs_raised, 0); /* nothing asserted after ICR */
	before = v->arch.irqs_raised;
	wr(DR, 'q');
	assert_true((rd(MIS) & INT_TX) != 0);
	assert_true(v->arch.irqs_raised > before); /* each write while TXIM re-raises */
	wr(IMSC, 0);
	assert_int_equal(rd(MIS), 0);
}

VERIFIES(REQ-ARM-009)
static void test_ids_and_registers(void **state)
{
	static const uint8_t ids[8] = { 0x11, 0x10, 0x14, 0x00, 0x0d, 0xf0, 0x05, 0xb1 };
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		assert_int_equal(rd(0xfe0 + 4 * i), ids[i]);
	}
	wr(CR, 0x301);
	assert_int_equal(rd(CR), 0x301);
	assert_int_equal(rd(0x800), 0); /* reserved: RAZ */
}

VERIFIES(REQ-ARM-009)
static void test_wide_access_refused(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], GUEST_PL011_BASE, false, 8, &v), -XEN_EINVAL);
	assert_int_equal(mmio_dispatch(&d1->vcpu[0], GUEST_PL011_BASE, true, 8, &v), -XEN_EINVAL);
}

VERIFIES(REQ-ARM-009)
static void test_restart_resets_state(void **state)
{
	(void)state;
	wr(IMSC, INT_RX | INT_TX);
	mmio_domain_reset(d1);
	assert_int_equal(vpl011_domain_init(d1), 0);
	assert_int_equal(rd(IMSC), 0);
	assert_true((rd(RIS) & INT_TX) != 0);
}

VERIFIES(REQ-ARM-009)
static void test_no_vpl011_no_region(void **state)
{
	struct domain *d2 = harness_domain(2, 1);
	uint64_t v = 0;

	(void)state;
	mmio_domain_reset(d2);
	vpl011_rx_notify(d2); /* no UART: ignored */
	assert_int_equal(mmio_dispatch(&d2->vcpu[0], GUEST_PL011_BASE, false, 4, &v), -XEN_ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_output_goes_to_partition_console, setup),
		cmocka_unit_test_setup(test_byte_write_to_dr, setup),
		cmocka_unit_test_setup(test_input_reaches_dr_and_fr, setup),
		cmocka_unit_test_setup(test_rx_interrupt_only_when_unmasked, setup),
		cmocka_unit_test_setup(test_tx_interrupt_cleared_and_rearmed, setup),
		cmocka_unit_test_setup(test_ids_and_registers, setup),
		cmocka_unit_test_setup(test_wide_access_refused, setup),
		cmocka_unit_test_setup(test_restart_resets_state, setup),
		cmocka_unit_test_setup(test_no_vpl011_no_region, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
