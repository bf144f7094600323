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

#ifdef CONFIG_LOCK_TIMING
/*
 * Host bench builds (make bench-locks): the same ticket lock, or with
 * CONFIG_LOCK_TAS a test-and-test-and-set lock for contrast, timed at every
 * acquisition and release. The waiter reads the clock on every look at the
 * lock, so a gap between two looks (preemption, an interrupt) is seen.
 * For TAS, owner is the lock word (0 free, 1 held) and next counts the
 * CPUs waiting for or holding it.
 */
void spin_lock(spinlock_t *l)
{
	uint64_t t0;
	uint64_t t1;
	uint64_t token;
	uint64_t last;
	uint64_t gap = 0U;
	uint32_t ahead;

	lock_order_acquire(l->lclass, l);
#ifdef CONFIG_LOCK_TAS
	ahead = atomic_fetch_add(&l->next, 1U);
	token = lock_timing_requested(l);
	t0 = arch_now_ns();
	last = t0;
	/* LOOP-BOUND: none: a test-and-set lock has no bound (the bench's contrast to tickets). */
	while (atomic_xchg(&l->owner, 1U) != 0U) {
		/* LOOP-BOUND: as above: waits until the lock word reads free. */
		while (load_acquire(&l->owner) != 0U) {
			uint64_t now = arch_now_ns();

			cpu_relax();
			gap = ((now - last) > gap) ? (now - last) : gap;
			last = now;
		}
	}
#else
	uint32_t ticket = atomic_fetch_add(&l->next, 1U);

	/*
	 * The wait starts with the ticket; who is ahead is read right after it,
	 * then the bench's count of acquisitions (only those ahead can follow).
	 */
	ahead = ticket - load_acquire(&l->owner);
	token = lock_timing_requested(l);
	t0 = arch_now_ns();
	last = t0;
	/* LOOP-BOUND: ticket lock, FIFO: at most CONFIG_NR_CPUS - 1 holders ahead, each holding it
	 * for a bounded critical section. */
	while (load_acquire(&l->owner) != ticket) {
		uint64_t now = arch_now_ns();

		cpu_relax();
		gap = ((now - last) > gap) ? (now - last) : gap;
		last = now;
	}
#endif
	/* Every pair of successive clock reads is checked, the last one too. */
	t1 = arch_now_ns();
	gap = ((t1 - last) > gap) ? (t1 - last) : gap;
	lock_timing_acquired(l, t0, t1, ahead, gap, token);
}

bool spin_trylock(spinlock_t *l)
{
#ifdef CONFIG_LOCK_TAS
	if (atomic_xchg(&l->owner, 1U) != 0U) {
		return false;
	}
	(void)atomic_fetch_add(&l->next, 1U);
#else
	uint32_t owner = load_acquire(&l->owner);
	uint32_t expect = owner;

	if (!atomic_cmpxchg(&l->next, &expect, owner + 1U)) {
		return false;
	}
#endif
	lock_order_acquire(l->lclass, l);
	lock_timing_acquired(l, arch_now_ns(), arch_now_ns(), 0U, 0U, lock_timing_requested(l));
	return true;
}

void spin_unlock(spinlock_t *l)
{
	lock_timing_releasing(l);
	lock_order_release(l->lclass, l);
#ifdef CONFIG_LOCK_TAS
	store_release(&l->owner, 0U);
	(void)atomic_fetch_sub(&l->next, 1U);
#else
	store_release(&l->owner, read_atomic(&l->owner) + 1U);
#endif
}

bool spin_is_locked(const spinlock_t *l)
{
#ifdef CONFIG_LOCK_TAS
	return read_atomic(&l->owner) != 0U;
#else
	return read_atomic(&l->owner) != read_atomic(&l->next);
#endif
}
#elif !CONFIG_LOCK_CHECK && !defined(CONFIG_LOCK_PROFILE)
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

#ifndef CONFIG_LOCK_TIMING
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
#endif /* !CONFIG_LOCK_TIMING */

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
