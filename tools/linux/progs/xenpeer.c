/* SPDX-License-Identifier: MIT */
/*
 * Linux beside a bare-metal partition (guests/lnxpeer): map the page it
 * granted (gntdev), bind the event channel it opened for us
 * (/dev/xen/evtchn), time `rounds` event round trips (notify, wait for the
 * answer), then take one event the bare-metal side starts by itself.
 * Prints PASS/FAIL lines as xentest does, and
 *   "xenpeer: round trip median N ns, max M ns over R" (CLOCK_MONOTONIC_RAW:
 *   the partition's virtual counter; under QEMU -icount shift=0 one ns is
 *   one instruction, of all CPUs). With samples=1, every round's time
 *   first, in round order, ten a line: "xenpeer: rtt FIRST T T ..."
 *   (make bench-linux plots them).
 *
 *   xenpeer [peer=2] [ref=8] [rounds=1000] [static=PORT] [samples=0|1]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
typedef uint16_t domid_t;
typedef uint32_t grant_ref_t;
#include <xen/evtchn.h>
#include <xen/gntdev.h>

#define MAGIC 0x9ee71e55U
enum { CMD_IDLE = 0, CMD_PING = 1, CMD_DONE = 2 };

struct peer_page {
	uint32_t magic;
	uint32_t port;
	uint32_t cmd;
	uint32_t seq;
	uint32_t reply;
	uint32_t sessions;
	uint32_t beats;
};

static unsigned int passed, failed;

static void check(int ok, const char *what, const char *why)
{
	if (ok) {
		passed++;
		printf("xenpeer: PASS %s\n", what);
	} else {
		failed++;
		printf("xenpeer: FAIL %s (%s)\n", what, why);
	}
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static int wait_port(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint32_t port;

	if (poll(&p, 1, ms) != 1 || read(fd, &port, sizeof(port)) != sizeof(port) ||
	    write(fd, &port, sizeof(port)) != sizeof(port)) {
		return -1;
	}
	return (int)port;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static unsigned long arg(int argc, char **argv, const char *key, unsigned long def)
{
	size_t n = strlen(key);
	int i;

	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=') {
			return strtoul(argv[i] + n + 1, NULL, 0);
		}
	}
	return def;
}

int main(int argc, char **argv)
{
	unsigned int peer = (unsigned int)arg(argc, argv, "peer", 2);
	unsigned int ref = (unsigned int)arg(argc, argv, "ref", 8);
	unsigned long rounds = arg(argc, argv, "rounds", 1000);
	unsigned int sport = (unsigned int)arg(argc, argv, "static", 0);
	unsigned long samples = arg(argc, argv, "samples", 0);
	struct ioctl_gntdev_map_grant_ref map = { .count = 1 };
	struct ioctl_evtchn_bind_interdomain bind;
	struct ioctl_evtchn_notify nt;
	volatile struct peer_page *pp = MAP_FAILED;
	uint64_t *rtt = calloc(rounds + 1, sizeof(uint64_t));
	char why[160];
	int gd = open("/dev/xen/gntdev", O_RDWR);
	int ev = open("/dev/xen/evtchn", O_RDWR);
	int local = -1;
	unsigned long i;
	unsigned int tries;
	uint32_t beats0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	check(gd >= 0 && ev >= 0 && rtt != NULL, "open gntdev and evtchn", strerror(errno));
	if (gd < 0 || ev < 0 || rtt == NULL) {
		return 1;
	}
	/* The peer grants its page when it starts: retry for a few seconds. */
	map.refs[0].domid = peer;
	map.refs[0].ref = ref;
	for (tries = 0; tries < 100; tries++) {
		if (ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, &map) == 0) {
			pp = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, gd, (off_t)map.index);
			if (pp != MAP_FAILED && pp->magic == MAGIC) {
				break;
			}
			if (pp != MAP_FAILED) {
				munmap((void *)pp, 4096);
				pp = MAP_FAILED;
			}
			struct ioctl_gntdev_unmap_grant_ref u = { .index = map.index, .count = 1 };
			(void)ioctl(gd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &u);
		}
		usleep(50000);
	}
	snprintf(why, sizeof(why), "%s", strerror(errno));
	check(pp != MAP_FAILED, "map the bare-metal partition's grant through gntdev", why);
	if (pp == MAP_FAILED) {
		return 1;
	}
	bind.remote_domain = peer;
	bind.remote_port = pp->port;
	local = ioctl(ev, IOCTL_EVTCHN_BIND_INTERDOMAIN, &bind);
	snprintf(why, sizeof(why), "port %u: %s", pp->port, strerror(errno));
	check(local > 0, "bind its event channel through /dev/xen/evtchn", why);
	if (local <= 0) {
		return 1;
	}
	/* Binding leaves our new port pending, as on Xen. */
	(void)wait_port(ev, 1000);
	if (sport != 0U) {
		unsigned int p = sport;
		errno = 0;
		if (ioctl(ev, _IOC(_IOC_NONE, 'E', 7, sizeof(unsigned int)), &p) < 0 && errno == ENOSYS) {
			printf("xenpeer: static channel %u: this kernel has no IOCTL_EVTCHN_BIND_STATIC "
			       "(Linux 6.2 and later), so user space uses the dynamic one\n", sport);
		}
	}
	beats0 = pp->beats;
	nt.port = (unsigned int)local;
	for (i = 0; i < rounds; i++) {
		uint64_t t0;
		int got;

		pp->seq = (uint32_t)i + 1U;
		pp->cmd = CMD_PING;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		t0 = now_ns();
		if (ioctl(ev, IOCTL_EVTCHN_NOTIFY, &nt) != 0) {
			break;
		}
		got = wait_port(ev, 2000);
		rtt[i] = now_ns() - t0;
		if (got != local || pp->reply != (uint32_t)i + 1U) {
			break;
		}
	}
	snprintf(why, sizeof(why), "%lu of %lu", i, rounds);
	check(i == rounds, "event round trips with the bare-metal partition", why);
	if (i == rounds && samples != 0UL) {
		unsigned long j;
		for (j = 0; j < rounds; j++) {
			if (j % 10UL == 0UL) {
				printf("%sxenpeer: rtt %lu", j == 0UL ? "" : "\n", j);
			}
			printf(" %llu", (unsigned long long)rtt[j]);
		}
		printf("\n");
	}
	if (i == rounds && rounds != 0) {
		qsort(rtt, rounds, sizeof(rtt[0]), cmp_u64);
		printf("xenpeer: round trip median %llu ns, max %llu ns over %lu\n",
		       (unsigned long long)rtt[rounds / 2], (unsigned long long)rtt[rounds - 1], rounds);
	}
	snprintf(why, sizeof(why), "beats %u -> %u", beats0, pp->beats);
	check(pp->beats > beats0, "the bare-metal heartbeat went on meanwhile", why);
	/* Now the bare-metal side starts one. */
	pp->reply = 0;
	pp->cmd = CMD_DONE;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	(void)ioctl(ev, IOCTL_EVTCHN_NOTIFY, &nt);
	check(wait_port(ev, 5000) == local && pp->reply == 0xb0b0U,
	      "an event the bare-metal side sends by itself", "none came");
	printf("xenpeer: done, %u passed, %u failed\n", passed, failed);
	munmap((void *)pp, 4096);
	return (int)failed;
}
