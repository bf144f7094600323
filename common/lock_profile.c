/* SPDX-License-Identifier: MIT */
/*
 * Lock profiling (CONFIG_LOCK_PROFILE). Counters are per CPU so that
 * profiling does not itself add a shared hot cache line; they are summed
 * only when read.
 */
#include <bulkhead/spinlock.h>
#include <bulkhead/console.h>

const char *lock_class_name(enum lock_class cls)
{
	static const char *const lock_class_names[LOCK_CLASS_NR] = {
		[LOCK_CLASS_NONE] = "none",
		[LOCK_CLASS_DOMAIN] = "domain",
		[LOCK_CLASS_EVTCHN_DOMAIN] = "evtchn_domain",
		[LOCK_CLASS_GNTTAB] = "gnttab",
		[LOCK_CLASS_GNTTAB_ACTIVE] = "gnttab_active",
		[LOCK_CLASS_EVTCHN] = "evtchn",
		[LOCK_CLASS_EVTCHN_QUEUE] = "evtchn_queue",
		[LOCK_CLASS_MAPTRACK] = "maptrack",
		[LOCK_CLASS_P2M] = "p2m",
		[LOCK_CLASS_VUART] = "vuart",
		[LOCK_CLASS_VGIC] = "vgic",
		[LOCK_CLASS_CONSOLE] = "console",
	};

	return ((unsigned int)cls < (unsigned int)LOCK_CLASS_NR) ? lock_class_names[cls] : "?";
}

#ifdef CONFIG_LOCK_PROFILE

struct cpu_lock_profile {
	struct lock_profile cls[LOCK_CLASS_NR];
} __cacheline_aligned;

static struct cpu_lock_profile profile[CONFIG_NR_CPUS];

void lock_profile_record(enum lock_class cls, bool contended, uint64_t spins)
{
	struct lock_profile *p = &profile[arch_cpu_id()].cls[cls];

	p->acquisitions++;
	if (contended) {
		p->contended++;
		p->wait_spins += spins;
	}
}

void lock_profile_sum(enum lock_class cls, struct lock_profile *out)
{
	unsigned int c;

	out->acquisitions = 0U;
	out->contended = 0U;
	out->wait_spins = 0U;
	for (c = 0U; c < CONFIG_NR_CPUS; c++) {
		out->acquisitions += read_atomic(&profile[c].cls[cls].acquisitions);
		out->contended += read_atomic(&profile[c].cls[cls].contended);
		out->wait_spins += read_atomic(&profile[c].cls[cls].wait_spins);
	}
}

void lock_profile_reset(void)
{
	unsigned int c;
	unsigned int k;

	for (c = 0U; c < CONFIG_NR_CPUS; c++) {
		for (k = 0U; k < (unsigned int)LOCK_CLASS_NR; k++) {
			profile[c].cls[k].acquisitions = 0U;
			profile[c].cls[k].contended = 0U;
			profile[c].cls[k].wait_spins = 0U;
		}
	}
}

void lock_profile_print(void)
{
	unsigned int k;
	struct lock_profile s;

	printk("lock profile: class acquisitions contended wait_spins\n");
	for (k = 1U; k < (unsigned int)LOCK_CLASS_NR; k++) {
		lock_profile_sum((enum lock_class)k, &s);
		printk("  %s %lu %lu %lu\n", lock_class_name((enum lock_class)k),
		       (unsigned long)s.acquisitions, (unsigned long)s.contended,
		       (unsigned long)s.wait_spins);
	}
}

#else

void lock_profile_record(enum lock_class cls, bool contended, uint64_t spins)
{
	(void)cls;
	(void)contended;
	(void)spins;
}

void lock_profile_sum(enum lock_class cls, struct lock_profile *out)
{
	(void)cls;
	out->acquisitions = 0U;
	out->contended = 0U;
	out->wait_spins = 0U;
}

void lock_profile_reset(void)
{
}

void lock_profile_print(void)
{
	printk("lock profile: not built (CONFIG_LOCK_PROFILE=n)\n");
}

#endif
