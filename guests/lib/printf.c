/* SPDX-License-Identifier: MIT */
/*
 * printf subset: %d %i %u %x %X %p %s %c %%, flags '0' '-', width, and the
 * l / ll / z length modifiers. Enough for test output, nothing more.
 */
#include <guest/console.h>
#include <guest/rt.h>

struct out {
	char *buf;      /* NULL: straight to the console */
	size_t len;
	size_t pos;
};

static void out_c(struct out *o, char c)
{
	if (!o->buf)
		console_putc(c);
	else if (o->pos + 1U < o->len)
		o->buf[o->pos] = c;
	o->pos++;
}

static void out_num(struct out *o, uint64_t v, unsigned int base, bool upper, bool neg,
		    unsigned int width, char pad, bool left)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	unsigned int n = 0, len;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	len = n + (neg ? 1U : 0U);
	if (neg && pad == '0')
		out_c(o, '-');
	for (; !left && len < width; len++)
		out_c(o, pad);
	if (neg && pad != '0')
		out_c(o, '-');
	while (n)
		out_c(o, tmp[--n]);
	for (; left && len < width; len++)
		out_c(o, ' ');
}

static void format(struct out *o, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		unsigned int width = 0, lng = 0;
		char pad = ' ';
		bool left = false;
		uint64_t u;
		int64_t s;

		if (*fmt != '%') {
			out_c(o, *fmt);
			continue;
		}
		fmt++;
		for (; *fmt == '0' || *fmt == '-'; fmt++) {
			if (*fmt == '0')
				pad = '0';
			else
				left = true;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10U + (unsigned int)(*fmt - '0');
		for (; *fmt == 'l' || *fmt == 'z'; fmt++)
			lng++;
		switch (*fmt) {
		case 'd':
		case 'i':
			s = lng ? va_arg(ap, int64_t) : va_arg(ap, int);
			out_num(o, s < 0 ? (uint64_t)-s : (uint64_t)s, 10, false, s < 0, width, pad,
				left);
			break;
		case 'u':
		case 'x':
		case 'X':
			u = lng ? va_arg(ap, uint64_t) : va_arg(ap, unsigned int);
			out_num(o, u, *fmt == 'u' ? 10U : 16U, *fmt == 'X', false, width, pad, left);
			break;
		case 'p':
			out_c(o, '0');
			out_c(o, 'x');
			out_num(o, (uint64_t)va_arg(ap, void *), 16, false, false, width, pad, left);
			break;
		case 's': {
			const char *str = va_arg(ap, const char *);
			size_t n;

			if (!str)
				str = "(null)";
			n = strlen(str);
			for (; !left && n < width; n++)
				out_c(o, ' ');
			while (*str)
				out_c(o, *str++);
			for (; left && n < width; n++)
				out_c(o, ' ');
			break;
		}
		case 'c':
			out_c(o, (char)va_arg(ap, int));
			break;
		case '%':
			out_c(o, '%');
			break;
		case '\0':
			return;
		default:
			out_c(o, '%');
			out_c(o, *fmt);
			break;
		}
	}
}

int vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .len = len, .pos = 0 };

	format(&o, fmt, ap);
	if (len)
		buf[o.pos < len ? o.pos : len - 1U] = '\0';
	return (int)o.pos;
}

int snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

int vprintf(const char *fmt, va_list ap)
{
	struct out o = { .buf = NULL, .len = 0, .pos = 0 };

	format(&o, fmt, ap);
	return (int)o.pos;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}
