/* SPDX-License-Identifier: MIT */
/*
 * start_hypervisor(): boot on CPU0 after arch_setup() (docs: INTERFACES boot
 * flow). Kept apart from boot_setup.c because it needs the machine the
 * arch read from the device tree and never returns; boot_setup() is what
 * the host tests drive.
 */
#include <bulkhead/xpfo.h>
#include <bulkhead/setup.h>
#include <bulkhead/board.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/domain.h>
#include <bulkhead/console.h>

extern char _start[] __attribute__((weak));
extern char _end[] __attribute__((weak));

/* Weak: arm-cpu may provide the exact range; the linker symbols do otherwise. */
__attribute__((weak)) void arch_hyp_image_range(paddr_t *start, paddr_t *end)
{
	if ((_start != NULL) && ((uintptr_t)_end > (uintptr_t)_start)) {
		*start = virt_to_maddr(_start);
		*end = virt_to_maddr(_end);
	} else {
		/* No symbols: 16 MiB from the 2 MiB block holding this code. */
		*start = virt_to_maddr((const void *)&start_hypervisor) & ~((UL(2) << 20) - 1U);
		*end = *start + (UL(16) << 20);
	}
}

static void hyp_dev(struct boot_machine *m, paddr_t base, uint64_t size, uint32_t intid,
		    const char *what)
{
	if ((base != 0U) && (m->nr_devs < DOM0LESS_MAX_HYP_DEVS)) {
		m->devs[m->nr_devs] = (struct dom0less_hyp_dev){
			.base = base, .size = size, .intid = intid, .node = -1, .what = what };
		m->nr_devs++;
	}
}

/* What the hypervisor drives, as the device tree described it; the tree may add more. */
static void hyp_devices(struct boot_machine *m)
{
	const struct hw_desc *hw = &hw_machine;

	hyp_dev(m, hw->uart_base, PAGE_SIZE, hw->uart_intid, "the hypervisor's UART");
	hyp_dev(m, hw->gicd.base, MIN(hw->gicd.size, UL(0x10000)), 0U, "the GIC");
	if (hw->gic_version == 3U) {
		hyp_dev(m, hw->gicr.base, hw->gicr.size, 0U, "the GIC");
	} else {
		hyp_dev(m, hw->gicc.base, hw->gicc.size, 0U, "the GIC");
		hyp_dev(m, hw->gich.base, hw->gich.size, 0U, "the GIC");
		hyp_dev(m, hw->gicv.base, hw->gicv.size, 0U, "the GIC");
	}
}

__noreturn void start_hypervisor(const void *dtb)
{
	struct boot_machine m = { 0 };
	uint32_t i;

	m.nr_cpus = MIN(hw_machine.nr_cpus, (uint32_t)CONFIG_NR_CPUS);
	m.gic_version = hw_machine.gic_version;
	m.nr_banks = MIN(hw_machine.nr_banks, (uint32_t)DOM0LESS_MAX_BANKS);
	for (i = 0U; i < m.nr_banks; i++) {
		m.banks[i].base = hw_machine.banks[i].base;
		m.banks[i].size = hw_machine.banks[i].size;
	}
	m.nr_reserved = MIN(hw_machine.nr_reserved, (uint32_t)HW_MAX_RESERVED);
	for (i = 0U; i < m.nr_reserved; i++) {
		m.reserved[i].base = hw_machine.reserved[i].base;
		m.reserved[i].size = hw_machine.reserved[i].size;
	}
	m.hw = &hw_machine;
	arch_hyp_image_range(&m.hyp_start, &m.hyp_end);
	hyp_devices(&m);
	printk("bulkhead: %s, hypervisor 0x%llx-0x%llx, device tree at 0x%llx\n", board.name,
	       (unsigned long long)m.hyp_start, (unsigned long long)m.hyp_end,
	       (unsigned long long)virt_to_maddr(dtb));
	if (boot_setup(dtb, &m) != 0) {
		panic("bulkhead: configuration error (above); not starting any partition\n");
	}
	if (boot_check_online(arch_smp_boot()) != 0) {
		panic("bulkhead: configuration error (above); not starting any partition\n");
	}
	xpfo_selftest();
	xpfo_check("boot", 0U);
#if defined(CONFIG_CONSOLE_TIMESTAMPS) && CONFIG_CONSOLE_TIMESTAMPS
	/* make bench-linux: hypervisor entry to here (the time is read before the line goes out). */
	printk("bulkhead: [%llu] starting the partitions\n", (unsigned long long)arch_now_ns());
#endif
	domain_start_all();
	arch_cpu_loop();
}
