/* SPDX-License-Identifier: MIT */
/*
 * U-Boot test payload: prints the exception level it was entered at, the
 * device tree it was given in x0, and a CRC-32 of every dom0less module at
 * the address its /chosen node names, so tests/uboot/run.sh can prove that
 * U-Boot loaded each FIT loadable exactly where the system DT says, then
 * exits QEMU through semihosting. MMU off: every access is Device memory,
 * so everything is read byte by byte.
 */
#include <stdint.h>
#include <stddef.h>

#define UART_DR		0x09000000UL
#define UART_FR		0x09000018UL
#define UART_FR_TXFF	(1U << 5)

#define FDT_MAGIC	0xd00dfeedU
#define FDT_BEGIN_NODE	1U
#define FDT_END_NODE	2U
#define FDT_PROP	3U
#define FDT_NOP		4U
#define FDT_END		9U
#define MAX_DEPTH	8
#define MAX_STRUCT	(1U << 20)

static void putc_uart(char c)
{
	while (*(volatile uint32_t *)UART_FR & UART_FR_TXFF)
		;
	*(volatile uint32_t *)UART_DR = (uint32_t)(unsigned char)c;
}

static void puts_uart(const char *s)
{
	while (*s) {
		if (*s == '\n')
			putc_uart('\r');
		putc_uart(*s++);
	}
}

static void puthex(uint64_t v)
{
	int shift;

	puts_uart("0x");
	for (shift = 60; shift > 0 && (v >> shift) == 0; shift -= 4)
		;
	for (; shift >= 0; shift -= 4)
		putc_uart("0123456789abcdef"[(v >> shift) & 0xfU]);
}

static void putdec(uint64_t v)
{
	char buf[24];
	int i = 0;

	do {
		buf[i++] = (char)('0' + v % 10U);
		v /= 10U;
	} while (v != 0U && i < (int)sizeof(buf));
	while (i > 0)
		putc_uart(buf[--i]);
}

static uint32_t be32(uintptr_t p)
{
	const volatile uint8_t *b = (const volatile uint8_t *)p;

	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

static uint64_t cells(uintptr_t p, uint32_t n)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < n && i < 2U; i++)
		v = (v << 32) | be32(p + 4U * i);
	return v;
}

static size_t slen(uintptr_t p, size_t max)
{
	size_t n = 0;

	while (n < max && *(const volatile char *)(p + n) != '\0')
		n++;
	return n;
}

static int streq(uintptr_t p, const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (*(const volatile char *)(p + i) != s[i])
			return 0;
	return *(const volatile char *)(p + i) == '\0';
}

static int has_prefix(uintptr_t p, const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (*(const volatile char *)(p + i) != s[i])
			return 0;
	return 1;
}

static void puts_mem(uintptr_t p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		putc_uart(*(const volatile char *)(p + i));
}

static uint32_t crc32(uintptr_t p, uint64_t n)
{
	uint32_t crc = 0xffffffffU;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		crc ^= *(const volatile uint8_t *)(p + i);
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & (0U - (crc & 1U)));
	}
	return ~crc;
}

static unsigned int current_el(void)
{
	uint64_t el;

	__asm__ volatile("mrs %0, CurrentEL" : "=r"(el));
	return (unsigned int)((el >> 2) & 3U);
}

static void semihost_exit(uint64_t status)
{
	/* SYS_EXIT (0x18) with ADP_Stopped_ApplicationExit and a status. */
	volatile uint64_t block[2] = { 0x20026U, status };
	register uint64_t x0 __asm__("x0") = 0x18U;
	register uint64_t x1 __asm__("x1") = (uint64_t)(uintptr_t)block;

	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
}

/* Node being walked at each depth: its name and the cells its children use. */
struct level {
	uintptr_t name;
	uint32_t addr_cells;
	uint32_t size_cells;
	uintptr_t compat;
	uint32_t compat_len;
	uintptr_t reg;
	uint32_t reg_len;
};

static void report_module(const struct level *lv, int depth)
{
	const struct level *parent = &lv[depth - 1];
	uint32_t ac = parent->addr_cells, sc = parent->size_cells;
	uint64_t addr, size;

	if (lv[depth].reg == 0U || lv[depth].reg_len < 4U * (ac + sc))
		return;
	addr = cells(lv[depth].reg, ac);
	size = cells(lv[depth].reg + 4U * ac, sc);
	puts_uart("payload: module ");
	puts_mem(lv[depth - 1].name, slen(lv[depth - 1].name, 64));
	putc_uart('/');
	puts_mem(lv[depth].name, slen(lv[depth].name, 64));
	puts_uart(" addr=");
	puthex(addr);
	puts_uart(" size=");
	puthex(size);
	puts_uart(" crc32=");
	puthex(crc32((uintptr_t)addr, size));
	puts_uart("\n");
}

static int walk_fdt(uintptr_t fdt)
{
	uintptr_t st = fdt + be32(fdt + 8), strs = fdt + be32(fdt + 12);
	uint32_t st_size = be32(fdt + 36), off = 0;
	struct level lv[MAX_DEPTH + 1];
	int depth = -1, in_chosen = 0, modules = 0;

	if (st_size > MAX_STRUCT)
		return -1;
	while (off + 4U <= st_size) {
		uint32_t tag = be32(st + off);

		off += 4U;
		if (tag == FDT_BEGIN_NODE) {
			size_t n = slen(st + off, 256);

			if (++depth > MAX_DEPTH)
				return -1;
			lv[depth] = (struct level){ .name = st + off, .addr_cells = 2U,
						    .size_cells = 1U };
			if (depth == 1)
				in_chosen = streq(st + off, "chosen");
			off += (uint32_t)((n + 4U) & ~3U);
		} else if (tag == FDT_END_NODE) {
			/* Modules sit two levels under /chosen: chosen/<domain>/<module>. */
			if (in_chosen && depth == 3 && lv[3].compat != 0U &&
			    has_prefix(lv[3].compat, "multiboot,")) {
				report_module(lv, depth);
				modules++;
			}
			if (--depth < 0)
				break;
		} else if (tag == FDT_PROP) {
			uint32_t len = be32(st + off), nameoff = be32(st + off + 4U);
			uintptr_t name = strs + nameoff, val = st + off + 8U;

			if (depth >= 0) {
				if (streq(name, "#address-cells") && len == 4U)
					lv[depth].addr_cells = be32(val);
				else if (streq(name, "#size-cells") && len == 4U)
					lv[depth].size_cells = be32(val);
				else if (streq(name, "compatible"))
					lv[depth].compat = val, lv[depth].compat_len = len;
				else if (streq(name, "reg"))
					lv[depth].reg = val, lv[depth].reg_len = len;
				else if (in_chosen && depth == 1 && streq(name, "bootargs")) {
					puts_uart("payload: bootargs=");
					puts_mem(val, slen(val, len));
					puts_uart("\n");
				}
			}
			off += 8U + ((len + 3U) & ~3U);
		} else if (tag == FDT_END) {
			break;
		} else if (tag != FDT_NOP) {
			return -1;
		}
	}
	return modules;
}

void payload_main(uint64_t x0, uint64_t x1)
{
	int modules;

	puts_uart("\npayload: entered at EL");
	putdec(current_el());
	puts_uart(" x0=");
	puthex(x0);
	puts_uart(" x1=");
	puthex(x1);
	puts_uart("\n");
	if (x0 == 0U || (x0 & 7U) != 0U || be32((uintptr_t)x0) != FDT_MAGIC) {
		puts_uart("payload: no device tree in x0\n");
		semihost_exit(2);
		return;
	}
	puts_uart("payload: fdt ok, totalsize ");
	putdec(be32((uintptr_t)x0 + 4U));
	puts_uart("\n");
	modules = walk_fdt((uintptr_t)x0);
	if (modules < 0) {
		puts_uart("payload: malformed device tree\n");
		semihost_exit(3);
		return;
	}
	puts_uart("payload: ");
	putdec((uint64_t)modules);
	puts_uart(" modules\npayload: done\n");
	semihost_exit(0);
}
