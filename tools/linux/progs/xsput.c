/* SPDX-License-Identifier: MIT */
/*
 * xsput PATH VALUE: one xenstore WRITE from Linux's user space through
 * /dev/xen/xenbus (the raw wire protocol: a request per write, its reply
 * read back). Prints "xsput: PATH = VALUE: OK" or the error's name; exits
 * 0 on OK. The virtual-disk scenarios use it to tell a bare-metal partition
 * that Linux has reached a point (tools/linux/scripts/blktest signal=).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The wire header (Xen's io/xs_wire.h, which Linux does not export). */
struct xsd_sockmsg {
	uint32_t type;
	uint32_t req_id;
	uint32_t tx_id;
	uint32_t len;
};
#define XS_WRITE 11U
#define XS_WATCH_EVENT 15U

int main(int argc, char **argv)
{
	static char buf[sizeof(struct xsd_sockmsg) + 4096];
	struct xsd_sockmsg h = { .type = XS_WRITE, .req_id = 1 };
	size_t pl;
	size_t vl;
	int fd;
	int guard;

	if (argc != 3) {
		printf("xsput: usage: xsput PATH VALUE\n");
		return 2;
	}
	pl = strlen(argv[1]) + 1;
	vl = strlen(argv[2]);
	if (pl + vl > 4096) {
		printf("xsput: FAIL too long\n");
		return 2;
	}
	fd = open("/dev/xen/xenbus", O_RDWR);
	if (fd < 0) {
		printf("xsput: FAIL /dev/xen/xenbus: %s\n", strerror(errno));
		return 1;
	}
	h.len = (uint32_t)(pl + vl);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), argv[1], pl);
	memcpy(buf + sizeof(h) + pl, argv[2], vl);
	if (write(fd, buf, sizeof(h) + pl + vl) != (ssize_t)(sizeof(h) + pl + vl)) {
		printf("xsput: FAIL write: %s\n", strerror(errno));
		return 1;
	}
	/* The device hands out whole messages: header, then payload. */
	for (guard = 0; guard < 16; guard++) {
		struct xsd_sockmsg r;
		if ((read(fd, &r, sizeof(r)) != (ssize_t)sizeof(r)) || (r.len > 4096) ||
		    ((r.len != 0) && (read(fd, buf, r.len) != (ssize_t)r.len))) {
			printf("xsput: FAIL no reply\n");
			return 1;
		}
		buf[r.len] = '\0';
		if (r.type == XS_WATCH_EVENT) {
			continue;
		}
		printf("xsput: %s = %s: %s\n", argv[1], argv[2], (r.type == XS_WRITE) ? "OK" : buf);
		return (r.type == XS_WRITE) ? 0 : 1;
	}
	return 1;
}
