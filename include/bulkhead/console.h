/* SPDX-License-Identifier: MIT */
/* Hypervisor console: printk, panic, per-partition output. */
#ifndef BULKHEAD_CONSOLE_H
#define BULKHEAD_CONSOLE_H

#include <stdarg.h>
#include <bulkhead/types.h>

struct domain;

int bh_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int bh_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* printk for the fatal path: takes no lock, so it cannot deadlock on a console
 * lock this CPU holds or re-enter panic through the lock-order check. */
void printk_unlocked(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write bytes of partition d's output, prefixed per line with its name. */
void console_domain_write(struct domain *d, const char *buf, size_t len);
/* Feed one byte received on the hypervisor UART (input switching). */
void console_input_byte(char c);
/* Read up to len bytes of pending input for d; returns the count. */
size_t console_domain_read(struct domain *d, char *buf, size_t len);

#endif
