/* SPDX-License-Identifier: MIT */
/*
 * Copying between the hypervisor and guest memory. Guest pointers passed to
 * hypercalls are guest virtual addresses: each page is translated through
 * the vCPU's stage 1 and the partition's stage 2, checked to be the
 * partition's own RAM (or a grant mapping with the right permission), and
 * reached through map_domain_page(). Any failure is -EFAULT; a partial copy
 * is never reported as success.
 */
#ifndef BULKHEAD_GUEST_ACCESS_H
#define BULKHEAD_GUEST_ACCESS_H

#include <bulkhead/types.h>

struct vcpu;
struct domain;

int copy_from_guest_vcpu(const struct vcpu *v, void *dst, vaddr_t gva, size_t len);
int copy_to_guest_vcpu(const struct vcpu *v, vaddr_t gva, const void *src, size_t len);
int copy_from_guest(void *dst, vaddr_t gva, size_t len);
int copy_to_guest(vaddr_t gva, const void *src, size_t len);

/*
 * One element of a hypercall's argument array that is read when the
 * operation starts and partly written back when it ends (the grant-table
 * ops: status, handle). When the element lies in one page of the
 * partition's own RAM, that page stays mapped between the read and the
 * write-back, so the write-back costs a translation check instead of a
 * second map and unmap. The write-back still translates the address again
 * with the write permission, as a separate copy_to_guest would, and falls
 * back to one when the translation changed. The element is read into the
 * caller's buffer once: the operation never reads guest memory twice.
 */
struct guest_elem {
	const struct vcpu *v;
	vaddr_t gva;
	size_t len;
	uint8_t *va;   /* the page's temporary mapping, NULL when not held */
	paddr_t ma;    /* machine address of gva while va is held */
};

/* Read len bytes at gva into dst; -EFAULT as copy_from_guest_vcpu. */
int guest_elem_read(struct guest_elem *e, const struct vcpu *v, vaddr_t gva, void *dst,
		    size_t len);
/*
 * Write len bytes at offset off of the element back and end the access
 * (also on failure). off + len must lie within the element read.
 */
int guest_elem_write(struct guest_elem *e, size_t off, const void *src, size_t len);
/* End the access without writing (an error path). */
void guest_elem_release(struct guest_elem *e);

/* Copy to/from a guest physical address of d (no stage 1). */
int copy_from_guest_phys(struct domain *d, void *dst, paddr_t gpa, size_t len);
int copy_to_guest_phys(struct domain *d, paddr_t gpa, const void *src, size_t len);

/*
 * Resolve gfn of d to a machine frame the hypervisor may access: RAM the
 * partition owns (writable unless write is false). Returns -EFAULT otherwise.
 */
int guest_gfn_to_mfn(struct domain *d, gfn_t gfn, bool write, mfn_t *mfn);

#endif
