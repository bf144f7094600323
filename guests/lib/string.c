/* SPDX-License-Identifier: MIT */
/*
 * String helpers with no unaligned access, so they work with the MMU off
 * (Device memory). memcpy and memset go eight bytes at a time when both ends
 * are 8-byte aligned, 64 bytes a step, as a real guest's would: the split
 * I/O bench copies whole pages in its persistent mode, and a byte loop there
 * (four instructions a byte) measured the guest library, not the mode.
 */
#include <guest/rt.h>

typedef uint64_t __attribute__((may_alias)) gword_t;

static int aligned8(const void *a, const void *b)
{
	return (((uintptr_t)a | (uintptr_t)b) & 7U) == 0U;
}

void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	if (((uintptr_t)d & 7U) == 0U) {
		gword_t w = (uint64_t)(unsigned char)c * 0x0101010101010101ULL;
		gword_t *q = d;

		for (; n >= 8U; n -= 8U)
			*q++ = w;
		p = (unsigned char *)q;
	}
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	if (aligned8(d, s)) {
		gword_t *dw = d;
		const gword_t *sw = s;

		for (; n >= 64U; n -= 64U, dw += 8, sw += 8) {
			gword_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
			gword_t f = sw[4], g = sw[5], h = sw[6], i = sw[7];

			dw[0] = a;
			dw[1] = b;
			dw[2] = c;
			dw[3] = e;
			dw[4] = f;
			dw[5] = g;
			dw[6] = h;
			dw[7] = i;
		}
		for (; n >= 8U; n -= 8U)
			*dw++ = *sw++;
		p = (unsigned char *)dw;
		q = (const unsigned char *)sw;
	}
	while (n--)
		*p++ = *q++;
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}
