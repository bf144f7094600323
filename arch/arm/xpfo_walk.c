/* SPDX-License-Identifier: MIT */
/*
 * The EL2 stage-1 tables read as memory (4 KiB granule, levels 1-3, the
 * format mmu.c writes). No register is touched, so host builds link this
 * file and the unit tests walk fabricated tables with it; the judgement of
 * what may be mapped is common/xpfo_check.c. No recursion: one loop per level.
 */
#include <bulkhead/xpfo.h>
#include <bulkhead/mm.h>

#define DESC_VALID   ULL(1)
#define DESC_TYPE    ULL(3)
#define DESC_NEXT    ULL(3)                    /* table (levels 1-2) or page (level 3) */
#define DESC_OA      ULL(0x0000fffffffff000)   /* output address, bits 47:12 */
#define PT_ENTRIES   U(512)
#define L1_SHIFT     U(30)
#define L2_SHIFT     U(21)

/* Other CPUs change slot entries while we read: one atomic load each. */
static uint64_t desc_at(const uint64_t *t, unsigned int i)
{
	return __atomic_load_n(&t[i], __ATOMIC_ACQUIRE);
}

static const uint64_t *next_table(uint64_t desc)
{
	return (const uint64_t *)maddr_to_virt(desc & DESC_OA);
}

static int walk_l3(const uint64_t *l3, uint64_t base, xpfo_leaf_fn fn,
		   struct xpfo_walk_ctx *ctx, uint64_t *bad_va)
{
	unsigned int i;
	int rc;

	for (i = 0U; i < PT_ENTRIES; i++) {
		uint64_t d = desc_at(l3, i);
		uint64_t va = base + ((uint64_t)i << PAGE_SHIFT);

		if ((d & DESC_VALID) == 0U) {
			continue;
		}
		if ((d & DESC_TYPE) != DESC_NEXT) {
			/* Reserved at level 3: mmu.c never writes it, so something else did. */
			*bad_va = va;
			return (int)XPFO_BAD_DESC;
		}
		rc = fn(ctx, va, d & DESC_OA, PAGE_SIZE);
		if (rc != 0) {
			return rc;
		}
	}
	return 0;
}

int xpfo_pt_walk(const uint64_t *root, xpfo_leaf_fn fn, struct xpfo_walk_ctx *ctx,
		 uint32_t *tables, uint64_t *bad_va)
{
	unsigned int i1;
	unsigned int i2;
	int rc = 0;

	for (i1 = 0U; (i1 < PT_ENTRIES) && (rc == 0); i1++) {
		uint64_t d1 = desc_at(root, i1);
		uint64_t va1 = (uint64_t)i1 << L1_SHIFT;
		const uint64_t *l2;

		if ((d1 & DESC_VALID) == 0U) {
			continue;
		}
		if ((d1 & DESC_TYPE) != DESC_NEXT) {
			rc = fn(ctx, va1, d1 & DESC_OA, UL(1) << L1_SHIFT);
			continue;
		}
		(*tables)++;
		l2 = next_table(d1);
		for (i2 = 0U; (i2 < PT_ENTRIES) && (rc == 0); i2++) {
			uint64_t d2 = desc_at(l2, i2);
			uint64_t va2 = va1 + ((uint64_t)i2 << L2_SHIFT);

			if ((d2 & DESC_VALID) == 0U) {
				continue;
			}
			if ((d2 & DESC_TYPE) != DESC_NEXT) {
				rc = fn(ctx, va2, d2 & DESC_OA, UL(1) << L2_SHIFT);
				continue;
			}
			(*tables)++;
			rc = walk_l3(next_table(d2), va2, fn, ctx, bad_va);
		}
	}
	return rc;
}

bool xpfo_pt_lookup(const uint64_t *root, uint64_t va, paddr_t *pa)
{
	const uint64_t *t = root;
	unsigned int shift = L1_SHIFT;
	unsigned int level;

	if ((va >> (L1_SHIFT + 9U)) != 0U) {
		return false;
	}
	for (level = 1U; level <= 3U; level++) {
		uint64_t d = desc_at(t, (unsigned int)((va >> shift) & (PT_ENTRIES - 1U)));
		uint64_t size = UL(1) << shift;

		if ((d & DESC_VALID) == 0U) {
			return false;
		}
		if ((level == 3U) || ((d & DESC_TYPE) != DESC_NEXT)) {
			if ((level == 3U) && ((d & DESC_TYPE) != DESC_NEXT)) {
				return false;
			}
			*pa = (d & DESC_OA & ~(size - 1U)) | (va & (size - 1U));
			return true;
		}
		t = next_table(d);
		shift -= 9U;
	}
	return false;
}
