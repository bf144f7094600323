/* SPDX-License-Identifier: MIT */
/*
 * blkload: direct I/O load on a block device, in time windows that several
 * Linux partitions share (make bench-linux-io, docs/performance.md).
 *
 *   blkload dev=/dev/xvda bytes=4096:65536 qd=1:8 reps=5 t0=S window=W gap=G
 *
 * (lists with ':', since /init splits linuxtest= arguments at commas).
 *
 * For every request size, queue depth and repetition, in that order, one
 * window of W seconds starting at t0 + k * (W + G) seconds of the virtual
 * counter (CNTVCT_EL0: Bulkhead starts a partition's counter when it
 * creates it, so partitions created together at boot share these windows,
 * give or take the time to load one of them). In a window qd
 * threads each keep one O_DIRECT request in flight (so the disk sees qd
 * at a time), alternating reads and writes at pseudo-random aligned offsets
 * (a fixed sequence: the same run issues the same requests). A request
 * counts when it completes inside the window. Threads of one process, not
 * separate processes: switching between them keeps the address space, so
 * the guest's scheduling costs what it costs on hardware; under TCG a
 * switch of address space (a new ASID) empties QEMU's software TLB, and
 * with eight processes those refills, not the block path, set the rate
 * (docs/performance.md, bench-linux-io). Lines:
 *   blkload: bytes=B qd=Q rep=R reqs=N window_ns=T
 *   blkload: LATE ...   (the window had begun when the threads were ready)
 *   blkload: done, K windows
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_LIST 4
#define MAX_QD 16

static uint64_t cntvct(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

static uint64_t cntfrq(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

static unsigned int list(const char *s, unsigned long *out)
{
	unsigned int n = 0;
	char *end;

	while ((n < MAX_LIST) && (*s != '\0')) {
		out[n++] = strtoul(s, &end, 0);
		s = (*end == ':') ? end + 1 : end;
		if (*end == '\0') {
			break;
		}
	}
	return n;
}

/* Sleep until the counter reaches t (coarse), then look until it does. */
static void wait_until(uint64_t t, uint64_t frq)
{
	uint64_t now = cntvct();

	if (now + frq / 1000 < t) {
		uint64_t ns = (t - now - frq / 1000) * 1000000000ull / frq;
		struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
				       .tv_nsec = (long)(ns % 1000000000ull) };
		while ((nanosleep(&ts, &ts) != 0) && (errno == EINTR)) {
		}
	}
	while (cntvct() < t) {
		sched_yield();
	}
}

/* What every thread of one window shares. */
struct window {
	const char *dev;
	unsigned long bytes;
	uint64_t disk;
	uint64_t start;
	uint64_t end;
	uint64_t frq;
};

struct worker {
	pthread_t thread;
	const struct window *win;
	unsigned int me;
	uint64_t count; /* requests completed inside the window */
	int failed;
};

/* One thread: requests until the window's end. */
static void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct window *win = w->win;
	int fd = open(win->dev, O_RDWR | O_DIRECT);
	void *buf = NULL;
	uint64_t blocks = win->disk / win->bytes;
	uint64_t x = 0x9e3779b97f4a7c15ull * (w->me + 1u);
	uint64_t n = 0;
	uint64_t i;

	if ((fd < 0) || (posix_memalign(&buf, 4096, win->bytes) != 0) || (blocks == 0)) {
		printf("blkload: FAIL open %s O_DIRECT (%s)\n", win->dev, strerror(errno));
		w->failed = 1;
		return NULL;
	}
	memset(buf, (int)w->me, win->bytes);
	wait_until(win->start, win->frq);
	for (i = 0; cntvct() < win->end; i++) {
		off_t off;
		ssize_t r;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		off = (off_t)((x % blocks) * win->bytes);
		r = (i & 1u) ? pwrite(fd, buf, win->bytes, off) : pread(fd, buf, win->bytes, off);
		if (r != (ssize_t)win->bytes) {
			printf("blkload: FAIL %s of %lu at %lld: %zd (%s)\n", (i & 1u) ? "write" : "read",
			       win->bytes, (long long)off, r, strerror(errno));
			w->failed = 1;
			break;
		}
		if (cntvct() <= win->end) {
			n++;
		}
	}
	w->count = n;
	free(buf);
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/xvda";
	unsigned long bytes[MAX_LIST] = { 4096 };
	unsigned long qds[MAX_LIST] = { 1 };
	unsigned int nb = 1, nq = 1, reps = 1;
	double t0 = 60.0, window = 2.0, gap = 1.0;
	uint64_t frq = cntfrq();
	uint64_t disk = 0;
	static struct worker workers[MAX_QD];
	unsigned int k = 0;
	int fd;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "dev=", 4) == 0) {
			dev = a + 4;
		} else if (strncmp(a, "bytes=", 6) == 0) {
			nb = list(a + 6, bytes);
		} else if (strncmp(a, "qd=", 3) == 0) {
			nq = list(a + 3, qds);
		} else if (strncmp(a, "reps=", 5) == 0) {
			reps = (unsigned int)strtoul(a + 5, NULL, 0);
		} else if (strncmp(a, "t0=", 3) == 0) {
			t0 = strtod(a + 3, NULL);
		} else if (strncmp(a, "window=", 7) == 0) {
			window = strtod(a + 7, NULL);
		} else if (strncmp(a, "gap=", 4) == 0) {
			gap = strtod(a + 4, NULL);
		} else {
			printf("blkload: FAIL unknown argument %s\n", a);
			return 2;
		}
	}
	fd = open(dev, O_RDONLY);
	if ((fd < 0) || (ioctl(fd, BLKGETSIZE64, &disk) != 0)) {
		printf("blkload: FAIL %s: %s\n", dev, strerror(errno));
		return 1;
	}
	close(fd);
	printf("blkload: %s, %" PRIu64 " bytes, counter %" PRIu64 " Hz, now %.3f s\n", dev, disk,
	       frq, (double)cntvct() / (double)frq);
	fflush(stdout);
	for (unsigned int b = 0; b < nb; b++) {
		for (unsigned int q = 0; q < nq; q++) {
			for (unsigned int r = 0; r < reps; r++, k++) {
				uint64_t start = (uint64_t)((t0 + k * (window + gap)) * (double)frq);
				uint64_t end = start + (uint64_t)(window * (double)frq);
				const struct window win = { .dev = dev, .bytes = bytes[b], .disk = disk,
							    .start = start, .end = end, .frq = frq };
				uint64_t sum = 0;
				unsigned int qd = (qds[q] > MAX_QD) ? MAX_QD : (unsigned int)qds[q];
				bool late = cntvct() >= start;
				int bad = 0;

				for (unsigned int p = 0; p < qd; p++) {
					struct worker *w = &workers[p];

					*w = (struct worker){ .win = &win, .me = p + 16u * r };
					if (pthread_create(&w->thread, NULL, worker_run, w) != 0) {
						printf("blkload: FAIL pthread_create\n");
						return 1;
					}
				}
				for (unsigned int p = 0; p < qd; p++) {
					(void)pthread_join(workers[p].thread, NULL);
					bad |= workers[p].failed;
					sum += workers[p].count;
				}
				if (bad) {
					printf("blkload: FAIL bytes=%lu qd=%u rep=%u\n", bytes[b], qd, r);
					return 1;
				}
				printf("blkload: %sbytes=%lu qd=%u rep=%u reqs=%" PRIu64 " window_ns=%" PRIu64
				       "\n", late ? "LATE " : "", bytes[b], qd, r, sum,
				       (uint64_t)(window * 1e9));
				fflush(stdout);
			}
		}
	}
	printf("blkload: done, %u windows\n", k);
	return 0;
}
