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
	 * device at a time), or NULL. Only a hint, written by any vCPU of the
	 * partition, and always one of r[]: the address is checked against the
	 * region like any other. A slot at or past nr is all zero (size 0:
	 * nothing matches it), as the table only changes while its partition is
	 * stopped (mmio_domain_reset clears it, mmio_register fills r[nr]).
	 */
	const struct mmio_region *last;
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
		write_atomic(&t->last, NULL);
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

/* gpa lies in region r (a hint, NULL or one of r[]: mmio_table's last). */
static inline bool mmio_hit(const struct mmio_region *r, paddr_t gpa)
{
	return (r != NULL) && (gpa >= r->base) && ((gpa - r->base) < r->size);
}

/* The region of t holding gpa, the one the last access hit tried first; NULL: none. */
static const struct mmio_region *mmio_find(struct mmio_table *t, paddr_t gpa)
{
	uint32_t nr = load_acquire(&t->nr);
	const struct mmio_region *last = read_atomic(&t->last);
	uint32_t i;

	if (mmio_hit(last, gpa)) {
		return last;
	}
	for (i = 0U; (i < nr) && (i < CONFIG_MAX_MMIO_REGIONS); i++) {
		const struct mmio_region *r = &t->r[i];

		if (mmio_hit(r, gpa)) {
			write_atomic(&t->last, r);
			return r;
		}
	}
	return NULL;
}

static bool mmio_size_ok(unsigned int size)
{
	return (size == 1U) || (size == 2U) || (size == 4U) || (size == 8U);
}

/* mmio_store's write to region r, which holds gpa (mmio_access's write). */
static inline __attribute__((always_inline)) int mmio_store_at(struct vcpu *v,
								const struct mmio_region *r,
								paddr_t gpa, unsigned int size,
								uint64_t val)
{
	paddr_t off = gpa - r->base;

	if ((off + size) > r->size) {
		return -XEN_EINVAL;
	}
	if (r->ops->write == NULL) {
		return -XEN_EACCES;
	}
	return r->ops->write(v, off, size, val & mmio_mask(size), r->priv);
}

int mmio_dispatch(struct vcpu *v, paddr_t gpa, bool write, unsigned int size, uint64_t *val)
{
	struct mmio_table *t = mmio_table_of((v != NULL) ? v->domain : NULL);
	const struct mmio_region *r;

	if (t == NULL) {
		return -XEN_ENOENT;
	}
	if (!mmio_size_ok(size)) {
		return -XEN_EINVAL;
	}
	r = mmio_find(t, gpa);
	if (r == NULL) {
		return -XEN_ENOENT;
	}
	return mmio_access(v, r, gpa - r->base, write, size, val);
}

/* mmio_store outside the region the last access hit: the search, as any access. */
static __attribute__((noinline)) int mmio_store_search(struct vcpu *v, paddr_t gpa,
							unsigned int size, uint64_t val)
{
	uint64_t v64 = val;

	return mmio_dispatch(v, gpa, true, size, &v64);
}

/*
 * As mmio_dispatch's write of 1 << sas bytes (sas: 0-3, as a data abort's
 * syndrome gives it, so the size is valid by construction) for v, the vCPU
 * whose trap this is (never NULL). The usual case,
 * the region the last access hit, makes no call but the handler's (a tail
 * call), so it builds no frame.
 */
int mmio_store(struct vcpu *v, paddr_t gpa, unsigned int sas, uint64_t val)
{
	struct mmio_table *t = mmio_table_of(v->domain);
	unsigned int size = U(1) << (sas & 3U);
	const struct mmio_region *last;

	if (t == NULL) {
		return -XEN_ENOENT;
	}
	last = read_atomic(&t->last);
	if (mmio_hit(last, gpa)) {
		return mmio_store_at(v, last, gpa, size, val);
	}
	return mmio_store_search(v, gpa, size, val);
}
