/* SPDX-License-Identifier: MIT */
/* Long-lived mappings of the guest pages the event ABIs live in. */
#include <bulkhead/evtchn.h>
#include <bulkhead/domain.h>
#include <bulkhead/mm.h>

void *evtchn_map_guest_page(struct domain *d, gfn_t gfn)
{
	mfn_t mfn;
	enum p2m_type t;

	/* Own RAM only: never MMIO, a hypervisor page or a foreign grant. */
	if ((p2m_lookup(&d->p2m, gfn, &mfn, &t) != 0) || (t != p2m_ram_rw)) {
		return NULL;
	}
	return map_domain_page_global(mfn);
}

void evtchn_unmap_guest_page(void *va)
{
	if (va != NULL) {
		unmap_domain_page_global((void *)((uintptr_t)va & PAGE_MASK));
	}
}

static const void *page_of(const void *va)
{
	return (const void *)((uintptr_t)va & PAGE_MASK);
}

unsigned int evtchn_shared_pages(const struct domain *d, const void **pages, unsigned int max)
{
	unsigned int n = 0U;
	uint32_t i;

	for (i = 0U; (i < d->nr_vcpus) && (i < CONFIG_MAX_VCPUS); i++) {
		const struct evtchn_vcpu *e = &d->vcpu[i].evtchn;
		if ((e->vcpu_info_page != NULL) && (n < max)) {
			pages[n] = page_of(e->vcpu_info_page);
			n++;
		}
		if ((e->fifo_cb != NULL) && (n < max)) {
			pages[n] = page_of(e->fifo_cb);
			n++;
		}
	}
	for (i = 0U; i < EVTCHN_FIFO_MAX_PAGES; i++) {
		if ((d->ev.fifo_array[i] != NULL) && (n < max)) {
			pages[n] = page_of(d->ev.fifo_array[i]);
			n++;
		}
	}
	return n;
}
