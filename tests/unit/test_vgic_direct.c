/* SPDX-License-Identifier: MIT */
/*
 * The direct list-register load of an interrupt raised for the vCPU whose
 * trap the pCPU is handling (vgic_lr_direct): taken only when a flush would
 * have loaded exactly that interrupt into exactly that LR.
 */
#include "harness.h"
#include <string.h>
#include "../../arch/arm/vgic_state.h"

static struct vgic_lrs lrs;
static struct vgic_irqset pend;

static int setup(void **state)
{
	(void)state;
	memset(&lrs, 0, sizeof(lrs));
	memset(&pend, 0, sizeof(pend));
	return 0;
}

VERIFIES(REQ-PATH-004)
static void test_direct_claims_lowest_free_lr(void **state)
{
	(void)state;
	assert_int_equal(vgic_lr_claim(&lrs, 4, 27, true), 0);
	assert_int_equal(vgic_lr_direct(&lrs, &pend, 4, 31, true), 1);
	/* Claimed as a flush would: the LR's INTID recorded, not linked to hardware. */
	assert_int_equal(vgic_lr_find(&lrs, 31), 1);
	assert_int_equal(lrs.hw, 1);
	assert_int_equal(vgic_lr_count(&lrs), 2);
	/* An SPI goes the same way. */
	assert_int_equal(vgic_lr_direct(&lrs, &pend, 4, 40, true), 2);
	/* Nothing was added to the pending set. */
	assert_true(vgic_set_empty(&pend));
}

VERIFIES(REQ-PATH-004)
static void test_direct_refused_when_flush_must_decide(void **state)
{
	struct vgic_lrs before;

	(void)state;
	/* Disabled: stays pending for when the guest enables it. */
	assert_int_equal(vgic_lr_direct(&lrs, &pend, 4, 31, false), -1);
	/* Something else pending: the flush picks the most urgent of them. */
	vgic_set_add(&pend, 33);
	assert_int_equal(vgic_lr_direct(&lrs, &pend, 4, 31, true), -1);
	vgic_set_del(&pend, 33);
	/* Already in an LR: the flush re-pends that LR. */
	assert_int_equal(vgic_lr_claim(&lrs, 4, 31, false), 0);
	assert_int_equal(vgic_lr_direct(&lrs, &pend, 4, 31, true), -1);
	/* Every LR of the hardware busy. */
	assert_int_equal(vgic_lr_claim(&lrs, 2, 32, false), 1);
	assert_int_equal(vgic_lr_direct(&lrs, &pend, 2, 34, true), -1);
	/* Out of range INTID. */
	assert_int_equal(vgic_lr_direct(&lrs, &pend, 4, VGIC_NR_IRQS, true), -1);
	/* No refusal touched the LR bookkeeping. */
	memcpy(&before, &lrs, sizeof(before));
	assert_int_equal(vgic_lr_direct(&lrs, &pend, 2, 35, true), -1);
	assert_memory_equal(&before, &lrs, sizeof(before));
	assert_int_equal(vgic_lr_count(&lrs), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_direct_claims_lowest_free_lr, setup),
		cmocka_unit_test_setup(test_direct_refused_when_flush_must_decide, setup),
	};

	return cmocka_run_group_tests_name("vgic_direct", tests, NULL, NULL);
}
