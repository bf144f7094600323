/* SPDX-License-Identifier: MIT */
/* MMIO emulation registry (see mmio.h). Lookups take no lock: the table
 * only changes while its partition is stopped (build or restart). */
#include <bulkhead/mmio.h>
#include <bulkhead/domain.h>
#include <bulkhead/lib.h>
#include <public/errno.h>

struct mmio_region {
	paddr_t base;
	paddr_t size;
	const struct mmio_ops *ops;
	void *priv;
};

struct mmio_table {
	uint32_t nr;
	/*
	 * The region the last access hit, tried first (a driver talks to one
	 * device at a time). Only a hint, written by any vCPU of the partition:
	 * the index is checked against nr and the address against the region
	 * like any other.
	 */
	uint32_t last;
	struct mmio_region r[CONFIG_MAX_MMIO_REGIONS];
};

static struct mmio_table mmio_tables[CONFIG_MAX_DOMAINS];

static struct mmio_table *mmio_table_of(const struct domain *d)
{
	if ((d == NULL) || (d->domain_id == 0U) || (d->domain_id > CONFIG_MAX_DOMAINS)) {
		return NULL;
	}
	return &mmio_tables[d->domain_id - 1U];
}

int mmio_register(struct domain *d, paddr_t base, paddr_t size, const struct mmio_ops *ops,
		  void *priv)
{
	struct mmio_table *t = mmio_table_of(d);
	uint32_t i;

	if ((t == NULL) || (ops == NULL) || (size == 0U) || ((base + size) < base)) {
		return -XEN_EINVAL;
	}
	for (i = 0U; i < t->nr; i++) {
		const struct mmio_region *r = &t->r[i];
		if ((base < r->base + r->size) && (r->base < base + size)) {
			return -XEN_EINVAL;
		}
	}
	if (t->nr == CONFIG_MAX_MMIO_REGIONS) {
		return -XEN_ENOSPC;
	}
	t->r[t->nr] = (struct mmio_region){ .base = base, .size = size, .ops = ops, .priv = priv };
	store_release(&t->nr, t->nr + 1U);
	return 0;
}

void mmio_domain_reset(struct domain *d)
{
	struct mmio_table *t = mmio_table_of(d);

	if (t != NULL) {
		store_release(&t->nr, 0U);
		write_atomic(&t->last, 0U);
		(void)memset(t->r, 0, sizeof(t->r));
	}
}

static uint64_t mmio_mask(unsigned int size)
{
	unsigned int bits = size * 8U;

	return (bits == 64U) ? ~ULL(0) : ((ULL(1) << bits) - 1U);
}

/* The access at offset off of region r (gpa inside it). */
static int mmio_access(struct vcpu *v, const struct mmio_region *r, paddr_t off, bool write,
		       unsigned int size, uint64_t *val)
{
	int rc;

	if ((off + size) > r->size) {
		return -XEN_EINVAL;
	}
	if (write) {
		if (r->ops->write == NULL) {
			return -XEN_EACCES;
		}
		return r->ops->write(v, off, size, *val & mmio_mask(size), r->priv);
	}
	if (r->ops->read == NULL) {
		return -XEN_EACCES;
	}
	rc = r->ops->read(v, off, size, val, r->priv);
	if (rc == 0) {
		*val &= mmio_mask(size);
	}
	return rc;
}

int mmio_dispatch(struct vcpu *v, paddr_t gpa, bool write, unsigned int size, uint64_t *val)
{
	struct mmio_table *t = mmio_table_of((v != NULL) ? v->domain : NULL);
	uint32_t nr;
	uint32_t i;

	if (t == NULL) {
		return -XEN_ENOENT;
	}
	if ((size != 1U) && (size != 2U) && (size != 4U) && (size != 8U)) {
		return -XEN_EINVAL;
	}
	nr = load_acquire(&t->nr);
	i = read_atomic(&t->last);
	if ((i < nr) && (i < CONFIG_MAX_MMIO_REGIONS) && (gpa >= t->r[i].base) &&
	    ((gpa - t->r[i].base) < t->r[i].size)) {
		return mmio_access(v, &t->r[i], gpa - t->r[i].base, write, size, val);
	}
	for (i = 0U; (i < nr) && (i < CONFIG_MAX_MMIO_REGIONS); i++) {
		const struct mmio_region *r = &t->r[i];
		paddr_t off = gpa - r->base;

		if ((gpa < r->base) || (off >= r->size)) {
			continue;
		}
		write_atomic(&t->last, i);
		return mmio_access(v, r, off, write, size, val);
	}
	return -XEN_ENOENT;
}
