/* SPDX-License-Identifier: MIT */
/*
 * The Xen devices of an unmodified Linux, from user space: event channels
 * through /dev/xen/evtchn, grants through /dev/xen/gntalloc and
 * /dev/xen/gntdev (map, GRANT_COPY, SET_UNMAP_NOTIFY, refusal of a ref
 * never granted) and the balloon's current_kb moving as gntdev takes pages.
 * One line per check, "xentest: PASS <what>" or "xentest: FAIL <what>
 * (<why>)", then "xentest: done, N passed, M failed" (exit status M).
 *
 *   xentest [domid=N] [only=evtchn|gnt|balloon]
 *
 * domid is the partition's own id (the device tree order, d1 first): a
 * dom0less domU without xenstore cannot ask for it.
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
/* The uapi headers use Xen's types without defining them (as Xen's public headers do). */
typedef uint16_t domid_t;
typedef uint32_t grant_ref_t;
#define GNTCOPY_source_gref (1U << 0)
#define GNTCOPY_dest_gref (1U << 1)
#include <xen/evtchn.h>
#include <xen/gntalloc.h>
#include <xen/gntdev.h>

#define PAGE 4096U
#define DOMID_SELF 0x7ff0U

static unsigned int passed, failed;
static unsigned int domid = 1;

static void result(int ok, const char *what, const char *fmt, ...)
{
	char why[200] = "";
	va_list ap;

	if (!ok && fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	if (ok) {
		passed++;
		printf("xentest: PASS %s\n", what);
	} else {
		failed++;
		printf("xentest: FAIL %s (%s)\n", what, why);
	}
	fflush(stdout);
}

#define CHECK(cond, what, ...) result((cond) ? 1 : 0, (what), __VA_ARGS__)

/* Wait up to ms for one event on the evtchn fd; the port, or -1. */
static int evtchn_wait(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint32_t port;

	if (poll(&p, 1, ms) != 1 || read(fd, &port, sizeof(port)) != sizeof(port)) {
		return -1;
	}
	/* Unmask it again for the next event. */
	if (write(fd, &port, sizeof(port)) != sizeof(port)) {
		return -1;
	}
	return (int)port;
}

static int bind_unbound(int fd, unsigned int remote)
{
	struct ioctl_evtchn_bind_unbound_port b = { .remote_domain = remote };

	return ioctl(fd, IOCTL_EVTCHN_BIND_UNBOUND_PORT, &b);
}

static int bind_interdomain(int fd, unsigned int dom, unsigned int port)
{
	struct ioctl_evtchn_bind_interdomain b = { .remote_domain = dom, .remote_port = port };

	return ioctl(fd, IOCTL_EVTCHN_BIND_INTERDOMAIN, &b);
}

static int notify(int fd, unsigned int port)
{
	struct ioctl_evtchn_notify n = { .port = port };

	return ioctl(fd, IOCTL_EVTCHN_NOTIFY, &n);
}

static int unbind(int fd, unsigned int port)
{
	struct ioctl_evtchn_unbind u = { .port = port };

	return ioctl(fd, IOCTL_EVTCHN_UNBIND, &u);
}

/*
 * A loopback channel: a unbound for ourselves, b bound to it. Binding
 * leaves b pending (Xen does so, and Bulkhead as Xen): that first event is
 * taken here. b, or -1.
 */
static int bind_loopback(int fd, int *a)
{
	int b;

	*a = bind_unbound(fd, domid);
	if (*a <= 0) {
		return -1;
	}
	b = bind_interdomain(fd, domid, (unsigned int)*a);
	if (b <= 0 || evtchn_wait(fd, 2000) != b) {
		return -1;
	}
	return b;
}

/*
 * The events /proc/interrupts counts for this program's ports (the evtchn
 * device names their IRQs "evtchn:xentest") on each CPU; with irqs, their
 * IRQ numbers. The number of CPU columns, or -1.
 */
#define MAX_CPUS 8
#define MAX_IRQS 8

static int evtchn_counts(unsigned long *count, int *irqs, int *nirqs)
{
	char line[512];
	FILE *f = fopen("/proc/interrupts", "r");
	int ncpu = 0;

	*nirqs = 0;
	if (f == NULL) {
		return -1;
	}
	memset(count, 0, MAX_CPUS * sizeof(*count));
	if (fgets(line, sizeof(line), f) != NULL) {
		char *t = strtok(line, " \t\n");
		for (; t != NULL && ncpu < MAX_CPUS; t = strtok(NULL, " \t\n")) {
			ncpu += strncmp(t, "CPU", 3) == 0;
		}
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p = line;
		char *end;
		long irq;
		int c;

		if (strstr(line, "evtchn:xentest") == NULL) {
			continue;
		}
		irq = strtol(p, &end, 10);
		if (end == p || *end != ':') {
			continue;
		}
		p = end + 1;
		for (c = 0; c < ncpu; c++) {
			count[c] += strtoul(p, &end, 10);
			p = end;
		}
		if (*nirqs < MAX_IRQS) {
			irqs[(*nirqs)++] = (int)irq;
		}
	}
	fclose(f);
	return ncpu;
}

/* Route every IRQ of irqs to cpu (Linux rebinds the port: EVTCHNOP_bind_vcpu). */
static int route_irqs(const int *irqs, int nirqs, int cpu)
{
	char path[64];
	int i;

	for (i = 0; i < nirqs; i++) {
		FILE *f;
		int ok;

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irqs[i]);
		f = fopen(path, "w");
		if (f == NULL) {
			return -1;
		}
		ok = fprintf(f, "%d\n", cpu) > 0;
		ok = (fclose(f) == 0) && ok;
		if (!ok) {
			return -1;
		}
	}
	return 0;
}

/*
 * FIFO events on every vCPU: both ends of the loopback routed to one vCPU
 * at a time, an event each way, and /proc/interrupts must count the two on
 * that vCPU and none elsewhere.
 */
static void evtchn_every_vcpu(int fd, int a, int b)
{
	unsigned long before[MAX_CPUS];
	unsigned long after[MAX_CPUS];
	int irqs[MAX_IRQS];
	int nirqs;
	int ncpu = evtchn_counts(before, irqs, &nirqs);
	int cpu;

	CHECK(ncpu >= 1 && nirqs == 2, "evtchn: /proc/interrupts lists both ports' IRQs",
	      "%d CPUs, %d IRQs", ncpu, nirqs);
	if (ncpu < 1 || nirqs != 2) {
		return;
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		char what[96];
		int routed;
		int ok;
		int c;
		int got1;
		int got2;

		snprintf(what, sizeof(what), "evtchn: events delivered on vCPU %d (EVTCHNOP_bind_vcpu)",
			 cpu);
		routed = route_irqs(irqs, nirqs, cpu) == 0;
		(void)evtchn_counts(before, irqs, &nirqs);
		got1 = (routed && notify(fd, (unsigned int)a) == 0) ? evtchn_wait(fd, 2000) : -1;
		got2 = (routed && notify(fd, (unsigned int)b) == 0) ? evtchn_wait(fd, 2000) : -1;
		(void)evtchn_counts(after, irqs, &nirqs);
		ok = routed && got1 == b && got2 == a;
		for (c = 0; c < ncpu; c++) {
			ok = ok && (after[c] - before[c] == (c == cpu ? 2UL : 0UL));
		}
		CHECK(ok, what, "routed %s, got %d %d, counts on this vCPU %lu -> %lu",
		      routed ? "yes" : "no", got1, got2, before[cpu], after[cpu]);
	}
	CHECK(route_irqs(irqs, nirqs, 0) == 0, "evtchn: both ports routed back to vCPU 0", "%s",
	      strerror(errno));
}

static void test_evtchn(void)
{
	int fd = open("/dev/xen/evtchn", O_RDWR);
	int a;
	int b;
	int rc;

	CHECK(fd >= 0, "evtchn: open /dev/xen/evtchn", "%s", strerror(errno));
	if (fd < 0) {
		return;
	}
	a = bind_unbound(fd, domid);
	CHECK(a > 0, "evtchn: bind an unbound port", "%s", strerror(errno));
	b = bind_interdomain(fd, domid, (unsigned int)a);
	CHECK(b > 0 && b != a, "evtchn: interdomain loopback to it", "rc %d, %s", b, strerror(errno));
	rc = evtchn_wait(fd, 2000);
	CHECK(rc == b, "evtchn: the bound end starts pending (as on Xen)", "got %d, want %d", rc, b);
	if (a > 0 && b > 0) {
		int got;
		CHECK(notify(fd, (unsigned int)a) == 0, "evtchn: notify one end", "%s", strerror(errno));
		got = evtchn_wait(fd, 2000);
		CHECK(got == b, "evtchn: the other end gets the event", "got %d, want %d", got, b);
		CHECK(notify(fd, (unsigned int)b) == 0, "evtchn: notify the other end", "%s",
		      strerror(errno));
		got = evtchn_wait(fd, 2000);
		CHECK(got == a, "evtchn: the first end gets the event", "got %d, want %d", got, a);
		CHECK(evtchn_wait(fd, 100) == -1, "evtchn: no spurious event", "one arrived");
		evtchn_every_vcpu(fd, a, b);
	}
	errno = 0;
	rc = bind_interdomain(fd, domid, 4000);
	CHECK(rc < 0 && errno == EINVAL, "evtchn: bind to a port out of range refused (EINVAL)",
	      "rc %d, %s", rc, strerror(errno));
	errno = 0;
	rc = bind_interdomain(fd, domid, 0);
	CHECK(rc < 0 && errno == EINVAL, "evtchn: bind to the reserved port 0 refused (EINVAL)",
	      "rc %d, %s", rc, strerror(errno));
	if (a > 0 && b > 0) {
		errno = 0;
		rc = bind_interdomain(fd, domid, (unsigned int)a);
		CHECK(rc < 0 && errno == EINVAL,
		      "evtchn: bind to a port already connected refused (EINVAL)", "rc %d, %s", rc,
		      strerror(errno));
	}
	errno = 0;
	rc = bind_interdomain(fd, 7, 1);
	CHECK(rc < 0 && errno == ESRCH, "evtchn: bind to an unknown domain refused (ESRCH)",
	      "rc %d, %s", rc, strerror(errno));
	/*
	 * Xen does not check the remote domain of an unbound port (Debian's
	 * default XSM policy, SILO, does: ESRCH; Bulkhead is compared with
	 * xsm=dummy, where domU-to-domU channels and grants are allowed).
	 */
	rc = bind_unbound(fd, 7);
	CHECK(rc > 0 && unbind(fd, (unsigned int)rc) == 0,
	      "evtchn: unbound port for an absent domain allowed (as on Xen)", "rc %d, %s", rc,
	      strerror(errno));
	errno = 0;
	rc = notify(fd, 3000);
	CHECK(rc < 0 && errno == ENOTCONN, "evtchn: notify on a port not bound here refused",
	      "rc %d, %s", rc, strerror(errno));
	if (a > 0 && b > 0) {
		CHECK(unbind(fd, (unsigned int)b) == 0 && unbind(fd, (unsigned int)a) == 0,
		      "evtchn: unbind both ends", "%s", strerror(errno));
		errno = 0;
		rc = unbind(fd, (unsigned int)a);
		CHECK(rc < 0 && errno == ENOTCONN, "evtchn: unbind twice refused", "rc %d, %s", rc,
		      strerror(errno));
	}
	close(fd);
}

/* The balloon's view of this partition's memory, in KiB, or -1. */
static long balloon_kb(const char *what)
{
	char path[128];
	FILE *f;
	long v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/xen_memory/xen_memory0/info/%s", what);
	f = fopen(path, "r");
	if (f == NULL) {
		snprintf(path, sizeof(path), "/sys/devices/system/xen_memory/xen_memory0/%s", what);
		f = fopen(path, "r");
	}
	if (f != NULL) {
		if (fscanf(f, "%ld", &v) != 1) {
			v = -1;
		}
		fclose(f);
	}
	return v;
}

static void msleep(unsigned int ms)
{
	struct timespec t = { .tv_sec = ms / 1000U, .tv_nsec = (long)(ms % 1000U) * 1000000L };

	nanosleep(&t, NULL);
}

#define NPAGES 4U

static void test_grants(void)
{
	int ga = open("/dev/xen/gntalloc", O_RDWR);
	int gd = open("/dev/xen/gntdev", O_RDWR);
	int ev = open("/dev/xen/evtchn", O_RDWR);
	struct ioctl_gntalloc_alloc_gref *alloc;
	struct ioctl_gntdev_map_grant_ref *map;
	struct ioctl_gntdev_unmap_grant_ref unmap;
	volatile uint8_t *mine = MAP_FAILED;
	volatile uint8_t *theirs = MAP_FAILED;
	long kb0;
	long kb1;
	long kb2 = -1;
	unsigned int i;
	int rc;

	CHECK(ga >= 0 && gd >= 0 && ev >= 0, "gnt: open /dev/xen/gntalloc and /dev/xen/gntdev",
	      "%s", strerror(errno));
	if (ga < 0 || gd < 0 || ev < 0) {
		return;
	}
	alloc = calloc(1, sizeof(*alloc) + NPAGES * sizeof(uint32_t));
	map = calloc(1, sizeof(*map) + NPAGES * sizeof(struct ioctl_gntdev_grant_ref));
	alloc->domid = (uint16_t)domid;
	alloc->flags = GNTALLOC_FLAG_WRITABLE;
	alloc->count = NPAGES;
	rc = ioctl(ga, IOCTL_GNTALLOC_ALLOC_GREF, alloc);
	CHECK(rc == 0, "gnt: gntalloc grants 4 pages to itself", "%s", strerror(errno));
	if (rc != 0) {
		return;
	}
	mine = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ga, (off_t)alloc->index);
	CHECK(mine != MAP_FAILED, "gnt: map the granted pages", "%s", strerror(errno));
	for (i = 0; i < NPAGES && mine != MAP_FAILED; i++) {
		mine[i * PAGE] = (uint8_t)(0xa0 + i);
		mine[i * PAGE + 100] = 0x55;
	}

	kb0 = balloon_kb("current_kb");
	map->count = NPAGES;
	for (i = 0; i < NPAGES; i++) {
		map->refs[i].domid = domid;
		map->refs[i].ref = alloc->gref_ids[i];
	}
	rc = ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, map);
	CHECK(rc == 0, "gnt: gntdev takes the grant refs", "%s", strerror(errno));
	kb1 = balloon_kb("current_kb");
	CHECK(kb0 > 0 && kb1 == kb0 - (long)(NPAGES * PAGE / 1024U),
	      "balloon: current_kb drops by the pages gntdev took", "%ld -> %ld", kb0, kb1);
	theirs = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, gd, (off_t)map->index);
	CHECK(theirs != MAP_FAILED, "gnt: gntdev maps them", "%s", strerror(errno));
	if (theirs != MAP_FAILED && mine != MAP_FAILED) {
		int same = 1;
		for (i = 0; i < NPAGES; i++) {
			same &= theirs[i * PAGE] == (uint8_t)(0xa0 + i);
		}
		CHECK(same, "gnt: gntdev sees what gntalloc wrote", "differs");
		theirs[PAGE + 8] = 0x77;
		CHECK(mine[PAGE + 8] == 0x77, "gnt: a write through gntdev shows through gntalloc",
		      "read 0x%x", mine[PAGE + 8]);
	}

	/* GRANT_COPY: into and out of a granted page, and from a ref not granted. */
	if (mine != MAP_FAILED) {
		static char src[64] = "copied through GNTTABOP_copy";
		static char dst[64];
		struct gntdev_grant_copy_segment seg[2];
		struct ioctl_gntdev_grant_copy gc = { .count = 2, .segments = seg };

		memset(seg, 0, sizeof(seg));
		seg[0].source.virt = src;
		seg[0].dest.foreign.ref = alloc->gref_ids[2];
		seg[0].dest.foreign.offset = 200;
		seg[0].dest.foreign.domid = (uint16_t)domid;
		seg[0].len = sizeof(src);
		seg[0].flags = GNTCOPY_dest_gref;
		seg[1].source.foreign.ref = alloc->gref_ids[0];
		seg[1].source.foreign.offset = 0;
		seg[1].source.foreign.domid = (uint16_t)domid;
		seg[1].dest.virt = dst;
		seg[1].len = 1;
		seg[1].flags = GNTCOPY_source_gref;
		rc = ioctl(gd, IOCTL_GNTDEV_GRANT_COPY, &gc);
		CHECK(rc == 0 && seg[0].status == 0 && seg[1].status == 0 &&
		      memcmp((const void *)&mine[2 * PAGE + 200], src, sizeof(src)) == 0 &&
		      dst[0] == (char)0xa0, "gnt: IOCTL_GNTDEV_GRANT_COPY both ways",
		      "rc %d, status %d %d", rc, seg[0].status, seg[1].status);
		seg[0].dest.foreign.ref = 1000; /* never granted */
		gc.count = 1;
		rc = ioctl(gd, IOCTL_GNTDEV_GRANT_COPY, &gc);
		CHECK(rc == 0 && seg[0].status != 0, "gnt: GRANT_COPY to a ref never granted refused",
		      "rc %d, status %d", rc, seg[0].status);
	}

	/* SET_UNMAP_NOTIFY: on unmap, byte 100 of page 3 cleared and an event sent. */
	if (theirs != MAP_FAILED) {
		struct ioctl_gntdev_unmap_notify n;
		int a = -1;
		int b = bind_loopback(ev, &a);
		int got;

		memset(&n, 0, sizeof(n));
		n.index = map->index + 3U * PAGE + 100U;
		n.action = UNMAP_NOTIFY_CLEAR_BYTE | UNMAP_NOTIFY_SEND_EVENT;
		n.event_channel_port = (uint32_t)a;
		rc = ioctl(gd, IOCTL_GNTDEV_SET_UNMAP_NOTIFY, &n);
		CHECK(rc == 0 && b > 0, "gnt: SET_UNMAP_NOTIFY (clear byte and event)", "rc %d, %s",
		      rc, strerror(errno));
		munmap((void *)theirs, NPAGES * PAGE);
		unmap.index = map->index;
		unmap.count = NPAGES;
		rc = ioctl(gd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &unmap);
		CHECK(rc == 0, "gnt: gntdev unmaps the refs", "%s", strerror(errno));
		got = evtchn_wait(ev, 2000);
		CHECK(got == b, "gnt: the unmap sends the notify event", "got %d, want %d", got, b);
		CHECK(mine[3 * PAGE + 100] == 0 && mine[2 * PAGE + 100] == 0x55,
		      "gnt: the unmap clears the notify byte (only it)", "bytes 0x%x 0x%x",
		      mine[3 * PAGE + 100], mine[2 * PAGE + 100]);
		if (a > 0) {
			unbind(ev, (unsigned int)a);
		}
		if (b > 0) {
			unbind(ev, (unsigned int)b);
		}
	}
	/* Pages gntdev gave back come back to the partition. */
	for (i = 0; i < 50; i++) {
		kb2 = balloon_kb("current_kb");
		if (kb2 == kb0) {
			break;
		}
		msleep(100);
	}
	CHECK(kb2 == kb0, "balloon: current_kb back after the unmap", "%ld, want %ld", kb2, kb0);

	/* A ref never granted: gntdev accepts it, the mapping is refused. */
	map->count = 1;
	map->refs[0].domid = domid;
	map->refs[0].ref = 1000;
	rc = ioctl(gd, IOCTL_GNTDEV_MAP_GRANT_REF, map);
	if (rc == 0) {
		void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, gd, (off_t)map->index);
		CHECK(p == MAP_FAILED, "gnt: mapping a ref never granted refused", "mmap succeeded");
		if (p != MAP_FAILED) {
			munmap(p, PAGE);
		}
		unmap.index = map->index;
		unmap.count = 1;
		(void)ioctl(gd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &unmap);
	} else {
		CHECK(0, "gnt: mapping a ref never granted refused", "ioctl %s", strerror(errno));
	}

	if (mine != MAP_FAILED) {
		munmap((void *)mine, NPAGES * PAGE);
	}
	{
		struct ioctl_gntalloc_dealloc_gref d = { .index = alloc->index, .count = NPAGES };
		CHECK(ioctl(ga, IOCTL_GNTALLOC_DEALLOC_GREF, &d) == 0, "gnt: gntalloc revokes them",
		      "%s", strerror(errno));
	}
	free(alloc);
	free(map);
	close(ga);
	close(gd);
	close(ev);
}

int main(int argc, char **argv)
{
	const char *only = "";
	int i;

	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], "domid=", 6) == 0) {
			domid = (unsigned int)strtoul(argv[i] + 6, NULL, 0);
		} else if (strncmp(argv[i], "only=", 5) == 0) {
			only = argv[i] + 5;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("xentest: domid %u\n", domid);
	if (only[0] == 0 || strcmp(only, "evtchn") == 0) {
		test_evtchn();
	}
	if (only[0] == 0 || strcmp(only, "gnt") == 0) {
		test_grants();
	}
	printf("xentest: done, %u passed, %u failed\n", passed, failed);
	return (int)failed;
}
