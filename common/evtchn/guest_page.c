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
		unmap_domain_page_global((void *)((uintptr_t)va & ~(uintptr_t)(PAGE_SIZE - 1U)));
	}
}
