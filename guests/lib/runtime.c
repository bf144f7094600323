/* SPDX-License-Identifier: MIT */
/*
 * C start-up: MMU, device-tree facts, then the test; exceptions and exit.
 * A test partition ends by SCHEDOP_shutdown so the hypervisor learns its
 * status: 0 is a clean poweroff, anything else a crash (QEMU then exits
 * non-zero under Bulkhead).
 */
#include <guest/guest.h>

struct rt_info rt;
uint64_t rt_entry_cntpct;
bool (*rt_sync_hook)(uint64_t *elr, uint64_t esr);

static void read_dt(const void *dtb)
{
	int node;
	uint32_t len;
	const char *args;
	const uint8_t *irq;

	rt.dtb = dtb;
	rt.bootargs = "";
	rt.evtchn_intid = GUEST_EVTCHN_PPI;
	if (!fdt_valid(dtb))
		return;
	node = fdt_path(dtb, "/memory");
	if (node >= 0)
		(void)fdt_reg(dtb, node, 0, &rt.ram_base, &rt.ram_size);
	rt.nr_cpus = fdt_count_children(dtb, fdt_path(dtb, "/cpus"), "cpu@");
	args = fdt_prop(dtb, fdt_path(dtb, "/chosen"), "bootargs", &len);
	if (args && len > 0 && args[len - 1] == '\0')
		rt.bootargs = args;
	node = fdt_path(dtb, "/hypervisor");
	if (node >= 0) {
		rt.has_hypervisor_node = true;
		(void)fdt_reg(dtb, node, 0, &rt.gnttab_base, &rt.gnttab_size);
		irq = fdt_prop(dtb, node, "interrupts", &len);
		/* <type number flags>: type 1 = PPI, numbered from INTID 16. */
		if (irq && len >= 12U && fdt_cells(irq, 1) == 1U)
			rt.evtchn_intid = 16U + (unsigned int)fdt_cells(irq + 4, 1);
	}
	rt.has_vpl011 = fdt_compatible(dtb, -1, "arm,sbsa-uart") >= 0;
}

void rt_start(const void *dtb);
void rt_start(const void *dtb)
{
	char con[8];

	mmu_init();
	mmu_enable();
	read_dt(dtb);
	if (rt_arg("console", con, sizeof(con)) && strcmp(con, "pl011") == 0 &&
	    !console_use_pl011(true))
		printf("%s: console=pl011 but no vpl011 in the device tree\n", rt_tag());
	if (rt_arg_u64("bench", 0))
		printf("%s: rt entry cntpct %lu\n", rt_tag(), rt_entry_cntpct);
	rt_exit(test_main());
}

void rt_exit(int status)
{
	console_flush();
	if (status != 0)
		printf("%s: exit status %d\n", rt_tag(), status);
	xen_shutdown(status == 0 ? SHUTDOWN_poweroff : SHUTDOWN_crash);
	/* Still here: the hypervisor refused; PSCI is the other way out. */
	(void)psci_system_off();
	for (;;)
		rt_wfi();
}

struct exc_frame {
	uint64_t x[31];
	uint64_t elr;
	uint64_t spsr;
	uint64_t pad;
};

static const char *const exc_kind[] = { "sync", "irq", "fiq", "serror", "lower-EL" };

void rt_exception(struct exc_frame *f, unsigned int kind);
void rt_exception(struct exc_frame *f, unsigned int kind)
{
	uint64_t esr, far;

	if (kind == 1U) {
		gic_handle_irq();
		return;
	}
	__asm__ volatile("mrs %0, esr_el1" : "=r"(esr));
	__asm__ volatile("mrs %0, far_el1" : "=r"(far));
	if (kind == 0U && rt_sync_hook && rt_sync_hook(&f->elr, esr))
		return;
	console_flush();
	printf("%s: unexpected %s exception on cpu%u: ESR=0x%lx FAR=0x%lx ELR=0x%lx\n", rt_tag(),
	       exc_kind[kind < ARRAY_SIZE(exc_kind) ? kind : 4U], rt_cpu(), esr, far, f->elr);
	rt_exit(0x7e);
}

/* Find "key=" at the start of a bootargs word; pointer to the value or NULL. */
static const char *arg_find(const char *key)
{
	const char *p = rt.bootargs;
	size_t k = strlen(key);

	while (*p) {
		while (*p == ' ')
			p++;
		if (strncmp(p, key, k) == 0 && p[k] == '=')
			return p + k + 1;
		while (*p && *p != ' ')
			p++;
	}
	return NULL;
}

bool rt_arg(const char *key, char *buf, size_t len)
{
	const char *v = arg_find(key);
	size_t n = 0;

	if (!v || !len)
		return false;
	while (v[n] && v[n] != ' ' && n + 1U < len) {
		buf[n] = v[n];
		n++;
	}
	buf[n] = '\0';
	return true;
}

uint64_t rt_arg_u64(const char *key, uint64_t def)
{
	const char *v = arg_find(key);
	uint64_t r = 0, base = 10;
	unsigned int digits = 0;

	if (!v)
		return def;
	if (v[0] == '0' && v[1] == 'x') {
		base = 16;
		v += 2;
	}
	for (; *v && *v != ' '; v++, digits++) {
		unsigned int d;

		if (*v >= '0' && *v <= '9')
			d = (unsigned int)(*v - '0');
		else if (base == 16U && *v >= 'a' && *v <= 'f')
			d = (unsigned int)(*v - 'a' + 10);
		else
			return def;
		r = r * base + d;
	}
	return digits ? r : def;
}

const char *rt_tag(void)
{
	static char tag[GUEST_MAX_CPUS][24];
	char *t = tag[rt_cpu() % GUEST_MAX_CPUS];

	return rt_arg("tag", t, sizeof(tag[0])) ? t : "?";
}
