/* SPDX-License-Identifier: MIT */
/*
 * The table-wide and informational sub-ops: setup_table, query_size,
 * set_version, get_version, get_status_frames, swap_grant_ref and
 * cache_flush, answered as Xen on Arm answers them (v1 only; a domU may
 * only ask about itself, as under Xen's default XSM policy).
 */
#include "gnttab_priv.h"
#include <bulkhead/guest_access.h>

/* Xen's rcu_lock_domain_by_any_id + XSM_TARGET for an unprivileged caller. */
static int16_t gnttab_target(struct vcpu *v, domid_t dom, struct domain **out)
{
	struct domain *d = domain_resolve(dom);

	if (d == NULL) {
		return GNTST_bad_domain;
	}
	if (d != v->domain) {
		return GNTST_permission_denied;
	}
	*out = d;
	return GNTST_okay;
}

long gnttab_setup_table(struct vcpu *v, xen_guest_handle_t uop, unsigned int count)
{
	struct gnttab_setup_table op;
	struct domain *d = NULL;
	uint32_t i;

	if (count != 1U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&op, uop, sizeof(op)) != 0) {
		return -XEN_EFAULT;
	}
	op.status = gnttab_target(v, op.dom, &d);
	if (op.status == GNTST_okay) {
		struct grant_table *gt = &d->gt;

		write_lock(&gt->lock);
		if (op.nr_frames > gt->max_frames) {
			op.status = GNTST_general_error;
		} else {
			gnttab_table_grow(gt, op.nr_frames);
			/* On Arm this only reports where the frames sit (or ~0). */
			for (i = 0U; i < op.nr_frames; i++) {
				xen_pfn_t gfn = gt->frame_gfn[i];

				if (copy_to_guest(op.frame_list + ((uint64_t)i * sizeof(gfn)), &gfn,
						  sizeof(gfn)) != 0) {
					op.status = GNTST_bad_virt_addr;
				}
			}
		}
		write_unlock(&gt->lock);
	}
	if (copy_to_guest(uop + offsetof(struct gnttab_setup_table, status), &op.status,
			  sizeof(op.status)) != 0) {
		return -XEN_EFAULT;
	}
	return 0;
}

long gnttab_query_size(struct vcpu *v, xen_guest_handle_t uop, unsigned int count)
{
	struct gnttab_query_size op;
	struct domain *d = NULL;

	if (count != 1U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&op, uop, sizeof(op)) != 0) {
		return -XEN_EFAULT;
	}
	op.status = gnttab_target(v, op.dom, &d);
	if (op.status == GNTST_okay) {
		gnttab_read_lock(&d->gt);
		op.nr_frames = d->gt.nr_frames;
		op.max_nr_frames = d->gt.max_frames;
		gnttab_read_unlock(&d->gt);
	}
	return (copy_to_guest(uop, &op, sizeof(op)) != 0) ? -XEN_EFAULT : 0;
}

long gnttab_set_version(struct vcpu *v, xen_guest_handle_t uop)
{
	struct gnttab_set_version op;
	long rc;

	(void)v;
	if (copy_from_guest(&op, uop, sizeof(op)) != 0) {
		return -XEN_EFAULT;
	}
	if ((op.version != 1U) && (op.version != 2U)) {
		rc = -XEN_EINVAL;
	} else if (op.version == 2U) {
		rc = -XEN_ENOSYS; /* GNTTAB_MAX_VERSION is 1 on Arm */
	} else {
		rc = 0;
	}
	op.version = 1U;
	return (copy_to_guest(uop, &op, sizeof(op)) != 0) ? -XEN_EFAULT : rc;
}

long gnttab_get_version(struct vcpu *v, xen_guest_handle_t uop)
{
	struct gnttab_get_version op;
	struct domain *d = NULL;
	int16_t st;

	if (copy_from_guest(&op, uop, sizeof(op)) != 0) {
		return -XEN_EFAULT;
	}
	st = gnttab_target(v, op.dom, &d);
	if (st == GNTST_bad_domain) {
		return -XEN_ESRCH;
	}
	if (st != GNTST_okay) {
		return -XEN_EPERM;
	}
	op.version = 1U;
	return (copy_to_guest(uop + offsetof(struct gnttab_get_version, version), &op.version,
			      sizeof(op.version)) != 0)
		       ? -XEN_EFAULT
		       : 0;
}

long gnttab_get_status_frames(struct vcpu *v, xen_guest_handle_t uop, unsigned int count)
{
	struct gnttab_get_status_frames op;
	struct domain *d = NULL;

	if (count != 1U) {
		return -XEN_EINVAL;
	}
	if (copy_from_guest(&op, uop, sizeof(op)) != 0) {
		return -XEN_EFAULT;
	}
	op.status = gnttab_target(v, op.dom, &d);
	/* v1 has no status frames: asking for any is an error, zero is fine. */
	if ((op.status == GNTST_okay) && (op.nr_frames > 0U)) {
		op.status = GNTST_general_error;
	}
	if (copy_to_guest(uop + offsetof(struct gnttab_get_status_frames, status), &op.status,
			  sizeof(op.status)) != 0) {
		return -XEN_EFAULT;
	}
	return 0;
}

int16_t gnttab_swap_one(struct domain *d, grant_ref_t a, grant_ref_t b)
{
	struct grant_table *gt = &d->gt;
	int16_t rc = GNTST_okay;

	/* The write lock excludes every pin change: no entry lock needed. */
	write_lock(&gt->lock);
	if ((a >= gnttab_nr_entries(gt)) || (b >= gnttab_nr_entries(gt))) {
		rc = GNTST_bad_gntref;
	} else if (a == b) {
		rc = GNTST_okay;
	} else if ((gt->active[a].pin != 0U) || (gt->active[b].pin != 0U)) {
		rc = GNTST_eagain;
	} else {
		uint64_t *ea = (uint64_t *)(void *)&gt->shared[a];
		uint64_t *eb = (uint64_t *)(void *)&gt->shared[b];
		uint64_t tmp = read_atomic(ea);

		write_atomic(ea, read_atomic(eb));
		write_atomic(eb, tmp);
	}
	write_unlock(&gt->lock);
	return rc;
}

/* The partition whose RAM holds machine frame mfn, if any. */
static struct domain *gnttab_page_owner(mfn_t mfn)
{
	paddr_t ma = mfn_to_maddr(mfn);
	domid_t id;

	for (id = 1U; id <= CONFIG_MAX_DOMAINS; id++) {
		struct domain *d = domain_by_id(id);

		if ((d != NULL) && domain_ram_owns(d, ma)) {
			return d;
		}
	}
	return NULL;
}

/* Returns 0 when done, 1 to be called again with *cur_ref advanced, or -errno. */
int gnttab_cache_flush_one(struct vcpu *v, const struct gnttab_cache_flush *op,
			   uint32_t *cur_ref)
{
	struct domain *ld = v->domain;
	struct domain *owner;
	mfn_t mfn = maddr_to_mfn(op->a.dev_bus_addr);
	struct grant_table *gt;
	struct gnttab_active *act = NULL;
	uint32_t ref;
	uint32_t end;
	uint8_t *va;

	if ((op->offset >= PAGE_SIZE) || (op->length > PAGE_SIZE) ||
	    (((uint32_t)op->offset + op->length) > PAGE_SIZE) ||
	    ((op->op & ~(GNTTAB_CACHE_INVAL | GNTTAB_CACHE_CLEAN)) != 0U)) {
		/* GNTTAB_CACHE_SOURCE_GREF lands here too, as on Xen. */
		return -XEN_EINVAL;
	}
	if ((op->length == 0U) || (op->op == 0U)) {
		return (*cur_ref == 0U) ? 0 : -XEN_EILSEQ;
	}
	owner = gnttab_page_owner(mfn);
	if (owner == NULL) {
		return -XEN_EINVAL;
	}
	gt = &owner->gt;
	if (owner != ld) {
		/* Another partition's page: only through a grant ld holds. */
		gnttab_read_lock(gt);
		end = MIN(*cur_ref + U(4096), gnttab_nr_entries(gt));
		for (ref = *cur_ref; ref < end; ref++) {
			act = gnttab_act_acquire(gt, ref);
			if ((act->pin != 0U) && (act->domid == ld->domain_id) && (act->mfn == mfn)) {
				break;
			}
			gnttab_act_release(act);
			act = NULL;
		}
		if (act == NULL) {
			gnttab_read_unlock(gt);
			/* GCOVR_EXCL_START COV-001 */
			if (ref < gnttab_nr_entries(gt)) {
				*cur_ref = ref;
				return 1;
			}
			/* GCOVR_EXCL_STOP */
			return -XEN_EINVAL;
		}
	}
	va = map_domain_page(mfn);
	arch_dcache_maintain(&va[op->offset], op->length, (op->op & GNTTAB_CACHE_CLEAN) != 0U,
			     (op->op & GNTTAB_CACHE_INVAL) != 0U);
	unmap_domain_page(va);
	if (act != NULL) {
		gnttab_act_release(act);
		gnttab_read_unlock(gt);
	}
	return 0;
}
