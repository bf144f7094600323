/* SPDX-License-Identifier: MIT */
/*
 * Hypervisor console. Partition output is collected per line and printed
 * with the partition's name in front, so interleaved output of several
 * partitions stays readable and a test can attribute every line.
 */
#include <bulkhead/arch.h>
#include <bulkhead/console.h>
#include <bulkhead/domain.h>
#include <bulkhead/lib.h>
#include <bulkhead/vpl011.h>

#define CONSOLE_LINE_LEN U(160)
#define CONSOLE_IN_LEN   U(64)
#define CONSOLE_CTRL_A   U(1)

struct console_line {
	char buf[CONSOLE_LINE_LEN];
	uint32_t len;
	uint64_t t0;     /* CONFIG_CONSOLE_TIMESTAMPS: when the line's first byte came */
	char in[CONSOLE_IN_LEN];
	uint32_t in_head;
	uint32_t in_tail;
} __cacheline_aligned;

static spinlock_t console_lock = SPIN_LOCK_INIT(LOCK_CLASS_CONSOLE);
static struct console_line lines[CONFIG_MAX_DOMAINS];

static void console_puts_locked(const char *s, size_t n)
{
	size_t i;

	for (i = 0U; i < n; i++) {
		if (s[i] == '\n') {
			arch_console_putc('\r');
		}
		arch_console_putc(s[i]);
	}
}

void printk(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;
	irqflags_t f;

	va_start(ap, fmt);
	n = bh_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0) {
		return;
	}
	f = local_irq_save();
	spin_lock(&console_lock);
	console_puts_locked(buf, strnlen(buf, sizeof(buf)));
	spin_unlock(&console_lock);
	local_irq_restore(f);
}

static void console_puts_unlocked(const char *buf, size_t size)
{
	size_t i;

	for (i = 0U; (i < size) && (buf[i] != '\0'); i++) {
		if (buf[i] == '\n') {
			arch_console_putc('\r');
		}
		arch_console_putc(buf[i]);
	}
}

void printk_unlocked(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	(void)bh_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_puts_unlocked(buf, sizeof(buf));
}

__noreturn void panic(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	(void)bh_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* No lock: the console may be what failed. */
	console_puts_unlocked(buf, sizeof(buf));
	arch_console_putc('\r');
	arch_console_putc('\n');
	arch_panic_halt();
}

static void console_flush_line(const struct domain *d, struct console_line *l)
{
	char prefix[DOMAIN_NAME_LEN + 28U];
	int n;

#if defined(CONFIG_CONSOLE_TIMESTAMPS) && CONFIG_CONSOLE_TIMESTAMPS
	n = bh_snprintf(prefix, sizeof(prefix), "[%llu] (%s) ", (unsigned long long)l->t0,
			d->cfg.name);
#else
	n = bh_snprintf(prefix, sizeof(prefix), "(%s) ", d->cfg.name);
#endif
	if ((n < 0) || ((size_t)n >= sizeof(prefix))) {
		n = 0;
	}
	console_puts_locked(prefix, (size_t)n);
	console_puts_locked(l->buf, l->len);
	console_puts_locked("\n", 1U);
	l->len = 0U;
}

void console_domain_write(struct domain *d, const char *buf, size_t len)
{
	struct console_line *l = &lines[d->domain_id - 1U];
	irqflags_t f = local_irq_save();
	size_t i;

	spin_lock(&console_lock);
	for (i = 0U; i < len; i++) {
		char c = buf[i];
		if (c == '\n') {
			console_flush_line(d, l);
		} else if ((c >= ' ') && (c <= '~')) {
			/* Like Xen: drop non-printables so a guest cannot drive the terminal. */
#if defined(CONFIG_CONSOLE_TIMESTAMPS) && CONFIG_CONSOLE_TIMESTAMPS
			if (l->len == 0U) {
				l->t0 = arch_now_ns();
			}
#endif
			l->buf[l->len] = c;
			l->len++;
			if (l->len == CONSOLE_LINE_LEN) {
				console_flush_line(d, l);
			}
		} else {
			/* dropped */
		}
	}
	spin_unlock(&console_lock);
	local_irq_restore(f);
}

/* Ctrl-A three times moves input to the next partition (Xen's convention). */
void console_input_byte(char c)
{
	/* Index of the partition receiving input; CONFIG_MAX_DOMAINS = hypervisor. */
	static uint32_t console_focus;
	static uint32_t ctrl_a_count;
	irqflags_t f = local_irq_save();
	bool switched = false;
	bool queued = false;
	char key = '\0';
	uint32_t focus;

	spin_lock(&console_lock);
	if ((uint8_t)c == CONSOLE_CTRL_A) {
		ctrl_a_count++;
		if (ctrl_a_count == 3U) {
			uint32_t k;
			ctrl_a_count = 0U;
			/* The next partition that exists (slots without one are skipped), then the hypervisor. */
			for (k = 0U; k <= CONFIG_MAX_DOMAINS; k++) {
				console_focus = (console_focus + 1U) % (CONFIG_MAX_DOMAINS + 1U);
				if ((console_focus == CONFIG_MAX_DOMAINS) ||
				    (domain_by_id((domid_t)(console_focus + 1U)) != NULL)) {
					break;
				}
			}
			switched = true;
		}
	} else {
		ctrl_a_count = 0U;
		if (console_focus < CONFIG_MAX_DOMAINS) {
			struct console_line *l = &lines[console_focus];
			uint32_t next = (l->in_head + 1U) % CONSOLE_IN_LEN;
			if (next != l->in_tail) {
				l->in[l->in_head] = c;
				l->in_head = next;
				queued = true;
			}
		} else {
			key = c; /* input for the hypervisor: a debug key */
		}
	}
	focus = console_focus;
	spin_unlock(&console_lock);
	local_irq_restore(f);
	if (queued) {
		struct domain *d = domain_by_id((domid_t)(focus + 1U));

		/* Outside the console lock: both take locks ordered before it. An
		 * emulated UART raises its RX interrupt; a console_io reader that
		 * bound VIRQ_CONSOLE gets its event. */
		vpl011_rx_notify(d);
		if (d != NULL) {
			evtchn_send_virq(&d->vcpu[0], VIRQ_CONSOLE);
		}
	}
	/* Debug keys (console on the hypervisor), run outside the console lock. */
	if (key == 'l') {
		lock_profile_print();
	} else if (key == 'L') {
		lock_profile_reset();
		printk("lock profile: reset\n");
	} else if (key == 'h') {
		printk("debug keys: l lock profile, L reset it, h this help\n");
	} else {
		/* other keys are ignored */
	}
	if (switched) {
		if (focus < CONFIG_MAX_DOMAINS) {
			printk("*** console input to d%u (type Ctrl-A three times to switch)\n",
			       focus + 1U);
		} else {
			printk("*** console input to the hypervisor\n");
		}
	}
}

size_t console_domain_read(struct domain *d, char *buf, size_t len)
{
	struct console_line *l = &lines[d->domain_id - 1U];
	irqflags_t f = local_irq_save();
	size_t n = 0U;

	spin_lock(&console_lock);
	while ((n < len) && (l->in_tail != l->in_head)) {
		buf[n] = l->in[l->in_tail];
		l->in_tail = (l->in_tail + 1U) % CONSOLE_IN_LEN;
		n++;
	}
	spin_unlock(&console_lock);
	local_irq_restore(f);
	return n;
}
