/* SPDX-License-Identifier: MIT */
/* The bounded FDT reader and writer (common/fdt.c, common/fdt_build.c). */
#include "harness.h"
#include "boot_dtb.h"
#include <bulkhead/fdt.h>

static uint8_t *basic;
static size_t basic_len;
static struct fdt fb;

static int setup(void **state)
{
	(void)state;
	basic = boot_load_dtb("fdt-basic", &basic_len);
	assert_int_equal(fdt_open(&fb, basic, basic_len), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(basic);
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* A copy of the basic blob with one header word replaced. */
static int open_with_header(unsigned int word, uint32_t v, size_t len)
{
	uint8_t *b = malloc(basic_len);
	struct fdt f;
	int rc;

	memcpy(b, basic, basic_len);
	put32(&b[word * 4U], v);
	rc = fdt_open(&f, b, len);
	free(b);
	return rc;
}

VERIFIES(REQ-BOOT-001)
static void test_header_checked_against_buffer(void **state)
{
	struct fdt f;

	(void)state;
	/* Buffer shorter than totalsize, than the header, or missing. */
	assert_int_equal(fdt_open(&f, basic, basic_len - 1U), -FDT_ERR_BADHEADER);
	assert_int_equal(fdt_open(&f, basic, 39U), -FDT_ERR_BADHEADER);
	assert_int_equal(fdt_open(&f, NULL, basic_len), -FDT_ERR_BADHEADER);
	assert_int_equal(open_with_header(0U, 0xd00dfeefU, basic_len), -FDT_ERR_BADHEADER);
	/* Version 16 and a future incompatible version. */
	assert_int_equal(open_with_header(5U, 16U, basic_len), -FDT_ERR_BADHEADER);
	assert_int_equal(open_with_header(6U, 18U, basic_len), -FDT_ERR_BADHEADER);
	/* Blocks past the end, wrapping around 2^32, misaligned. */
	assert_int_equal(open_with_header(2U, (uint32_t)basic_len, basic_len), -FDT_ERR_BADHEADER);
	assert_int_equal(open_with_header(9U, 0xffffffffU, basic_len), -FDT_ERR_BADHEADER);
	assert_int_equal(open_with_header(8U, 0xfffffff0U, basic_len), -FDT_ERR_BADHEADER);
	assert_int_equal(open_with_header(2U, fdt_be32(&basic[8]) + 2U, basic_len),
			 -FDT_ERR_BADHEADER);
	assert_int_equal(open_with_header(4U, fdt_be32(&basic[16]) + 4U, basic_len),
			 -FDT_ERR_BADHEADER);
	/* totalsize larger than what we were given. */
	assert_int_equal(open_with_header(1U, (uint32_t)basic_len + 8U, basic_len),
			 -FDT_ERR_BADHEADER);
	assert_int_equal(fdt_header_size(basic), basic_len);
	assert_int_equal(fdt_open(&f, basic, basic_len + 100U), 0);
}

/* Every node, every property, every lookup: what a consumer could touch. */
static unsigned int walk_everything(const struct fdt *f)
{
	int depth = 0;
	int n = 0;
	unsigned int seen = 0U;
	unsigned int steps;

	for (steps = 0U; (n >= 0) && (steps < 10000U); steps++) {
		char path[256];
		int p = fdt_first_prop(f, n);
		uint64_t a;
		uint64_t s;
		uint32_t v;
		const char *str;
		int len;
		seen++;
		while (p >= 0) {
			const char *name;
			const void *data;
			uint32_t plen;
			if (fdt_prop_at(f, p, &name, &data, &plen) == 0) {
				seen += (unsigned int)fdt_stringlist_has(data, (int)plen, "x");
			}
			p = fdt_next_prop(f, p);
		}
		(void)fdt_node_path(f, n, path, sizeof(path));
		(void)fdt_reg(f, fdt_parent(f, n), n, 0U, &a, &s);
		(void)fdt_prop_u32(f, n, "phandle", &v);
		(void)fdt_prop_string(f, n, "compatible", &str);
		(void)fdt_getprop(f, n, "reg", &len);
		(void)fdt_first_child(f, n);
		(void)fdt_next_sibling(f, n);
		n = fdt_next_node(f, n, &depth);
	}
	(void)fdt_path(f, "/chosen/domU1/module@0");
	(void)fdt_node_by_phandle(f, 7U);
	return seen;
}

VERIFIES(REQ-BOOT-001, REQ-BOOT-002)
static void test_truncated_and_corrupt_blobs(void **state)
{
	size_t cut;
	unsigned int i;
	uint32_t rng = 12345U;

	(void)state;
	/* Every truncation: the header says more than we have, so nothing opens. */
	for (cut = 0U; cut < basic_len; cut++) {
		uint8_t *b = malloc(cut + 1U);
		struct fdt f;
		memcpy(b, basic, cut);
		assert_int_not_equal(fdt_open(&f, b, cut), 0);
		free(b);
	}
	/*
	 * Random byte corruption (deterministic): whatever opens must walk
	 * without faults, in exact-size heap copies.
	 */
	for (i = 0U; i < 4000U; i++) {
		uint8_t *b = malloc(basic_len);
		struct fdt f;
		unsigned int k;
		memcpy(b, basic, basic_len);
		for (k = 0U; k < 1U + (i % 4U); k++) {
			rng = rng * 1103515245U + 12345U;
			b[(rng >> 8) % basic_len] = (uint8_t)(rng >> 20);
		}
		if (fdt_open(&f, b, basic_len) == 0) {
			assert_true(walk_everything(&f) > 0U);
		}
		free(b);
	}
}

VERIFIES(REQ-BOOT-002)
static void test_depth_bounded(void **state)
{
	size_t len;
	uint8_t *deep = boot_load_dtb("deep", &len);
	uint8_t *ok = NULL;
	struct fdt f;
	int n;

	(void)state;
	assert_int_equal(fdt_open(&f, deep, len), -FDT_ERR_DEPTH);
	ok = boot_load_dtb("deep-ok", &len);
	assert_int_equal(fdt_open(&f, ok, len), 0);
	n = fdt_path(&f, "/n0/n1/n2/n3/n4/n5/n6/n7/n8/n9/n10/n11/n12/n13/n14/n15");
	assert_true(n > 0);
	assert_string_equal(fdt_node_name(&f, n), "n15");
	assert_string_equal(fdt_node_name(&f, fdt_parent(&f, n)), "n14");
	free(deep);
	free(ok);
}

VERIFIES(REQ-BOOT-002, REQ-BOOT-004)
static void test_walk_and_paths(void **state)
{
	static const char *const order[] = { "", "memory@40000000", "bus@1000", "dev@2000", "leaf",
					     "dev@3000", "cpus", "cpu@0", "cpu@1", "other" };
	static const int depths[] = { 0, 1, 1, 2, 3, 2, 1, 2, 2, 1 };
	char path[64];
	int depth = 0;
	int n = 0;
	unsigned int i;

	(void)state;
	for (i = 0U; i < ARRAY_SIZE(order); i++) {
		assert_true(n >= 0);
		assert_string_equal(fdt_node_name(&fb, n), order[i]);
		assert_int_equal(depth, depths[i]);
		n = fdt_next_node(&fb, n, &depth);
	}
	assert_int_equal(n, -FDT_ERR_NOTFOUND);

	n = fdt_path(&fb, "/bus@1000/dev@2000/leaf");
	assert_true(n > 0);
	assert_int_equal(fdt_node_path(&fb, n, path, sizeof(path)), 23);
	assert_string_equal(path, "/bus@1000/dev@2000/leaf");
	assert_int_equal(fdt_node_path(&fb, n, path, 10U), -FDT_ERR_NOSPACE);
	assert_int_equal(fdt_node_path(&fb, 0, path, sizeof(path)), 1);
	assert_string_equal(path, "/");
	/* Without a unit address the first match; with a wrong one, none. */
	assert_int_equal(fdt_path(&fb, "/bus/dev"), fdt_path(&fb, "/bus@1000/dev@2000"));
	assert_int_equal(fdt_path(&fb, "/bus@1000/dev@5000"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path(&fb, "/bu"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path(&fb, "bus"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path(&fb, "/"), 0);
	assert_int_equal(fdt_parent(&fb, 0), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_parent(&fb, n), fdt_path(&fb, "/bus/dev@2000"));
	/* Siblings and children. */
	n = fdt_first_child(&fb, fdt_path(&fb, "/bus@1000"));
	assert_string_equal(fdt_node_name(&fb, n), "dev@2000");
	n = fdt_next_sibling(&fb, n);
	assert_string_equal(fdt_node_name(&fb, n), "dev@3000");
	assert_int_equal(fdt_next_sibling(&fb, n), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_first_child(&fb, fdt_path(&fb, "/other")), -FDT_ERR_NOTFOUND);
	/* A property offset is not a node. */
	assert_null(fdt_node_name(&fb, fdt_first_prop(&fb, 0)));
	assert_int_equal(fdt_next_node(&fb, -1, &depth), -FDT_ERR_NOTFOUND);
	/* Phandles: "phandle" and the legacy "linux,phandle". */
	assert_int_equal(fdt_node_by_phandle(&fb, 7U), fdt_path(&fb, "/bus/dev@2000/leaf"));
	assert_int_equal(fdt_node_by_phandle(&fb, 9U), fdt_path(&fb, "/other"));
	assert_int_equal(fdt_node_by_phandle(&fb, 8U), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_node_by_phandle(&fb, 0U), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_node_by_phandle(&fb, 0xffffffffU), -FDT_ERR_NOTFOUND);
}

VERIFIES(REQ-BOOT-003)
static void test_properties_and_cells(void **state)
{
	int leaf = fdt_path(&fb, "/bus/dev@2000/leaf");
	const char *s;
	uint32_t v;
	uint64_t w;
	uint64_t a;
	uint64_t sz;
	int len;
	const void *p;

	(void)state;
	assert_int_equal(fdt_prop_u32(&fb, leaf, "value", &v), 0);
	assert_int_equal(v, 0xdeadbeefU);
	assert_int_equal(fdt_prop_u32(&fb, leaf, "wide", &v), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_prop_u64(&fb, leaf, "wide", &w), 0);
	assert_int_equal(w, 0x100000002ULL);
	assert_int_equal(fdt_prop_u64(&fb, leaf, "value", &w), 0);
	assert_int_equal(w, 0xdeadbeefULL);
	assert_int_equal(fdt_prop_u32(&fb, leaf, "missing", &v), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_prop_string(&fb, leaf, "str", &s), 0);
	assert_string_equal(s, "hello");
	assert_int_equal(fdt_prop_string(&fb, leaf, "value", &s), -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_prop_string(&fb, 0, "compatible", &s), -FDT_ERR_BADVALUE);
	assert_true(fdt_node_compatible(&fb, 0, "test,generic"));
	assert_true(fdt_node_compatible(&fb, 0, "test,board"));
	assert_false(fdt_node_compatible(&fb, 0, "test"));
	assert_false(fdt_stringlist_has("abc", 3, "abc")); /* unterminated */
	assert_true(fdt_stringlist_has("abc\0de", 7, "de"));
	assert_false(fdt_stringlist_has(NULL, 0, "x"));
	p = fdt_getprop(&fb, fdt_path(&fb, "/bus"), "empty", &len);
	assert_non_null(p);
	assert_int_equal(len, 0);
	assert_true(fdt_has_prop(&fb, fdt_path(&fb, "/bus"), "empty"));
	assert_false(fdt_has_prop(&fb, fdt_path(&fb, "/bus"), "emptyish"));

	/* reg with the parent's cells: 2/2 at the root, 1/1 on the bus. */
	assert_int_equal(fdt_reg(&fb, 0, fdt_path(&fb, "/memory"), 1U, &a, &sz), 0);
	assert_int_equal(a, 0x100000000ULL);
	assert_int_equal(sz, 0x10000000ULL);
	assert_int_equal(fdt_reg(&fb, 0, fdt_path(&fb, "/memory"), 2U, &a, &sz),
			 -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_reg(&fb, fdt_path(&fb, "/bus"), fdt_path(&fb, "/bus/dev@3000"), 1U,
				 &a, &sz), 0);
	assert_int_equal(a, 0x4000U);
	assert_int_equal(sz, 0x10U);
	/* #size-cells = 0 (cpus), and a reg that is not a whole number of entries. */
	assert_int_equal(fdt_reg(&fb, fdt_path(&fb, "/cpus"), fdt_path(&fb, "/cpus/cpu@1"), 0U,
				 &a, &sz), 0);
	assert_int_equal(a, 1U);
	assert_int_equal(sz, 0U);
	assert_int_equal(fdt_address_cells(&fb, fdt_path(&fb, "/other")), 2);
	assert_int_equal(fdt_size_cells(&fb, fdt_path(&fb, "/other")), 1);
	assert_int_equal(fdt_reg(&fb, 0, fdt_path(&fb, "/other"), 0U, &a, &sz),
			 -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_reg(&fb, fdt_path(&fb, "/bus"), fdt_path(&fb, "/other"), 0U, &a, &sz),
			 -FDT_ERR_NOTFOUND);
}

VERIFIES(REQ-BOOT-001)
static void test_memreserve(void **state)
{
	uint64_t a;
	uint64_t s;

	(void)state;
	assert_int_equal(fdt_mem_rsv(&fb, 0U, &a, &s), 0);
	assert_int_equal(a, 0x48000000U);
	assert_int_equal(s, 0x100000U);
	assert_int_equal(fdt_mem_rsv(&fb, 1U, &a, &s), 0);
	assert_int_equal(a, 0x49000000U);
	assert_int_equal(fdt_mem_rsv(&fb, 2U, &a, &s), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_mem_rsv(&fb, FDT_MAX_RSV, &a, &s), -FDT_ERR_NOTFOUND);
}

static int build_sample(void *buf, size_t cap)
{
	static const uint32_t cells[3] = { 1U, 2U, 3U };
	struct fdt_writer w;

	fdt_w_init(&w, buf, cap);
	fdt_w_begin_node(&w, "");
	fdt_w_prop_u32(&w, "#address-cells", 2U);
	fdt_w_begin_node(&w, "chosen");
	fdt_w_prop_string(&w, "bootargs", "console=hvc0");
	fdt_w_prop_u64(&w, "linux,initrd-start", 0x40e01000ULL);
	fdt_w_prop_empty(&w, "flag");
	fdt_w_end_node(&w);
	fdt_w_begin_node(&w, "node@1");
	fdt_w_prop_cells(&w, "interrupts", cells, 3U);
	fdt_w_prop_u32(&w, "phandle", 5U);
	fdt_w_end_node(&w);
	fdt_w_end_node(&w);
	return fdt_w_finish(&w);
}

VERIFIES(REQ-BOOT-005)
static void test_writer_roundtrip(void **state)
{
	uint8_t buf[1024];
	struct fdt f;
	const uint8_t *p;
	const char *s;
	uint64_t v;
	int len;
	int total;

	(void)state;
	total = build_sample(buf, sizeof(buf));
	assert_true(total > 0);
	assert_int_equal(fdt_open(&f, buf, (size_t)total), 0);
	assert_int_equal(fdt_prop_string(&f, fdt_path(&f, "/chosen"), "bootargs", &s), 0);
	assert_string_equal(s, "console=hvc0");
	assert_int_equal(fdt_prop_u64(&f, fdt_path(&f, "/chosen"), "linux,initrd-start", &v), 0);
	assert_int_equal(v, 0x40e01000ULL);
	assert_true(fdt_has_prop(&f, fdt_path(&f, "/chosen"), "flag"));
	p = fdt_getprop(&f, fdt_path(&f, "/node"), "interrupts", &len);
	assert_int_equal(len, 12);
	assert_int_equal(fdt_be32(p + 8), 3U);
	assert_int_equal(fdt_node_by_phandle(&f, 5U), fdt_path(&f, "/node@1"));
	/* "#address-cells" stored once in the strings block. */
	assert_int_equal(fdt_be32(&buf[32]), strlen("#address-cells") + strlen("bootargs") +
			 strlen("linux,initrd-start") + strlen("flag") + strlen("interrupts") +
			 strlen("phandle") + 6U);
}

VERIFIES(REQ-BOOT-005)
static void test_writer_never_overruns(void **state)
{
	uint8_t buf[1024 + 64];
	int total;
	size_t cap;

	(void)state;
	total = build_sample(buf, 1024U);
	assert_true(total > 0);
	for (cap = 0U; cap < (size_t)total; cap++) {
		memset(buf, 0xa5, sizeof(buf));
		assert_int_equal(build_sample(buf, cap), -FDT_ERR_NOSPACE);
		for (size_t k = cap; k < sizeof(buf); k++) {
			assert_int_equal(buf[k], 0xa5);
		}
	}
	assert_int_equal(build_sample(buf, (size_t)total), total);
}

VERIFIES(REQ-BOOT-005)
static void test_writer_structure_errors(void **state)
{
	uint8_t buf[512];
	struct fdt_writer w;

	(void)state;
	/* A property outside any node, an unbalanced end, an unclosed node. */
	fdt_w_init(&w, buf, sizeof(buf));
	fdt_w_prop_u32(&w, "x", 1U);
	assert_int_equal(fdt_w_finish(&w), -FDT_ERR_BADSTRUCT);
	fdt_w_init(&w, buf, sizeof(buf));
	fdt_w_end_node(&w);
	assert_int_equal(fdt_w_finish(&w), -FDT_ERR_BADSTRUCT);
	fdt_w_init(&w, buf, sizeof(buf));
	fdt_w_begin_node(&w, "");
	assert_int_equal(fdt_w_finish(&w), -FDT_ERR_BADSTRUCT);
	/* The strings table fills up: NOSPACE, not an overflow. */
	fdt_w_init(&w, buf, sizeof(buf));
	fdt_w_begin_node(&w, "");
	for (unsigned int i = 0U; i < 100U; i++) {
		char name[16];
		snprintf(name, sizeof(name), "prop-%u", i);
		fdt_w_prop_empty(&w, name);
	}
	fdt_w_end_node(&w);
	assert_int_equal(fdt_w_finish(&w), -FDT_ERR_NOSPACE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_checked_against_buffer),
		cmocka_unit_test(test_truncated_and_corrupt_blobs),
		cmocka_unit_test(test_depth_bounded),
		cmocka_unit_test(test_walk_and_paths),
		cmocka_unit_test(test_properties_and_cells),
		cmocka_unit_test(test_memreserve),
		cmocka_unit_test(test_writer_roundtrip),
		cmocka_unit_test(test_writer_never_overruns),
		cmocka_unit_test(test_writer_structure_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
