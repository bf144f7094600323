/* SPDX-License-Identifier: MIT */
/*
 * Xenstore from an unmodified Linux's user space, through /dev/xen/xenbus
 * (Linux's xenbus_dev_frontend: the raw wire protocol, one request per
 * write, its reply read back). One line per check, "xstest: PASS <what>" or
 * "xstest: FAIL <what> (<why>)", then "xstest: done, N passed, M failed".
 *
 *   xstest domid=N peer=P [given=G] [storecrash=1]
 *
 * N is the partition's own domid; P another partition whose home it must
 * not see; G a partition it gives its data/inbox to (b<G>), which writes
 * data/inbox/msg there: the watch on it must fire. storecrash=1: last, it
 * writes data/crash-store (the store's crash_on node in the restart test)
 * and checks that the restarted store serves it, with a fresh tree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The wire header (Xen's io/xs_wire.h, which Linux does not export). */
struct xsd_sockmsg {
	uint32_t type;
	uint32_t req_id;
	uint32_t tx_id;
	uint32_t len;
};
enum { XS_DIRECTORY = 1, XS_READ = 2, XS_GET_PERMS = 3, XS_WATCH = 4, XS_UNWATCH = 5,
       XS_TRANSACTION_START = 6, XS_TRANSACTION_END = 7, XS_GET_DOMAIN_PATH = 10,
       XS_WRITE = 11, XS_MKDIR = 12, XS_RM = 13, XS_SET_PERMS = 14, XS_WATCH_EVENT = 15,
       XS_ERROR = 16 };

static unsigned int passed, failed;
static int fd = -1;
static uint32_t next_req = 1;
static struct {
	struct xsd_sockmsg h;
	char data[4097];
} msg;
static char events[32][256];
static unsigned int nevents;

static void result(int ok, const char *what, const char *fmt, ...)
{
	char why[256] = "";
	va_list ap;

	if (!ok && fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	if (ok) {
		passed++;
		printf("xstest: PASS %s\n", what);
	} else {
		failed++;
		printf("xstest: FAIL %s (%s)\n", what, why);
	}
	fflush(stdout);
}

/* Next message from the device, within ms; 0 or -1. */
static int next_msg(int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, ms) != 1) {
		return -1;
	}
	/* The device hands out whole messages: header, then payload. */
	n = read(fd, &msg, sizeof(msg.h));
	if (n != (ssize_t)sizeof(msg.h) || msg.h.len > 4096U) {
		return -1;
	}
	if (msg.h.len != 0U && read(fd, msg.data, msg.h.len) != (ssize_t)msg.h.len) {
		return -1;
	}
	msg.data[msg.h.len] = '\0';
	return 0;
}

static void keep_event(void)
{
	const char *path = msg.data;
	const char *token = path + strlen(path) + 1;

	if (nevents < 32U) {
		snprintf(events[nevents], sizeof(events[0]), "%.140s|%.100s", path, token);
		nevents++;
	}
}

/* A request and its reply's payload ("E..." names for errors); NULL if none came. */
static const char *req(uint32_t type, uint32_t tx, const void *p, uint32_t len, uint32_t *rtype)
{
	static char buf[sizeof(struct xsd_sockmsg) + 4096];
	struct xsd_sockmsg h = { .type = type, .req_id = next_req++, .tx_id = tx, .len = len };
	int guard;

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), p, len);
	if (write(fd, buf, sizeof(h) + len) != (ssize_t)(sizeof(h) + len)) {
		return strerror(errno);
	}
	for (guard = 0; guard < 64; guard++) {
		if (next_msg(20000) != 0) {
			return "no reply";
		}
		if (msg.h.type == XS_WATCH_EVENT) {
			keep_event();
			continue;
		}
		if (rtype != NULL) {
			*rtype = msg.h.type;
		}
		return msg.data;
	}
	return "no reply";
}

static const char *one(uint32_t type, uint32_t tx, const char *path)
{
	return req(type, tx, path, (uint32_t)strlen(path) + 1, NULL);
}

static const char *two(uint32_t type, uint32_t tx, const char *a, const char *b, int nul)
{
	static char p[1024];
	size_t al = strlen(a), bl = strlen(b);

	memcpy(p, a, al + 1);
	memcpy(p + al + 1, b, bl + 1);
	return req(type, tx, p, (uint32_t)(al + 1 + bl + (nul ? 1 : 0)), NULL);
}

/* nul-separated list -> comma-separated (DIRECTORY, GET_PERMS). */
static const char *joined(const char *r)
{
	uint32_t i;

	if (r != msg.data || msg.h.type == XS_ERROR) {
		return r;
	}
	for (i = 0; i + 1 < msg.h.len; i++) {
		if (msg.data[i] == '\0') {
			msg.data[i] = ',';
		}
	}
	return msg.data;
}

static void expect(const char *what, const char *got, const char *want)
{
	result(strcmp(got, want) == 0, what, "got \"%s\", wanted \"%s\"", got, want);
}

static int wait_event(const char *want, int ms)
{
	struct timespec t0, t;
	unsigned int i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		for (i = 0; i < nevents; i++) {
			if (strcmp(events[i], want) == 0) {
				return 1;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > ms) {
			return 0;
		}
		if (next_msg(500) == 0 && msg.h.type == XS_WATCH_EVENT) {
			keep_event();
		}
	}
}

int main(int argc, char **argv)
{
	unsigned int domid = 0, peer = 0, given = 0, storecrash = 0;
	char path[128], want[128], perms[64];
	struct stat st;
	uint32_t tx, rt;
	const char *r;
	int i;

	for (i = 1; i < argc; i++) {
		sscanf(argv[i], "domid=%u", &domid);
		sscanf(argv[i], "peer=%u", &peer);
		sscanf(argv[i], "given=%u", &given);
		sscanf(argv[i], "storecrash=%u", &storecrash);
	}
	result(stat("/sys/bus/xen", &st) == 0, "/sys/bus/xen exists", "%s", strerror(errno));
	fd = open("/dev/xen/xenbus", O_RDWR);
	result(fd >= 0, "open /dev/xen/xenbus", "%s", strerror(errno));
	if (fd < 0) {
		printf("xstest: done, %u passed, %u failed\n", passed, failed);
		return 1;
	}
	/* Its own home, as the store built it. */
	snprintf(want, sizeof(want), "%u", domid);
	expect("read domid", one(XS_READ, 0, "domid"), want);
	snprintf(want, sizeof(want), "/local/domain/%u", domid);
	expect("get_domain_path", req(XS_GET_DOMAIN_PATH, 0, want + 14, (uint32_t)strlen(want + 14) + 1, NULL), want);
	r = one(XS_READ, 0, "memory/target");
	result(atoi(r) > 0, "read memory/target", "got \"%s\"", r);
	snprintf(want, sizeof(want), "n%u", domid);
	expect("home is its own", joined(one(XS_GET_PERMS, 0, "name")), want);
	/* Its own nodes: write, read back, list, remove. */
	/* Also after a restart of this partition: its home is made again. */
	expect("data/x not there yet", one(XS_READ, 0, "data/x"), "ENOENT");
	expect("write data/x", two(XS_WRITE, 0, "data/x", "from linux", 0), "OK");
	expect("read data/x", one(XS_READ, 0, "data/x"), "from linux");
	expect("mkdir data/dir/sub", one(XS_MKDIR, 0, "data/dir/sub"), "OK");
	expect("directory data/dir", joined(one(XS_DIRECTORY, 0, "data/dir")), "sub");
	expect("rm data/dir", one(XS_RM, 0, "data/dir"), "OK");
	expect("read data/dir/sub", one(XS_READ, 0, "data/dir/sub"), "ENOENT");
	/* A transaction. */
	r = req(XS_TRANSACTION_START, 0, "", 1, &rt);
	tx = (uint32_t)strtoul(r, NULL, 10);
	result(rt == XS_TRANSACTION_START && tx != 0, "transaction start", "got \"%s\"", r);
	expect("write data/t in the transaction", two(XS_WRITE, tx, "data/t", "1", 0), "OK");
	expect("read data/t outside", one(XS_READ, 0, "data/t"), "ENOENT");
	expect("commit", req(XS_TRANSACTION_END, tx, "T", 2, NULL), "OK");
	expect("read data/t", one(XS_READ, 0, "data/t"), "1");
	/* Another partition's home: refused. */
	snprintf(path, sizeof(path), "/local/domain/%u/name", peer);
	expect("read peer's name", one(XS_READ, 0, path), "EACCES");
	snprintf(path, sizeof(path), "/local/domain/%u/data/intruder", peer);
	expect("write peer's data", two(XS_WRITE, 0, path, "x", 0), "EACCES");
	expect("list /local/domain", joined(one(XS_DIRECTORY, 0, "/local/domain")), "EACCES");
	/* A watch with its initial firing. */
	expect("watch data", two(XS_WATCH, 0, "data", "xstest-data", 1), "OK");
	result(wait_event("data|xstest-data", 5000), "initial watch event", "none");
	expect("write data/w", two(XS_WRITE, 0, "data/w", "1", 0), "OK");
	result(wait_event("data/w|xstest-data", 5000), "watch event for data/w", "none");
	if (given != 0) {
		/* Give the inbox to a bare-metal partition, watch it, wait for its write. */
		/* SET_PERMS payload: path, then each permission, each nul-terminated. */
		int pl = snprintf(perms, sizeof(perms), "data/inbox%cn%u%cb%u", '\0', domid, '\0',
				  given);
		expect("mkdir data/inbox", one(XS_MKDIR, 0, "data/inbox"), "OK");
		expect("give data/inbox", req(XS_SET_PERMS, 0, perms, (uint32_t)pl + 1, NULL), "OK");
		snprintf(want, sizeof(want), "n%u,b%u", domid, given);
		expect("its permissions", joined(one(XS_GET_PERMS, 0, "data/inbox")), want);
		expect("watch data/inbox", two(XS_WATCH, 0, "data/inbox", "inbox", 1), "OK");
		expect("write data/inbox/ready", two(XS_WRITE, 0, "data/inbox/ready", "1", 0), "OK");
		result(wait_event("data/inbox/msg|inbox", 60000), "watch fired: the bare-metal partition wrote data/inbox/msg", "no event");
	}
	expect("unwatch data", two(XS_UNWATCH, 0, "data", "xstest-data", 1), "OK");
	/* The kernel's own xenbus watches control/sysrq: it prints the sysrq help. */
	expect("write control/sysrq", two(XS_WRITE, 0, "control/sysrq", "h", 0), "OK");
	sleep(1);
	if (storecrash) {
		expect("write data/crash-store", two(XS_WRITE, 0, "data/crash-store", "1", 0), "OK");
		printf("xstest: the store is restarting\n");
		fflush(stdout);
		sleep(3);
		expect("data/x after the store's restart (a fresh tree)", one(XS_READ, 0, "data/x"),
		       "ENOENT");
		expect("write data/y to the new store", two(XS_WRITE, 0, "data/y", "2", 0), "OK");
		expect("read data/y", one(XS_READ, 0, "data/y"), "2");
		snprintf(want, sizeof(want), "%u", domid);
		expect("read domid from the new store", one(XS_READ, 0, "domid"), want);
	}
	close(fd);
	printf("xstest: done, %u passed, %u failed\n", passed, failed);
	return failed != 0;
}
