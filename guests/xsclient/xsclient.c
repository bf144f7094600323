/* SPDX-License-Identifier: MIT */
/*
 * A bare-metal xenstore client (guest/xenbus.h) for the xenstore scenarios.
 * Every mode first connects as Linux does (STORE_PFN ~0 until the store's
 * event) and checks its own home; then:
 *   mode=basic   (default) reads, writes, directories, transactions, a watch
 *                and refusals on the home of partition peer=
 *   mode=owner   gives peer= a node, watches it, waits for peer's write
 *   mode=writer  writes the node partition peer= gave it (mode=owner there)
 *   mode=flood   requests without reading replies, malformed requests, an
 *                over-long payload (the store stops it), then reconnects
 *   mode=restart with peer= (the controller): writes data/mark, acks each
 *                command of the controller, reboots when told (policy
 *                "reboot"); its next incarnation must find a fresh home
 *   mode=ctl     the controller of peer= (mode=restart): commands 1 hello,
 *                2 reboot, 3 poweroff, each after the previous one's ack
 *   mode=bench   n= READs then n WRITEs of its data/bench, each timed with
 *                the virtual counter (make bench-xenstore, under -icount)
 *   mode=storecrash  writes data/a, then the store's crash_on node; after
 *                the store's restart, a fresh tree and a working connection
 * Lines say "<tag>: ..."; "FAIL" marks anything unexpected.
 */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>
#include <guest/xenbus.h>

static unsigned int failures;
static char path[160];
static char path2[160];
static char ev[160];

static void expect(const char *what, const char *got, const char *want)
{
	bool ok = strcmp(got, want) == 0;

	printf("%s: %s = %s%s\n", rt_tag(), what, got, ok ? "" : " FAIL");
	failures += ok ? 0U : 1U;
}

static const char *peer_path(const char *rel)
{
	(void)snprintf(path, sizeof(path), "/local/domain/%lu/%s",
		       (unsigned long)rt_arg_u64("peer", 0), rel);
	return path;
}

static bool wait_event_for(const char *want, uint64_t ms)
{
	uint64_t end = cntvct() + timer_us_to_ticks(ms * 1000U);

	while (cntvct() < end) {
		if (!xb_event(ev, sizeof(ev), 200U)) {
			continue;
		}
		if (strcmp(ev, want) == 0) {
			return true;
		}
	}
	return false;
}

static void basic(void)
{
	uint32_t t;
	uint32_t rtype;

	expect("write data/x", xb_write(0, "data/x", "42"), "OK");
	expect("read data/x", xb_read(0, "data/x"), "42");
	expect("mkdir data/d/e", xb_mkdir(0, "data/d/e"), "OK");
	expect("directory data", xb_dir(0, "data"), "x,d");
	expect("rm data/d", xb_rm(0, "data/d"), "OK");
	expect("read data/d/e", xb_read(0, "data/d/e"), "ENOENT");
	expect("get_perms data", xb_get_perms(0, "data"), path2);
	/* A watch: the initial firing, then a change. */
	expect("watch data", xb_watch("data", "w1"), "OK");
	printf("%s: initial watch event %s\n", rt_tag(), wait_event_for("data|w1", 2000U) ?
	       "seen" : "MISSING FAIL");
	expect("write data/y", xb_write(0, "data/y", "1"), "OK");
	printf("%s: watch event for data/y %s\n", rt_tag(), wait_event_for("data/y|w1", 2000U) ?
	       "seen" : "MISSING FAIL");
	expect("unwatch data", xb_unwatch("data", "w1"), "OK");
	/* A transaction, committed; a conflicting one gets EAGAIN. */
	t = xb_txn_start();
	printf("%s: transaction %u\n", rt_tag(), t);
	expect("txn write data/t", xb_write(t, "data/t", "in"), "OK");
	expect("read data/t outside", xb_read(0, "data/t"), "ENOENT");
	expect("txn end", xb_txn_end(t, true), "OK");
	expect("read data/t", xb_read(0, "data/t"), "in");
	t = xb_txn_start();
	(void)xb_read(t, "data/x");
	expect("write data/x meanwhile", xb_write(0, "data/x", "43"), "OK");
	expect("conflicting txn end", xb_txn_end(t, true), "EAGAIN");
	/* Another partition's home: refused. */
	expect("read peer name", xb_read(0, peer_path("name")), "EACCES");
	expect("write peer data", xb_write(0, peer_path("data/z"), "1"), "EACCES");
	expect("directory peer", xb_dir(0, peer_path("")), "EINVAL");
	expect("directory peer home", xb_dir(0, peer_path("data")), "EACCES");
	(void)xb_req(XS_INTRODUCE, 0, "1\0" "2\0" "3\0", 6U, NULL, &rtype);
	printf("%s: INTRODUCE answered %s\n", rt_tag(), (rtype == XS_ERROR) ? "with an error" :
	       "FAIL");
}

static void owner(void)
{
	char perms[32];
	unsigned long peer = (unsigned long)rt_arg_u64("peer", 0);

	(void)snprintf(perms, sizeof(perms), "n%lu,b%lu", (unsigned long)rt_arg_u64("me", 0), peer);
	expect("mkdir data/inbox", xb_mkdir(0, "data/inbox"), "OK");
	expect("give data/inbox", xb_set_perms(0, "data/inbox", perms), "OK");
	expect("watch data/inbox", xb_watch("data/inbox", "inbox"), "OK");
	(void)wait_event_for("data/inbox|inbox", 2000U);
	expect("write data/ready", xb_write(0, "data/inbox/ready", "1"), "OK");
	if (wait_event_for("data/inbox/msg|inbox", 20000U)) {
		printf("%s: watch fired for data/inbox/msg\n", rt_tag());
		expect("read data/inbox/msg", xb_read(0, "data/inbox/msg"), "EACCES");
	} else {
		printf("%s: no watch event for data/inbox/msg FAIL\n", rt_tag());
		failures++;
	}
}

static void writer(void)
{
	uint64_t end = cntvct() + timer_us_to_ticks(rt_arg_u64("wait_ms", 20000U) * 1000U);
	const char *r = "";

	while (cntvct() < end) {
		r = xb_read(0, peer_path("data/inbox/ready"));
		if (strcmp(r, "1") == 0) {
			break;
		}
		mdelay(20);
	}
	expect("peer's inbox ready", r, "1");
	expect("write peer's data/inbox/msg", xb_write(0, peer_path("data/inbox/msg"), "hello"),
	       "OK");
	expect("read it back", xb_read(0, peer_path("data/inbox/msg")), "hello");
	expect("write peer's data", xb_write(0, peer_path("data/other"), "x"), "EACCES");
}

static void flood(void)
{
	static const char req[] = "data/x";
	static struct xb_msg msg;
	uint32_t sent = 0U;
	uint32_t got = 0U;
	uint32_t first = 0U;
	bool order = true;
	uint64_t end;

	expect("write data/x", xb_write(0, "data/x", "v"), "OK");
	/* Requests, never reading replies, until the ring stays full. */
	end = cntvct() + timer_us_to_ticks(1500000U);
	while (cntvct() < end) {
		volatile struct xenstore_domain_interface *r = xb_ring();
		if ((r->req_prod - r->req_cons) > (XENSTORE_RING_SIZE - 64U)) {
			mdelay(5);
			continue;
		}
		if (first == 0U) {
			first = (uint32_t)xb_send(XS_READ, 0, req, sizeof(req), NULL, 0U);
		} else {
			(void)xb_send(XS_READ, 0, req, sizeof(req), NULL, 0U);
		}
		sent++;
	}
	printf("%s: flood: %u requests sent, ring %s\n", rt_tag(), sent,
	       ((xb_ring()->req_prod - xb_ring()->req_cons) > 512U) ? "left full by the store" :
	       "drained FAIL");
	/* Now every reply, whole and in order. */
	while ((got < sent) && xb_recv(&msg, 3000U)) {
		if (msg.h.type == XS_WATCH_EVENT) {
			continue;
		}
		order = order && (msg.h.req_id == first + got) && (msg.h.type == XS_READ) &&
			(msg.h.len == 1U) && (msg.data[0] == 'v');
		got++;
	}
	printf("%s: flood: %u of %u replies, %s\n", rt_tag(), got, sent,
	       (order && (got == sent)) ? "whole and in order" : "FAIL");
	failures += (order && (got == sent)) ? 0U : 1U;
	/* Malformed requests: one error each. */
	expect("unknown type", xb_req(99U, 0, "x", 2U, NULL, NULL), "ENOSYS");
	expect("no nul", xb_req(XS_READ, 0, "data", 4U, NULL, NULL), "EINVAL");
	expect("bad path", xb_read(0, "data//x"), "EINVAL");
	expect("bad transaction", xb_read(77U, "data/x"), "ENOENT");
	expect("still served", xb_read(0, "data/x"), "v");
	/* A payload over the limit: the store stops the connection. */
	{
		struct xsd_sockmsg h = { .type = XS_WRITE, .req_id = 9999, .len = 5000 };
		uint64_t until = cntvct() + timer_us_to_ticks(3000000U);
		(void)xb_send_raw(&h, sizeof(h));
		while ((xb_ring()->error == 0U) && (cntvct() < until)) {
			mdelay(5);
		}
		printf("%s: over-long payload: connection error %u\n", rt_tag(), xb_ring()->error);
		failures += (xb_ring()->error == XENSTORE_ERROR_PROTO) ? 0U : 1U;
	}
	/* Reconnection: the store resets the ring and serves again. */
	printf("%s: reconnect: %ld, error %u\n", rt_tag(), xb_reconnect(3000U), xb_ring()->error);
	expect("read after reconnect", xb_read(0, "data/x"), "v");
	expect("read own name", xb_read(0, "name"), path2);
}

/* The controller's command "<gen>:<word>": its gen, or 0 while there is none. */
static uint32_t read_cmd(char *word, size_t len)
{
	const char *r = xb_read(0, peer_path("data/cmd"));
	uint32_t gen = 0U;
	size_t i;

	for (i = 0U; (r[i] >= '0') && (r[i] <= '9'); i++) {
		gen = (gen * 10U) + (uint32_t)(r[i] - '0');
	}
	if ((r[i] != ':') || (gen == 0U)) {
		return 0U;
	}
	(void)snprintf(word, len, "%s", &r[i + 1U]);
	return gen;
}

static void restarting(void)
{
	static char mark_at_start[32];
	char word[16];
	char ack[16];
	char perms[32];
	uint32_t gen = 0U;
	uint32_t seen;
	uint64_t end = cntvct() + timer_us_to_ticks(30000000U);

	(void)snprintf(mark_at_start, sizeof(mark_at_start), "%s", xb_read(0, "data/mark"));
	expect("write data/mark", xb_write(0, "data/mark", "1"), "OK");
	(void)snprintf(perms, sizeof(perms), "n%lu,r%lu", (unsigned long)rt_arg_u64("me", 0),
		       (unsigned long)rt_arg_u64("peer", 0));
	while (cntvct() < end) {
		seen = read_cmd(word, sizeof(word));
		if ((seen == 0U) || (seen == gen)) {
			mdelay(20);
			continue;
		}
		if (gen == 0U) {
			/* This incarnation's first look: ack it, act on the next one only. */
			gen = seen;
			(void)snprintf(ack, sizeof(ack), "%u", gen);
			(void)xb_write(0, "data/ack", ack);
			(void)xb_set_perms(0, "data/ack", perms);
			printf("%s: acked command %u (%s)\n", rt_tag(), gen, word);
			continue;
		}
		gen = seen;
		if (strcmp(word, "reboot") == 0) {
			printf("%s: told to reboot\n", rt_tag());
			(void)xen_shutdown(SHUTDOWN_reboot);
		}
		printf("%s: told to power off; data/mark at start was %s\n", rt_tag(), mark_at_start);
		failures += (strcmp(mark_at_start, "ENOENT") == 0) ? 0U : 1U;
		(void)snprintf(ack, sizeof(ack), "%u", gen);
		expect("ack", xb_write(0, "data/ack", ack), "OK");
		return;
	}
	printf("%s: no command FAIL\n", rt_tag());
	failures++;
}

static void controller(void)
{
	static const char *const cmds[] = { "1:hello", "2:reboot", "3:poweroff" };
	char perms[32];
	char want[8];
	unsigned int step = 0U;
	uint64_t end = cntvct() + timer_us_to_ticks(40000000U);

	(void)snprintf(perms, sizeof(perms), "n%lu,r%lu", (unsigned long)rt_arg_u64("me", 0),
		       (unsigned long)rt_arg_u64("peer", 0));
	expect("write data/cmd", xb_write(0, "data/cmd", cmds[0]), "OK");
	expect("give data/cmd", xb_set_perms(0, "data/cmd", perms), "OK");
	while ((cntvct() < end) && (step < 3U)) {
		(void)snprintf(want, sizeof(want), "%u", step + 1U);
		if (strcmp(xb_read(0, peer_path("data/ack")), want) != 0) {
			mdelay(20);
			continue;
		}
		printf("%s: ack %s\n", rt_tag(), want);
		step++;
		if (step < 3U) {
			expect("write data/cmd", xb_write(0, "data/cmd", cmds[step]), "OK");
		}
	}
	failures += (step == 3U) ? 0U : 1U;
}

static void storecrash(void)
{
	uint64_t end;
	const char *r;

	expect("write data/a", xb_write(0, "data/a", "1"), "OK");
	expect("read data/a", xb_read(0, "data/a"), "1");
	printf("%s: asking the store to crash\n", rt_tag());
	(void)xb_write(0, "data/crash-store", "1");
	mdelay(200);
	/* The new store has a fresh tree: data/a is gone, and it serves us again. */
	end = cntvct() + timer_us_to_ticks(20000000U);
	do {
		r = xb_read(0, "data/a");
	} while ((strcmp(r, "TIMEOUT") == 0) && (cntvct() < end));
	expect("read data/a after the store's restart", r, "ENOENT");
	expect("write data/b", xb_write(0, "data/b", "2"), "OK");
	expect("read data/b", xb_read(0, "data/b"), "2");
	printf("%s: reconnect: %ld\n", rt_tag(), xb_reconnect(3000U));
	expect("read data/b after reconnect", xb_read(0, "data/b"), "2");
}

/* Counter ticks to nanoseconds (under -icount shift=0: instructions). */
static uint64_t ticks_ns(uint64_t t)
{
	uint64_t f = cntfrq();

	return (f == 0U) ? 0U : (t / f) * 1000000000U + ((t % f) * 1000000000U) / f;
}

static uint64_t lat[1024];

static void sort_u64(uint64_t *a, unsigned int n)
{
	unsigned int i;
	unsigned int j;

	for (i = 1U; i < n; i++) {
		uint64_t v = a[i];
		for (j = i; (j > 0U) && (a[j - 1U] > v); j--) {
			a[j] = a[j - 1U];
		}
		a[j] = v;
	}
}

static void bench_op(const char *op, unsigned int n)
{
	uint64_t start = cntvct();
	uint64_t total;
	unsigned int i;
	bool ok = true;

	for (i = 0U; i < n; i++) {
		uint64_t t0 = cntvct();
		const char *r = (op[0] == 'r') ? xb_read(0, "data/bench") :
						 xb_write(0, "data/bench", "0123456789abcdef");
		lat[i] = cntvct() - t0;
		ok = ok && (strcmp(r, (op[0] == 'r') ? "0123456789abcdef" : "OK") == 0);
	}
	total = ticks_ns(cntvct() - start);
	sort_u64(lat, n);
	printf("%s: bench %s n=%u ok=%u median_ns=%lu max_ns=%lu total_ns=%lu\n", rt_tag(), op, n,
	       ok ? 1U : 0U, (unsigned long)ticks_ns(lat[n / 2U]),
	       (unsigned long)ticks_ns(lat[n - 1U]), (unsigned long)total);
	failures += ok ? 0U : 1U;
}

static void bench(void)
{
	unsigned int n = (unsigned int)rt_arg_u64("n", 200U);

	if (n > 1024U) {
		n = 1024U;
	}
	expect("write data/bench", xb_write(0, "data/bench", "0123456789abcdef"), "OK");
	bench_op("read", n);
	bench_op("write", n);
}

int test_main(void)
{
	char mode[16] = "basic";
	long rc;

	(void)rt_arg("mode", mode, sizeof(mode));
	rc = evt_setup(false);
	if (rc == 0) {
		rc = xb_init(rt_arg_u64("wait_ms", 20000U));
	}
	if (strcmp(mode, "bench") == 0) {
		printf("%s: bench connected_ns=%lu\n", rt_tag(), (unsigned long)ticks_ns(cntpct()));
	}
	printf("%s: xenbus connected: %ld, port %u, ring 0x%lx%s\n", rt_tag(), rc, xb_port(),
	       (unsigned long)(uintptr_t)xb_ring(),
	       xb_late_init ? " (STORE_PFN was ~0: waited for the store's event)" : "");
	if (rc != 0) {
		return 1;
	}
	/* Its own home, as the store built it from the device tree. */
	(void)rt_arg("name", path2, sizeof(path2));
	expect("read name", xb_read(0, "name"), path2);
	(void)snprintf(path2, sizeof(path2), "%lu", (unsigned long)rt_arg_u64("me", 0));
	expect("read domid", xb_read(0, "domid"), path2);
	(void)snprintf(path2, sizeof(path2), "n%lu", (unsigned long)rt_arg_u64("me", 0));
	if (strcmp(mode, "owner") == 0) {
		owner();
	} else if (strcmp(mode, "writer") == 0) {
		writer();
	} else if (strcmp(mode, "restart") == 0) {
		restarting();
	} else if (strcmp(mode, "ctl") == 0) {
		controller();
	} else if (strcmp(mode, "bench") == 0) {
		bench();
	} else if (strcmp(mode, "storecrash") == 0) {
		storecrash();
	} else if (strcmp(mode, "flood") == 0) {
		(void)rt_arg("name", path2, sizeof(path2));
		flood();
	} else {
		basic();
	}
	printf("%s: done, %u failure(s)\n", rt_tag(), failures);
	mdelay(rt_arg_u64("linger_ms", 0));
	return (failures == 0U) ? 0 : 1;
}
