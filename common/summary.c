/* SPDX-License-Identifier: MIT */
/*
 * The run summary, printed once every partition has stopped: what the
 * partitions did with each other over the run (make run's last line).
 */
#include <bulkhead/domain.h>
#include <bulkhead/console.h>

void domain_print_summary(int status)
{
	uint64_t sends = 0U;
	uint64_t maps = 0U;
	uint64_t unmaps = 0U;
	uint32_t parts = 0U;
	uint32_t i;
	uint32_t v;

	for (i = 0U; i < CONFIG_MAX_DOMAINS; i++) {
		struct domain *d = &domains[i];

		if (read_atomic(&d->state) == DOMAIN_FREE) {
			continue;
		}
		parts++;
		unmaps += read_atomic(&d->gnttab_forced_unmaps);
		for (v = 0U; v < d->nr_vcpus; v++) {
			sends += read_atomic(&d->vcpu[v].stats.evtchn_sends);
			maps += read_atomic(&d->vcpu[v].stats.gnttab_maps);
			unmaps += read_atomic(&d->vcpu[v].stats.gnttab_unmaps);
		}
	}
	printk("bulkhead: run summary: %u partitions, %llu events sent, grant mappings %llu made "
	       "and %llu removed, exit status %d\n",
	       parts, (unsigned long long)sends, (unsigned long long)maps,
	       (unsigned long long)unmaps, status);
}
