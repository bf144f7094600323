/* SPDX-License-Identifier: MIT */
/* Copying to and from partition memory, one page at a time. */
#include <bulkhead/guest_access.h>
#include <bulkhead/domain.h>
#include <bulkhead/mm.h>
#include <bulkhead/lib.h>
#include <public/errno.h>

int guest_gfn_to_mfn(struct domain *d, gfn_t gfn, bool write, mfn_t *mfn)
{
	enum p2m_type t;

	if (p2m_lookup(&d->p2m, gfn, mfn, &t) != 0) {
		return -XEN_EFAULT;
	}
	switch (t) {
	case p2m_ram_rw:
	case p2m_grant_map_rw:
		return 0;
	case p2m_ram_ro:
	case p2m_grant_map_ro:
		return write ? -XEN_EFAULT : 0;
	default:
		/* MMIO and hypervisor pages are not hypercall buffers. */
		return -XEN_EFAULT;
	}
}

/* One contiguous piece within the machine page of ma. */
static void copy_maddr_piece(paddr_t ma, void *buf, size_t len, bool to_guest)
{
	uint8_t *va = map_domain_page(maddr_to_mfn(ma));

	if (to_guest) {
		(void)memcpy(va + PAGE_OFFSET_OF(ma), buf, len);
	} else {
		(void)memcpy(buf, va + PAGE_OFFSET_OF(ma), len);
	}
	unmap_domain_page(va);
}

/* One contiguous piece within a page: gpa to machine page, then copy. */
static int copy_page_piece(struct domain *d, paddr_t gpa, void *buf, size_t len, bool to_guest)
{
	mfn_t mfn;
	int rc = guest_gfn_to_mfn(d, gaddr_to_gfn(gpa), to_guest, &mfn);

	if (rc == 0) {
		copy_maddr_piece(mfn_to_maddr(mfn) | PAGE_OFFSET_OF(gpa), buf, len, to_guest);
	}
	return rc;
}

/*
 * A stage-2 entry that lands in d's own RAM is p2m_ram_rw or _ro (the
 * hardware walk checked the write permission): the cases guest_gfn_to_mfn
 * accepts. Anything else (grant, MMIO, hypervisor page) takes the p2m walk.
 */
static bool maddr_in_own_ram(const struct domain *d, paddr_t ma)
{
	return domain_ram_owns(d, ma);
}

/* gva of v, translated for the access, lands in its partition's own RAM at *ma. */
static inline __attribute__((always_inline)) bool gva_to_own_ram(const struct vcpu *v, vaddr_t gva, bool write, paddr_t *ma)
{
	return (arch_gva_to_maddr(v, gva, write, ma) == 0) && maddr_in_own_ram(v->domain, *ma);
}

static int copy_guest(const struct vcpu *v, struct domain *d, uint64_t addr, void *buf,
		      size_t len, bool to_guest, bool virt)
{
	uint8_t *p = buf;

	/* Wrapping around the address space is a bad pointer, not a copy. */
	if ((addr + (uint64_t)len) < addr) {
		return -XEN_EFAULT;
	}
	/* LOOP-BOUND: each round copies chunk >= 1 bytes (to the page end) and subtracts it from
	 * len. */
	while (len > 0U) {
		size_t chunk = MIN(len, (size_t)(PAGE_SIZE - PAGE_OFFSET_OF(addr)));
		paddr_t gpa = addr;
		paddr_t ma;
		int rc = 0;

		if (virt && gva_to_own_ram(v, addr, to_guest, &ma)) {
			copy_maddr_piece(ma, p, chunk, to_guest);
		} else if (virt && (arch_gva_to_ipa(v, addr, to_guest, &gpa) != 0)) {
			return -XEN_EFAULT;
		} else {
			rc = copy_page_piece(d, gpa, p, chunk, to_guest);
		}
		if (rc != 0) {
			return rc;
		}
		p += chunk;
		addr += chunk;
		len -= chunk;
	}
	return 0;
}

/*
 * Copies this small are hypercall arguments and results: a 4-byte port, an
 * 8-byte handle, a grant-table op of 24 to 40 bytes.
 */
#define GUEST_SMALL_COPY U(64)

/*
 * A small copy (an argument, a status, a grant-table element), inline: whole
 * 8-byte words when both ends are 8-byte aligned, a 4- or 2-byte field at its
 * alignment in one access; anything else memcpy. The alignment is tested,
 * then told to the compiler, so each step is one load and one store
 * (-mstrict-align).
 */
static inline void copy_small(uint8_t *d, const uint8_t *s, size_t n)
{
	uintptr_t both = (uintptr_t)d | (uintptr_t)s;
	size_t i;

	if (((both & 7U) == 0U) && ((n & 7U) == 0U)) {
		for (i = 0U; i < n; i += 8U) {
			__builtin_memcpy(__builtin_assume_aligned(&d[i], 8U),
					 __builtin_assume_aligned(&s[i], 8U), 8U);
		}
	} else if ((n == 4U) && ((both & 3U) == 0U)) {
		__builtin_memcpy(__builtin_assume_aligned(d, 4U), __builtin_assume_aligned(s, 4U), 4U);
	} else if ((n == 2U) && ((both & 1U) == 0U)) {
		__builtin_memcpy(__builtin_assume_aligned(d, 2U), __builtin_assume_aligned(s, 2U), 2U);
	} else {
		(void)memcpy(d, s, n);
	}
}

int guest_elem_read(struct guest_elem *e, const struct vcpu *v, vaddr_t gva, void *dst,
		    size_t len)
{
	paddr_t ma;

	e->v = v;
	e->gva = gva;
	e->len = len;
	e->va = NULL;
	if ((len == 0U) || (len > (PAGE_SIZE - PAGE_OFFSET_OF(gva))) ||
	    !gva_to_own_ram(v, gva, false, &ma)) {
		/* Across a page, or not plainly the partition's RAM: the general path. */
		return copy_from_guest_vcpu(v, dst, gva, len);
	}
	/*
	 * The argument slot, held until the write-back: the operation between
	 * (map, copy, swap of one element) copies nothing else from the guest.
	 */
	e->va = arch_map_scratch(ARCH_SCRATCH_ARG, ma & PAGE_MASK);
	e->ma = ma;
	copy_small(dst, &e->va[PAGE_OFFSET_OF(ma)], len);
	return 0;
}

void guest_elem_release(struct guest_elem *e)
{
	if (e->va != NULL) {
		arch_unmap_scratch(ARCH_SCRATCH_ARG, e->va);
		e->va = NULL;
	}
}

int guest_elem_write(struct guest_elem *e, size_t off, const void *src, size_t len)
{
	vaddr_t gva = e->gva + off;
	paddr_t ma;

	if ((off > e->len) || (len > (e->len - off))) {
		guest_elem_release(e);
		return -XEN_EFAULT;   /* a caller bug: outside what was read */
	}
	/* Same page, so same partition RAM: only the write permission and the page to check. */
	if ((e->va != NULL) && (arch_gva_to_maddr(e->v, gva, true, &ma) == 0) &&
	    (maddr_to_mfn(ma) == maddr_to_mfn(e->ma))) {
		copy_small(&e->va[PAGE_OFFSET_OF(ma)], src, len);
		guest_elem_release(e);
		return 0;
	}
	guest_elem_release(e);
	return copy_to_guest_vcpu(e->v, gva, src, len);
}

/*
 * The common case of a small copy, inline: within one page of the
 * partition's own RAM (one translation, one mapping). false: take the
 * general path (across a page, or a page that needs the p2m checks), which
 * also gives the error code.
 */
static inline bool copy_small_own(const struct vcpu *v, vaddr_t gva, void *buf, size_t len,
				  bool to_guest)
{
	paddr_t ma;
	uint8_t *va;

	if ((len > GUEST_SMALL_COPY) || (len > (PAGE_SIZE - PAGE_OFFSET_OF(gva))) ||
	    !gva_to_own_ram(v, gva, to_guest, &ma)) {
		return false;
	}
	/* Within one page of the partition's RAM: the CPU's scratch slot, for this copy alone. */
	va = arch_map_scratch(ARCH_SCRATCH_ARG, ma);
	if (to_guest) {
		copy_small(va, buf, len);
	} else {
		copy_small(buf, va, len);
	}
	arch_unmap_scratch(ARCH_SCRATCH_ARG, va);
	return true;
}

int copy_from_guest_vcpu(const struct vcpu *v, void *dst, vaddr_t gva, size_t len)
{
	if (copy_small_own(v, gva, dst, len, false)) {
		return 0;
	}
	return copy_guest(v, v->domain, gva, dst, len, false, true);
}

int copy_to_guest_vcpu(const struct vcpu *v, vaddr_t gva, const void *src, size_t len)
{
	if (copy_small_own(v, gva, (void *)(uintptr_t)src, len, true)) {
		return 0;
	}
	return copy_guest(v, v->domain, gva, (void *)(uintptr_t)src, len, true, true);
}

int copy_from_guest(void *dst, vaddr_t gva, size_t len)
{
	return copy_from_guest_vcpu(current, dst, gva, len);
}

int copy_to_guest(vaddr_t gva, const void *src, size_t len)
{
	return copy_to_guest_vcpu(current, gva, src, len);
}

int copy_from_guest_phys(struct domain *d, void *dst, paddr_t gpa, size_t len)
{
	return copy_guest(NULL, d, gpa, dst, len, false, false);
}

int copy_to_guest_phys(struct domain *d, paddr_t gpa, const void *src, size_t len)
{
	return copy_guest(NULL, d, gpa, (void *)(uintptr_t)src, len, true, false);
}
