/* SPDX-License-Identifier: MIT */
/*
 * Weak stand-ins for the calls other parts of the hypervisor provide
 * (INTERFACES.md): the GIC and vGIC (arm-gic) and the boot flow (boot).
 * They let this part build and boot on its own; the real definitions,
 * once linked in, replace them. None of them pretends to do the work.
 */
#include <bulkhead/arch.h>
#include <bulkhead/board.h>
#include <bulkhead/console.h>
#include <bulkhead/domain.h>
#include <bulkhead/mm.h>
#include <asm/gic_seam.h>
#include <asm/setup.h>
#include <public/errno.h>

#define WEAK __attribute__((weak))

WEAK void gic_init(void)
{
	printk("bulkhead: no GIC driver linked: interrupts stay off\n");
}

WEAK void gic_cpu_init(void) {}
WEAK void gic_handle_irq(void) {}
WEAK void gic_send_sgi(unsigned int cpu, unsigned int sgi)
{
	(void)cpu;
	(void)sgi;
}

WEAK int gic_route_irq(unsigned int intid, void (*handler)(unsigned int intid))
{
	(void)intid;
	(void)handler;
	return -XEN_ENOSYS;
}

WEAK int vgic_domain_init(struct domain *d)
{
	(void)d;
	return 0;
}

WEAK void vgic_vcpu_reset(struct vcpu *v) { (void)v; }
WEAK void vgic_inject_irq(struct vcpu *v, unsigned int virq)
{
	(void)v;
	(void)virq;
}
WEAK void vgic_flush_lrs(struct vcpu *v) { (void)v; }
WEAK void vgic_sync_lrs(struct vcpu *v) { (void)v; }

WEAK bool vgic_vcpu_pending_irq(struct vcpu *v)
{
	(void)v;
	return true; /* without a vGIC, never sleep on WFI */
}

WEAK int vgic_emulate_sysreg(struct vcpu *v, uint32_t iss, uint64_t *val)
{
	(void)v;
	(void)iss;
	(void)val;
	return -XEN_ENOENT;
}

/* Boot flow (common/setup.c). */
WEAK __noreturn void start_hypervisor(const void *dtb)
{
	(void)dtb;
	printk("bulkhead: start_hypervisor is not linked in: no partitions\n");
	arch_smp_boot();
	arch_cpu_loop();
}
