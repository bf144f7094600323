/* SPDX-License-Identifier: MIT */
/*
 * grant_table_op (hypercall 20): argument checks, the array loop and the
 * continuation. An array call handles at most CONFIG_HYPERCALL_BATCH
 * elements per entry into the hypervisor, then rewinds the guest PC with
 * cmd/uop/count updated, so no call holds a CPU for unbounded time.
 */
#include "gnttab_priv.h"
#include <bulkhead/hypercall.h>
#include <bulkhead/guest_access.h>

/* cmd bits 12 and up carry a continuation argument (cache_flush only). */
#define GNTTABOP_CONT_SHIFT U(12)
#define GNTTABOP_CMD_MASK (((uint32_t)1U << GNTTABOP_CONT_SHIFT) - 1U)

union gnttab_elem {
	struct gnttab_map_grant_ref map;
	struct gnttab_copy copy;
	struct gnttab_swap_grant_ref swap;
};

struct gnttab_array_op {
	size_t size;
	size_t out_off; /* what is written back: [out_off, out_off + out_len) */
	size_t out_len;
	void (*fn)(struct vcpu *v, union gnttab_elem *e);
};

static void elem_map(struct vcpu *v, union gnttab_elem *e)
{
	gnttab_map_one(v, &e->map);
}

static void elem_copy(struct vcpu *v, union gnttab_elem *e)
{
	gnttab_copy_one(v, &e->copy);
}

static void elem_swap(struct vcpu *v, union gnttab_elem *e)
{
	e->swap.status = gnttab_swap_one(v->domain, e->swap.ref_a, e->swap.ref_b);
}

#define STATUS_OF(type) offsetof(type, status), sizeof(int16_t)

static const struct gnttab_array_op op_map = {
	sizeof(struct gnttab_map_grant_ref), 0U, sizeof(struct gnttab_map_grant_ref), elem_map
};
static const struct gnttab_array_op op_copy = {
	sizeof(struct gnttab_copy), STATUS_OF(struct gnttab_copy), elem_copy
};
static const struct gnttab_array_op op_swap = {
	sizeof(struct gnttab_swap_grant_ref), STATUS_OF(struct gnttab_swap_grant_ref), elem_swap
};

/* Returns 0 when all are done, the number done when preempted, or -EFAULT. */
static long gnttab_array(struct vcpu *v, const struct gnttab_array_op *op, xen_guest_handle_t uop,
			 unsigned int count)
{
	union gnttab_elem e;
	struct guest_elem g;
	unsigned int i;

	for (i = 0U; i < count; i++) {
		xen_guest_handle_t p = uop + ((uint64_t)i * op->size);

		if ((i != 0U) && hypercall_preempt_check(i)) {
			return (long)i;
		}
		if (guest_elem_read(&g, v, p, &e, op->size) != 0) {
			return -XEN_EFAULT;
		}
		op->fn(v, &e);
		if (guest_elem_write(&g, op->out_off, &((const uint8_t *)&e)[op->out_off],
				     op->out_len) != 0) {
			return -XEN_EFAULT;
		}
	}
	return 0;
}

static long gnttab_cache_flush(struct vcpu *v, xen_guest_handle_t uop, unsigned int count,
			       uint32_t *cur_ref)
{
	struct gnttab_cache_flush op;
	unsigned int i;
	unsigned int rounds = 0U;

	for (i = 0U; i < count; i++) {
		int rc;

		if ((i != 0U) && hypercall_preempt_check(i)) {
			return (long)i;
		}
		if (copy_from_guest(&op, uop + ((uint64_t)i * sizeof(op)), sizeof(op)) != 0) {
			return -XEN_EFAULT;
		}
		/* LOOP-BOUND: each round that asks for more moves *cur_ref forward by up to 4096
		 * grants and ends past gnttab_nr_entries(); preempted by hypercall_preempt_check()
		 * between rounds. */
		for (;;) {
			rc = gnttab_cache_flush_one(v, &op, cur_ref);
			if (rc <= 0) {
				break;
			}
			/* GCOVR_EXCL_START COV-001 */
			/* A long search for the grant is preempted like a batch. */
			rounds++;
			if (hypercall_preempt_check(rounds)) {
				return (long)i;
			}
			/* GCOVR_EXCL_STOP */
		}
		if (rc < 0) {
			return rc;
		}
		*cur_ref = 0U;
	}
	return 0;
}

/* rc > 0: preempted after rc elements of size bytes; continue with the rest. */
static long gnttab_continue(unsigned int cmd, xen_guest_handle_t uop, unsigned int count, long rc,
			    size_t size)
{
	regval_t args[HYPERCALL_NR_ARGS];

	if (rc <= 0) {
		return rc;
	}
	args[0] = cmd;
	args[1] = uop + ((uint64_t)rc * size);
	args[2] = (regval_t)count - (regval_t)rc;
	return hypercall_continue(3U, args);
}

/* Natural alignment of the op's struct; 0 for ops that read no memory. */
static size_t gnttab_align_of(unsigned int cmd)
{
	switch (cmd) {
	case GNTTABOP_set_version:
	case GNTTABOP_swap_grant_ref:
		return 4U;
	case GNTTABOP_dump_table:
	case GNTTABOP_transfer:
		return 0U;
	default:
		return (cmd <= GNTTABOP_cache_flush) ? 8U : 0U;
	}
}

long do_grant_table_op(unsigned int cmd, xen_guest_handle_t uop, unsigned int count)
{
	struct vcpu *v = current;
	uint32_t opaque = cmd & ~GNTTABOP_CMD_MASK;
	/* The sub-op; the bits above it are cache_flush's continuation state. */
	unsigned int sub = cmd & GNTTABOP_CMD_MASK;
	const struct gnttab_array_op *aop = NULL;
	regval_t args[HYPERCALL_NR_ARGS];
	long rc;

	if ((int)count < 0) {
		return -XEN_EINVAL;
	}
	if ((sub != GNTTABOP_cache_flush) && (opaque != 0U)) {
		return -XEN_EINVAL;
	}
	/* A misaligned array is a bad pointer, never a partial copy. */
	if ((gnttab_align_of(sub) != 0U) && ((uop % gnttab_align_of(sub)) != 0U)) {
		return -XEN_EFAULT;
	}
	switch (sub) {
	case GNTTABOP_map_grant_ref:
		aop = &op_map;
		break;
	case GNTTABOP_unmap_grant_ref:
	case GNTTABOP_unmap_and_replace:
		/* Own loop: one TLB invalidation per chunk (unmap.c). */
		rc = gnttab_unmap_array(v, sub == GNTTABOP_unmap_and_replace, uop, count);
		return gnttab_continue(sub, uop, count, rc, sizeof(union gnttab_unmap_elem));
	case GNTTABOP_copy:
		aop = &op_copy;
		break;
	case GNTTABOP_swap_grant_ref:
		aop = &op_swap;
		break;
	case GNTTABOP_setup_table:
		return gnttab_setup_table(v, uop, count);
	case GNTTABOP_query_size:
		return gnttab_query_size(v, uop, count);
	case GNTTABOP_set_version:
		return gnttab_set_version(v, uop);
	case GNTTABOP_get_version:
		return gnttab_get_version(v, uop);
	case GNTTABOP_get_status_frames:
		return gnttab_get_status_frames(v, uop, count);
	case GNTTABOP_transfer:
		return -XEN_EOPNOTSUPP; /* page transfer needs CONFIG_PV on Xen */
	case GNTTABOP_cache_flush:
		rc = gnttab_cache_flush(v, uop, count, &opaque);
		if ((rc > 0) || ((rc == 0) && (opaque != 0U))) {
			args[0] = (regval_t)opaque | (regval_t)sub;
			args[1] = uop + ((uint64_t)rc * sizeof(struct gnttab_cache_flush));
			args[2] = (regval_t)count - (regval_t)rc;
			return hypercall_continue(3U, args);
		}
		return rc;
	default:
		return -XEN_ENOSYS; /* dump_table included, as on Xen */
	}
	rc = gnttab_array(v, aop, uop, count);
	return gnttab_continue(sub, uop, count, rc, aop->size);
}
