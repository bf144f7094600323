/* SPDX-License-Identifier: MIT */
/* String routines for the freestanding hypervisor build. */
#include <bulkhead/lib.h>

/*
 * Eight bytes at a time when both ends are 8-byte aligned (pages, pools,
 * partition structures, grant copies: most of what the hypervisor copies),
 * bytes otherwise. may_alias: these words stand for any object type.
 */
typedef uint64_t __attribute__((may_alias)) word_t;

/*
 * Ascending word copy, 128 bytes a step: a step loads all sixteen words
 * before it stores any (ldp/stp pairs), so it is also right for an
 * overlapping move towards lower addresses (dst below src): a step only
 * overwrites source words that earlier steps or the step itself already read.
 */
static inline void words_up(word_t *d, const word_t *s, size_t words)
{
	size_t i = 0U;

	/* LOOP-BOUND: counter: i grows by 16 while 16 or more of the words remain. */
	for (; (words - i) >= 16U; i += 16U) {
		word_t w0 = s[i];
		word_t w1 = s[i + 1U];
		word_t w2 = s[i + 2U];
		word_t w3 = s[i + 3U];
		word_t w4 = s[i + 4U];
		word_t w5 = s[i + 5U];
		word_t w6 = s[i + 6U];
		word_t w7 = s[i + 7U];
		word_t w8 = s[i + 8U];
		word_t w9 = s[i + 9U];
		word_t w10 = s[i + 10U];
		word_t w11 = s[i + 11U];
		word_t w12 = s[i + 12U];
		word_t w13 = s[i + 13U];
		word_t w14 = s[i + 14U];
		word_t w15 = s[i + 15U];

		d[i] = w0;
		d[i + 1U] = w1;
		d[i + 2U] = w2;
		d[i + 3U] = w3;
		d[i + 4U] = w4;
		d[i + 5U] = w5;
		d[i + 6U] = w6;
		d[i + 7U] = w7;
		d[i + 8U] = w8;
		d[i + 9U] = w9;
		d[i + 10U] = w10;
		d[i + 11U] = w11;
		d[i + 12U] = w12;
		d[i + 13U] = w13;
		d[i + 14U] = w14;
		d[i + 15U] = w15;
	}
	for (; i < words; i++) {
		d[i] = s[i];
	}
}

/* Descending word copy, 64 bytes a step, the mirror of words_up: for dst above src. */
static void words_down(word_t *d, const word_t *s, size_t words)
{
	size_t i = words;

	/* LOOP-BOUND: counter: i falls by 8 while 8 or more words remain below it. */
	for (; i >= 8U; i -= 8U) {
		word_t w0 = s[i - 8U];
		word_t w1 = s[i - 7U];
		word_t w2 = s[i - 6U];
		word_t w3 = s[i - 5U];
		word_t w4 = s[i - 4U];
		word_t w5 = s[i - 3U];
		word_t w6 = s[i - 2U];
		word_t w7 = s[i - 1U];

		d[i - 8U] = w0;
		d[i - 7U] = w1;
		d[i - 6U] = w2;
		d[i - 5U] = w3;
		d[i - 4U] = w4;
		d[i - 3U] = w5;
		d[i - 2U] = w6;
		d[i - 1U] = w7;
	}
	for (; i > 0U; i--) {
		d[i - 1U] = s[i - 1U];
	}
}

static bool both_aligned(const uint8_t *a, const uint8_t *b)
{
	return (((uintptr_t)a | (uintptr_t)b) & 7U) == 0U;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t i = 0U;

	if (both_aligned(d, s)) {
		i = n & ~(size_t)7U;
		words_up((word_t *)(void *)d, (const word_t *)(const void *)s, n / 8U);
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
	size_t words = both_aligned(d, s) ? (n / 8U) : 0U;
	size_t i;

	/* Descending only when dst overlaps the end of src: any other move copies up. */
	if (((uintptr_t)d <= (uintptr_t)s) || (((uintptr_t)d - (uintptr_t)s) >= n)) {
		words_up((word_t *)(void *)d, (const word_t *)(const void *)s, words);
		for (i = words * 8U; i < n; i++) {
			d[i] = s[i];
		}
	} else {
		/* Highest bytes first: the tail past the last whole word, then the words. */
		for (i = n; i > (words * 8U); i--) {
			d[i - 1U] = s[i - 1U];
		}
		words_down((word_t *)(void *)d, (const word_t *)(const void *)s, words);
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
