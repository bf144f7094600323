/* SPDX-License-Identifier: MIT */
/*
 * The boot CPU's first step with the MMU on: the hardware from the system
 * device tree (common/hwdesc.c), less the firmware carve-outs board.c
 * knows, and the EL2 mappings of what the hypervisor drives. A tree the
 * hypervisor cannot run on stops the boot here, with the message printed
 * on the board's early console (CONFIG_UART_BASE) since the tree named no
 * usable one.
 */
#include <bulkhead/arch.h>
#include <bulkhead/board.h>
#include <bulkhead/console.h>
#include <bulkhead/hwdesc.h>
#include <bulkhead/setup.h>
#include <asm/gic.h>
#include <asm/mmu.h>
#include <asm/setup.h>
#include <asm/sysregs.h>

#if defined(CONFIG_UART_PL011)
#define MACHINE_UART HW_UART_PL011
#elif defined(CONFIG_UART_SCIF)
#define MACHINE_UART HW_UART_SCIF
#elif defined(CONFIG_UART_LPUART)
#define MACHINE_UART HW_UART_LPUART
#else
#define MACHINE_UART HW_UART_CADENCE
#endif

#ifdef CONFIG_GICV3
#define MACHINE_GIC U(3)
#else
#define MACHINE_GIC U(2)
#endif

/* EL2 maps at most this much of a redistributor region: 4 frames of 64 KiB a CPU. */
#define GICR_MAP_PER_CPU U(0x40000)
/* GICv2 CPU interface: probed over 128 KiB for the 64 KiB aliasing of a GIC-400. */
#define GICC_MAP_MAX U(0x20000)

/* The tree's console if it named a usable one, else the board's early console. */
static __noreturn void machine_refuse(const char *msg)
{
	if (hw_machine.uart_base == 0U) {
		hw_machine.uart_base = (paddr_t)CONFIG_UART_BASE;
	}
	if (hw_machine.uart_base != 0U) {
		mmu_map_device(hw_machine.uart_base, PAGE_SIZE);
		uart_init();
	}
	panic("\nbulkhead: system device tree: %s\nbulkhead: cannot run on this machine\n", msg);
}

static void machine_map(void)
{
	mmu_map_device(hw_machine.uart_base, PAGE_SIZE);
	mmu_map_device(hw_machine.gicd.base, MIN(hw_machine.gicd.size, (uint64_t)0x10000U));
	if (hw_machine.gic_version == 3U) {
		mmu_map_device(hw_machine.gicr.base, MIN(hw_machine.gicr.size, (uint64_t)hw_machine.cpus_listed *
								     GICR_MAP_PER_CPU));
	} else {
		mmu_map_device(hw_machine.gicc.base, MIN(hw_machine.gicc.size, (uint64_t)GICC_MAP_MAX));
		mmu_map_device(hw_machine.gich.base, MIN(hw_machine.gich.size, PAGE_SIZE));
	}
}

void machine_setup(paddr_t dtb)
{
	static char err[HW_ERR_LEN];
	const void *blob = (const void *)(uintptr_t)dtb;
	uint32_t size = (dtb != 0U) ? fdt_header_size(blob) : 0U;
	struct fdt f;
	uint32_t i;
	int rc;

	rc = (size != 0U) ? fdt_open(&f, blob, MIN((size_t)size, (size_t)BOOT_DTB_MAX)) :
			    -FDT_ERR_BADHEADER;
	if (rc != 0) {
		(void)bh_snprintf(err, sizeof(err), "at 0x%llx: %s", (unsigned long long)dtb,
				  fdt_strerror(rc));
		machine_refuse(err);
	}
	rc = hw_from_dt(&f, sysreg_read(mpidr_el1) & HW_MPIDR_MASK, MACHINE_GIC, MACHINE_UART,
			&hw_machine, err, sizeof(err));
	if (rc != 0) {
		hw_machine.uart_base = 0U;
		machine_refuse(err);
	}
	/* The hypervisor handles these two itself, at the INTIDs the architecture recommends. */
	if ((hw_machine.timer_intid[HW_TIMER_VIRT] != GIC_PPI_VTIMER) ||
	    (hw_machine.gic_maint_intid != GIC_PPI_MAINT)) {
		(void)bh_snprintf(err, sizeof(err), "virtual timer INTID %u, GIC maintenance INTID %u: "
				  "Bulkhead needs %u and %u", hw_machine.timer_intid[HW_TIMER_VIRT],
				  hw_machine.gic_maint_intid, GIC_PPI_VTIMER, GIC_PPI_MAINT);
		machine_refuse(err);
	}
	for (i = 0U; i < board.nr_reserved; i++) {
		if (hw_carve(&hw_machine, board.reserved[i].base, board.reserved[i].size) != 0) {
			machine_refuse("RAM banks: more pieces than DOM0LESS_MAX_BANKS after the "
				       "board's carve-outs");
		}
	}
	machine_map();
	mmu_map_ram();
}
