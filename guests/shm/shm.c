/* SPDX-License-Identifier: MIT */
/*
 * Static shared memory (Xen 4.17's xen,domain-shared-memory-v1) between two
 * partitions, without grants or events: each finds the region in its own
 * device tree (/reserved-memory, compatible "xen,shared-memory-v1", xen,id
 * = id=) and they take turns through flag words at its start.
 *
 *  role=a: checks the region starts zeroed, writes its pattern in the
 *          first half, raises FLAG_A; waits for B's pattern in the second
 *          half (FLAG_B = 1) and checks it; waits for B's next incarnation
 *          (FLAG_B = 2), powers off.
 *  role=b: first incarnation: waits for FLAG_A, checks A's pattern, writes
 *          its own, raises FLAG_B = 1 and reboots (SCHEDOP_shutdown);
 *          second incarnation (FLAG_B is 1 already: the region is never
 *          scrubbed on a restart): checks both patterns again, FLAG_B = 2.
 *
 * With a Linux partition (role=peer): writes its pattern in the first half
 * and FLAG_A, waits for the Linux side's pattern in the second half
 * (FLAG_B), checks it, powers off. Patterns: word i of a half is
 * seed ^ (i * 0x9e3779b1). Cache lines are cleaned and invalidated around
 * each hand-over, as a partition sharing with a non-cacheable mapping (Linux
 * through /dev/mem) must on hardware.
 */
#include <guest/guest.h>

#define FLAG_A     0U           /* word offsets */
#define FLAG_B     1U
#define DATA       16U          /* first pattern word */
#define SEED_A     0xa11ce000U
#define SEED_B     0xb0b00000U
#define WAIT_MS    20000U

static volatile uint32_t *buf;
static uint64_t words;          /* 32-bit words in each half */

static void cache_sync(volatile const void *p, uint64_t len)
{
	uint64_t a = (uint64_t)(uintptr_t)p & ~63ULL;

	for (; a < (uint64_t)(uintptr_t)p + len; a += 64U)
		__asm__ volatile("dc civac, %0" :: "r"(a) : "memory");
	__asm__ volatile("dsb sy" ::: "memory");
}

static volatile uint32_t *half(unsigned int h)
{
	return &buf[DATA + (h * words)];
}

static void fill(unsigned int h, uint32_t seed)
{
	volatile uint32_t *p = half(h);
	uint64_t i;

	for (i = 0; i < words; i++)
		p[i] = seed ^ (uint32_t)(i * 0x9e3779b1U);
	cache_sync(p, words * 4U);
}

static uint64_t check(unsigned int h, uint32_t seed)
{
	volatile uint32_t *p = half(h);
	uint64_t i, bad = 0;

	cache_sync(p, words * 4U);
	for (i = 0; i < words; i++)
		bad += p[i] != (seed ^ (uint32_t)(i * 0x9e3779b1U));
	return bad;
}

static void raise_flag(unsigned int f, uint32_t v)
{
	__asm__ volatile("dmb sy" ::: "memory");
	buf[f] = v;
	cache_sync(&buf[f], 4U);
}

static bool wait_flag(unsigned int f, uint32_t v)
{
	uint64_t waited;

	for (waited = 0; waited < WAIT_MS; waited++) {
		cache_sync(&buf[f], 4U);
		if (buf[f] == v) {
			__asm__ volatile("dmb sy" ::: "memory");
			return true;
		}
		mdelay(1);
	}
	printf("%s: FAIL timeout waiting for flag %u = %u (is %u)\n", rt_tag(), f, v, buf[f]);
	return false;
}

/* The region named id in the partition's own tree: its guest address and size. */
static bool find_region(const char *id, uint64_t *base, uint64_t *size)
{
	int node = -1;

	while ((node = fdt_compatible(rt.dtb, node, "xen,shared-memory-v1")) >= 0) {
		uint32_t len;
		const char *xid = fdt_prop(rt.dtb, node, "xen,id", &len);
		const uint8_t *off = fdt_prop(rt.dtb, node, "xen,offset", &len);
		if ((xid != NULL) && (strcmp(xid, id) == 0) && (off != NULL) && (len == 8U) &&
		    fdt_reg(rt.dtb, node, 0, base, size)) {
			printf("%s: %s in /reserved-memory/%s: 0x%lx+0x%lx, xen,offset %lu\n", rt_tag(),
			       id, fdt_name(rt.dtb, node), *base, *size, fdt_cells(off, 2));
			return true;
		}
	}
	printf("%s: FAIL no xen,shared-memory-v1 node with xen,id \"%s\"\n", rt_tag(), id);
	return false;
}

static int side_a(void)
{
	uint64_t i, nonzero = 0;

	for (i = 0; i < DATA + (2U * words); i++)
		nonzero += buf[i] != 0U;
	printf("%s: region zeroed at boot: %s\n", rt_tag(), nonzero ? "FAIL" : "yes");
	fill(0, SEED_A);
	raise_flag(FLAG_A, 1U);
	printf("%s: wrote %lu words\n", rt_tag(), words);
	if (!wait_flag(FLAG_B, 1U))
		return 1;
	i = check(1, SEED_B);
	printf("%s: reads B's %lu words: %lu wrong%s\n", rt_tag(), words, i, i ? " FAIL" : "");
	if (!wait_flag(FLAG_B, 2U))
		return 1;
	printf("%s: B's new incarnation found the region as it was\n", rt_tag());
	return (nonzero != 0U) || (i != 0U);
}

static int side_b(void)
{
	uint64_t bad;

	cache_sync(&buf[FLAG_B], 4U);
	if (buf[FLAG_B] == 1U) {
		bad = check(0, SEED_A) + check(1, SEED_B);
		printf("%s: second incarnation: region kept across the restart, %lu words wrong%s\n",
		       rt_tag(), bad, bad ? " FAIL" : "");
		raise_flag(FLAG_B, 2U);
		return bad != 0U;
	}
	if (!wait_flag(FLAG_A, 1U))
		return 1;
	bad = check(0, SEED_A);
	printf("%s: reads A's %lu words: %lu wrong%s\n", rt_tag(), words, bad, bad ? " FAIL" : "");
	fill(1, SEED_B);
	raise_flag(FLAG_B, 1U);
	printf("%s: wrote %lu words, rebooting\n", rt_tag(), words);
	if (bad != 0U)
		return 1;
	(void)xen_shutdown(SHUTDOWN_reboot);
	return 1;
}

/* Beside Linux (tools/linux/progs/shmtest.c): write first, then read its answer. */
static int side_peer(void)
{
	uint64_t bad;

	fill(0, SEED_A);
	raise_flag(FLAG_A, 1U);
	printf("%s: wrote %lu words for Linux\n", rt_tag(), words);
	if (!wait_flag(FLAG_B, 1U))
		return 1;
	bad = check(1, SEED_B);
	printf("%s: reads Linux's %lu words: %lu wrong%s\n", rt_tag(), words, bad, bad ? " FAIL" : "");
	return bad != 0U;
}

int test_main(void)
{
	char role[8] = "a";
	char id[16] = "buf0";
	uint64_t base, size;

	(void)rt_arg("role", role, sizeof(role));
	(void)rt_arg("id", id, sizeof(id));
	if (!find_region(id, &base, &size))
		return 1;
	buf = (volatile uint32_t *)(uintptr_t)base;
	words = ((size / 4U) - DATA) / 2U;
	if (strcmp(role, "a") == 0)
		return side_a();
	if (strcmp(role, "b") == 0)
		return side_b();
	return side_peer();
}
