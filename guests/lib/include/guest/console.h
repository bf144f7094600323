/* SPDX-License-Identifier: MIT */
/*
 * Console: lines go out through the console_io hypercall (one hypercall per
 * line, so lines of two vCPUs never interleave), or through the emulated
 * PL011 at 0x22000000 once console_use_pl011() has switched to it.
 */
#ifndef GUEST_CONSOLE_H
#define GUEST_CONSOLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

void console_putc(char c);
void console_puts(const char *s);
void console_flush(void);
/* Switch to the vpl011 (false when the partition has none). */
bool console_use_pl011(bool on);

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int snprintf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t len, const char *fmt, va_list ap);

#endif
