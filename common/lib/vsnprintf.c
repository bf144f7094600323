/* SPDX-License-Identifier: MIT */
/*
 * A small bounded formatter: %s %c %d %i %u %x %X %p with l/ll/z modifiers,
 * '0' padding and a width. Enough for the console; no floating point.
 */
#include <bulkhead/console.h>

struct fmt_out {
	char *buf;
	size_t size;
	size_t pos;
};

static void out_char(struct fmt_out *o, char c)
{
	if ((o->pos + 1U) < o->size) {
		o->buf[o->pos] = c;
	}
	o->pos++;
}

static void out_num(struct fmt_out *o, uint64_t val, unsigned int base, bool neg,
		    unsigned int min_width, char pad)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	unsigned int n = 0U;
	uint64_t v = val;
	unsigned int width = min_width;

	do {
		tmp[n] = digits[v % base];
		n++;
		v /= base;
	} while ((v != 0U) && (n < sizeof(tmp)));
	if (neg) {
		if (pad == '0') {
			out_char(o, '-');
		} else {
			tmp[n] = '-';
			n++;
		}
		if (width > 0U) {
			width--;
		}
	}
	while (width > n) {
		out_char(o, pad);
		width--;
	}
	while (n > 0U) {
		n--;
		out_char(o, tmp[n]);
	}
}

int bh_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_out o = { buf, size, 0U };
	const char *p;

	p = fmt;
	/* LOOP-BOUND: each round consumes at least one character of the NUL-terminated format, a
	 * literal of the hypervisor image. */
	while (*p != '\0') {
		unsigned int width = 0U;
		unsigned int lng = 0U;
		char pad = ' ';

		if (*p != '%') {
			out_char(&o, *p);
			p++;
			continue;
		}
		p++;
		if (*p == '0') {
			pad = '0';
			p++;
		}
		/* LOOP-BOUND: consumes one digit of the NUL-terminated format per round. */
		while ((*p >= '0') && (*p <= '9')) {
			width = (width * 10U) + (unsigned int)(*p - '0');
			p++;
		}
		/* LOOP-BOUND: consumes one length modifier of the NUL-terminated format per round.
		 * */
		while ((*p == 'l') || (*p == 'z')) {
			lng++;
			p++;
		}
		switch (*p) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (s == NULL) {
				s = "(null)";
			}
			/* LOOP-BOUND: one character per round of a NUL-terminated string:
			 * hypervisor literals and names the configuration copied with a length
			 * limit; guest console output is written by length, never through %s. */
			while (*s != '\0') {
				out_char(&o, *s);
				s++;
			}
			break;
		}
		case 'c':
			out_char(&o, (char)va_arg(ap, int));
			break;
		case 'd':
		case 'i': {
			int64_t v = (lng > 0U) ? va_arg(ap, long) : (int64_t)va_arg(ap, int);
			bool neg = v < 0;
			out_num(&o, neg ? (uint64_t)0U - (uint64_t)v : (uint64_t)v, 10U, neg, width, pad);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v = (lng > 0U) ? va_arg(ap, unsigned long) : (uint64_t)va_arg(ap, unsigned int);
			out_num(&o, v, (*p == 'u') ? 10U : 16U, false, width, pad);
			break;
		}
		case 'p':
			out_char(&o, '0');
			out_char(&o, 'x');
			out_num(&o, (uint64_t)(uintptr_t)va_arg(ap, void *), 16U, false, width, pad);
			break;
		case '%':
			out_char(&o, '%');
			break;
		default:
			out_char(&o, '%');
			if (*p == '\0') {
				p--;
			} else {
				out_char(&o, *p);
			}
			break;
		}
		p++;
	}
	if (size > 0U) {
		o.buf[(o.pos < size) ? o.pos : (size - 1U)] = '\0';
	}
	return (int)o.pos;
}

int bh_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = bh_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
