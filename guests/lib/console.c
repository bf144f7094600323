/* SPDX-License-Identifier: MIT */
/*
 * Line-buffered console, one buffer per vCPU so two vCPUs never need a lock
 * and each line leaves in one console_io hypercall (the hypervisor prefixes
 * whole lines with the partition's name).
 */
#include <guest/console.h>
#include <guest/hypercall.h>
#include <guest/rt.h>

#define LINE_MAX 160U
#define PL011_DR 0x000U
#define PL011_FR 0x018U
#define PL011_FR_TXFF (1U << 5)

static char line[GUEST_MAX_CPUS][LINE_MAX];
static unsigned int line_len[GUEST_MAX_CPUS];
static bool use_pl011;

#define VPL011_BASE 0x22000000ULL

static void pl011_write(const char *s, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned int spins = 0;

		/* Bounded: an emulated UART that never drains must not hang the test. */
		while ((mmio_read32(VPL011_BASE + PL011_FR) & PL011_FR_TXFF) && spins < 1000000U)
			spins++;
		mmio_write32(VPL011_BASE + PL011_DR, (uint8_t)s[i]);
	}
}

void console_flush(void)
{
	unsigned int cpu = rt_cpu() % GUEST_MAX_CPUS;
	unsigned int n = line_len[cpu];

	if (!n)
		return;
	if (use_pl011)
		pl011_write(line[cpu], n);
	else
		HYPERVISOR_console_io(CONSOLEIO_write, n, line[cpu]);
	line_len[cpu] = 0;
}

void console_putc(char c)
{
	unsigned int cpu = rt_cpu() % GUEST_MAX_CPUS;

	line[cpu][line_len[cpu]++] = c;
	if (c == '\n' || line_len[cpu] == LINE_MAX)
		console_flush();
}

void console_puts(const char *s)
{
	while (*s)
		console_putc(*s++);
}

bool console_use_pl011(bool on)
{
	if (on && !rt.has_vpl011)
		return false;
	console_flush();
	use_pl011 = on;
	return true;
}
