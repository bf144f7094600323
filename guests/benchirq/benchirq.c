/* SPDX-License-Identifier: MIT */
/*
 * make bench-irq: interrupt latency in instructions under QEMU -icount
 * shift=0 (tools/bench/irq.sh), from the instant an interrupt's source
 * raises it to the first instruction of this partition's IRQ vector:
 *   vtimer  its virtual timer: from the compare value (CNTV_CVAL * 16);
 *   spi     its assigned PL061 (partial device tree): from the store to
 *           GPIOIE that raises the level interrupt (pin 0 sensing a low
 *           level) to the vector, the SPI taken at EL2 and given back with
 *           a hardware-linked LR;
 *   evtchn  an event-channel upcall: from EVTCHNOP_send on a loopback
 *           channel (HVC) to the vector of the upcall PPI.
 * irq.S stamps both ends to an instruction or two; the one guest
 * instruction between the trigger and the vector (unmasking IRQs) is not
 * counted. Each source `samples=` times (default 1000; only=SRC,SRC: those); prints
 * "benchirq SOURCE median p99 max n" in instructions, then "benchirq: done".
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>

#define GPIODIR 0x400U
#define GPIOIS  0x404U
#define GPIOIBE 0x408U
#define GPIOIEV 0x40cU
#define GPIOIE  0x410U
#define GPIOIC  0x41cU
#define HIST    8192U
#define LEAD_TICKS 32U
#define TICK    16U       /* instructions per counter tick at shift=0, 62.5 MHz */

/* Written by irq.S: {tick, rounds} at the vector, the done flag; the trigger's tick. */
volatile uint64_t bench_entry[3];
volatile uint64_t bench_source[1];

void bench_spin(void);
void bench_fire(uint64_t kind, uint64_t addr, uint64_t val, uint64_t arg);
extern char bench_vectors[];

static uint32_t hist[HIST];
static uint64_t nsamp, maxv;
static uint64_t gpio;
static evtchn_port_t loop_port;
static volatile struct shared_info *si;

/* The vector's first instruction (the branch before the counter read), in virtual ns. */
static uint64_t entry_time(void)
{
	/* The read at T0; the k-th loop read at T0 + 4k - 2 is the first past the tick. */
	return (bench_entry[0] + 1U) * TICK + 4U - 4U * bench_entry[1] - 1U;
}

static void rec(int64_t insns)
{
	uint64_t v = insns < 0 ? 0U : (uint64_t)insns;

	hist[v < HIST ? v : HIST - 1U]++;
	nsamp++;
	maxv = v > maxv ? v : maxv;
}

static void report(const char *src)
{
	uint64_t acc = 0, med = 0, p99 = 0;
	unsigned int i;
	bool got_med = false;

	for (i = 0; i < HIST; i++) {
		acc += hist[i];
		if (!got_med && acc * 2U >= nsamp) {
			med = i;
			got_med = true;
		}
		if (acc * 100U >= nsamp * 99U) {
			p99 = i;
			break;
		}
	}
	printf("benchirq %s %lu %lu %lu %lu\n", src, med, p99, maxv, nsamp);
	memset(hist, 0, sizeof(hist));
	nsamp = maxv = 0;
}

static void reset_stamp(void)
{
	bench_entry[0] = bench_entry[1] = bench_entry[2] = 0;
}

/* After the vector: acknowledge, run the source's handler, EOI (the gic runtime). */
static void finish(void)
{
	gic_handle_irq();
}

static void on_timer(unsigned int intid)
{
	(void)intid;
	__asm__ volatile("msr cntv_ctl_el0, xzr; isb" ::: "memory");
}

static void on_gpio(unsigned int intid)
{
	(void)intid;
	mmio_write32(gpio + GPIOIE, 0U);
	mmio_write32(gpio + GPIOIC, 1U);
}

static void on_upcall(unsigned int intid)
{
	(void)intid;
	si->vcpu_info[0].evtchn_upcall_pending = 0;
	si->vcpu_info[0].evtchn_pending_sel = 0;
	evt_clear(loop_port);
}

static void bench_vtimer(uint64_t n, const char *name)
{
	uint64_t i, cval;

	gic_enable_ppi(TIMER_VIRT_INTID, on_timer);
	for (i = 0; i < n; i++) {
		reset_stamp();
		cval = cntvct() + LEAD_TICKS;
		__asm__ volatile("msr cntv_cval_el0, %0" :: "r"(cval));
		__asm__ volatile("msr cntv_ctl_el0, %0; isb" :: "r"(1UL) : "memory");
		bench_spin();
		rec((int64_t)entry_time() - (int64_t)(cval * TICK));
		finish();
	}
	report(name);
}

static int bench_spi(uint64_t n, const char *name)
{
	struct dev_info d;
	uint64_t i;

	if (!dev_find("arm,pl061", &d)) {
		printf("benchirq: FAIL no arm,pl061 in the device tree\n");
		return 1;
	}
	gpio = d.base;
	mmio_write32(gpio + GPIOIE, 0U);
	mmio_write32(gpio + GPIODIR, 0U);
	mmio_write32(gpio + GPIOIS, 1U);
	mmio_write32(gpio + GPIOIBE, 0U);
	mmio_write32(gpio + GPIOIEV, 0U);
	mmio_write32(gpio + GPIOIC, 0xffU);
	gic_enable_spi(d.intid, on_gpio, 0);
	for (i = 0; i < n; i++) {
		reset_stamp();
		bench_fire(0, gpio + GPIOIE, 1U, 0);
		/* The changed read, then cmp, b.eq: the store 3 later; the read's place in its
		 * 3-instruction loop is taken as the middle. Minus the unmask after it. */
		rec((int64_t)entry_time() - (int64_t)(bench_source[0] * TICK + 1U + 3U) - 1);
		finish();
	}
	report(name);
	gic_disable_spi(d.intid);
	return 0;
}

static int bench_evtchn(uint64_t n, const char *name)
{
	struct evtchn_send send;
	evtchn_port_t a, b;
	uint64_t i;

	if (evt_alloc_unbound(DOMID_SELF, &a) != 0 || evt_bind_interdomain(DOMID_SELF, a, &b) != 0) {
		printf("benchirq: FAIL loopback channel\n");
		return 1;
	}
	loop_port = a;
	evt_clear(a);
	evt_clear(b);
	send.port = b;
	gic_enable_ppi(rt.evtchn_intid, on_upcall);
	si->vcpu_info[0].evtchn_upcall_pending = 0;
	si->vcpu_info[0].evtchn_upcall_mask = 0;
	for (i = 0; i < n; i++) {
		reset_stamp();
		bench_fire(1, __HYPERVISOR_event_channel_op, EVTCHNOP_send,
			   (uint64_t)(uintptr_t)&send);
		/* cmp, b.eq, two movs: the HVC 5 after the changed read. */
		rec((int64_t)entry_time() - (int64_t)(bench_source[0] * TICK + 1U + 5U) - 1);
		finish();
	}
	report(name);
	return 0;
}

/* only= is a comma-separated list of sources ("" for all). */
static bool want(const char *only, const char *src)
{
	size_t n = strlen(src);
	const char *p = only;

	if (only[0] == '\0')
		return true;
	while (*p != '\0') {
		if (strncmp(p, src, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
		while (*p != '\0' && *p != ',')
			p++;
		if (*p == ',')
			p++;
	}
	return false;
}

int test_main(void)
{
	uint64_t n = rt_arg_u64("samples", 1000);
	char only[32] = "";

	if (evt_setup(false) != 0 || !gic_init()) {
		printf("benchirq: FAIL setup (needs xen,enhanced and a GIC)\n");
		return 1;
	}
	si = (volatile struct shared_info *)(rt.gnttab_base + rt.gnttab_size - 4096U);
	__asm__ volatile("msr vbar_el1, %0; isb" :: "r"(bench_vectors) : "memory");
	(void)rt_arg("only", only, sizeof(only));
	/* Warm-up: the first of each is not a cold one. */
	if (want(only, "vtimer"))
		bench_vtimer(4, "warm-vtimer");
	if ((want(only, "spi") && bench_spi(4, "warm-spi") != 0) ||
	    (want(only, "evtchn") && bench_evtchn(4, "warm-evtchn") != 0))
		return 1;
	printf("benchirq: warm, %lu samples a source\n", n);
	if (want(only, "vtimer"))
		bench_vtimer(n, "vtimer");
	if ((want(only, "spi") && bench_spi(n, "spi") != 0) ||
	    (want(only, "evtchn") && bench_evtchn(n, "evtchn") != 0))
		return 1;
	printf("benchirq: done\n");
	return 0;
}
