/* SPDX-License-Identifier: MIT */
/*
 * The hardware from the system device tree (common/hwdesc.c): a vendor-style
 * tree (tests/unit/dts/hw-soc.dts) read as the boot reads it, addresses
 * through nested bus ranges, the boot CPU moved to CPU 0, RAM banks and
 * carve-outs, and the placement check against the CPUs the tree lists.
 * Trees the checker must refuse are in tests/config/hw/.
 */
#include "harness.h"
#include "boot_dtb.h"
#include <bulkhead/hwdesc.h>

static struct hw_desc hw;
static char err[HW_ERR_LEN];
static uint8_t *blob;
static struct fdt f;

static void open_soc(void)
{
	size_t len;

	free(blob);
	blob = boot_load_dtb("hw-soc", &len);
	assert_int_equal(fdt_open(&f, blob, len), 0);
}

VERIFIES(REQ-SOC-001, REQ-SOC-002, REQ-SOC-003)
static void test_vendor_style_tree(void **state)
{
	(void)state;
	open_soc();
	assert_int_equal(hw_from_dt(&f, HW_BOOT_FIRST, 2U, HW_UART_CADENCE, &hw, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	/* cpu@102 is disabled and cpu-map is no CPU: three CPUs, in tree order. */
	assert_int_equal(hw.cpus_listed, 3U);
	assert_int_equal(hw.nr_cpus, 3U);
	assert_int_equal(hw.mpidr[0], 0x0U);
	assert_int_equal(hw.mpidr[1], 0x100U);
	assert_int_equal(hw.mpidr[2], 0x101U);
	assert_true(hw.cpu_psci[0]);
	assert_true(hw.cpu_psci[1]);
	assert_false(hw.cpu_psci[2]);            /* spin-table */
	assert_int_equal(hw.psci, HW_PSCI_SMC);
	/* Three banks from two nodes; the empty bank is no bank. */
	assert_int_equal(hw.nr_banks, 3U);
	assert_int_equal(hw.banks[0].base, 0x0U);
	assert_int_equal(hw.banks[0].size, 0x80000000U);
	assert_int_equal(hw.banks[1].base, 0x800000000ULL);
	assert_int_equal(hw.banks[1].size, 0x40000000U);
	assert_int_equal(hw.banks[2].base, 0x900000000ULL);
	/* reserved-memory: the region with a reg, not the pool without one. */
	assert_int_equal(hw.nr_reserved, 1U);
	assert_int_equal(hw.reserved[0].base, 0x7ff00000U);
	assert_int_equal(hw.reserved[0].size, 0x100000U);
	/* The GIC behind the bus, each region as the tree gives it (aliasing is the driver's). */
	assert_int_equal(hw.gic_version, 2U);
	assert_int_equal(hw.gicd.base, 0xf9010000U);
	assert_int_equal(hw.gicc.base, 0xf9020000U);
	assert_int_equal(hw.gicc.size, 0x20000U);
	assert_int_equal(hw.gich.base, 0xf9040000U);
	assert_int_equal(hw.gicv.base, 0xf9060000U);
	assert_int_equal(hw.gic_maint_intid, 25U);
	assert_int_equal(hw.timer_intid[0], 29U);          /* secure physical */
	assert_int_equal(hw.timer_intid[HW_TIMER_PHYS], 30U);
	assert_int_equal(hw.timer_intid[HW_TIMER_VIRT], 27U);
	assert_int_equal(hw.timer_intid[HW_TIMER_HYP], 26U);
	assert_int_equal(hw.timer_freq_hz, 0U);
	/* stdout-path "serial0:115200n8" through /aliases. */
	assert_int_equal(hw.uart_type, HW_UART_CADENCE);
	assert_int_equal(hw.uart_base, 0xff000000U);
	assert_int_equal(hw.uart_size, 0x1000U);
	assert_int_equal(hw.uart_intid, 53U);      /* SPI 21 */
	free(blob);
	blob = NULL;
}

VERIFIES(REQ-SOC-001)
static void test_boot_cpu_first(void **state)
{
	(void)state;
	open_soc();
	/* The CPU running the boot is CPU 0 whatever its place; the others keep tree order. */
	assert_int_equal(hw_from_dt(&f, 0x80000100ULL, 2U, HW_UART_CADENCE, &hw, err, sizeof(err)), 0);
	assert_int_equal(hw.mpidr[0], 0x100U);
	assert_int_equal(hw.mpidr[1], 0x0U);
	assert_int_equal(hw.mpidr[2], 0x101U);
	assert_false(hw.cpu_psci[2]);
	/* A boot CPU the tree does not list. */
	assert_true(hw_from_dt(&f, 0x3U, 2U, HW_UART_CADENCE, &hw, err, sizeof(err)) < 0);
	assert_string_equal(err, "/cpus: no cpu node for the boot CPU (MPIDR 0x3)");
	free(blob);
	blob = NULL;
}

VERIFIES(REQ-SOC-002)
static void test_nested_ranges(void **state)
{
	paddr_t a = 0U;
	uint64_t s = 0U;
	uint32_t intid = 0U;
	int sub;
	int nobus;

	(void)state;
	open_soc();
	/* /amba/sub maps 0x0 to 0xfe200000, then /amba maps it 1:1 into the CPU's space. */
	sub = fdt_path(&f, "/amba/sub/uart@1000");
	assert_true(sub >= 0);
	assert_int_equal(hw_dt_reg(&f, sub, 0U, &a, &s), 0);
	assert_int_equal(a, 0xfe201000U);
	assert_int_equal(s, 0x100U);
	assert_int_equal(hw_dt_irq(&f, sub, fdt_path(&f, "/amba/interrupt-controller@f9010000"), 0U,
				   &intid), 0);
	assert_int_equal(intid, 153U);
	/* A bus without ranges is not addressable from the CPU. */
	nobus = fdt_path(&f, "/amba/nobus/uart@2000");
	assert_true(nobus >= 0);
	assert_int_equal(hw_dt_reg(&f, nobus, 0U, &a, &s), -FDT_ERR_NOTFOUND);
	/* Beyond the bus window: no translation. */
	assert_int_equal(hw_dt_reg(&f, fdt_path(&f, "/amba/sub"), 0U, &a, &s), -FDT_ERR_NOTFOUND);
	free(blob);
	blob = NULL;
}

VERIFIES(REQ-SOC-004)
static void test_carve(void **state)
{
	(void)state;
	memset(&hw, 0, sizeof(hw));
	hw.nr_banks = 2U;
	hw.banks[0].base = 0x80000000U;
	hw.banks[0].size = 0x40000000U;
	hw.banks[1].base = 0x100000000ULL;
	hw.banks[1].size = 0x1000000U;
	/* Front of a bank (TF-A at the base of RAM). */
	assert_int_equal(hw_carve(&hw, 0x80000000U, 0x200000U), 0);
	assert_int_equal(hw.banks[0].base, 0x80200000U);
	assert_int_equal(hw.banks[0].size, 0x3fe00000U);
	/* Middle: the bank splits, the next one moves up. */
	assert_int_equal(hw_carve(&hw, 0x90000000U, 0x1000U), 0);
	assert_int_equal(hw.nr_banks, 3U);
	assert_int_equal(hw.banks[0].size, 0x90000000U - 0x80200000U);
	assert_int_equal(hw.banks[1].base, 0x90001000U);
	assert_int_equal(hw.banks[1].size, 0xc0000000U - 0x90001000U);
	assert_int_equal(hw.banks[2].base, 0x100000000ULL);
	/* Tail, then a whole bank. */
	assert_int_equal(hw_carve(&hw, 0xbff00000U, 0x100000U), 0);
	assert_int_equal(hw.banks[1].size, 0xbff00000U - 0x90001000U);
	assert_int_equal(hw_carve(&hw, 0xff000000ULL, 0x2000000U), 0);
	assert_int_equal(hw.nr_banks, 2U);
	assert_int_equal(hw.banks[1].base, 0x90001000U);
	/* Outside every bank: nothing changes. */
	assert_int_equal(hw_carve(&hw, 0x10000U, 0x1000U), 0);
	assert_int_equal(hw.nr_banks, 2U);
	/* No room for another split. */
	hw.nr_banks = DOM0LESS_MAX_BANKS;
	for (uint32_t i = 0U; i < DOM0LESS_MAX_BANKS; i++) {
		hw.banks[i].base = (paddr_t)i << 32;
		hw.banks[i].size = 0x10000000U;
	}
	assert_int_equal(hw_carve(&hw, 0x1000U, 0x1000U), -FDT_ERR_NOSPACE);
}

VERIFIES(REQ-SOC-005)
static void test_placement(void **state)
{
	struct dom0less_config *cfg = calloc(1, sizeof(*cfg));

	(void)state;
	open_soc();
	assert_int_equal(hw_from_dt(&f, HW_BOOT_FIRST, 2U, HW_UART_CADENCE, &hw, err, sizeof(err)), 0);
	cfg->nr_domains = 2U;
	cfg->node[0] = fdt_path(&f, "/chosen");
	cfg->node[1] = fdt_path(&f, "/psci");
	cfg->dom[0].nr_vcpus = 1U;
	cfg->dom[0].pcpus[0] = 0U;
	cfg->dom[1].nr_vcpus = 1U;
	cfg->dom[1].pcpus[0] = 1U;
	assert_int_equal(hw_check_placement(&f, &hw, cfg, err, sizeof(err)), 0);
	/* CPU 2 is started by a spin table: Bulkhead cannot start it. */
	cfg->dom[1].pcpus[0] = 2U;
	assert_true(hw_check_placement(&f, &hw, cfg, err, sizeof(err)) < 0);
	assert_string_equal(err, "/psci: vCPU 0 on physical CPU 2 (/cpus/cpu@101): enable-method "
			    "\"spin-table\", Bulkhead starts CPUs with PSCI");
	/* A CPU the tree does not list. */
	cfg->dom[1].pcpus[0] = 3U;
	assert_true(hw_check_placement(&f, &hw, cfg, err, sizeof(err)) < 0);
	assert_string_equal(err, "/psci: vCPU 0 on physical CPU 3, which /cpus does not list "
			    "(3 CPUs)");
	/* No SMC conduit: no secondary CPU starts. */
	cfg->dom[1].pcpus[0] = 1U;
	hw.psci = HW_PSCI_HVC;
	assert_true(hw_check_placement(&f, &hw, cfg, err, sizeof(err)) < 0);
	assert_string_equal(err, "/psci: vCPU 0 on physical CPU 1: no /psci with method \"smc\" to "
			    "start it");
	free(cfg);
	free(blob);
	blob = NULL;
}

static char described[1024];

static void collect(const char *line)
{
	strncat(described, line, sizeof(described) - strlen(described) - 2U);
	strcat(described, "\n");
}

VERIFIES(REQ-SOC-006)
static void test_describe(void **state)
{
	(void)state;
	open_soc();
	assert_int_equal(hw_from_dt(&f, HW_BOOT_FIRST, 2U, HW_UART_CADENCE, &hw, err, sizeof(err)), 0);
	described[0] = '\0';
	hw_describe(&f, &hw, collect);
	assert_string_equal(described,
		"hw: cpus: 3 of 3 listed, MPIDR 0x0 0x100 0x101(no psci); PSCI smc\n"
		"hw: memory: 0x0-0x7fffffff 0x800000000-0x83fffffff 0x900000000-0x90fffffff\n"
		"hw: reserved: 0x7ff00000-0x7fffffff\n"
		"hw: gic: v2 /amba/interrupt-controller@f9010000 GICD 0xf9010000 GICC "
		"0xf9020000+0x20000 GICH 0xf9040000 GICV 0xf9060000+0x20000, maintenance INTID 25\n"
		"hw: timer: INTID phys 30 virt 27 hyp 26\n"
		"hw: console: /amba/uart@ff000000 Cadence 0xff000000 INTID 53\n");
	free(blob);
	blob = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vendor_style_tree),
		cmocka_unit_test(test_boot_cpu_first),
		cmocka_unit_test(test_nested_ranges),
		cmocka_unit_test(test_carve),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
