/* SPDX-License-Identifier: MIT */
/*
 * Small helpers the freestanding runtime does not have, and the arena: a
 * bitmap of XS_UNIT-byte units, first fit, so every allocation and free is
 * bounded by the size of the map and nothing fragments the node table.
 */
#include "xs.h"


size_t xs_strnlen(const char *s, size_t max)
{
	size_t i;

	for (i = 0U; (i < max) && (s[i] != '\0'); i++) {
	}
	return i;
}

const void *xs_memchr(const void *s, int c, size_t n)
{
	const uint8_t *p = s;
	size_t i;

	for (i = 0U; i < n; i++) {
		if (p[i] == (uint8_t)c) {
			return &p[i];
		}
	}
	return NULL;
}

uint32_t xs_fmt_u32(char *buf, uint32_t v)
{
	return xs_fmt_u64(buf, v);
}

uint32_t xs_fmt_u64(char *buf, uint64_t v)
{
	char tmp[20];
	uint32_t n = 0U;
	uint32_t i;

	do {
		tmp[n] = (char)('0' + (v % 10U));
		n++;
		v /= 10U;
	} while ((v != 0U) && (n < sizeof(tmp)));
	for (i = 0U; i < n; i++) {
		buf[i] = tmp[n - 1U - i];
	}
	return n;
}

/* Decimal, or 0x hex as strtol(base 0) reads it; the whole string, at most max. */
bool xs_parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v = 0U;
	uint32_t base = 10U;
	size_t i = 0U;
	size_t start;

	if ((s[0] == '0') && ((s[1] == 'x') || (s[1] == 'X'))) {
		base = 16U;
		i = 2U;
	}
	start = i;
	for (; s[i] != '\0'; i++) {
		uint32_t d;
		char ch = s[i];
		if ((ch >= '0') && (ch <= '9')) {
			d = (uint32_t)(ch - '0');
		} else if ((base == 16U) && (ch >= 'a') && (ch <= 'f')) {
			d = (uint32_t)(ch - 'a') + 10U;
		} else if ((base == 16U) && (ch >= 'A') && (ch <= 'F')) {
			d = (uint32_t)(ch - 'A') + 10U;
		} else {
			return false;
		}
		v = (v * base) + d;
		if (v > max) {
			return false;
		}
	}
	if (i == start) {
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

bool xs_parse_dec(const char *s, uint32_t max, uint32_t *out)
{
	return (s[0] != '\0') && (s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) &&
	       xs_parse_u32(s, max, out);
}

/* FNV-1a. */
uint32_t xs_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261U;
	size_t i;

	for (i = 0U; i < n; i++) {
		h ^= (uint8_t)s[i];
		h *= 16777619U;
	}
	return h;
}

/* ------------------------------------------------------------ arena */

#define ARENA_UNITS (XS_ARENA_BYTES / XS_UNIT)
#define ARENA_WORDS (ARENA_UNITS / 64U)
_Static_assert((ARENA_UNITS % 64U) == 0U, "arena is whole bitmap words");
_Static_assert(ARENA_UNITS <= 0x10000U * 64U, "unit offsets fit");

void xs_arena_init(void)
{
	(void)memset(xs.arena_map, 0, sizeof(xs.arena_map));
	xs.arena_used = 0U;
	xs.arena_hint = 0U;
}

static bool unit_used(uint32_t u)
{
	return ((xs.arena_map[u / 64U] >> (u % 64U)) & 1U) != 0U;
}

static void units_mark(uint32_t u, uint32_t n, bool used)
{
	uint32_t i;

	for (i = u; i < u + n; i++) {
		if (used) {
			xs.arena_map[i / 64U] |= (uint64_t)1U << (i % 64U);
		} else {
			xs.arena_map[i / 64U] &= ~((uint64_t)1U << (i % 64U));
		}
	}
}

bool xs_arena_alloc(uint32_t bytes, uint32_t *off, uint16_t *units)
{
	uint32_t need = (bytes + XS_UNIT - 1U) / XS_UNIT;
	uint32_t run = 0U;
	uint32_t u;

	if (need == 0U) {
		need = 1U;
	}
	if ((need > 0xffffU) || (need > ARENA_UNITS - xs.arena_used)) {
		return false;
	}
	/*
	 * First fit from the first word that may have a free unit; whole used
	 * words are skipped 64 units at a time.
	 */
	for (u = xs.arena_hint * 64U; u < ARENA_UNITS;) {
		if (((u % 64U) == 0U) && (xs.arena_map[u / 64U] == ~(uint64_t)0U)) {
			if (run == 0U && (u / 64U) == xs.arena_hint) {
				xs.arena_hint++;
			}
			run = 0U;
			u += 64U;
			continue;
		}
		if (unit_used(u)) {
			run = 0U;
		} else {
			run++;
			if (run == need) {
				uint32_t first = u + 1U - need;
				units_mark(first, need, true);
				xs.arena_used += need;
				*off = first * XS_UNIT;
				*units = (uint16_t)need;
				return true;
			}
		}
		u++;
	}
	return false;
}

void xs_arena_free(uint32_t off, uint16_t units)
{
	if (units == 0U) {
		return;
	}
	units_mark(off / XS_UNIT, units, false);
	xs.arena_used -= units;
	if ((off / XS_UNIT / 64U) < xs.arena_hint) {
		xs.arena_hint = off / XS_UNIT / 64U;
	}
}

const char *xs_err_name(enum xs_err e)
{
	static const char *const names[XS_NR_ERRS] = {
		[XS_OK] = "OK",           [XS_EINVAL] = "EINVAL",   [XS_EACCES] = "EACCES",
		[XS_EEXIST] = "EEXIST",   [XS_EISDIR] = "EISDIR",   [XS_ENOENT] = "ENOENT",
		[XS_ENOMEM] = "ENOMEM",   [XS_ENOSPC] = "ENOSPC",   [XS_EIO] = "EIO",
		[XS_ENOTEMPTY] = "ENOTEMPTY", [XS_ENOSYS] = "ENOSYS", [XS_EROFS] = "EROFS",
		[XS_EBUSY] = "EBUSY",     [XS_EAGAIN] = "EAGAIN",   [XS_EISCONN] = "EISCONN",
		[XS_E2BIG] = "E2BIG",     [XS_EPERM] = "EPERM",
	};

	return ((unsigned int)e < XS_NR_ERRS) ? names[e] : "EINVAL";
}
