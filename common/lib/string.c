/* SPDX-License-Identifier: MIT */
/* String routines for the freestanding hypervisor build. */
#include <bulkhead/lib.h>

/*
 * Eight bytes at a time when both ends are 8-byte aligned (pages, pools,
 * partition structures: most of what boot copies and clears), bytes
 * otherwise. may_alias: these words stand for any object type.
 */
typedef uint64_t __attribute__((may_alias)) word_t;

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t i = 0U;

	if ((((uintptr_t)d | (uintptr_t)s) & 7U) == 0U) {
		/* LOOP-BOUND: counter: i grows by 8 while 8 or more of the n bytes remain. */
		for (; (n - i) >= 8U; i += 8U) {
			*(word_t *)(void *)&d[i] = *(const word_t *)(const void *)&s[i];
		}
	}
	for (; i < n; i++) {
		d[i] = s[i];
	}
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t i;

	if ((uintptr_t)d <= (uintptr_t)s) {
		for (i = 0U; i < n; i++) {
			d[i] = s[i];
		}
	} else {
		for (i = n; i > 0U; i--) {
			d[i - 1U] = s[i - 1U];
		}
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;
	word_t w = (uint64_t)(uint8_t)c * UINT64_C(0x0101010101010101);
	size_t i = 0U;

	if (((uintptr_t)d & 7U) == 0U) {
		/* LOOP-BOUND: counter: i grows by 8 while 8 or more of the n bytes remain. */
		for (; (n - i) >= 8U; i += 8U) {
			*(word_t *)(void *)&d[i] = w;
		}
	}
	for (; i < n; i++) {
		d[i] = (uint8_t)c;
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a;
	const uint8_t *y = b;
	size_t i;

	for (i = 0U; i < n; i++) {
		if (x[i] != y[i]) {
			return (int)x[i] - (int)y[i];
		}
	}
	return 0;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0U;

	while ((n < max) && (s[n] != '\0')) {
		n++;
	}
	return n;
}

size_t strlen(const char *s)
{
	return strnlen(s, SIZE_MAX);
}

int strncmp(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0U; i < n; i++) {
		if ((a[i] != b[i]) || (a[i] == '\0')) {
			return (int)(uint8_t)a[i] - (int)(uint8_t)b[i];
		}
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, SIZE_MAX);
}
