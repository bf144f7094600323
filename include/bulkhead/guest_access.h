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

/* Copy to/from a guest physical address of d (no stage 1). */
int copy_from_guest_phys(struct domain *d, void *dst, paddr_t gpa, size_t len);
int copy_to_guest_phys(struct domain *d, paddr_t gpa, const void *src, size_t len);

/*
 * Resolve gfn of d to a machine frame the hypervisor may access: RAM the
 * partition owns (writable unless write is false). Returns -EFAULT otherwise.
 */
int guest_gfn_to_mfn(struct domain *d, gfn_t gfn, bool write, mfn_t *mfn);

#endif
