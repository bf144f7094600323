/* SPDX-License-Identifier: MIT */
/*
 * Run-time lock-order check (CONFIG_LOCK_CHECK, on in debug builds).
 * Each CPU keeps the stack of lock classes it holds; taking a class that is
 * not above the innermost one held is a violation of docs/locking.md and
 * panics at once, naming both classes.
 */
#include <bulkhead/spinlock.h>
#include <bulkhead/console.h>

#if CONFIG_LOCK_CHECK

#define LOCK_CHECK_DEPTH U(8)

struct held_locks {
	uint32_t depth;
	uint8_t cls[LOCK_CHECK_DEPTH];
	const void *addr[LOCK_CHECK_DEPTH];
} __cacheline_aligned;

static struct held_locks held[CONFIG_NR_CPUS];

/* Classes of which two may be held, taken in ascending address order. */
static bool lock_class_pairable(enum lock_class cls)
{
	return (cls == LOCK_CLASS_EVTCHN) || (cls == LOCK_CLASS_EVTCHN_QUEUE) ||
	       (cls == LOCK_CLASS_GNTTAB_ACTIVE) || (cls == LOCK_CLASS_EVTCHN_DOMAIN) ||
	       (cls == LOCK_CLASS_GNTTAB);
}

void lock_check_acquire(enum lock_class cls, const void *addr)
{
	struct held_locks *h = &held[arch_cpu_id()];

	if (cls == LOCK_CLASS_NONE) {
		return;
	}
	if (h->depth >= LOCK_CHECK_DEPTH) {
		panic("lock check: more than %u locks held", LOCK_CHECK_DEPTH);
	}
	if (h->depth > 0U) {
		enum lock_class top = (enum lock_class)h->cls[h->depth - 1U];
		bool pair_ok = (top == cls) && lock_class_pairable(cls) &&
			       ((uintptr_t)h->addr[h->depth - 1U] < (uintptr_t)addr);
		if ((cls < top) || ((cls == top) && !pair_ok)) {
			panic("lock order violation: %s taken while holding %s",
			      lock_class_name(cls), lock_class_name(top));
		}
	}
	h->cls[h->depth] = (uint8_t)cls;
	h->addr[h->depth] = addr;
	h->depth++;
}

void lock_check_release(enum lock_class cls, const void *addr)
{
	struct held_locks *h = &held[arch_cpu_id()];
	uint32_t i;

	if (cls == LOCK_CLASS_NONE) {
		return;
	}
	/* Locks may be released out of order; find this one. */
	for (i = h->depth; i > 0U; i--) {
		if (h->addr[i - 1U] == addr) {
			break;
		}
	}
	if (i == 0U) {
		panic("lock check: releasing %s not held", lock_class_name(cls));
	}
	for (; i < h->depth; i++) {
		h->cls[i - 1U] = h->cls[i];
		h->addr[i - 1U] = h->addr[i];
	}
	h->depth--;
}

unsigned int lock_check_depth(void)
{
	return held[arch_cpu_id()].depth;
}

void lock_check_reset(void)
{
	uint32_t c;

	for (c = 0U; c < CONFIG_NR_CPUS; c++) {
		held[c].depth = 0U;
	}
}

#else

void lock_check_acquire(enum lock_class cls, const void *addr)
{
	(void)cls;
	(void)addr;
}

void lock_check_release(enum lock_class cls, const void *addr)
{
	(void)cls;
	(void)addr;
}

unsigned int lock_check_depth(void)
{
	return 0U;
}

void lock_check_reset(void)
{
}

#endif
