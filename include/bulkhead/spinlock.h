/* SPDX-License-Identifier: MIT */
/*
 * Ticket spinlocks and a reader-writer lock.
 *
 * Tickets hand the lock over in FIFO order, so a waiter's delay is bounded
 * by the number of CPUs ahead of it times the longest critical section:
 * the property a real-time budget needs (docs/locking.md). Debug builds
 * check the lock order; CONFIG_LOCK_PROFILE counts acquisitions, contended
 * acquisitions and wait time per lock class.
 */
#ifndef BULKHEAD_SPINLOCK_H
#define BULKHEAD_SPINLOCK_H

#include <bulkhead/config.h>
#include <bulkhead/atomic.h>
#include <bulkhead/arch.h>
#include <bulkhead/lock_class.h>

typedef struct spinlock {
	uint32_t next;
	uint32_t owner;
	uint8_t lclass;
} spinlock_t;

typedef struct rwlock {
	/* Bit 31: a writer holds or waits; bits 0..30: readers inside. */
	uint32_t cnts;
	spinlock_t wlock; /* serialises writers; its class is the rwlock's */
} rwlock_t;

#define RW_WRITER U(0x80000000)

#define SPIN_LOCK_INIT(cls) { .next = 0U, .owner = 0U, .lclass = (uint8_t)(cls) }

void spin_lock_init(spinlock_t *l, enum lock_class cls);
bool spin_trylock(spinlock_t *l);

#if !CONFIG_LOCK_CHECK && !defined(CONFIG_LOCK_PROFILE) && !defined(CONFIG_LOCK_TIMING)
/*
 * Release builds (no order check, no profile) take and drop a lock inline:
 * every hypercall takes several, and the call was a third of the cost of an
 * uncontended one. Waiting for the ticket stays out of line (spinlock.c).
 */
void spin_lock_wait(spinlock_t *l, uint32_t ticket);

static inline void spin_lock(spinlock_t *l)
{
	uint32_t ticket = atomic_fetch_add(&l->next, 1U);

	if (load_acquire(&l->owner) != ticket) {
		spin_lock_wait(l, ticket);
	}
}

static inline void spin_unlock(spinlock_t *l)
{
	/* Only the holder writes owner, so a plain increment is race free. */
	store_release(&l->owner, read_atomic(&l->owner) + 1U);
}

/*
 * spin_trylock inline, for a hot path that has a slower way round when the
 * lock is taken (it then takes it with spin_lock there): no call, so the
 * path can stay a leaf. The same ticket step as spin_trylock.
 */
static inline bool spin_trylock_inline(spinlock_t *l)
{
	uint32_t owner = load_acquire(&l->owner);
	uint32_t expect = owner;

	return atomic_cmpxchg(&l->next, &expect, owner + 1U);
}
#else
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);

/* Checked and profiled builds: the out-of-line spin_trylock, with its bookkeeping. */
static inline bool spin_trylock_inline(spinlock_t *l)
{
	return spin_trylock(l);
}
#endif
bool spin_is_locked(const spinlock_t *l);

#ifdef CONFIG_LOCK_TIMING
/*
 * Host benches only (make bench-locks): spin_lock calls requested right
 * after it queues (its result comes back as token) and acquired once l is
 * held (times in arch_now_ns(); ahead: the tickets before ours, holder
 * included; max_gap: the longest time between two looks at the lock while
 * waiting); spin_unlock calls releasing just before the release. The bench
 * program defines them.
 */
uint64_t lock_timing_requested(const spinlock_t *l);
void lock_timing_acquired(const spinlock_t *l, uint64_t t_request, uint64_t t_acquired,
			  uint32_t ahead, uint64_t max_gap, uint64_t token);
void lock_timing_releasing(const spinlock_t *l);
#endif

void rwlock_init(rwlock_t *l, enum lock_class cls);
void read_lock(rwlock_t *l);
void read_unlock(rwlock_t *l);
void write_lock(rwlock_t *l);
void write_unlock(rwlock_t *l);

/* Lock-order checking (debug builds); no-ops otherwise. */
void lock_check_acquire(enum lock_class cls, const void *addr);
void lock_check_release(enum lock_class cls, const void *addr);
unsigned int lock_check_depth(void);
/* Forget every held lock of every CPU (host tests, after a caught panic). */
void lock_check_reset(void);

/* Lock profiling. */
struct lock_profile {
	uint64_t acquisitions;
	uint64_t contended;
	uint64_t wait_spins;
};
void lock_profile_record(enum lock_class cls, bool contended, uint64_t spins);
void lock_profile_sum(enum lock_class cls, struct lock_profile *out);
void lock_profile_reset(void);
void lock_profile_print(void);
const char *lock_class_name(enum lock_class cls);

#endif
