/* SPDX-License-Identifier: MIT */
/* Ticket lock, rwlock, run-time lock-order check and lock profile. */
#include "harness.h"
#include <string.h>
#include <pthread.h>

static int setup(void **state)
{
	(void)state;
	harness_reset();
	lock_profile_reset();
	return 0;
}

static spinlock_t outer;
static spinlock_t inner;

static void take_inner_then_outer(void *arg)
{
	(void)arg;
	spin_lock(&inner);
	spin_lock(&outer); /* wrong order: must panic */
}

VERIFIES(REQ-LCK-001)
static void test_order_violation_panics(void **state)
{
	(void)state;
	spin_lock_init(&outer, LOCK_CLASS_GNTTAB_ACTIVE);
	spin_lock_init(&inner, LOCK_CLASS_MAPTRACK);
	/* Right order works and leaves nothing held. */
	spin_lock(&outer);
	spin_lock(&inner);
	assert_int_equal(lock_check_depth(), 2);
	spin_unlock(&inner);
	spin_unlock(&outer);
	assert_int_equal(lock_check_depth(), 0);
	host_console_clear();
	assert_true(harness_expect_panic(take_inner_then_outer, NULL));
	assert_non_null(strstr(host_console_text(), "gnttab_active taken while holding maptrack"));
}

static spinlock_t pair[2];

static void take_pair_descending(void *arg)
{
	(void)arg;
	spin_lock(&pair[1]);
	spin_lock(&pair[0]);
}

static void take_unpairable_twice(void *arg)
{
	(void)arg;
	spin_lock(&outer);
	spin_lock(&inner);
}

VERIFIES(REQ-LCK-002)
static void test_pairable_in_address_order(void **state)
{
	(void)state;
	spin_lock_init(&pair[0], LOCK_CLASS_EVTCHN);
	spin_lock_init(&pair[1], LOCK_CLASS_EVTCHN);
	spin_lock(&pair[0]);
	spin_lock(&pair[1]);
	spin_unlock(&pair[0]); /* out-of-order release is allowed */
	spin_unlock(&pair[1]);
	assert_true(harness_expect_panic(take_pair_descending, NULL));
	harness_reset();
	spin_lock_init(&outer, LOCK_CLASS_CONSOLE);
	spin_lock_init(&inner, LOCK_CLASS_CONSOLE);
	assert_true(harness_expect_panic(take_unpairable_twice, NULL));
}

#define THREADS 4
#define ROUNDS 20000

static spinlock_t counter_lock;
static uint64_t counter;

static void *hammer(void *arg)
{
	unsigned int i;

	host_set_cpu((unsigned int)(uintptr_t)arg);
	for (i = 0; i < ROUNDS; i++) {
		spin_lock(&counter_lock);
		counter++;
		spin_unlock(&counter_lock);
	}
	return NULL;
}

VERIFIES(REQ-LCK-003, REQ-LCK-005)
static void test_ticket_lock_excludes_and_profiles(void **state)
{
	pthread_t t[THREADS];
	struct lock_profile p;
	unsigned int i;

	(void)state;
	spin_lock_init(&counter_lock, LOCK_CLASS_EVTCHN);
	counter = 0;
	for (i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_create(&t[i], NULL, hammer, (void *)(uintptr_t)(i + 1)), 0);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
	}
	assert_int_equal(counter, (uint64_t)THREADS * ROUNDS);
	assert_false(spin_is_locked(&counter_lock));
	lock_profile_sum(LOCK_CLASS_EVTCHN, &p);
	assert_int_equal(p.acquisitions, (uint64_t)THREADS * ROUNDS);
	assert_true(p.contended <= p.acquisitions);
	assert_true(spin_trylock(&counter_lock));
	assert_false(spin_trylock(&counter_lock));
	spin_unlock(&counter_lock);
}

static rwlock_t rw;
static uint64_t rw_a;
static uint64_t rw_b;
static int rw_torn;

static void *rw_reader(void *arg)
{
	unsigned int i;

	host_set_cpu((unsigned int)(uintptr_t)arg);
	for (i = 0; i < ROUNDS; i++) {
		read_lock(&rw);
		if (__atomic_load_n(&rw_a, __ATOMIC_RELAXED) !=
		    __atomic_load_n(&rw_b, __ATOMIC_RELAXED)) {
			__atomic_store_n(&rw_torn, 1, __ATOMIC_RELAXED);
		}
		read_unlock(&rw);
	}
	return NULL;
}

static void *rw_writer(void *arg)
{
	unsigned int i;

	host_set_cpu((unsigned int)(uintptr_t)arg);
	for (i = 0; i < ROUNDS / 10; i++) {
		write_lock(&rw);
		__atomic_store_n(&rw_a, rw_a + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&rw_b, rw_b + 1, __ATOMIC_RELAXED);
		write_unlock(&rw);
	}
	return NULL;
}

VERIFIES(REQ-LCK-004)
static void test_rwlock_writers_exclude_readers(void **state)
{
	pthread_t t[3];

	(void)state;
	rwlock_init(&rw, LOCK_CLASS_GNTTAB);
	rw_a = rw_b = 0;
	rw_torn = 0;
	pthread_create(&t[0], NULL, rw_reader, (void *)1);
	pthread_create(&t[1], NULL, rw_reader, (void *)2);
	pthread_create(&t[2], NULL, rw_writer, (void *)3);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	pthread_join(t[2], NULL);
	assert_int_equal(rw_torn, 0);
	assert_int_equal(rw_a, ROUNDS / 10);
	assert_int_equal(rw.cnts, 0);
}

VERIFIES(REQ-LCK-006)
static void test_lock_profile_debug_key(void **state)
{
	unsigned int i;

	(void)state;
	/* Move the console input to the hypervisor (Ctrl-A x3 cycles). */
	for (i = 0; i <= CONFIG_MAX_DOMAINS; i++) {
		host_console_clear();
		console_input_byte('h');
		if (strstr(host_console_text(), "debug keys:") != NULL) {
			break;
		}
		console_input_byte('\x01');
		console_input_byte('\x01');
		console_input_byte('\x01');
	}
	assert_true(i <= CONFIG_MAX_DOMAINS);
	spin_lock_init(&counter_lock, LOCK_CLASS_EVTCHN);
	spin_lock(&counter_lock);
	spin_unlock(&counter_lock);
	host_console_clear();
	console_input_byte('l');
	assert_non_null(strstr(host_console_text(), "lock profile: class acquisitions contended"));
	assert_non_null(strstr(host_console_text(), "  evtchn 1 0 0"));
	console_input_byte('L');
	host_console_clear();
	console_input_byte('l');
	assert_non_null(strstr(host_console_text(), "  evtchn 0 0 0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_order_violation_panics, setup),
		cmocka_unit_test_setup(test_pairable_in_address_order, setup),
		cmocka_unit_test_setup(test_ticket_lock_excludes_and_profiles, setup),
		cmocka_unit_test_setup(test_rwlock_writers_exclude_readers, setup),
		cmocka_unit_test_setup(test_lock_profile_debug_key, setup),
	};
	return cmocka_run_group_tests_name("locks", tests, NULL, NULL);
}
