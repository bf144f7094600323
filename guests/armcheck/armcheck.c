/* SPDX-License-Identifier: MIT */
/*
 * EL2-core behaviours seen from a guest: registers kept across every kind
 * of exit, undefined-instruction injection (HVC with an unknown immediate,
 * a trapped physical-timer register), PSCI over HVC and SMC, and the
 * per-partition virtual counter offset. Interrupts stay masked around each
 * exit so any register change is the hypervisor's.
 */
#include <guest/guest.h>
#include <guest/xen_gnttab.h>

#define EC_UNKNOWN 0x00U
#define ESR_IL (1UL << 25)
#define SEED 0x5a5a000000000000UL
#define PSCI_CPU_SUSPEND_FN 0x84000001U
#define PSCI_MIGRATE_INFO_TYPE 0x84000006U
#define PSCI_SYSTEM_SUSPEND 0xC400000EU
#define SMCCC_SIP_FN 0x82000000U
#define PSCI_1_1 0x10001

void regs_exit(uint64_t seed, uint64_t kind, uint64_t addr, uint64_t *out);
long simd_exit(uint64_t seed, const struct gnttab_copy *op, uint64_t *out);
extern uint64_t regs_save[4];

static int fails;
static volatile unsigned int undefs;
static volatile uint64_t undef_esr, undef_elr;

static void expect(const char *what, long got, long want)
{
	printf("%s: %s = %ld (expected %ld)%s\n", rt_tag(), what, got, want,
	       got == want ? "" : " MISMATCH");
	fails += got != want;
}

static bool on_sync(uint64_t *elr, uint64_t esr)
{
	if ((esr >> 26) != EC_UNKNOWN)
		return false;
	undefs++;
	undef_esr = esr;
	undef_elr = *elr;
	*elr += 4U; /* skip the refused instruction */
	return true;
}

#define SYSREG_SET(reg, v) __asm__ volatile("msr " #reg ", %0" :: "r"((uint64_t)(v)))
#define SYSREG_GET(reg) ({ uint64_t _v; __asm__ volatile("mrs %0, " #reg : "=r"(_v)); _v; })

/* x0-x30, SP and the EL1 registers a guest may freely set, across one exit. */
static void check_regs(const char *name, unsigned int kind, uint64_t inputs)
{
	uint64_t out[32], tpidr = SYSREG_GET(tpidr_el1), seed = SEED | ((uint64_t)kind << 40);
	uint64_t el1[7], want[7] = { seed | 0x11, seed | 0x22, seed | 0x33, 0x4a5b6c70UL,
				     0x40123450UL, 0x3c5UL, seed | 0x77 };
	unsigned int n, bad = 0;

	rt_irq_disable();
	SYSREG_SET(tpidr_el1, want[0]);
	SYSREG_SET(tpidr_el0, want[1]);
	SYSREG_SET(tpidrro_el0, want[2]);
	SYSREG_SET(contextidr_el1, want[3]);
	SYSREG_SET(elr_el1, want[4]);
	SYSREG_SET(spsr_el1, want[5]);
	SYSREG_SET(sp_el0, want[6]);
	regs_exit(seed, kind, gic_dist_base(), out);
	el1[0] = SYSREG_GET(tpidr_el1);
	el1[1] = SYSREG_GET(tpidr_el0);
	el1[2] = SYSREG_GET(tpidrro_el0);
	el1[3] = SYSREG_GET(contextidr_el1);
	el1[4] = SYSREG_GET(elr_el1);
	el1[5] = SYSREG_GET(spsr_el1);
	el1[6] = SYSREG_GET(sp_el0);
	SYSREG_SET(tpidr_el1, tpidr);
	rt_irq_enable();
	/* inputs: registers the exit defines (x0 the result, the call's arguments). */
	for (n = 0; n < 31; n++) {
		if ((inputs >> n) & 1U)
			continue;
		if (out[n] != seed + n) {
			printf("%s: %s: x%u = 0x%lx, was 0x%lx MISMATCH\n", rt_tag(), name, n,
			       out[n], seed + n);
			bad++;
		}
	}
	if (out[31] != regs_save[1] - 512U) {
		printf("%s: %s: SP = 0x%lx, was 0x%lx MISMATCH\n", rt_tag(), name, out[31],
		       regs_save[1] - 512U);
		bad++;
	}
	for (n = 0; n < ARRAY_SIZE(el1); n++) {
		if (el1[n] != want[n]) {
			printf("%s: %s: EL1 register %u = 0x%lx, was 0x%lx MISMATCH\n", rt_tag(),
			       name, n, el1[n], want[n]);
			bad++;
		}
	}
	if (kind == 3U)
		expect("PSCI VERSION over SMC in the register test", (long)out[0], PSCI_1_1);
	printf("%s: registers across %s: %u differ\n", rt_tag(), name, bad);
	fails += bad != 0;
}

static uint8_t copy_src[4096] __attribute__((aligned(4096)));
static uint8_t copy_dst[4096] __attribute__((aligned(4096)));

/*
 * The hypervisor copies a 4 KiB GNTTABOP_copy with SIMD registers: the
 * guest's v0-v31 survive it, and the page arrives whole.
 */
static void check_simd(void)
{
	struct gnttab_copy op = {
		.source = { .u.gmfn = (uint64_t)(uintptr_t)copy_src >> 12, .domid = DOMID_SELF },
		.dest = { .u.gmfn = (uint64_t)(uintptr_t)copy_dst >> 12, .domid = DOMID_SELF },
		.len = 4096,
		.flags = 0,
	};
	uint64_t out[64], seed = SEED | (9UL << 40), cpacr;
	unsigned int n, bad = 0;
	long rc;

	for (n = 0; n < sizeof(copy_src); n++)
		copy_src[n] = (uint8_t)(n * 7U + 3U);
	memset(copy_dst, 0, sizeof(copy_dst));
	cpacr = SYSREG_GET(cpacr_el1);
	SYSREG_SET(cpacr_el1, cpacr | (3UL << 20));  /* FPEN: SIMD at EL1 */
	__asm__ volatile("isb" ::: "memory");
	rt_irq_disable();
	rc = simd_exit(seed, &op, out);
	rt_irq_enable();
	SYSREG_SET(cpacr_el1, cpacr);
	__asm__ volatile("isb" ::: "memory");
	for (n = 0; n < 32; n++) {
		if (out[2 * n] != seed + n || out[2 * n + 1] != ~(seed + n)) {
			printf("%s: a 4 KiB copy: v%u = 0x%lx:%lx MISMATCH\n", rt_tag(), n,
			       out[2 * n + 1], out[2 * n]);
			bad++;
		}
	}
	expect("GNTTABOP_copy of 4 KiB in the SIMD test", rc == 0 && op.status == GNTST_okay, 1);
	expect("page copied whole", memcmp(copy_src, copy_dst, sizeof(copy_src)) == 0, 1);
	printf("%s: SIMD registers across a 4 KiB copy: %u differ\n", rt_tag(), bad);
	fails += bad != 0;
}

static int64_t smc_call(uint64_t fn, uint64_t a1)
{
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = a1;

	__asm__ volatile("smc #0" : "+r"(x0), "+r"(x1) :: "x2", "x3", "memory");
	return (int64_t)x0;
}

static void check_psci(const char *via, int64_t (*call)(uint64_t fn, uint64_t a1))
{
	char what[80];

#define PSCI_EXPECT(label, fn, a1, want) do { \
		snprintf(what, sizeof(what), "PSCI %s over %s", label, via); \
		expect(what, (long)call(fn, a1), want); \
	} while (0)
	PSCI_EXPECT("VERSION", PSCI_VERSION, 0, PSCI_1_1);
	PSCI_EXPECT("FEATURES(CPU_ON)", PSCI_FEATURES, PSCI_CPU_ON, PSCI_SUCCESS);
	PSCI_EXPECT("FEATURES(CPU_SUSPEND)", PSCI_FEATURES, PSCI_CPU_SUSPEND_FN, PSCI_SUCCESS);
	PSCI_EXPECT("FEATURES(SYSTEM_SUSPEND)", PSCI_FEATURES, PSCI_SYSTEM_SUSPEND,
		    PSCI_NOT_SUPPORTED);
	PSCI_EXPECT("MIGRATE_INFO_TYPE", PSCI_MIGRATE_INFO_TYPE, 0, 2);
	PSCI_EXPECT("SYSTEM_SUSPEND", PSCI_SYSTEM_SUSPEND, 0x40000000, PSCI_NOT_SUPPORTED);
	PSCI_EXPECT("SiP function 0x82000000", SMCCC_SIP_FN, 0, PSCI_NOT_SUPPORTED);
#undef PSCI_EXPECT
}

static int64_t hvc_call(uint64_t fn, uint64_t a1)
{
	return psci_call(fn, a1, 0, 0);
}

/* One refused instruction at a known address: an undefined-instruction exception there. */
static void check_undef(const char *what, uint64_t at, unsigned int before)
{
	bool ok = undefs == before + 1U && undef_elr == at && (undef_esr >> 26) == EC_UNKNOWN &&
		  (undef_esr & ESR_IL) != 0U;

	printf("%s: %s: %u undefined-instruction exception(s), ESR 0x%lx, ELR %s%s\n", rt_tag(),
	       what, undefs - before, undef_esr, undef_elr == at ? "at it" : "elsewhere",
	       ok ? "" : " MISMATCH");
	fails += !ok;
}

static void check_undefs(void)
{
	uint64_t at;
	unsigned int before = undefs;

	__asm__ volatile("adr %0, 1f\n1: hvc #1" : "=r"(at) :: "memory");
	check_undef("hvc #1", at, before);
	before = undefs;
	__asm__ volatile("adr %0, 1f\n1: hvc #0xea2" : "=r"(at) :: "memory");
	check_undef("hvc #0xea2", at, before);
	/* EL1 may not program the physical timer: CNTHCTL_EL2.EL1PCEN is clear. */
	before = undefs;
	__asm__ volatile("adr %0, 1f\n1: msr cntp_ctl_el0, %1" : "=&r"(at) : "r"(1UL) : "memory");
	check_undef("write CNTP_CTL_EL0", at, before);
	before = undefs;
	__asm__ volatile("adr %0, 1f\n1: msr cntp_cval_el0, %1" : "=&r"(at) : "r"(1UL) : "memory");
	check_undef("write CNTP_CVAL_EL0", at, before);
	before = undefs;
	__asm__ volatile("adr %0, 1f\n1: msr cntp_tval_el0, %1" : "=&r"(at) : "r"(1UL) : "memory");
	check_undef("write CNTP_TVAL_EL0", at, before);
}

/*
 * CPU_SUSPEND (standby) returns SUCCESS once an interrupt is pending; it may
 * wake early, so it is repeated until the timer deadline, interrupts masked,
 * and the timer interrupt must then be taken.
 */
static void check_suspend(void)
{
	unsigned int seen = gic_irq_count(TIMER_VIRT_INTID), calls = 0, bad = 0;
	uint64_t end = cntvct() + timer_us_to_ticks(2000U);

	gic_enable_ppi(TIMER_VIRT_INTID, NULL); /* the handler masks the timer */
	rt_irq_disable();
	timer_arm(timer_us_to_ticks(2000U));
	while (cntvct() < end && calls < 100000U) {
		bad += psci_call(PSCI_CPU_SUSPEND_FN, 0, 0, 0) != PSCI_SUCCESS;
		calls++;
	}
	rt_irq_enable();
	while (gic_irq_count(TIMER_VIRT_INTID) == seen && cntvct() < end + timer_us_to_ticks(1000000U))
		rt_wfi();
	timer_disarm();
	expect("PSCI CPU_SUSPEND calls not returning SUCCESS", bad, 0);
	expect("timer interrupt taken after CPU_SUSPEND", gic_irq_count(TIMER_VIRT_INTID) > seen, 1);
}

/* CNTVOFF is the physical count when the partition was built: before its first instruction. */
static void check_counters(void)
{
	uint64_t p1, v, p2, off;

	__asm__ volatile("isb\n mrs %0, cntpct_el0\n isb\n mrs %1, cntvct_el0\n isb\n"
			 "mrs %2, cntpct_el0" : "=r"(p1), "=r"(v), "=r"(p2));
	off = p1 - v;
	printf("%s: counters: physical %lu then %lu, virtual %lu, entry %lu\n", rt_tag(), p1, p2,
	       v, rt_entry_cntpct);
	expect("physical counter readable and moving", p2 > p1 && p1 > 0, 1);
	expect("virtual counter behind the physical one", v < p1, 1);
	expect("CNTVOFF no later than the partition's entry", off <= rt_entry_cntpct, 1);
}

int test_main(void)
{
	if (!gic_init()) {
		printf("%s: no GIC in the device tree MISMATCH\n", rt_tag());
		return 1;
	}
	rt_sync_hook = on_sync;
	check_regs("a hypercall", 0, (1U << 0) | (1U << 1) | (1U << 16));
	check_regs("an MMIO load", 1, 1U << 0);
	check_regs("a WFE", 2, 0);
	check_regs("an SMC", 3, 1U << 0);
	check_simd();
	check_psci("HVC", hvc_call);
	check_psci("SMC", smc_call);
	check_undefs();
	check_suspend();
	check_counters();
	/* The partition is still running and the hypervisor answers it. */
	expect("xen_version after the refused instructions", xen_version() > 0, 1);
	if (!fails)
		printf("%s: armcheck all as expected\n", rt_tag());
	return fails;
}
