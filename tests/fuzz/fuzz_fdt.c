/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: the device-tree reader and the dom0less parser on
 * arbitrary blobs. The blob is the fuzzer's own buffer of exactly `size`
 * bytes, so AddressSanitizer catches any read past it. Every node, property,
 * reg entry and reservation is visited, then /chosen is parsed as at boot.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <bulkhead/dom0less.h>
#include <bulkhead/fdt.h>

#define FUZZ_FDT_MAX_NODES 4096

static struct dom0less_config cfg;
/* Property bytes are read into here so every byte the reader hands out is touched. */
volatile uint8_t fuzz_fdt_sink;

static void visit_node(const struct fdt *f, int parent, int node)
{
	char path[512];
	const char *name;
	const void *data;
	uint32_t len;
	uint64_t addr, size;
	uint32_t u32;
	unsigned int i;
	int prop;

	(void)fdt_node_name(f, node);
	(void)fdt_node_path(f, node, path, sizeof(path));
	for (prop = fdt_first_prop(f, node); prop >= 0; prop = fdt_next_prop(f, prop)) {
		if (fdt_prop_at(f, prop, &name, &data, &len) == 0) {
			for (i = 0U; i < len; i++) {
				fuzz_fdt_sink ^= ((const uint8_t *)data)[i];
			}
			(void)strlen(name);
		}
	}
	(void)fdt_address_cells(f, node);
	(void)fdt_size_cells(f, node);
	(void)fdt_prop_u32(f, node, "phandle", &u32);
	(void)fdt_node_compatible(f, node, "xen,domain");
	if (parent >= 0) {
		for (i = 0U; i < 3U; i++) {
			(void)fdt_reg(f, parent, node, i, &addr, &size);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fdt f;
	struct dom0less_limits lim;
	char err[DOM0LESS_ERR_LEN];
	uint64_t a, s;
	unsigned int i, n = 0U;
	int node = 0, depth = 0;

	/* Its contract: the magic and totalsize words are readable. */
	if (size >= 8U) {
		(void)fdt_header_size(data);
	}
	if (fdt_open(&f, data, size) != 0) {
		return 0;
	}
	for (i = 0U; i < FDT_MAX_RSV + 1U; i++) {
		if (fdt_mem_rsv(&f, i, &a, &s) != 0) {
			break;
		}
	}
	visit_node(&f, -1, 0);
	while (n < FUZZ_FDT_MAX_NODES) {
		node = fdt_next_node(&f, node, &depth);
		if (node < 0) {
			break;
		}
		visit_node(&f, fdt_parent(&f, node), node);
		n++;
	}
	(void)fdt_path(&f, "/chosen");
	(void)fdt_node_by_phandle(&f, 1U);
	dom0less_default_limits(&lim);
	dom0less_limits_from_dt(&f, &lim);
	(void)dom0less_parse(&f, &lim, &cfg, err, sizeof(err));
	return 0;
}
