/* SPDX-License-Identifier: MIT */
/*
 * Boot placement (mm_boot), partition loading and its device tree
 * (domain_load), and boot_setup() end to end on the host: "machine RAM" is
 * an anonymous mapping, so the module addresses in a test tree are patched
 * to point into it.
 */
#include "harness.h"
#include "boot_dtb.h"
#include <sys/mman.h>
#include <bulkhead/setup.h>
#include <bulkhead/domain_build.h>
#include <bulkhead/fdt.h>
#include <bulkhead/guest_access.h>

#define MIB(x) ((uint64_t)(x) << 20)
#define RAM_BYTES MIB(512)

static uint8_t *ram;          /* 2 MiB aligned, RAM_BYTES long */
static void *ram_map;

static int setup(void **state)
{
	uintptr_t p;

	(void)state;
	ram_map = mmap(NULL, RAM_BYTES + MIB(2), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	assert_true(ram_map != MAP_FAILED);
	p = ((uintptr_t)ram_map + MIB(2) - 1U) & ~(uintptr_t)(MIB(2) - 1U);
	ram = (uint8_t *)p;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	munmap(ram_map, RAM_BYTES + MIB(2));
	harness_reset();
	return 0;
}

static paddr_t ma(uint64_t off)
{
	return (paddr_t)(uintptr_t)(ram + off);
}

/* Forget partitions; machine RAM is the mapping, nothing reserved. */
static void reset_machine(void)
{
	struct mm_boot_range bank = { ma(0), RAM_BYTES };

	harness_reset();
	assert_int_equal(mm_boot_init(&bank, 1U), 0);
	domain_build_init(3U, "arm,cortex-a57");
	/* No Image header left behind by an earlier test. */
	memset(&ram[MIB(300)], 0, 64U);
	memset(&ram[MIB(400)], 0, 64U);
}

VERIFIES(REQ-BOOT-030)
static void test_mm_boot_placement(void **state)
{
	struct mm_boot_range banks[2] = { { 0x40000000U, MIB(64) }, { 0x80000000U, MIB(16) } };
	uint64_t largest;
	paddr_t a;

	(void)state;
	assert_int_equal(mm_boot_init(banks, 2U), 0);
	assert_int_equal(mm_boot_free_bytes(&largest), MIB(80));
	/* Hypervisor at 2 MiB, a DTB at the base, a module in the middle. */
	assert_int_equal(mm_boot_reserve(0x40200000U, 0x30000U), 0);
	assert_int_equal(mm_boot_reserve(0x40000000U, 0x10000U), 0);
	assert_int_equal(mm_boot_reserve(0x41000000U, 0x1000U), 0);
	/* Reserving something outside RAM or already reserved is harmless. */
	assert_int_equal(mm_boot_reserve(0x10000000U, 0x1000U), 0);
	assert_int_equal(mm_boot_reserve(0x41000000U, 0x1000U), 0);
	/* Lowest first, 2 MiB aligned, never over a reservation. */
	assert_int_equal(mm_boot_alloc(MIB(1), MIB(2), &a), 0);
	assert_int_equal(a, 0x40400000U);
	assert_int_equal(mm_boot_alloc(MIB(16), MIB(2), &a), 0);
	assert_int_equal(a, 0x41200000U);
	/* Fixed placement: must be wholly free. */
	assert_int_equal(mm_boot_claim(0x41100000U, 0x1000U), 0);
	assert_int_equal(mm_boot_claim(0x41100000U, 0x1000U), -XEN_EBUSY);
	assert_int_equal(mm_boot_claim(0x40200000U, 0x1000U), -XEN_EBUSY);
	assert_int_equal(mm_boot_claim(0x43fff000U, 0x2000U), -XEN_EBUSY);  /* past the bank */
	assert_int_equal(mm_boot_claim(0x90000000U, 0x1000U), -XEN_EBUSY);
	assert_int_equal(mm_boot_claim(0x0U, 0U), -XEN_EINVAL);
	/* Too big for what is left: the second bank is only 16 MiB. */
	assert_int_equal(mm_boot_alloc(MIB(40), MIB(2), &a), -XEN_ENOMEM);
	assert_int_equal(mm_boot_alloc(MIB(16), MIB(2), &a), 0);
	assert_true((a == 0x80000000U) || (a == 0x42200000U));
	assert_int_equal(mm_boot_alloc(MIB(1), 3U, &a), -XEN_EINVAL);
	assert_int_equal(mm_boot_alloc(0U, MIB(2), &a), -XEN_EINVAL);
	/* Closed after boot: no allocation, no reservation. */
	mm_boot_done();
	assert_int_equal(mm_boot_alloc(0x1000U, 0x1000U, &a), -XEN_ENOMEM);
	assert_int_equal(mm_boot_reserve(0x40000000U, 0x1000U), -XEN_EBUSY);
	assert_int_equal(mm_boot_claim(0x80000000U, 0x1000U), -XEN_EBUSY);
	/* Overlapping banks are refused. */
	banks[1].base = 0x40000000U + MIB(32);
	assert_int_equal(mm_boot_init(banks, 2U), -XEN_EINVAL);
}

VERIFIES(REQ-BOOT-030)
static void test_mm_boot_split_limit(void **state)
{
	struct mm_boot_range bank = { 0x40000000U, MIB(1024) };
	unsigned int i;
	int rc = 0;

	(void)state;
	assert_int_equal(mm_boot_init(&bank, 1U), 0);
	/* Every hole splits a range: the table fills, then reserve says so. */
	for (i = 0U; (i < 2U * MM_BOOT_MAX_RANGES) && (rc == 0); i++) {
		rc = mm_boot_reserve(0x40000000U + (i * 0x10000U) + 0x1000U, 0x1000U);
	}
	assert_int_equal(rc, -XEN_ENOMEM);
	assert_int_equal(i, MM_BOOT_MAX_RANGES);
	harness_reset();
}

/* A partition with a kernel module at machine offset koff of the mapping. */
static struct domain *make_domain(uint64_t mem, uint32_t vcpus, uint64_t koff, uint64_t ksize)
{
	struct domain_config cfg;
	uint32_t i;

	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "guest");
	cfg.nr_vcpus = vcpus;
	cfg.mem_bytes = mem;
	for (i = 0U; i < vcpus; i++) {
		cfg.pcpus[i] = i;
	}
	cfg.kernel.start = ma(koff);
	cfg.kernel.size = ksize;
	assert_int_equal(mm_boot_reserve(ma(koff), ksize), 0);
	snprintf(cfg.bootargs, sizeof(cfg.bootargs), "console=hvc0 role=x");
	assert_int_equal(domain_create(1, &cfg), 0);
	return domain_by_id(1);
}

static void fill_pattern(uint64_t off, uint64_t len, uint8_t seed)
{
	for (uint64_t i = 0U; i < len; i++) {
		ram[off + i] = (uint8_t)(seed + (i * 7U));
	}
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (unsigned int i = 0U; i < 8U; i++) {
		p[i] = (uint8_t)(v >> (8U * i));
	}
}

/* An arm64 Image header at machine offset off. */
static void make_image(uint64_t off, uint64_t text_offset, uint64_t image_size)
{
	put_le64(&ram[off + 8U], text_offset);
	put_le64(&ram[off + 16U], image_size);
	memcpy(&ram[off + 56U], "ARM\x64", 4U);
}

static struct fdt guest_fdt(struct domain *d, uint8_t **copy)
{
	uint8_t *blob = harness_gpa(d, d->dtb_gpa);
	struct fdt f;

	/* Opened against the RAM left after it: a wrong size fails here. */
	*copy = blob;
	assert_int_equal(fdt_open(&f, blob, (size_t)(d->ram_gpa + d->ram_bytes - d->dtb_gpa)), 0);
	return f;
}

VERIFIES(REQ-BOOT-031, REQ-BOOT-033, REQ-PATH-006)
static void test_load_raw_kernel(void **state)
{
	struct domain *d;
	uint8_t *blob;
	struct fdt f;
	int64_t cleans;

	(void)state;
	reset_machine();
	/* Unaligned module start, more than a page: the copy crosses pages. */
	fill_pattern(MIB(300) + 0x123U, 0x2345U, 3U);
	d = make_domain(MIB(16), 1U, MIB(300) + 0x123U, 0x2345U);
	cleans = host_page_cleans;
	assert_int_equal(domain_load(d), 0);
	/*
	 * The partition reads its image and tree with the MMU off: each piece
	 * written is cleaned, at least the kernel's 3 pages and the tree's 1.
	 */
	assert_true(host_page_cleans - cleans >= 4);
	assert_int_equal(d->kernel_entry, GUEST_RAM0_BASE);
	assert_memory_equal(harness_gpa(d, GUEST_RAM0_BASE), &ram[MIB(300) + 0x123U], 0xfffU);
	assert_memory_equal(harness_gpa(d, GUEST_RAM0_BASE + 0x1000U),
			    &ram[MIB(300) + 0x1123U], 0x1345U);
	/* RAM < 128 MiB: DTB at the end of RAM minus 2 MiB, as Xen. */
	assert_int_equal(d->dtb_gpa, 0x40e00000U);
	f = guest_fdt(d, &blob);
	assert_true(f.totalsize < PAGE_SIZE);
}

VERIFIES(REQ-BOOT-031, REQ-BOOT-033)
static void test_load_image_and_ramdisk(void **state)
{
	struct domain *d;
	uint8_t *blob;
	struct fdt f;
	uint64_t v;
	uint64_t start;
	int chosen;

	(void)state;
	reset_machine();
	fill_pattern(MIB(300), 0x3000U, 9U);
	make_image(MIB(300), 0x80000U, 0x300000U);
	fill_pattern(MIB(310), 0x5000U, 77U);
	d = make_domain(MIB(16), 1U, MIB(300), 0x3000U);
	d->cfg.ramdisk.start = ma(MIB(310));
	d->cfg.ramdisk.size = 0x5000U;
	assert_int_equal(domain_load(d), 0);
	assert_int_equal(d->kernel_entry, GUEST_RAM0_BASE + 0x80000U);
	assert_memory_equal(harness_gpa(d, GUEST_RAM0_BASE + 0x80000U), &ram[MIB(300)], 0x1000U);
	assert_int_equal(d->dtb_gpa, 0x40e00000U);
	f = guest_fdt(d, &blob);
	chosen = fdt_path(&f, "/chosen");
	assert_int_equal(fdt_prop_u64(&f, chosen, "linux,initrd-start", &start), 0);
	/* The ramdisk right after the DTB, as Xen places it. */
	assert_int_equal(start, d->dtb_gpa + f.totalsize);
	assert_int_equal(fdt_prop_u64(&f, chosen, "linux,initrd-end", &v), 0);
	assert_int_equal(v, start + 0x5000U);
	for (uint64_t off = 0U; off < 0x5000U; off += 0x800U) {
		assert_int_equal(*(uint8_t *)harness_gpa(d, start + off), ram[MIB(310) + off]);
	}
}

VERIFIES(REQ-BOOT-031)
static void test_reload_and_misaligned_copy(void **state)
{
	struct domain *d;
	uint8_t *g;

	(void)state;
	reset_machine();
	/* Source and destination split pages at different offsets. */
	fill_pattern(MIB(300) + 0xf00U, 0x5432U, 21U);
	make_image(MIB(300) + 0xf00U, 0x80010U, 0x6000U);
	d = make_domain(MIB(16), 1U, MIB(300) + 0xf00U, 0x5432U);
	assert_int_equal(domain_load(d), 0);
	assert_int_equal(d->kernel_entry, GUEST_RAM0_BASE + 0x80010U);
	for (uint64_t off = 0U; off < 0x5432U; off++) {
		g = harness_gpa(d, GUEST_RAM0_BASE + 0x80010U + off);
		if (*g != ram[MIB(300) + 0xf00U + off]) {
			fail_msg("byte %#llx differs", (unsigned long long)off);
		}
	}
	/* A restart loads again: the scribbled kernel and tree come back. */
	memset(harness_gpa(d, GUEST_RAM0_BASE + 0x80010U), 0, 0x100U);
	memset(harness_gpa(d, d->dtb_gpa), 0, 0x40U);
	assert_int_equal(domain_load(d), 0);
	assert_memory_equal(harness_gpa(d, GUEST_RAM0_BASE + 0x80010U), &ram[MIB(300) + 0xf00U],
			    0x100U);
	assert_int_equal(fdt_header_size(harness_gpa(d, d->dtb_gpa)) > 0U, 1);
}

static bool all_zero(const uint8_t *p, uint64_t len)
{
	for (uint64_t i = 0U; i < len; i++) {
		if (p[i] != 0U) {
			return false;
		}
	}
	return true;
}

VERIFIES(REQ-XPFO-003)
static void test_scrub_when_ram_changes_owner(void **state)
{
	struct domain *d;
	uint8_t *far;

	(void)state;
	reset_machine();
	/* What the RAM held before (firmware, an earlier boot): not for the new owner. */
	memset(ram, 0xa5, MIB(64));
	fill_pattern(MIB(300), 0x3000U, 5U);
	make_image(MIB(300), 0x80000U, 0x3000U);
	d = make_domain(MIB(16), 1U, MIB(300), 0x3000U);
	assert_true(d->ram_maddr < ma(MIB(64)));
	assert_true(all_zero((const uint8_t *)(uintptr_t)d->ram_maddr, d->ram_bytes));
	assert_int_equal(domain_load(d), 0);
	assert_memory_equal(harness_gpa(d, d->kernel_entry), &ram[MIB(300)], 0x1000U);

	/* The running partition writes outside its image; shared pages get contents. */
	far = harness_gpa(d, GUEST_RAM0_BASE + MIB(8));
	memset(far, 0x5a, 4096U);
	memset(d->shared_info, 0x33, 4096U);
	memset(harness_gnt_entry(d, 0), 0x44, 4096U);
	d->state = DOMAIN_RUNNING;
	domain_restart(d);
	assert_int_equal(d->restarts, 1);
	/* The new incarnation: its image back, everything else of the old one gone. */
	assert_memory_equal(harness_gpa(d, d->kernel_entry), &ram[MIB(300)], 0x1000U);
	assert_true(all_zero(harness_gpa(d, GUEST_RAM0_BASE + MIB(8)), 4096U));
	assert_true(all_zero(harness_gpa(d, GUEST_RAM0_BASE), 0x80000U));
	assert_true(all_zero((const uint8_t *)d->shared_info, 4096U));
	assert_true(all_zero((const uint8_t *)harness_gnt_entry(d, 0), 4096U));
}

/*
 * A partition serving virtual disks (bulkhead,vbd): their region is mapped
 * after its RAM, described in its tree, zeroed once at boot and kept, as a
 * storage device keeps its data, across the partition's restarts.
 */
VERIFIES(REQ-BLK-021)
static void test_vbd_region(void **state)
{
	struct domain_config cfg;
	struct domain *d;
	uint8_t *blob;
	struct fdt f;
	const uint8_t *p;
	uint8_t *disk;
	int node;
	int len;

	(void)state;
	reset_machine();
	memset(&ram[MIB(100)], 0xa5, MIB(4));
	fill_pattern(MIB(300), 0x3000U, 5U);
	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "be");
	cfg.nr_vcpus = 1U;
	cfg.mem_bytes = MIB(15);
	cfg.enhanced = true;
	cfg.kernel.start = ma(MIB(300));
	cfg.kernel.size = 0x3000U;
	assert_int_equal(mm_boot_reserve(ma(MIB(300)), 0x3000U), 0);
	cfg.nr_vbds = 2U;
	cfg.vbd[0] = (struct vbd_config){ .fe = 2U, .devid = 51712U, .name = "xvda",
					  .bytes = MIB(2) + 0x1000U, .persistent = true,
					  .max_indirect = 32U, .max_ring_order = 2U,
					  .max_queues = 2U, .max_pers = 256U };
	cfg.vbd[1] = (struct vbd_config){ .fe = 3U, .devid = 51728U, .name = "xvdb",
					  .bytes = MIB(1), .offset = MIB(4), .readonly = true,
					  .max_queues = 1U, .max_pers = 128U };
	cfg.vbd_bytes = MIB(6);
	assert_int_equal(mm_boot_claim(ma(MIB(100)), MIB(6)), 0);
	cfg.vbd_maddr = ma(MIB(100));
	assert_int_equal(domain_create(1, &cfg), 0);
	d = domain_by_id(1);
	/* After its RAM, on the next 2 MiB boundary; zeroed for its new owner. */
	assert_int_equal(domain_vbd_gpa(d), GUEST_RAM0_BASE + MIB(16));
	disk = harness_gpa(d, domain_vbd_gpa(d));
	assert_ptr_equal(disk, &ram[MIB(100)]);
	assert_ptr_equal(harness_gpa(d, domain_vbd_gpa(d) + MIB(6) - 1U), &ram[MIB(106) - 1U]);
	assert_true(all_zero(disk, MIB(6)));
	assert_int_equal(domain_load(d), 0);
	f = guest_fdt(d, &blob);
	node = fdt_path(&f, "/vbd@41000000");
	assert_true(node >= 0);
	assert_true(fdt_node_compatible(&f, node, "bulkhead,vbd-backend"));
	p = fdt_getprop(&f, node, "reg", &len);
	assert_int_equal(len, 16);
	assert_int_equal(fdt_be32(&p[4]), 0x41000000U);
	assert_int_equal(fdt_be32(&p[12]), MIB(2) + 0x1000U);
	p = fdt_getprop(&f, node, "bulkhead,vbd", &len);
	assert_int_equal(len, 32);
	assert_int_equal(fdt_be32(&p[0]), 2U);      /* frontend-id */
	assert_int_equal(fdt_be32(&p[4]), 51712U);  /* virtual-device */
	assert_int_equal(fdt_be32(&p[8]), 1U);      /* feature-persistent */
	assert_int_equal(fdt_be32(&p[12]), 32U);
	assert_int_equal(fdt_be32(&p[16]), 2U);
	assert_int_equal(fdt_be32(&p[20]), 2U);
	assert_int_equal(fdt_be32(&p[24]), 256U);
	assert_int_equal(fdt_be32(&p[28]), 0U);     /* read-only */
	node = fdt_path(&f, "/vbd@41400000");
	assert_true(node >= 0);
	p = fdt_getprop(&f, node, "bulkhead,vbd", &len);
	assert_int_equal(fdt_be32(&p[28]), 1U);
	/* The /memory node is its RAM only. */
	p = fdt_getprop(&f, fdt_path(&f, "/memory@40000000"), "reg", &len);
	assert_int_equal(fdt_be32(&p[12]), MIB(15));

	/* What the backend wrote to its disk survives its restart; its RAM does not. */
	memset(disk, 0x5a, 4096U);
	memset(harness_gpa(d, GUEST_RAM0_BASE + MIB(8)), 0x5a, 4096U);
	d->state = DOMAIN_RUNNING;
	domain_restart(d);
	assert_int_equal(d->restarts, 1);
	assert_true(all_zero(harness_gpa(d, GUEST_RAM0_BASE + MIB(8)), 4096U));
	assert_ptr_equal(harness_gpa(d, domain_vbd_gpa(d)), disk);
	assert_int_equal(disk[0], 0x5a);
	assert_int_equal(disk[4095], 0x5a);
}

/*
 * Static shared memory between an owner and a borrower: one machine range
 * at each one's guest address, Normal memory for both (the owner's as its
 * RAM, the borrower's foreign), Xen 4.17's /reserved-memory node in each
 * tree, the owner's page counts, and the contents kept across the restart
 * of either.
 */
VERIFIES(REQ-SHM-003, REQ-SHM-004, REQ-SHM-005)
static void test_shm_regions(void **state)
{
	static const char *const names[2] = { "own", "bor" };
	static const paddr_t gaddr[2] = { 0x50000000U, 0x60001000U };
	struct domain_config cfg;
	struct domain *d[2];
	enum p2m_type t;
	uint8_t *region = &ram[MIB(100)];
	uint8_t *blob;
	const uint8_t *p;
	struct fdt f;
	mfn_t mfn;
	int node;
	int len;

	(void)state;
	reset_machine();
	fill_pattern(MIB(300), 0x3000U, 5U);
	assert_int_equal(mm_boot_reserve(ma(MIB(300)), 0x3000U), 0);
	assert_int_equal(mm_boot_claim(ma(MIB(100)), MIB(2)), 0);
	memset(region, 0, MIB(2));
	for (unsigned int i = 0U; i < 2U; i++) {
		memset(&cfg, 0, sizeof(cfg));
		snprintf(cfg.name, sizeof(cfg.name), "%s", names[i]);
		cfg.nr_vcpus = 1U;
		cfg.mem_bytes = MIB(16);
		cfg.kernel.start = ma(MIB(300));
		cfg.kernel.size = 0x3000U;
		cfg.nr_shm = 1U;
		cfg.shm[0] = (struct shm_map){ .maddr = ma(MIB(100)), .gaddr = gaddr[i],
					       .size = MIB(2), .id = "buf0", .owner = (i == 0U) };
		assert_int_equal(domain_create((domid_t)(i + 1U), &cfg), 0);
		d[i] = domain_by_id((domid_t)(i + 1U));
		assert_int_equal(domain_load(d[i]), 0);
	}
	/* One range, two guest addresses; a block for the owner, pages for the other. */
	assert_ptr_equal(harness_gpa(d[0], gaddr[0]), region);
	assert_ptr_equal(harness_gpa(d[1], gaddr[1] + MIB(2) - 1U), &region[MIB(2) - 1U]);
	assert_int_equal(p2m_lookup(&d[0]->p2m, gaddr_to_gfn(gaddr[0] + 0x5000U), &mfn, &t), 0);
	assert_int_equal(t, p2m_ram_rw);
	assert_int_equal(mfn, maddr_to_mfn(ma(MIB(100) + 0x5000U)));
	assert_int_equal(p2m_lookup(&d[1]->p2m, gaddr_to_gfn(gaddr[1] + 0x5000U), &mfn, &t), 0);
	assert_int_equal(t, p2m_map_foreign_rw);
	assert_int_equal(mfn, maddr_to_mfn(ma(MIB(100) + 0x5000U)));
	/* Hypercall buffers: the owner's own memory, not the borrower's foreign mapping. */
	assert_int_equal(guest_gfn_to_mfn(d[0], gaddr_to_gfn(gaddr[0]), true, &mfn), 0);
	assert_int_equal(guest_gfn_to_mfn(d[1], gaddr_to_gfn(gaddr[1]), false, &mfn), -XEN_EFAULT);
	/* Xen 4.17 counts the owner's region among its pages (tot and max), no one else's. */
	assert_int_equal(d[0]->max_pages, (MIB(16) + MIB(2)) >> PAGE_SHIFT);
	assert_int_equal(d[0]->tot_pages, d[0]->max_pages);
	assert_int_equal(d[1]->max_pages, MIB(16) >> PAGE_SHIFT);
	/* Each tree: Xen 4.17's reserved-memory node, at that partition's guest address. */
	for (unsigned int i = 0U; i < 2U; i++) {
		char path[64];
		f = guest_fdt(d[i], &blob);
		node = fdt_path(&f, "/reserved-memory");
		assert_true(node >= 0);
		assert_non_null(fdt_getprop(&f, node, "ranges", &len));
		assert_int_equal(len, 0);
		assert_int_equal(fdt_address_cells(&f, node), 2);
		assert_int_equal(fdt_size_cells(&f, node), 2);
		snprintf(path, sizeof(path), "/reserved-memory/xen-shmem@%llx",
			 (unsigned long long)gaddr[i]);
		node = fdt_path(&f, path);
		assert_true(node >= 0);
		p = fdt_getprop(&f, node, "compatible", &len);
		assert_int_equal(len, sizeof("xen,shared-memory-v1"));
		assert_string_equal((const char *)p, "xen,shared-memory-v1");
		p = fdt_getprop(&f, node, "reg", &len);
		assert_int_equal(len, 16);
		assert_int_equal(fdt_be64(p), gaddr[i]);
		assert_int_equal(fdt_be64(&p[8]), MIB(2));
		p = fdt_getprop(&f, node, "xen,id", &len);
		assert_int_equal(len, 5);
		assert_string_equal((const char *)p, "buf0");
		p = fdt_getprop(&f, node, "xen,offset", &len);
		assert_int_equal(len, 8);
		assert_int_equal(fdt_be64(p), 0U);
		/* Not in its RAM. */
		p = fdt_getprop(&f, fdt_path(&f, "/memory@40000000"), "reg", &len);
		assert_int_equal(fdt_be64(&p[8]), MIB(16));
	}
	/* Written by one, read by the other; kept when either restarts. */
	memset(harness_gpa(d[0], gaddr[0]), 0x5a, 4096U);
	assert_int_equal(*(uint8_t *)harness_gpa(d[1], gaddr[1] + 4095U), 0x5a);
	memset(harness_gpa(d[1], gaddr[1] + MIB(1)), 0xa5, 4096U);
	for (unsigned int i = 0U; i < 2U; i++) {
		memset(harness_gpa(d[i], GUEST_RAM0_BASE + MIB(8)), 0x77, 4096U);
		d[i]->state = DOMAIN_RUNNING;
		domain_restart(d[i]);
		assert_int_equal(d[i]->restarts, 1);
		assert_true(all_zero(harness_gpa(d[i], GUEST_RAM0_BASE + MIB(8)), 4096U));
		assert_ptr_equal(harness_gpa(d[i], gaddr[i]), region);
		assert_int_equal(region[0], 0x5a);
		assert_int_equal(region[4095], 0x5a);
		assert_int_equal(region[MIB(1)], 0xa5);
		assert_int_equal(d[i]->tot_pages, d[i]->max_pages);
	}
	assert_int_equal(p2m_lookup(&d[1]->p2m, gaddr_to_gfn(gaddr[1]), &mfn, &t), 0);
	assert_int_equal(t, p2m_map_foreign_rw);
}

VERIFIES(REQ-BOOT-033)
static void test_dtb_placement_rules(void **state)
{
	struct domain *d;

	(void)state;
	/* RAM >= 128 MiB + modules and the kernel below 128 MiB: DTB at 128 MiB. */
	reset_machine();
	d = make_domain(MIB(192), 1U, MIB(400), 0x1000U);
	assert_int_equal(domain_load(d), 0);
	assert_int_equal(d->dtb_gpa, GUEST_RAM0_BASE + MIB(128));

	/* No room above the kernel: just below it. */
	reset_machine();
	make_image(MIB(400), MIB(14), MIB(2));
	d = make_domain(MIB(16), 1U, MIB(400), 0x1000U);
	assert_int_equal(domain_load(d), 0);
	assert_int_equal(d->kernel_entry, GUEST_RAM0_BASE + MIB(14));
	assert_int_equal(d->dtb_gpa, GUEST_RAM0_BASE + MIB(12));

	/* No room at all, and a kernel bigger than RAM: refused, not overrun. */
	reset_machine();
	make_image(MIB(400), MIB(1), MIB(15));
	d = make_domain(MIB(16), 1U, MIB(400), 0x1000U);
	assert_int_equal(domain_load(d), -XEN_ENOMEM);
	reset_machine();
	make_image(MIB(400), MIB(16), 0x1000U);
	d = make_domain(MIB(16), 1U, MIB(400), 0x1000U);
	assert_int_equal(domain_load(d), -XEN_ENOMEM);
	reset_machine();
	d = make_domain(MIB(2), 1U, MIB(400), MIB(3));
	assert_int_equal(domain_load(d), -XEN_ENOMEM);
}

static void assert_reg(const struct fdt *f, int node, unsigned int i, uint64_t a, uint64_t s)
{
	uint64_t ra;
	uint64_t rs;

	assert_int_equal(fdt_reg(f, fdt_parent(f, node), node, i, &ra, &rs), 0);
	assert_int_equal(ra, a);
	assert_int_equal(rs, s);
}

static void assert_cells(const struct fdt *f, int node, const char *name, const uint32_t *want,
			 int n)
{
	int len;
	const uint8_t *p = fdt_getprop(f, node, name, &len);

	assert_non_null(p);
	assert_int_equal(len, 4 * n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(fdt_be32(p + (4 * i)), want[i]);
	}
}

VERIFIES(REQ-BOOT-032)
static void test_guest_dt_layout_gicv3(void **state)
{
	static const uint32_t timer[9] = { 1, 13, 0xf08, 1, 14, 0xf08, 1, 11, 0xf08 };
	static const uint32_t evt[3] = { 1, 15, 0xf08 };
	static const uint32_t uart_irq[3] = { 0, 0, 4 };
	struct domain *d;
	uint8_t *blob;
	struct fdt f;
	const char *s;
	uint32_t v;
	int n;
	int len;

	(void)state;
	reset_machine();
	d = make_domain(MIB(16), 3U, MIB(400), 0x1000U);
	d->cfg.enhanced = true;
	d->cfg.vpl011 = true;
	assert_int_equal(domain_load(d), 0);
	f = guest_fdt(d, &blob);

	assert_int_equal(fdt_address_cells(&f, 0), 2);
	assert_int_equal(fdt_size_cells(&f, 0), 2);
	assert_int_equal(fdt_prop_string(&f, fdt_path(&f, "/chosen"), "bootargs", &s), 0);
	assert_string_equal(s, "console=hvc0 role=x");
	assert_int_equal(fdt_prop_string(&f, fdt_path(&f, "/chosen"), "stdout-path", &s), 0);
	assert_string_equal(s, "/sbsa-uart@22000000");
	assert_false(fdt_has_prop(&f, fdt_path(&f, "/chosen"), "linux,initrd-start"));

	n = fdt_path(&f, "/psci");
	assert_true(fdt_node_compatible(&f, n, "arm,psci-1.0"));
	assert_true(fdt_node_compatible(&f, n, "arm,psci-0.2"));
	assert_true(fdt_node_compatible(&f, n, "arm,psci"));
	assert_int_equal(fdt_prop_string(&f, n, "method", &s), 0);
	assert_string_equal(s, "hvc");
	assert_int_equal(fdt_prop_u32(&f, n, "cpu_off", &v), 0);
	assert_int_equal(v, 1U);
	assert_int_equal(fdt_prop_u32(&f, n, "cpu_on", &v), 0);
	assert_int_equal(v, 2U);

	for (uint32_t i = 0U; i < 4U; i++) {
		char path[32];
		snprintf(path, sizeof(path), "/cpus/cpu@%x", i);
		n = fdt_path(&f, path);
		if (i == 3U) {
			assert_int_equal(n, -FDT_ERR_NOTFOUND); /* one node per vCPU */
			break;
		}
		assert_true(n > 0);
		assert_int_equal(fdt_prop_u32(&f, n, "reg", &v), 0);
		assert_int_equal(v, i);
		assert_int_equal(fdt_prop_string(&f, n, "enable-method", &s), 0);
		assert_string_equal(s, "psci");
		assert_int_equal(fdt_prop_string(&f, n, "device_type", &s), 0);
		assert_string_equal(s, "cpu");
		assert_true(fdt_node_compatible(&f, n, "arm,cortex-a57"));
	}
	n = fdt_path(&f, "/memory@40000000");
	assert_reg(&f, n, 0U, 0x40000000U, MIB(16));

	n = fdt_path(&f, "/interrupt-controller@3001000");
	assert_true(fdt_node_compatible(&f, n, "arm,gic-v3"));
	assert_reg(&f, n, 0U, 0x03001000U, 0x10000U);
	assert_reg(&f, n, 1U, 0x03020000U, 3U * 0x20000U);
	assert_int_equal(fdt_prop_u32(&f, n, "#interrupt-cells", &v), 0);
	assert_int_equal(v, 3U);
	assert_true(fdt_has_prop(&f, n, "interrupt-controller"));
	assert_int_equal(fdt_prop_u32(&f, n, "phandle", &v), 0);
	assert_int_equal(fdt_node_by_phandle(&f, v), n);
	assert_int_equal(fdt_prop_u32(&f, 0, "interrupt-parent", &v), 0);
	assert_int_equal(fdt_node_by_phandle(&f, v), n);

	n = fdt_path(&f, "/timer");
	assert_true(fdt_node_compatible(&f, n, "arm,armv8-timer"));
	assert_cells(&f, n, "interrupts", timer, 9);

	n = fdt_path(&f, "/hypervisor");
	assert_true(fdt_node_compatible(&f, n, "xen,xen-4.17"));
	assert_true(fdt_node_compatible(&f, n, "xen,xen"));
	assert_reg(&f, n, 0U, 0x38000000U, MIB(16));
	assert_cells(&f, n, "interrupts", evt, 3);

	n = fdt_path(&f, "/sbsa-uart@22000000");
	assert_true(fdt_node_compatible(&f, n, "arm,sbsa-uart"));
	assert_reg(&f, n, 0U, 0x22000000U, 0x1000U);
	assert_cells(&f, n, "interrupts", uart_irq, 3);
	assert_non_null(fdt_getprop(&f, n, "interrupt-parent", &len));
}

/*
 * A partition with the RTC of tests/config/dts/partial/rtc.dts: its device
 * memory in stage 2 as Device-nGnRE, the partial tree's /aliases and
 * /passthrough in its tree without the xen,* properties, its GIC with the
 * partial tree's /gic phandle.
 */
VERIFIES(REQ-PT-006)
static void test_guest_dt_passthrough(void **state)
{
	struct domain *d;
	size_t plen;
	uint8_t *pblob = boot_load_dtb("partial-rtc", &plen);
	uint8_t *blob;
	struct fdt pf;
	struct fdt f;
	const char *s;
	uint32_t gic_ph;
	uint32_t v;
	enum p2m_type t;
	mfn_t mfn;
	int n;

	(void)state;
	reset_machine();
	d = make_domain(MIB(16), 1U, MIB(400), 0x1000U);
	/* The partial tree as a boot module, and what the parser took from it. */
	memcpy(&ram[MIB(300)], pblob, plen);
	assert_int_equal(fdt_open(&pf, pblob, plen), 0);
	assert_int_equal(fdt_prop_u32(&pf, fdt_path(&pf, "/gic"), "phandle", &gic_ph), 0);
	d->cfg.dtb.start = ma(MIB(300));
	d->cfg.dtb.size = plen;
	d->cfg.gic_phandle = gic_ph;
	d->cfg.nr_iomem = 1U;
	d->cfg.iomem[0] = (struct iomem_map){ .maddr = 0x9010000U, .gaddr = 0xa800000U,
					      .size = 0x1000U };
	assert_int_equal(domain_map_static(d), 0);
	assert_int_equal(p2m_lookup(&d->p2m, 0xa800U, &mfn, &t), 0);
	assert_int_equal(mfn, 0x9010U);
	assert_int_equal(t, p2m_mmio_direct_dev);
	assert_int_equal(p2m_lookup(&d->p2m, 0xa801U, &mfn, &t), -XEN_ENOENT);
	assert_int_equal(p2m_lookup(&d->p2m, 0x9010U, &mfn, &t), -XEN_ENOENT);

	assert_int_equal(domain_load(d), 0);
	f = guest_fdt(d, &blob);
	n = fdt_path(&f, "/passthrough");
	assert_true(n > 0);
	assert_true(fdt_node_compatible(&f, n, "simple-bus"));
	assert_true(fdt_has_prop(&f, n, "ranges"));
	assert_int_equal(fdt_address_cells(&f, n), 2);
	n = fdt_path(&f, "/passthrough/pl031@9010000");
	assert_true(n > 0);
	assert_true(fdt_node_compatible(&f, n, "arm,pl031"));
	assert_false(fdt_has_prop(&f, n, "xen,reg"));
	assert_false(fdt_has_prop(&f, n, "xen,path"));
	assert_false(fdt_has_prop(&f, n, "xen,force-assign-without-iommu"));
	assert_int_equal(fdt_prop_u32(&f, n, "interrupt-parent", &v), 0);
	assert_int_equal(v, gic_ph);
	/* The node's interrupt-parent is the partition's GIC. */
	n = fdt_node_by_phandle(&f, v);
	assert_true(fdt_has_prop(&f, n, "interrupt-controller"));
	assert_true(fdt_node_compatible(&f, n, "arm,gic-v3"));
	assert_int_equal(fdt_prop_u32(&f, 0, "interrupt-parent", &v), 0);
	assert_int_equal(v, gic_ph);
	assert_int_equal(fdt_prop_string(&f, fdt_path(&f, "/aliases"), "rtc0", &s), 0);
	assert_string_equal(s, "/passthrough/pl031@9010000");
	/* Only /aliases and /passthrough come across: not the placeholder /gic. */
	assert_int_equal(fdt_path(&f, "/gic"), -FDT_ERR_NOTFOUND);
	/* After the partial tree the generated nodes follow, unchanged. */
	assert_true(fdt_path(&f, "/timer") > 0);
	free(pblob);
}

/* Two static-memory banks, seen back to back and then (direct-map) where they are. */
static struct domain *make_banked(bool direct, uint8_t *base)
{
	struct domain_config cfg;
	paddr_t b = (paddr_t)(uintptr_t)base;

	memset(&cfg, 0, sizeof(cfg));
	snprintf(cfg.name, sizeof(cfg.name), "banked");
	cfg.nr_vcpus = 1U;
	cfg.mem_bytes = MIB(16);
	cfg.nr_mem_banks = 2U;
	cfg.mem_bank[0] = (struct ram_range){ b, MIB(8) };
	cfg.mem_bank[1] = (struct ram_range){ b + MIB(16), MIB(8) };
	cfg.mem_maddr = cfg.mem_bank[0].maddr;
	cfg.direct_map = direct;
	cfg.kernel.start = ma(MIB(400));
	cfg.kernel.size = 0x1000U;
	assert_int_equal(mm_boot_reserve(ma(MIB(400)), 0x1000U), 0);
	assert_int_equal(mm_boot_claim(b, MIB(8)), 0);
	assert_int_equal(mm_boot_claim(b + MIB(16), MIB(8)), 0);
	assert_int_equal(domain_create(1, &cfg), 0);
	return domain_by_id(1);
}

VERIFIES(REQ-PT-011, REQ-PT-012)
static void test_static_mem_banks(void **state)
{
	/* direct-map needs machine addresses that are guest addresses: below 2^39. */
	uint8_t *low = mmap((void *)(uintptr_t)0x4000000000ULL, MIB(32), PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	struct mm_boot_range banks[2];
	struct domain *d;
	enum p2m_type t;
	mfn_t mfn;
	uint8_t *blob;
	struct fdt f;
	const uint8_t *reg;
	paddr_t lo;
	int len;

	(void)state;
	assert_true(low == (uint8_t *)(uintptr_t)0x4000000000ULL);
	lo = (paddr_t)(uintptr_t)low;
	reset_machine();
	d = make_banked(false, &ram[MIB(64)]);
	assert_int_equal(d->nr_ram_banks, 2U);
	assert_int_equal(d->ram_gpa, GUEST_RAM0_BASE);
	assert_int_equal(d->ram_bank[1].gpa, GUEST_RAM0_BASE + MIB(8));
	/* Guest RAM offsets cross into the second bank. */
	assert_int_equal(domain_ram_maddr(d, MIB(8) - 1U), ma(MIB(72) - 1U));
	assert_int_equal(domain_ram_maddr(d, MIB(8)), ma(MIB(80)));
	assert_true(domain_ram_owns(d, ma(MIB(81))));
	assert_false(domain_ram_owns(d, ma(MIB(74))));
	assert_int_equal(p2m_lookup(&d->p2m, gaddr_to_gfn(GUEST_RAM0_BASE + MIB(9)), &mfn, &t), 0);
	assert_int_equal(mfn, maddr_to_mfn(ma(MIB(81))));
	assert_int_equal(t, p2m_ram_rw);
	/* 16 MiB: the tree goes at the end of RAM less 2 MiB, in the second bank. */
	assert_int_equal(domain_load(d), 0);
	assert_int_equal(d->dtb_gpa, GUEST_RAM0_BASE + MIB(14));
	f = guest_fdt(d, &blob);
	assert_ptr_equal(blob, &ram[MIB(86)]);
	reg = fdt_getprop(&f, fdt_path(&f, "/memory@40000000"), "reg", &len);
	assert_int_equal(len, 16);
	assert_int_equal(fdt_be64(&reg[8]), MIB(16));

	/* direct-map: each bank at its machine address, one reg entry each. */
	harness_reset();
	banks[0] = (struct mm_boot_range){ ma(0), RAM_BYTES };
	banks[1] = (struct mm_boot_range){ lo, MIB(32) };
	assert_int_equal(mm_boot_init(banks, 2U), 0);
	d = make_banked(true, low);
	assert_int_equal(d->ram_gpa, lo);
	assert_int_equal(d->ram_bank[1].gpa, lo + MIB(16));
	assert_int_equal(p2m_lookup(&d->p2m, gaddr_to_gfn(lo + MIB(17)), &mfn, &t), 0);
	assert_int_equal(mfn, maddr_to_mfn(lo + MIB(17)));
	assert_int_equal(p2m_lookup(&d->p2m, gaddr_to_gfn(GUEST_RAM0_BASE), &mfn, &t), -XEN_ENOENT);
	assert_int_equal(domain_load(d), 0);
	/* Kernel, tree and ramdisk in the first bank: 8 MiB, tree 2 MiB below its end. */
	assert_int_equal(d->kernel_entry, lo);
	assert_int_equal(d->dtb_gpa, lo + MIB(6));
	blob = harness_gpa(d, d->dtb_gpa);
	assert_int_equal(fdt_open(&f, blob, MIB(2)), 0);
	reg = fdt_getprop(&f, fdt_path(&f, "/memory"), "reg", &len);
	assert_non_null(reg);
	assert_int_equal(len, 32);
	assert_int_equal(fdt_be64(&reg[0]), lo);
	assert_int_equal(fdt_be64(&reg[16]), lo + MIB(16));
	assert_int_equal(fdt_be64(&reg[24]), MIB(8));
	munmap(low, MIB(32));
}

VERIFIES(REQ-BOOT-032)
static void test_guest_dt_gicv2_plain(void **state)
{
	struct domain *d;
	uint8_t *blob;
	struct fdt f;
	const char *s;
	int n;

	(void)state;
	reset_machine();
	domain_build_init(2U, NULL);
	d = make_domain(MIB(16), 1U, MIB(400), 0x1000U);
	assert_int_equal(domain_load(d), 0);
	f = guest_fdt(d, &blob);
	n = fdt_path(&f, "/interrupt-controller@3001000");
	assert_true(fdt_node_compatible(&f, n, "arm,gic-400"));
	assert_reg(&f, n, 0U, 0x03001000U, 0x1000U);
	assert_reg(&f, n, 1U, 0x03002000U, 0x2000U);
	/* Without xen,enhanced and vpl011: no /hypervisor, no UART, no stdout-path. */
	assert_int_equal(fdt_path(&f, "/hypervisor"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path(&f, "/sbsa-uart"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_prop_string(&f, fdt_path(&f, "/chosen"), "stdout-path", &s),
			 -FDT_ERR_NOTFOUND);
	/* The CPU compatible set earlier is kept when none is given. */
	assert_true(fdt_node_compatible(&f, fdt_path(&f, "/cpus/cpu@0"), "arm,cortex-a57"));
	domain_build_init(3U, NULL);
}

VERIFIES(REQ-BOOT-032)
static void test_guest_dt_too_small_buffer(void **state)
{
	static uint8_t buf[8192];
	struct domain *d;
	int need;

	(void)state;
	reset_machine();
	d = make_domain(MIB(16), 2U, MIB(400), 0x1000U);
	need = domain_build_dt(d, buf, sizeof(buf), 0U);
	assert_true(need > 0);
	for (int cap = 0; cap < need; cap += 7) {
		assert_int_equal(domain_build_dt(d, buf, (size_t)cap, 0U), -FDT_ERR_NOSPACE);
	}
}

/* ------------------------------------------------------- boot_setup() */

static uint8_t *anchor;
static size_t anchor_len;

/* The anchor tree with its two kernels moved into the mapping. */
static void anchor_patched(void)
{
	static const char *const mods[2] = { "/chosen/domU_a/module@50000000",
					     "/chosen/domU_b/module@50200000" };
	struct fdt f;

	free(anchor);
	anchor = boot_load_dtb("xen-anchor", &anchor_len);
	assert_int_equal(fdt_open(&f, anchor, anchor_len), 0);
	for (unsigned int i = 0U; i < 2U; i++) {
		int len;
		uint8_t *reg = (uint8_t *)fdt_getprop(&f, fdt_path(&f, mods[i]), "reg", &len);
		paddr_t at = ma(MIB(400) + (MIB(2) * i));
		assert_int_equal(len, 16);
		for (unsigned int k = 0U; k < 8U; k++) {
			reg[k] = (uint8_t)(at >> (56U - (8U * k)));
		}
		fill_pattern(MIB(400) + (MIB(2) * i), 0x3000U, (uint8_t)(i + 1U));
	}
}

static struct boot_machine machine(uint32_t cpus)
{
	struct boot_machine m;

	memset(&m, 0, sizeof(m));
	m.nr_cpus = cpus;
	m.gic_version = 3U;
	m.nr_banks = 1U;
	m.banks[0].base = ma(0);
	m.banks[0].size = RAM_BYTES;
	m.hyp_start = ma(MIB(2));
	m.hyp_end = ma(MIB(2) + 0x40000U);
	return m;
}

VERIFIES(REQ-BOOT-035, REQ-BOOT-015, REQ-BOOT-030, REQ-BOOT-034, REQ-BOOT-013)
static void test_boot_setup_xen_anchor(void **state)
{
	struct boot_machine m = machine(4U);
	struct domain *d1;
	struct domain *d2;
	paddr_t a;

	(void)state;
	harness_reset();
	anchor_patched();
	domain_build_init(3U, "test,not-the-board-cpu");
	assert_int_equal(boot_setup(anchor, &m), 0);
	d1 = domain_by_id(1);
	d2 = domain_by_id(2);
	assert_non_null(d1);
	assert_non_null(d2);
	assert_null(domain_by_id(3));
	assert_string_equal(d1->cfg.name, "domU_a");
	assert_int_equal(d1->state, DOMAIN_CREATED);
	/* RAM: lowest free 2 MiB block, never the hypervisor's, the DTB's or a module's. */
	assert_int_equal(d1->ram_maddr, ma(MIB(4)));   /* 0-2 MiB is too small */
	assert_int_equal(d2->ram_maddr, ma(MIB(20)));
	assert_int_equal(d1->dtb_gpa, 0x40e00000U);
	{
		/* The guest's CPUs are the board's (QEMU lists cpu-map before cpu@0). */
		uint8_t *blob;
		struct fdt gf = guest_fdt(d1, &blob);
		assert_true(fdt_node_compatible(&gf, fdt_path(&gf, "/cpus/cpu@0"), "arm,cortex-a57"));
	}
	assert_memory_equal(harness_gpa(d2, GUEST_RAM0_BASE), &ram[MIB(402)], 0x1000U);
	/* Boot allocation is closed. */
	assert_int_equal(mm_boot_alloc(0x1000U, 0x1000U, &a), -XEN_ENOMEM);
	assert_non_null(strstr(host_console_text(), "bulkhead: 2 partitions, 2 vCPUs on 4 "
					     "physical CPUs, GICv3"));
	assert_non_null(strstr(host_console_text(), "bulkhead: d1 domU_a: vCPU on CPU 0"));
	assert_non_null(strstr(host_console_text(), "bulkhead: d2 domU_b: vCPU on CPU 1"));

	/* Start: both run, each vCPU found from its physical CPU, CPUs 2-3 idle. */
	domain_start_all();
	assert_int_equal(d1->state, DOMAIN_RUNNING);
	assert_int_equal(d2->state, DOMAIN_RUNNING);
	assert_true(d1->vcpu[0].online);
	assert_ptr_equal(vcpu_of_pcpu(0U), &d1->vcpu[0]);
	assert_ptr_equal(vcpu_of_pcpu(1U), &d2->vcpu[0]);
	assert_null(vcpu_of_pcpu(2U));
	assert_null(vcpu_of_pcpu(CONFIG_NR_CPUS));
	/* A second call starts nothing twice. */
	domain_start_all();
	assert_int_equal(d1->state, DOMAIN_RUNNING);
}

/* Write v big-endian into the cells at p (a reg or xen,shared-mem address). */
static void put_be64(uint8_t *p, uint64_t v)
{
	for (unsigned int k = 0U; k < 8U; k++) {
		p[k] = (uint8_t)(v >> (56U - (8U * k)));
	}
}

/* tests/unit/dts/shm-boot.dts with its modules and region (host at shm_off) in machine RAM. */
static uint8_t *shm_tree(uint64_t shm_off, size_t *len)
{
	static const char *const doms[2] = { "/chosen/a", "/chosen/b" };
	uint8_t *blob = boot_load_dtb("shm-boot", len);
	struct fdt f;
	int l;

	assert_int_equal(fdt_open(&f, blob, *len), 0);
	for (unsigned int i = 0U; i < 2U; i++) {
		int dom = fdt_path(&f, doms[i]);
		int mod = fdt_first_child(&f, dom);
		put_be64((uint8_t *)fdt_getprop(&f, mod, "reg", &l), ma(MIB(400) + (MIB(2) * i)));
		fill_pattern(MIB(400) + (MIB(2) * i), 0x3000U, (uint8_t)(i + 1U));
		put_be64((uint8_t *)fdt_getprop(&f, fdt_subnode(&f, dom, "shm"), "xen,shared-mem", &l),
			 ma(shm_off));
	}
	return blob;
}

/*
 * boot_setup() with a shared region where the first partition's RAM would
 * go: the region is claimed first (the RAM goes above it), zeroed, mapped
 * into both and reported; on the hypervisor image it is refused, naming
 * the node, before anything is placed.
 */
VERIFIES(REQ-SHM-002, REQ-SHM-003)
static void test_boot_setup_shm(void **state)
{
	struct boot_machine m = machine(4U);
	struct domain *d1;
	size_t len;
	uint8_t *tree;
	char want[160];

	(void)state;
	harness_reset();
	tree = shm_tree(MIB(4), &len);
	memset(&ram[MIB(4)], 0xa5, MIB(2));
	assert_int_equal(boot_setup(tree, &m), 0);
	d1 = domain_by_id(1);
	assert_non_null(d1);
	assert_int_equal(d1->ram_maddr, ma(MIB(6)));
	assert_int_equal(domain_by_id(2)->ram_maddr, ma(MIB(22)));
	assert_true(all_zero(&ram[MIB(4)], MIB(2)));
	assert_ptr_equal(harness_gpa(d1, 0x50000000U), &ram[MIB(4)]);
	assert_ptr_equal(harness_gpa(domain_by_id(2), 0x60000000U), &ram[MIB(4)]);
	snprintf(want, sizeof(want), "bulkhead: shared memory \"buf0\" 0x%llx-0x%llx: 2 partitions, "
		 "owner d1", (unsigned long long)ma(MIB(4)), (unsigned long long)ma(MIB(6) - 1U));
	assert_non_null(strstr(host_console_text(), want));
	free(tree);

	/* On the hypervisor image: the parser's message, at boot as at check-dtb. */
	harness_reset();
	tree = shm_tree(MIB(2), &len);
	assert_true(boot_setup(tree, &m) < 0);
	snprintf(want, sizeof(want), "bulkhead: config: /chosen/a/shm: xen,shared-mem host range "
		 "0x%llx-0x%llx overlaps the hypervisor (0x%llx-0x%llx)\r\n",
		 (unsigned long long)ma(MIB(2)), (unsigned long long)ma(MIB(4) - 1U),
		 (unsigned long long)m.hyp_start, (unsigned long long)(m.hyp_end - 1U));
	assert_string_equal(host_console_text(), want);
	assert_null(domain_by_id(1));
	free(tree);
	harness_reset();
}

VERIFIES(REQ-SOC-005)
static void test_boot_check_online(void **state)
{
	struct boot_machine m = machine(4U);

	(void)state;
	harness_reset();
	anchor_patched();
	assert_int_equal(boot_setup(anchor, &m), 0);
	/* Both partitions' CPUs came up. */
	host_console_clear();
	assert_int_equal(boot_check_online(0x3U), 0);
	assert_string_equal(host_console_text(), "");
	/* CPU 1 (domU_b's) did not: the partition and the CPU are named. */
	assert_int_equal(boot_check_online(0xdU), -XEN_ENODEV);
	assert_string_equal(host_console_text(), "bulkhead: config: /chosen/domU_b: vCPU 0 on "
			    "physical CPU 1, which did not come online\r\n");
}

VERIFIES(REQ-BOOT-027, REQ-BOOT-035, REQ-BOOT-022, REQ-BOOT-023)
static void test_boot_setup_errors(void **state)
{
	struct boot_machine m = machine(1U);
	struct dom0less_limits lim;
	struct dom0less_config *c = malloc(sizeof(*c));
	char want[DOM0LESS_ERR_LEN + 32];
	char err[DOM0LESS_ERR_LEN];
	struct fdt f;

	(void)state;
	/* One board CPU for two partitions: the parser's message, prefixed. */
	harness_reset();
	anchor_patched();
	assert_true(boot_setup(anchor, &m) < 0);
	assert_int_equal(fdt_open(&f, anchor, anchor_len), 0);
	dom0less_default_limits(&lim);
	lim.board_cpus = 1U;
	lim.nr_banks = 1U;
	lim.banks[0].base = ma(0);
	lim.banks[0].size = RAM_BYTES;
	assert_true(dom0less_parse(&f, &lim, c, err, sizeof(err)) < 0);
	snprintf(want, sizeof(want), "bulkhead: config: %s\r\n", err);
	assert_string_equal(host_console_text(), want);
	assert_string_equal(err, "/chosen/domU_b: vCPU 0 needs physical CPU 1 (1:1 pinning, "
			    "2 vCPUs in all), the device tree lists 1 CPU");
	assert_null(domain_by_id(1));

	/* The unpatched tree: its modules are not in this machine's RAM. */
	harness_reset();
	m = machine(4U);
	free(anchor);
	anchor = boot_load_dtb("xen-anchor", &anchor_len);
	assert_true(boot_setup(anchor, &m) < 0);
	assert_string_equal(host_console_text(), "bulkhead: config: /chosen/domU_a/"
			    "module@50000000: module 0x50000000-0x500030cf is outside RAM\r\n");

	/* A kernel module on top of the hypervisor image. */
	harness_reset();
	anchor_patched();
	m.hyp_start = ma(MIB(400) + 0x1000U);
	m.hyp_end = ma(MIB(400) + 0x2000U);
	assert_true(boot_setup(anchor, &m) < 0);
	assert_non_null(strstr(host_console_text(), "bulkhead: config: /chosen/domU_a: module "));
	assert_non_null(strstr(host_console_text(), "overlaps the hypervisor image"));
	m = machine(4U);

	/* Not a device tree at all. */
	harness_reset();
	memset(anchor, 0, 64);
	assert_true(boot_setup(anchor, &m) < 0);
	assert_non_null(strstr(host_console_text(), "bad header"));

	/* More RAM than the machine has left. */
	harness_reset();
	anchor_patched();
	m.banks[0].size = MIB(420);
	assert_int_equal(fdt_open(&f, anchor, anchor_len), 0);
	{
		uint8_t *mem = (uint8_t *)fdt_getprop(&f, fdt_path(&f, "/chosen/domU_b"), "memory",
						      &(int){ 0 });
		uint32_t kib = 400U << 10;
		mem[4] = (uint8_t)(kib >> 24);
		mem[5] = (uint8_t)(kib >> 16);
		mem[6] = (uint8_t)(kib >> 8);
		mem[7] = (uint8_t)kib;
	}
	assert_true(boot_setup(anchor, &m) < 0);
	assert_non_null(strstr(host_console_text(), "bulkhead: config: /chosen/domU_b: cannot "
					     "place 409600 KiB of RAM"));
	free(c);
	free(anchor);
	anchor = NULL;
	harness_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mm_boot_placement),
		cmocka_unit_test(test_mm_boot_split_limit),
		cmocka_unit_test(test_load_raw_kernel),
		cmocka_unit_test(test_load_image_and_ramdisk),
		cmocka_unit_test(test_reload_and_misaligned_copy),
		cmocka_unit_test(test_dtb_placement_rules),
		cmocka_unit_test(test_vbd_region),
		cmocka_unit_test(test_shm_regions),
		cmocka_unit_test(test_guest_dt_layout_gicv3),
		cmocka_unit_test(test_guest_dt_gicv2_plain),
		cmocka_unit_test(test_guest_dt_too_small_buffer),
		cmocka_unit_test(test_scrub_when_ram_changes_owner),
		cmocka_unit_test(test_guest_dt_passthrough),
		cmocka_unit_test(test_static_mem_banks),
		cmocka_unit_test(test_boot_setup_xen_anchor),
		cmocka_unit_test(test_boot_setup_shm),
		cmocka_unit_test(test_boot_setup_errors),
		cmocka_unit_test(test_boot_check_online),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
