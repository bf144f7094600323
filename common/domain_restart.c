/* SPDX-License-Identifier: MIT */
/*
 * Partition restart. The order matters: peers must lose their view of the
 * old incarnation (event channels closed, foreign mappings removed) before
 * its memory is scrubbed and reloaded, so nothing stale reaches the new one.
 */
#include <bulkhead/xpfo.h>
#include <bulkhead/domain.h>
#include <bulkhead/console.h>
#include <bulkhead/mm.h>
#include <bulkhead/lib.h>

void domain_scrub_range(paddr_t maddr, uint64_t bytes)
{
	uint64_t off;

	for (off = 0U; off < bytes; off += PAGE_SIZE) {
		void *va = map_domain_page(maddr_to_mfn(maddr + off));
		arch_clear_page(va);
		unmap_domain_page(va); /* arch_clear_page() cleaned it */
	}
}

/* Its RAM only: the disks it serves keep their contents, as a storage device would. */
void domain_scrub(struct domain *d)
{
	uint64_t off;

	for (off = 0U; off < d->ram_bytes; off += PAGE_SIZE) {
		void *va = map_domain_page(maddr_to_mfn(domain_ram_maddr(d, off)));
		arch_clear_page(va);
		unmap_domain_page(va); /* arch_clear_page() cleaned it */
	}
}

void domain_restart(struct domain *d)
{
	int rc;

	evtchn_domain_reset(d);
	gnttab_domain_reset(d);
	spin_lock(&d->lock);
	d->shared_info_gfn = INVALID_GFN;
	/* The old incarnation wrote the whole page (the part past the struct too). */
	domain_clear_shared_info(d);
	p2m_reset(&d->p2m);
	d->tot_pages = d->max_pages;
	rc = domain_map_static(d);
	spin_unlock(&d->lock);
	domain_scrub(d);
	if (rc == 0) {
		rc = domain_load(d);
	}
	if (rc == 0) {
		rc = arch_domain_init(d);
	}
	if (rc != 0) {
		printk("bulkhead: %s (d%u) restart failed (%d); left stopped\n", d->cfg.name,
		       d->domain_id, rc);
		write_atomic(&d->state, DOMAIN_CRASHED);
		return;
	}
	/* Static channels are part of the configuration: bind them again. */
	evtchn_restore_static(d);
	d->restarts++;
	printk("bulkhead: %s (d%u) restarted (%u)\n", d->cfg.name, d->domain_id, d->restarts);
	/* Before it runs: nothing of the old incarnation may be left mapped. */
	xpfo_check("restarted", d->domain_id);
	write_atomic(&d->state, DOMAIN_RUNNING);
	arch_domain_start(d);
}
