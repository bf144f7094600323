/* SPDX-License-Identifier: MIT */
/* vGIC pure parts: pending sets, LR selection, GICD/GICR decoding, guest SGIs. */
#include "harness.h"
#include <string.h>
#include "../../arch/arm/vgic_regs.h"

/* A bus that records what the decoder asked for. */
struct rec {
	struct vgic_irqset pend[CONFIG_MAX_VCPUS];
	unsigned int raises;
	unsigned int lowers;
	uint64_t updated;   /* vCPUs told to reload */
};

static void rec_raise(void *ctx, unsigned int vcpu, unsigned int irq)
{
	struct rec *r = ctx;

	assert_true(vcpu < CONFIG_MAX_VCPUS);
	vgic_set_add(&r->pend[vcpu], irq);
	r->raises++;
}

static void rec_lower(void *ctx, unsigned int vcpu, unsigned int irq)
{
	struct rec *r = ctx;

	assert_true(vcpu < CONFIG_MAX_VCPUS);
	vgic_set_del(&r->pend[vcpu], irq);
	r->lowers++;
}

static bool rec_pending(void *ctx, unsigned int vcpu, unsigned int irq)
{
	struct rec *r = ctx;

	return vcpu < CONFIG_MAX_VCPUS && vgic_set_has(&r->pend[vcpu], irq);
}

static void rec_update(void *ctx, unsigned int vcpu)
{
	struct rec *r = ctx;

	r->updated |= 1ULL << vcpu;
}

static struct rec rec;
static struct vgic_bus bus = { &rec, rec_raise, rec_lower, rec_pending, rec_update };
static struct vgic_dist dist;

static int setup_v3(void **state)
{
	(void)state;
	memset(&rec, 0, sizeof(rec));
	vgic_dist_reset(&dist, 3, 4);
	return 0;
}

static int setup_v2(void **state)
{
	(void)state;
	memset(&rec, 0, sizeof(rec));
	vgic_dist_reset(&dist, 2, 2);
	return 0;
}

static uint64_t rd(uint32_t off, unsigned int size, unsigned int vcpu)
{
	uint64_t v = 0xdeadbeefULL;

	assert_int_equal(vgic_gicd_access(&dist, &bus, vcpu, off, size, false, &v), 0);
	return v;
}

static void wr(uint32_t off, unsigned int size, unsigned int vcpu, uint64_t v)
{
	assert_int_equal(vgic_gicd_access(&dist, &bus, vcpu, off, size, true, &v), 0);
}

static uint64_t rrd(unsigned int vcpu, uint32_t off, unsigned int size)
{
	uint64_t v = 0xdeadbeefULL;

	assert_int_equal(vgic_gicr_access(&dist, &bus, vcpu * VGIC_GICR_STRIDE + off, size, false,
					  &v), 0);
	return v;
}

static void rwr(unsigned int vcpu, uint32_t off, unsigned int size, uint64_t v)
{
	assert_int_equal(vgic_gicr_access(&dist, &bus, vcpu * VGIC_GICR_STRIDE + off, size, true,
					  &v), 0);
}

VERIFIES(REQ-VGIC-001)
static void test_pending_set_bounded(void **state)
{
	struct vgic_irqset s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_true(vgic_set_empty(&s));
	vgic_set_add(&s, 27);
	vgic_set_add(&s, VGIC_NR_IRQS - 1);
	vgic_set_add(&s, VGIC_NR_IRQS);        /* out of range: ignored */
	vgic_set_add(&s, 1022);
	assert_true(vgic_set_has(&s, 27));
	assert_true(vgic_set_has(&s, VGIC_NR_IRQS - 1));
	assert_false(vgic_set_has(&s, VGIC_NR_IRQS));
	assert_false(vgic_set_has(&s, 26));
	vgic_set_del(&s, 27);
	vgic_set_del(&s, VGIC_NR_IRQS - 1);
	assert_true(vgic_set_empty(&s));
}

VERIFIES(REQ-VGIC-002)
static void test_pick_priority_order(void **state)
{
	struct vgic_irqset pend, en;
	struct vgic_lrs lrs;
	uint8_t pp[VGIC_NR_PRIVATE], ps[VGIC_NR_SPIS];

	(void)state;
	memset(&pend, 0, sizeof(pend));
	memset(&en, 0xff, sizeof(en));
	memset(&lrs, 0, sizeof(lrs));
	memset(pp, 0xa0, sizeof(pp));
	memset(ps, 0xa0, sizeof(ps));
	assert_int_equal(vgic_pick(&pend, &en, pp, ps, &lrs), VGIC_NO_IRQ);
	vgic_set_add(&pend, 31);
	vgic_set_add(&pend, 32);
	vgic_set_add(&pend, 27);
	/* Equal priorities: lowest INTID first. */
	assert_int_equal(vgic_pick(&pend, &en, pp, ps, &lrs), 27);
	/* SPI 32 more urgent. */
	ps[0] = 0x10;
	assert_int_equal(vgic_pick(&pend, &en, pp, ps, &lrs), 32);
	/* Disabled: skipped. */
	vgic_set_del(&en, 32);
	assert_int_equal(vgic_pick(&pend, &en, pp, ps, &lrs), 27);
	/* Already in an LR: skipped. */
	assert_int_equal(vgic_lr_claim(&lrs, 4, 27, true), 0);
	assert_int_equal(vgic_pick(&pend, &en, pp, ps, &lrs), 31);
}

VERIFIES(REQ-VGIC-003)
static void test_lr_claim_and_retire(void **state)
{
	struct vgic_lrs lrs;

	(void)state;
	memset(&lrs, 0, sizeof(lrs));
	assert_int_equal(vgic_lr_claim(&lrs, 4, 27, true), 0);
	assert_int_equal(vgic_lr_claim(&lrs, 4, 31, false), 1);
	assert_int_equal(vgic_lr_claim(&lrs, 4, 32, false), 2);
	assert_int_equal(vgic_lr_claim(&lrs, 4, 33, false), 3);
	assert_int_equal(vgic_lr_claim(&lrs, 4, 34, false), -1);   /* hardware has 4 */
	assert_int_equal(vgic_lr_claim(&lrs, 4, VGIC_NR_IRQS, false), -1);
	assert_int_equal(vgic_lr_count(&lrs), 4);
	assert_int_equal(lrs.hw, 1);
	assert_int_equal(vgic_lr_find(&lrs, 32), 2);
	/* ELRSR bits for LRs the vGIC never used are not "released". */
	assert_int_equal(vgic_lr_retire(&lrs, 0xfff5), 0x5);
	assert_int_equal(lrs.hw, 0);
	assert_int_equal(vgic_lr_find(&lrs, 27), -1);
	assert_int_equal(vgic_lr_find(&lrs, 31), 1);
	assert_int_equal(vgic_lr_claim(&lrs, 4, 40, false), 0);   /* lowest free */
	assert_int_equal(vgic_lr_count(&lrs), 3);
}

VERIFIES(REQ-VGIC-004)
static void test_gicd_v3_identity(void **state)
{
	(void)state;
	assert_int_equal(rd(0x0, 4, 0) & 0x10, 0x10);            /* ARE_NS */
	assert_int_equal(rd(0x4, 4, 0) & 0x1f, VGIC_NR_IRQS / 32 - 1);
	assert_int_equal((rd(0x4, 4, 0) >> 19) & 0x1f, 9);
	assert_int_equal(rd(0xffe8, 4, 0) & 0xf0, 0x30);
	assert_false(vgic_dist_on(&dist));
	wr(0x0, 4, 0, 0x80000013);                               /* RWP and ARE are not stored */
	assert_true(vgic_dist_on(&dist));
	assert_int_equal(rd(0x0, 4, 0), 0x13);
	/* Private INTIDs are RAZ/WI in the v3 GICD. */
	wr(0x100, 4, 0, 0xffffffff);
	assert_int_equal(rd(0x100, 4, 0), 0);
	assert_int_equal(dist.priv[0].enabled, 0);
	wr(0x400, 4, 0, 0xa0a0a0a0);
	assert_int_equal(dist.priv[0].prio[0], 0);
}

VERIFIES(REQ-VGIC-005, REQ-VGIC-011)
static void test_gicr_typer_waker(void **state)
{
	uint64_t v;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		uint64_t t = rrd(i, 0x8, 8);

		assert_int_equal(t >> 32, i);
		assert_int_equal((t >> 8) & 0xffff, i);
		assert_int_equal((t >> 4) & 1, i == 3);
		assert_int_equal(rrd(i, 0xc, 4), i);
		assert_int_equal(rrd(i, 0xffe8, 4) & 0xf0, 0x30);
	}
	/* Beyond 16 vCPUs the affinity is Aff1.Aff0 as in the guest's MPIDR. */
	assert_int_equal(vgic_vcpu_affinity(17), 0x101);
	assert_int_equal(rrd(1, 0x14, 4), 6);    /* asleep until woken */
	rwr(1, 0x14, 4, 0);
	assert_int_equal(rrd(1, 0x14, 4), 0);
	assert_int_equal(rrd(0, 0x14, 4), 6);
	/* No fifth redistributor. */
	assert_int_equal(vgic_gicr_access(&dist, &bus, 4 * VGIC_GICR_STRIDE + 8, 8, false, &v),
			 -XEN_EINVAL);
	assert_int_equal(vgic_gicr_access(&dist, &bus, 0x14, 2, false, &v), -XEN_EINVAL);
	assert_int_equal(vgic_gicr_access(&dist, &bus, 0x15, 1, false, &v), -XEN_EINVAL);
}

VERIFIES(REQ-VGIC-006, REQ-VGIC-010)
static void test_gicr_banked_ppis(void **state)
{
	const uint32_t sgi = VGIC_GICR_SGI_BASE;

	(void)state;
	rwr(1, sgi + 0x100, 4, (1U << 27) | (1U << 31));
	assert_int_equal(rrd(1, sgi + 0x100, 4), (1U << 27) | (1U << 31));
	assert_int_equal(rrd(0, sgi + 0x100, 4), 0);
	assert_true(vgic_dist_irq_enabled(&dist, 1, 27));
	assert_false(vgic_dist_irq_enabled(&dist, 0, 27));
	assert_int_equal(rec.updated, 1U << 1);
	rwr(1, sgi + 0x180, 4, 1U << 27);
	assert_false(vgic_dist_irq_enabled(&dist, 1, 27));
	assert_true(vgic_dist_irq_enabled(&dist, 1, 31));
	/* Pending: on the vCPU whose frame was written. */
	rwr(2, sgi + 0x200, 4, 1U << 31);
	assert_true(vgic_set_has(&rec.pend[2], 31));
	assert_false(vgic_set_has(&rec.pend[1], 31));
	assert_int_equal(rrd(2, sgi + 0x200, 4), 1U << 31);
	rwr(2, sgi + 0x280, 4, 1U << 31);
	assert_false(vgic_set_has(&rec.pend[2], 31));
	/* Byte priority of PPI 27 on vCPU 3 only. */
	rwr(3, sgi + 0x400 + 27, 1, 0xff);
	assert_int_equal(dist.priv[3].prio[27], 0xf8);
	assert_int_equal(dist.priv[2].prio[27], 0);
	assert_int_equal(rrd(3, sgi + 0x418, 4), 0xf8000000);
}

VERIFIES(REQ-VGIC-007)
static void test_config_masking(void **state)
{
	const uint32_t sgi = VGIC_GICR_SGI_BASE;

	(void)state;
	rwr(0, sgi + 0xc00, 4, 0);                  /* SGIs stay edge */
	assert_int_equal(rrd(0, sgi + 0xc00, 4), 0xaaaaaaaa);
	rwr(0, sgi + 0xc04, 4, 0xffffffff);         /* only the edge bits stick */
	assert_int_equal(rrd(0, sgi + 0xc04, 4), 0xaaaaaaaa);
	rwr(0, sgi + 0xc04, 4, 0x00800000);         /* PPI 27 edge only */
	assert_int_equal(rrd(0, sgi + 0xc04, 4), 0x00800000);
	wr(0xc08, 4, 0, 0x55555557);                /* SPIs 32-47: reserved bits dropped */
	assert_int_equal(rd(0xc08, 4, 0), 0x2);
	wr(0x420, 4, 0, 0x07ff1234);                /* SPIs 32-35 priorities */
	assert_int_equal(rd(0x420, 4, 0), 0x00f81030);
	wr(0x6100, 8, 0, ~0ULL);                    /* IROUTER32 */
	assert_int_equal(rd(0x6100, 8, 0), VGIC_IROUTER_MASK);
	assert_int_equal(rd(0x6104, 4, 0), 0xff);
}

VERIFIES(REQ-VGIC-008)
static void test_spi_routing_v3(void **state)
{
	(void)state;
	assert_int_equal(vgic_dist_target(&dist, 32, 3), 0);      /* reset: vCPU 0 */
	wr(0x6000 + 8 * 33, 8, 0, 2);
	assert_int_equal(vgic_dist_target(&dist, 33, 0), 2);
	wr(0x6000 + 8 * 33, 8, 0, 9);                              /* no vCPU 9 */
	assert_int_equal(vgic_dist_target(&dist, 33, 0), 0);
	wr(0x6000 + 8 * 33, 8, 0, 0x100 | 2);                      /* Aff1 = 1: vCPU 18 */
	assert_int_equal(vgic_dist_target(&dist, 33, 0), 0);
	wr(0x6000 + 8 * 33, 8, 0, 0x10000 | 2);                    /* Aff2: not ours */
	assert_int_equal(vgic_dist_target(&dist, 33, 0), 0);
	wr(0x6000 + 8 * 33, 8, 0, (1ULL << 31) | 3);               /* IRM */
	assert_int_equal(vgic_dist_target(&dist, 33, 0), 0);
	wr(0x6000 + 8 * 34, 4, 0, 3);                              /* 32-bit half */
	assert_int_equal(vgic_dist_target(&dist, 34, 1), 3);
	/* A pending SPI lands on its target; private ones on the writer. */
	wr(0x204, 4, 1, 1U << 2);                                  /* ISPENDR1 bit 2 = SPI 34 */
	assert_true(vgic_set_has(&rec.pend[3], 34));
	assert_int_equal(rd(0x204, 4, 0), 1U << 2);
	wr(0x104, 4, 0, 1U << 2);                                  /* enable SPI 34 */
	assert_int_equal(rec.updated, 1U << 3);
	assert_true(vgic_dist_irq_enabled(&dist, 3, 34));
	assert_int_equal(vgic_dist_target(&dist, 27, 2), 2);
}

VERIFIES(REQ-VGIC-009)
static void test_sgi1r_decoding(void **state)
{
	unsigned int sgi;

	(void)state;
	assert_int_equal(vgic_sgi1r_targets((5ULL << 24) | 0x6, 0, 4, &sgi), 0x6);
	assert_int_equal(sgi, 5);
	assert_int_equal(vgic_sgi1r_targets(0xffff, 0, 4, &sgi), 0xf);     /* masked to vCPUs */
	assert_int_equal(vgic_sgi1r_targets((1ULL << 40) | 0xf, 2, 4, &sgi), 0xb);
	assert_int_equal(vgic_sgi1r_targets((1ULL << 16) | 1, 0, 4, &sgi), 0); /* vCPU 16 */
	assert_int_equal(vgic_sgi1r_targets((1ULL << 16) | 3, 0, 20, &sgi), 3ULL << 16);
	assert_int_equal(vgic_sgi1r_targets((1ULL << 32) | 1, 0, 4, &sgi), 0); /* Aff2 */
	assert_int_equal(vgic_sgi1r_targets((1ULL << 48) | 1, 0, 4, &sgi), 0); /* Aff3 */
	assert_int_equal(vgic_sgi1r_targets((1ULL << 44) | 1, 0, 20, &sgi), 0); /* RS: Aff0 16+ */
	vgic_send_sgis(&bus, 0x5, 4, 3);
	assert_true(vgic_set_has(&rec.pend[0], 3));
	assert_true(vgic_set_has(&rec.pend[2], 3));
	assert_false(vgic_set_has(&rec.pend[1], 3));
	vgic_send_sgis(&bus, 0x1, 4, 16);          /* not an SGI */
	assert_int_equal(rec.raises, 2);
}

VERIFIES(REQ-VGIC-011)
static void test_bad_access_refused(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(vgic_gicd_access(&dist, &bus, 0, 0x0, 2, false, &v), -XEN_EINVAL);
	assert_int_equal(vgic_gicd_access(&dist, &bus, 0, 0x102, 4, false, &v), -XEN_EINVAL);
	assert_int_equal(vgic_gicd_access(&dist, &bus, 0, 0x100, 1, true, &v), -XEN_EINVAL);
	assert_int_equal(vgic_gicd_access(&dist, &bus, 0, 0x10000, 4, false, &v), -XEN_EINVAL);
	assert_int_equal(vgic_gicd_access(&dist, &bus, 7, 0x0, 4, false, &v), -XEN_EINVAL);
	assert_int_equal(vgic_gicd_access(&dist, &bus, 0, 0x401, 1, false, &v), 0);
	assert_int_equal(vgic_gicd_access(&dist, &bus, 0, 0x6100, 2, false, &v), -XEN_EINVAL);
	/* Reserved offsets read as zero. */
	assert_int_equal(rd(0x50, 4, 0), 0);
}

VERIFIES(REQ-VGIC-012, REQ-VGIC-006, REQ-VGIC-007)
static void test_gicd_v2(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal((rd(0x4, 4, 0) >> 5) & 7, 1);        /* 2 CPUs */
	assert_int_equal(rd(0xfe8, 4, 0) & 0xf0, 0x20);
	assert_int_equal(vgic_gicd_access(&dist, &bus, 0, 0x1000, 4, false, &v), -XEN_EINVAL);
	/* Bank 0 banked per vCPU; SGIs always enabled. */
	assert_int_equal(rd(0x100, 4, 1), 0xffff);
	assert_true(vgic_dist_irq_enabled(&dist, 0, 5));
	wr(0x100, 4, 1, 0xffffffff);
	assert_int_equal(rd(0x100, 4, 1), 0xffffffff);
	assert_int_equal(rd(0x100, 4, 0), 0xffff);
	wr(0x180, 4, 1, 0xffffffff);
	assert_int_equal(rd(0x100, 4, 1), 0xffff);
	/* ITARGETSR: private ones read the accessing CPU, read-only. */
	assert_int_equal(rd(0x800, 4, 1), 0x02020202);
	wr(0x800, 4, 1, 0x01010101);
	assert_int_equal(rd(0x81c, 4, 0), 0x01010101);
	/* SPI targets masked to the two vCPUs. */
	wr(0x820, 4, 0, 0xff020480);
	assert_int_equal(rd(0x820, 4, 0), 0x03020000);
	assert_int_equal(vgic_dist_target(&dist, 34, 0), 1);
	assert_int_equal(vgic_dist_target(&dist, 35, 1), 0);
	/* The v2 distributor is 4 KiB: the GICC page follows it. */
	assert_int_equal(vgic_gicd_access(&dist, &bus, 0, 0x6100, 4, false, &v), -XEN_EINVAL);
	assert_int_equal(rd(0x80, 4, 0), 0);                  /* Group 0 */
}

VERIFIES(REQ-VGIC-009)
static void test_sgir_v2(void **state)
{
	unsigned int sgi;

	(void)state;
	assert_int_equal(vgic_sgir_targets(0x00ff0003, 0, 2, &sgi), 0x3);
	assert_int_equal(sgi, 3);
	assert_int_equal(vgic_sgir_targets(0x01000001, 0, 2, &sgi), 0x2);  /* all but self */
	assert_int_equal(vgic_sgir_targets(0x02000001, 1, 2, &sgi), 0x2);  /* self */
	assert_int_equal(vgic_sgir_targets(0x03ff0001, 1, 2, &sgi), 0);    /* reserved */
	wr(0xf00, 4, 0, 0x01000007);
	assert_true(vgic_set_has(&rec.pend[1], 7));
	assert_false(vgic_set_has(&rec.pend[0], 7));
	assert_int_equal(rd(0xf00, 4, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pending_set_bounded),
		cmocka_unit_test(test_pick_priority_order),
		cmocka_unit_test(test_lr_claim_and_retire),
		cmocka_unit_test_setup(test_gicd_v3_identity, setup_v3),
		cmocka_unit_test_setup(test_gicr_typer_waker, setup_v3),
		cmocka_unit_test_setup(test_gicr_banked_ppis, setup_v3),
		cmocka_unit_test_setup(test_config_masking, setup_v3),
		cmocka_unit_test_setup(test_spi_routing_v3, setup_v3),
		cmocka_unit_test_setup(test_sgi1r_decoding, setup_v3),
		cmocka_unit_test_setup(test_bad_access_refused, setup_v3),
		cmocka_unit_test_setup(test_gicd_v2, setup_v2),
		cmocka_unit_test_setup(test_sgir_v2, setup_v2),
	};
	return cmocka_run_group_tests_name("vgic", tests, NULL, NULL);
}
