/* SPDX-License-Identifier: MIT */
/* console_io: partition output and input through the hypervisor console. */
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>
#include <bulkhead/console.h>
#include <bulkhead/domain.h>
#include <public/errno.h>

#define CONSOLE_IO_CHUNK U(128)

long do_console_io(unsigned int cmd, unsigned int count, xen_guest_handle_t buf)
{
	struct vcpu *v = current;
	char kbuf[CONSOLE_IO_CHUNK];

	switch (cmd) {
	case CONSOLEIO_write: {
		unsigned int done = 0U;

		/* LOOP-BOUND: at most CONFIG_CONSOLE_IO_MAX bytes per call, then a continuation;
		 * each round adds n >= 1 to done (n = MIN(count - done, chunk)). */
		while (done < count) {
			if (done >= CONFIG_CONSOLE_IO_MAX) {
				/* Bounded time per call: continue with what is left. */
				const regval_t a[HYPERCALL_NR_ARGS] = {
					cmd, count - done, buf + done, 0U, 0U };
				return hypercall_continue(3U, a);
			}
			unsigned int n = MIN(count - done, CONSOLE_IO_CHUNK);
			if (copy_from_guest(kbuf, buf + done, n) != 0) {
				return -XEN_EFAULT;
			}
			console_domain_write(v->domain, kbuf, n);
			done += n;
		}
		return 0;
	}
	case CONSOLEIO_read: {
		size_t n = console_domain_read(v->domain, kbuf, MIN(count, CONSOLE_IO_CHUNK));
		if ((n > 0U) && (copy_to_guest(buf, kbuf, n) != 0)) {
			return -XEN_EFAULT;
		}
		return (long)n;
	}
	default:
		return -XEN_ENOSYS;
	}
}
