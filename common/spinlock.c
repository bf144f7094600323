/* SPDX-License-Identifier: MIT */
/* Ticket spinlock and writer-preferring rwlock on compiler atomics. */
#include <bulkhead/spinlock.h>

/*
 * Release builds leave the order check out of the lock paths altogether
 * instead of calling its empty stubs: every hypercall takes several locks.
 */
static inline void lock_order_acquire(uint8_t cls, const void *addr)
{
#if CONFIG_LOCK_CHECK
	lock_check_acquire((enum lock_class)cls, addr);
#else
	(void)cls;
	(void)addr;
#endif
}

static inline void lock_order_release(uint8_t cls, const void *addr)
{
#if CONFIG_LOCK_CHECK
	lock_check_release((enum lock_class)cls, addr);
#else
	(void)cls;
	(void)addr;
#endif
}

void spin_lock_init(spinlock_t *l, enum lock_class cls)
{
	l->next = 0U;
	l->owner = 0U;
	l->lclass = (uint8_t)cls;
}

#if !CONFIG_LOCK_CHECK && !defined(CONFIG_LOCK_PROFILE)
/* The contended half of the inline spin_lock (spinlock.h). */
void spin_lock_wait(spinlock_t *l, uint32_t ticket)
{
	uint64_t spins = 0U;

	/* LOOP-BOUND: ticket lock, FIFO: at most CONFIG_NR_CPUS - 1 holders ahead, each holding it
	 * for a bounded critical section. */
	while (load_acquire(&l->owner) != ticket) {
		cpu_relax();
		spins++;
		cpu_spin_backoff((unsigned int)spins);
	}
}
#else
void spin_lock(spinlock_t *l)
{
	uint32_t ticket;
	uint64_t spins = 0U;

	lock_order_acquire(l->lclass, l);
	ticket = atomic_fetch_add(&l->next, 1U);
	/* LOOP-BOUND: ticket lock, FIFO: at most CONFIG_NR_CPUS - 1 holders ahead, each holding it
	 * for a bounded critical section. */
	while (load_acquire(&l->owner) != ticket) {
		cpu_relax();
		spins++;
		cpu_spin_backoff((unsigned int)spins);
	}
#ifdef CONFIG_LOCK_PROFILE
	lock_profile_record((enum lock_class)l->lclass, spins != 0U, spins);
#endif
}
#endif

bool spin_trylock(spinlock_t *l)
{
	uint32_t owner = load_acquire(&l->owner);
	uint32_t expect = owner;

	if (!atomic_cmpxchg(&l->next, &expect, owner + 1U)) {
		return false;
	}
	lock_order_acquire(l->lclass, l);
#ifdef CONFIG_LOCK_PROFILE
	lock_profile_record((enum lock_class)l->lclass, false, 0U);
#endif
	return true;
}

#if CONFIG_LOCK_CHECK || defined(CONFIG_LOCK_PROFILE)
void spin_unlock(spinlock_t *l)
{
	lock_order_release(l->lclass, l);
	/* Only the holder writes owner, so a plain increment is race free. */
	store_release(&l->owner, read_atomic(&l->owner) + 1U);
}
#endif

bool spin_is_locked(const spinlock_t *l)
{
	return read_atomic(&l->owner) != read_atomic(&l->next);
}

void rwlock_init(rwlock_t *l, enum lock_class cls)
{
	l->cnts = 0U;
	spin_lock_init(&l->wlock, cls);
}

void read_lock(rwlock_t *l)
{
	uint64_t spins = 0U;

	lock_order_acquire(l->wlock.lclass, l);
	/* LOOP-BOUND: writer preference: a reader retries once per writer that gets in first. Not
	 * bounded against an endless stream of writers; table-wide (write) operations are rare and
	 * each holds the lock for a bounded time. */
	for (;;) {
		uint32_t c = atomic_fetch_add(&l->cnts, 1U);
		if ((c & RW_WRITER) == 0U) {
			break;
		}
		/* A writer is in or waiting: back out so it can finish. */
		(void)atomic_fetch_sub(&l->cnts, 1U);
		/* LOOP-BOUND: waits for one writer's bounded critical section (see the retry loop
		 * above). */
		while ((load_acquire(&l->cnts) & RW_WRITER) != 0U) {
			cpu_relax();
			spins++;
			cpu_spin_backoff((unsigned int)spins);
		}
	}
#ifdef CONFIG_LOCK_PROFILE
	lock_profile_record((enum lock_class)l->wlock.lclass, spins != 0U, spins);
#endif
}

void read_unlock(rwlock_t *l)
{
	lock_order_release(l->wlock.lclass, l);
	(void)atomic_fetch_sub(&l->cnts, 1U);
}

void write_lock(rwlock_t *l)
{
	uint64_t spins = 0U;
	uint32_t ticket;

	lock_order_acquire(l->wlock.lclass, l);
	/* Writers queue on the ticket lock without order checking twice. */
	ticket = atomic_fetch_add(&l->wlock.next, 1U);
	/* LOOP-BOUND: ticket lock, FIFO: at most CONFIG_NR_CPUS - 1 writers ahead, each holding it
	 * for a bounded critical section. */
	while (load_acquire(&l->wlock.owner) != ticket) {
		cpu_relax();
		spins++;
		cpu_spin_backoff((unsigned int)spins);
	}
	(void)atomic_fetch_or(&l->cnts, RW_WRITER);
	/* LOOP-BOUND: waits for the readers already in (at most CONFIG_NR_CPUS, each in a bounded
	 * critical section); RW_WRITER set above turns new readers away. */
	while ((load_acquire(&l->cnts) & ~RW_WRITER) != 0U) {
		cpu_relax();
		spins++;
		cpu_spin_backoff((unsigned int)spins);
	}
#ifdef CONFIG_LOCK_PROFILE
	lock_profile_record((enum lock_class)l->wlock.lclass, spins != 0U, spins);
#endif
}

void write_unlock(rwlock_t *l)
{
	lock_order_release(l->wlock.lclass, l);
	(void)atomic_fetch_and(&l->cnts, ~RW_WRITER);
	store_release(&l->wlock.owner, read_atomic(&l->wlock.owner) + 1U);
}
