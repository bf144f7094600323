/* SPDX-License-Identifier: MIT */
/*
 * Boot-time placement of machine memory: a sorted list of free ranges in a
 * static array, cut by reservations and allocations. Lowest address first,
 * so a configuration places the same way on every boot. Closed for good by
 * mm_boot_done(): after boot nothing is allocated.
 */
#include <bulkhead/mm.h>
#include <bulkhead/lib.h>
#include <public/errno.h>

static struct mm_boot_range mm_free[MM_BOOT_MAX_RANGES];
static unsigned int mm_nr_free;
static bool mm_done;
static mfn_t mm_max_page; /* one past the highest RAM frame of the banks */

static void mm_remove_at(unsigned int i)
{
	unsigned int k;

	for (k = i; (k + 1U) < mm_nr_free; k++) {
		mm_free[k] = mm_free[k + 1U];
	}
	mm_nr_free--;
}

static int mm_insert_at(unsigned int i, paddr_t base, uint64_t size)
{
	unsigned int k;

	if (mm_nr_free >= MM_BOOT_MAX_RANGES) {
		return -XEN_ENOMEM;
	}
	for (k = mm_nr_free; k > i; k--) {
		mm_free[k] = mm_free[k - 1U];
	}
	mm_free[i].base = base;
	mm_free[i].size = size;
	mm_nr_free++;
	return 0;
}

int mm_boot_init(const struct mm_boot_range *banks, unsigned int n)
{
	unsigned int i;
	unsigned int j;

	mm_nr_free = 0U;
	mm_done = false;
	mm_max_page = 0U;
	if (n > MM_BOOT_MAX_RANGES) {
		return -XEN_EINVAL;
	}
	for (i = 0U; i < n; i++) {
		paddr_t base = ROUND_UP(banks[i].base, PAGE_SIZE);
		paddr_t end = (banks[i].base + banks[i].size) & PAGE_MASK;
		if ((banks[i].base + banks[i].size < banks[i].base) || (end <= base)) {
			continue;
		}
		/* Keep the list sorted; banks do not overlap on a sane board. */
		for (j = 0U; (j < mm_nr_free) && (mm_free[j].base < base); j++) {
		}
		if (((j > 0U) && (mm_free[j - 1U].base + mm_free[j - 1U].size > base)) ||
		    ((j < mm_nr_free) && (end > mm_free[j].base))) {
			return -XEN_EINVAL;
		}
		(void)mm_insert_at(j, base, end - base);
		mm_max_page = MAX(mm_max_page, maddr_to_mfn(end));
	}
	return 0;
}

mfn_t mm_boot_max_page(void)
{
	return mm_max_page;
}

int mm_boot_reserve(paddr_t base, uint64_t size)
{
	paddr_t end = base + size;
	unsigned int i = 0U;
	unsigned int steps;

	if (mm_done) {
		return -XEN_EBUSY;
	}
	if (end < base) {
		end = ~(paddr_t)0U;
	}
	/* Each step removes, trims or splits one range: at most 2n steps. */
	for (steps = 0U; (steps < (2U * MM_BOOT_MAX_RANGES)) && (i < mm_nr_free); steps++) {
		paddr_t fb = mm_free[i].base;
		paddr_t fe = fb + mm_free[i].size;
		if ((fe <= base) || (fb >= end)) {
			i++;
		} else if ((base <= fb) && (end >= fe)) {
			mm_remove_at(i);
		} else if (base <= fb) {
			mm_free[i].base = end;
			mm_free[i].size = fe - end;
			i++;
		} else if (end >= fe) {
			mm_free[i].size = base - fb;
			i++;
		} else {
			mm_free[i].size = base - fb;
			if (mm_insert_at(i + 1U, end, fe - end) != 0) {
				return -XEN_ENOMEM;
			}
			i += 2U;
		}
	}
	return 0;
}

int mm_boot_claim(paddr_t base, uint64_t size)
{
	unsigned int i;

	if (mm_done) {
		return -XEN_EBUSY;
	}
	if ((size == 0U) || (base + size < base)) {
		return -XEN_EINVAL;
	}
	for (i = 0U; i < mm_nr_free; i++) {
		if ((base >= mm_free[i].base) &&
		    (base + size <= mm_free[i].base + mm_free[i].size)) {
			return mm_boot_reserve(base, size);
		}
	}
	return -XEN_EBUSY;
}

int mm_boot_alloc(uint64_t bytes, uint64_t align, paddr_t *out)
{
	uint64_t need;
	unsigned int i;

	if (mm_done) {
		return -XEN_ENOMEM;
	}
	if ((bytes == 0U) || (align == 0U) || ((align & (align - 1U)) != 0U)) {
		return -XEN_EINVAL;
	}
	need = ROUND_UP(bytes, PAGE_SIZE);
	for (i = 0U; i < mm_nr_free; i++) {
		paddr_t end = mm_free[i].base + mm_free[i].size;
		paddr_t start = ROUND_UP(mm_free[i].base, align);
		if ((start >= mm_free[i].base) && (start < end) && (need <= end - start)) {
			*out = start;
			return mm_boot_reserve(start, need);
		}
	}
	return -XEN_ENOMEM;
}

void mm_boot_done(void)
{
	mm_done = true;
}

uint64_t mm_boot_free_bytes(uint64_t *largest)
{
	uint64_t total = 0U;
	uint64_t big = 0U;
	unsigned int i;

	for (i = 0U; i < mm_nr_free; i++) {
		total += mm_free[i].size;
		big = MAX(big, mm_free[i].size);
	}
	if (largest != NULL) {
		*largest = big;
	}
	return total;
}
