/* SPDX-License-Identifier: MIT */
/* String routines for the freestanding hypervisor build. */
#include <bulkhead/lib.h>
#include <bulkhead/arch.h>

/*
 * Eight bytes at a time when both ends are 8-byte aligned (pages, pools,
 * partition structures, grant copies: most of what the hypervisor copies),
 * bytes otherwise. may_alias: these words stand for any object type.
 */
typedef uint64_t __attribute__((may_alias)) word_t;
typedef uint32_t __attribute__((may_alias)) half_t;   /* a 32-bit piece of a copy */

/* Sixteen words from s to d, all loaded before any is stored (ldp/stp pairs). */
static inline __attribute__((always_inline)) void block16(word_t *d, const word_t *s)
{
	word_t w0 = s[0];
	word_t w1 = s[1];
	word_t w2 = s[2];
	word_t w3 = s[3];
	word_t w4 = s[4];
	word_t w5 = s[5];
	word_t w6 = s[6];
	word_t w7 = s[7];
	word_t w8 = s[8];
	word_t w9 = s[9];
	word_t w10 = s[10];
	word_t w11 = s[11];
	word_t w12 = s[12];
	word_t w13 = s[13];
	word_t w14 = s[14];
	word_t w15 = s[15];

	d[0] = w0;
	d[1] = w1;
	d[2] = w2;
	d[3] = w3;
	d[4] = w4;
	d[5] = w5;
	d[6] = w6;
	d[7] = w7;
	d[8] = w8;
	d[9] = w9;
	d[10] = w10;
	d[11] = w11;
	d[12] = w12;
	d[13] = w13;
	d[14] = w14;
	d[15] = w15;
}

/*
 * Ascending word copy: 512 bytes a step while that much is left (a 4 KiB
 * grant copy pays the loop's compare and branch 8 times, not 32), then 128.
 * Each block loads its sixteen words before it stores any, so the copy is
 * also right for an overlapping move towards lower addresses (dst below
 * src): a block only overwrites source words that earlier blocks or the
 * block itself already read.
 */
static inline __attribute__((always_inline)) void words_up(word_t *d, const word_t *s,
							    size_t words)
{
	size_t i = 0U;

	/* LOOP-BOUND: counter: i grows by 64 while 64 or more of the words remain. */
	for (; (words - i) >= 64U; i += 64U) {
		block16(&d[i], &s[i]);
		block16(&d[i + 16U], &s[i + 16U]);
		block16(&d[i + 32U], &s[i + 32U]);
		block16(&d[i + 48U], &s[i + 48U]);
	}
	/* LOOP-BOUND: counter: i grows by 16 while 16 or more of the words remain. */
	for (; (words - i) >= 16U; i += 16U) {
		block16(&d[i], &s[i]);
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

/* Bytes [from, n) of s to d. */
static inline __attribute__((always_inline)) void bytes_up(uint8_t *d, const uint8_t *s,
							    size_t from, size_t n)
{
	size_t i;

	for (i = from; i < n; i++) {
		d[i] = s[i];
	}
}

/*
 * Aligned copies of a block or more, out of line and reached by a tail
 * call: only they need the registers a block holds, so memcpy of a
 * hypercall argument or status stays a leaf that saves none.
 */
static __attribute__((noinline)) void *memcpy_blocks(void *dst, const void *src, size_t n)
{
	size_t done = 0U;

#ifdef ARCH_COPY_BLOCKS
	/* Whole 512-byte blocks the arch's way (a 4 KiB page: all of it). */
	done = n & ~(size_t)511U;
	if (done != 0U) {
		arch_copy_blocks(dst, src, done / 512U);
	}
#endif
	words_up((word_t *)(void *)((uint8_t *)dst + done),
		 (const word_t *)(const void *)((const uint8_t *)src + done), (n - done) / 8U);
	bytes_up(dst, src, n & ~(size_t)7U, n);
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t i = 0U;

	if (both_aligned(d, s)) {
		if (n >= 128U) {
			return memcpy_blocks(dst, src, n);
		}
		/* LOOP-BOUND: counter: fewer than 16 words. */
		for (; (n - i) >= 8U; i += 8U) {
			*(word_t *)(void *)&d[i] = *(const word_t *)(const void *)&s[i];
		}
	}
	/*
	 * A 32-bit field (an event port, a status with its padding) at 4-byte
	 * alignment: one load and store, not four byte steps.
	 */
	if (((n - i) >= 4U) && ((((uintptr_t)&d[i] | (uintptr_t)&s[i]) & 3U) == 0U)) {
		*(half_t *)(void *)&d[i] = *(const half_t *)(const void *)&s[i];
		i += 4U;
	}
	bytes_up(d, s, i, n);
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
		bytes_up(d, s, words * 8U, n);
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
