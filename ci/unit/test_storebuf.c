// SPDX-License-Identifier: MIT
/*
 * Unit tests: the store-buffer emulation's core (sdk/storebuf/buffer.c),
 * driven directly with a fake clock and no drainer thread.  A buffered
 * store stays out of memory while its own thread's loads see it
 * (forwarding); a fence, a seq_cst store, a read-modify-write and a
 * membarrier drain make it visible; entries become visible in FIFO order
 * and all of them by the maximum delay.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <string.h>
#include <cmocka.h>

#include "../../sdk/storebuf/sb.h"

#define MAX_NS 1000000ULL /* 1 ms */

uint64_t __tsan_atomic64_fetch_add(volatile uint64_t *a, uint64_t v, int mo);
void __tsan_atomic_thread_fence(int mo);

static uint64_t fake_now;

static uint64_t fake_clock(void)
{
	return fake_now;
}

/* What memory holds, past the emulation. */
static uint64_t raw(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static int setup(void **state)
{
	(void)state;
	sb_clock = fake_clock;
	fake_now = 1000;
	sb_configure(1, MAX_NS, false);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sb_drain_own();
	return 0;
}

static void loads_forward_from_own_buffer(void **state)
{
	static uint64_t x;
	uint32_t *half = (uint32_t *)&x;

	(void)state;
	x = 0;
	sb_store(&x, 8, 5, __ATOMIC_RELEASE);
	assert_int_equal(raw(&x), 0); /* others do not see it yet */
	assert_int_equal(sb_pending(), 1);
	assert_int_equal(sb_load(&x, 8, __ATOMIC_ACQUIRE), 5);
	sb_store(&x, 8, 6, __ATOMIC_RELAXED);
	assert_int_equal(sb_load(&x, 8, __ATOMIC_RELAXED), 6); /* newest */
	assert_int_equal(raw(&x), 0);
	/* a load that only overlaps an entry commits up to it first */
	assert_int_equal(sb_load(half, 4, __ATOMIC_RELAXED), 6);
	assert_int_equal(raw(&x), 6);
	assert_int_equal(sb_pending(), 0);
}

static void fences_and_locked_ops_drain(void **state)
{
	static uint64_t a, b, c;

	(void)state;
	a = b = c = 0;
	sb_store(&a, 8, 1, __ATOMIC_RELAXED);
	__tsan_atomic_thread_fence(__ATOMIC_ACQ_REL); /* no mfence on x86 */
	assert_int_equal(raw(&a), 0);
	__tsan_atomic_thread_fence(__ATOMIC_SEQ_CST);
	assert_int_equal(raw(&a), 1);
	sb_store(&a, 8, 2, __ATOMIC_RELAXED);
	sb_store(&b, 8, 3, __ATOMIC_SEQ_CST); /* mov + mfence */
	assert_int_equal(raw(&a), 2);
	assert_int_equal(raw(&b), 3);
	sb_store(&a, 8, 4, __ATOMIC_RELEASE);
	assert_int_equal(__tsan_atomic64_fetch_add(&c, 1, __ATOMIC_RELAXED), 0);
	assert_int_equal(raw(&a), 4); /* lock add drained it */
	assert_int_equal(raw(&c), 1);
	sb_store(&a, 8, 5, __ATOMIC_RELEASE);
	sb_plain_write(&c, 8); /* a plain store stays behind it */
	assert_int_equal(raw(&a), 5);
}

/*
 * The arm model: a seq_cst store waits in the buffer too (Armv8's stlr),
 * a weaker load of another location passes it, and a seq_cst load (ldar)
 * or a fence drains it first.
 */
static void arm_model_buffers_seq_cst_stores(void **state)
{
	static uint64_t a, b;

	(void)state;
	a = b = 0;
	sb_model = RCUT_STOREBUF_ARM;
	sb_store(&a, 8, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(raw(&a), 0);
	assert_int_equal(sb_load(&b, 8, __ATOMIC_ACQUIRE), 0);
	assert_int_equal(raw(&a), 0); /* ldr passed the stlr */
	assert_int_equal(sb_load(&b, 8, __ATOMIC_SEQ_CST), 0);
	assert_int_equal(raw(&a), 1); /* ldar waited for it */
	sb_store(&a, 8, 2, __ATOMIC_SEQ_CST);
	__tsan_atomic_thread_fence(__ATOMIC_SEQ_CST);
	assert_int_equal(raw(&a), 2);
	sb_model = RCUT_STOREBUF_TSO;
	sb_store(&a, 8, 3, __ATOMIC_SEQ_CST); /* tso: mov + mfence */
	assert_int_equal(raw(&a), 3);
}

/* What the armed callback saw: how often it ran, the store in memory. */
static int late_calls;
static uint64_t late_seen, *late_addr;

static void late_cb(void *arg)
{
	late_calls++;
	late_seen = raw(late_addr);
	assert_ptr_equal(arg, &late_calls);
}

/*
 * Loads passing a later store (late.c, arm model only): an armed thread's
 * first relaxed store is made visible at once, with the stores before it,
 * and the callback runs inside it; a release store, a fence or a plain
 * write first disarms without a call; arming is refused under tso; the
 * order count moves at the thread's fences and at any membarrier.
 */
static void arm_model_late_loads(void **state)
{
	static uint64_t a, b;
	uint64_t n;

	(void)state;
	a = b = 0;
	late_addr = &b;
	late_calls = 0;
	assert_int_equal(sb_late_arm(late_cb, &late_calls), -1); /* tso */
	sb_model = RCUT_STOREBUF_ARM;
	sb_store(&a, 8, 1, __ATOMIC_RELAXED); /* buffered before the arm */
	assert_int_equal(sb_late_arm(late_cb, &late_calls), 0);
	sb_store(&b, 8, 7, __ATOMIC_RELAXED);
	assert_int_equal(late_calls, 1);
	assert_int_equal(late_seen, 7);	      /* visible inside the callback */
	assert_int_equal(raw(&a), 1);	      /* with the store before it */
	sb_store(&b, 8, 8, __ATOMIC_RELAXED); /* disarmed by the call */
	assert_int_equal(late_calls, 1);
	assert_int_equal(raw(&b), 7);
	sb_drain_own();
	assert_int_equal(sb_late_arm(late_cb, &late_calls), 0);
	sb_store(&b, 8, 9, __ATOMIC_RELEASE); /* ordered: no late load */
	sb_store(&b, 8, 10, __ATOMIC_RELAXED);
	assert_int_equal(late_calls, 1);
	assert_int_equal(sb_late_arm(late_cb, &late_calls), 0);
	__tsan_atomic_thread_fence(__ATOMIC_ACQUIRE);
	sb_store(&b, 8, 11, __ATOMIC_RELAXED);
	assert_int_equal(late_calls, 1);
	assert_int_equal(sb_late_arm(late_cb, &late_calls), 0);
	sb_plain_write(&a, 8);
	sb_store(&b, 8, 12, __ATOMIC_RELAXED);
	assert_int_equal(late_calls, 1);
	n = sb_late_order_count();
	sb_load(&a, 8, __ATOMIC_RELAXED);
	assert_true(sb_late_order_count() == n);
	__tsan_atomic_thread_fence(__ATOMIC_RELEASE);
	assert_true(sb_late_order_count() > n);
	n = sb_late_order_count();
	sb_drain_all();
	assert_true(sb_late_order_count() > n);
	sb_model = RCUT_STOREBUF_TSO;
}

static void fifo_order_and_max_age(void **state)
{
	static uint64_t v[8];
	uint64_t start = fake_now;
	struct rcut_storebuf_stats st;

	(void)state;
	memset(v, 0, sizeof(v));
	for (int i = 0; i < 8; i++) {
		sb_store(&v[i], 8, (uint64_t)i + 1, __ATOMIC_RELEASE);
		fake_now += 10;
	}
	assert_int_equal(sb_pending(), 8);
	/* time passes: what is visible is always a prefix of the stores */
	while (sb_pending()) {
		int seen = 0;

		fake_now += 1000;
		sb_expire_own();
		while (seen < 8 && raw(&v[seen]))
			seen++;
		for (int i = seen; i < 8; i++)
			assert_int_equal(raw(&v[i]), 0);
		assert_int_equal(8 - seen, sb_pending());
		assert_true(fake_now <= start + 80 + MAX_NS + 1000);
	}
	for (int i = 0; i < 8; i++)
		assert_int_equal(raw(&v[i]), (uint64_t)i + 1);
	sb_sum(&st);
	assert_true(st.aged >= 8);
	assert_true(st.max_age_ns <= MAX_NS + 1000);
	assert_true(st.buffered >= 8);
}

/* A thread that buffers a store and waits until told to finish. */
static uint64_t remote_x;
static int remote_state; /* 1: stored, 2: may exit */

static void *remote(void *arg)
{
	(void)arg;
	sb_store(&remote_x, 8, 7, __ATOMIC_RELEASE);
	__atomic_store_n(&remote_state, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&remote_state, __ATOMIC_SEQ_CST) != 2)
		;
	return NULL;
}

static void membarrier_drains_every_thread(void **state)
{
	struct rcut_storebuf_stats before, after;
	pthread_t t;

	(void)state;
	remote_x = 0;
	sb_sum(&before);
	assert_int_equal(pthread_create(&t, NULL, remote, NULL), 0);
	while (__atomic_load_n(&remote_state, __ATOMIC_SEQ_CST) != 1)
		;
	assert_int_equal(raw(&remote_x), 0); /* in the other's buffer */
	sb_drain_all();
	assert_int_equal(raw(&remote_x), 7);
	sb_sum(&after);
	assert_int_equal(after.membarrier_drains, before.membarrier_drains + 1);
	__atomic_store_n(&remote_state, 2, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
}

/* A thread that buffers a store and exits. */
static void *store_and_exit(void *arg)
{
	(void)arg;
	sb_store(&remote_x, 8, 7, __ATOMIC_RELEASE);
	return NULL;
}

static void thread_exit_drains(void **state)
{
	pthread_t t;

	(void)state;
	remote_x = 0;
	assert_int_equal(pthread_create(&t, NULL, store_and_exit, NULL), 0);
	pthread_join(t, NULL);
	assert_int_equal(raw(&remote_x), 7);
}

static void off_writes_through(void **state)
{
	static uint64_t x;

	(void)state;
	x = 0;
	sb_configure(1, 0, false);
	sb_store(&x, 8, 9, __ATOMIC_RELAXED);
	assert_int_equal(raw(&x), 9);
	assert_int_equal(sb_pending(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(loads_forward_from_own_buffer,
						setup, teardown),
		cmocka_unit_test_setup_teardown(fences_and_locked_ops_drain,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			arm_model_buffers_seq_cst_stores, setup, teardown),
		cmocka_unit_test_setup_teardown(arm_model_late_loads, setup,
						teardown),
		cmocka_unit_test_setup_teardown(fifo_order_and_max_age, setup,
						teardown),
		cmocka_unit_test_setup_teardown(membarrier_drains_every_thread,
						setup, teardown),
		cmocka_unit_test_setup_teardown(thread_exit_drains, setup,
						teardown),
		cmocka_unit_test_setup_teardown(off_writes_through, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
