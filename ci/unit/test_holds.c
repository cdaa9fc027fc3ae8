// SPDX-License-Identifier: MIT
/*
 * Unit tests: read-side holds (torture/core/holds.c).  The sequence is
 * odd before the flavor's read_lock, thread_online or call runs and until
 * its read_unlock, thread_offline or call has returned, moves after a
 * quiescent state, and two looks tell a thread that stayed in one section from one
 * that left it, nested or not, QSBR or not.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../torture/core/holds.h"

static struct hold_look before, after;

/* This thread's sequence in a fresh look; fails if it is not tracked. */
static uint64_t my_seq(void)
{
	static struct hold_look l;

	holds_look(&l);
	for (int i = 0; i < l.n; i++)
		if (l.tid[i] == gettid())
			return l.seq[i];
	fail_msg("thread %d not tracked", (int)gettid());
	return 0;
}

/* The fake flavor's hooks check what the sequence shows while they run. */
static int fake_read_lock(void)
{
	assert_true(my_seq() & 1);
	return 7;
}

static void fake_read_unlock(int idx)
{
	assert_int_equal(idx, 7);
	assert_true(my_seq() & 1);
}

static uint64_t seq_in_hook;

static void fake_quiescent_state(void)
{
	seq_in_hook = my_seq();
}

/* Offline: still holding until it returns; online: from before it. */
static void fake_offline_or_online(void)
{
	assert_true(my_seq() & 1);
}

static void fake_register(void)
{
}

static void fake_cb(struct rcut_head *head)
{
	(void)head;
}

/* call() may take a section of its own: it holds while it runs. */
static void fake_call(struct rcut_head *head,
		      void (*func)(struct rcut_head *head))
{
	assert_ptr_equal(func, fake_cb);
	(void)head;
	assert_true(my_seq() & 1);
}

static const struct rcut_flavor plain = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "fake",
	.read_lock = fake_read_lock,
	.read_unlock = fake_read_unlock,
	.register_thread = fake_register,
	.unregister_thread = fake_register,
	.call = fake_call,
};

static const struct rcut_flavor qsbr = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "fake-qsbr",
	.read_lock = fake_read_lock,
	.read_unlock = fake_read_unlock,
	.quiescent_state = fake_quiescent_state,
	.thread_offline = fake_offline_or_online,
	.thread_online = fake_offline_or_online,
};

static void nested_section_holds_until_the_outermost_unlock(void **state)
{
	pid_t who;
	int a, b;

	(void)state;
	hold_register_thread(&plain);
	assert_false(my_seq() & 1);
	a = hold_read_lock(&plain);
	holds_look(&before);
	b = hold_read_lock(&plain);
	hold_read_unlock(&plain, b);
	holds_look(&after);
	assert_true(holds_one_held_throughout(&before, &after, &who));
	assert_int_equal(who, gettid());
	hold_read_unlock(&plain, a);
	assert_false(my_seq() & 1);
	holds_look(&after);
	assert_false(holds_one_held_throughout(&before, &after, &who));
	hold_unregister_thread(&plain);
}

/* Left and entered again between the looks: not one section. */
static void a_new_section_is_not_the_same_hold(void **state)
{
	pid_t who;

	(void)state;
	hold_register_thread(&plain);
	hold_read_unlock(&plain, hold_read_lock(&plain));
	holds_look(&before);
	assert_false(holds_one_held_throughout(&before, &before, &who));
	hold_read_lock(&plain);
	holds_look(&before);
	hold_read_unlock(&plain, 7);
	hold_read_lock(&plain);
	holds_look(&after);
	assert_false(holds_one_held_throughout(&before, &after, &who));
	hold_read_unlock(&plain, 7);
	hold_unregister_thread(&plain);
	holds_look(&after);
	assert_false(holds_tracks(&after, gettid()));
}

/* A call() outside a section holds while it runs; inside, changes nothing. */
static void call_holds_while_it_runs(void **state)
{
	struct rcut_head head;
	uint64_t outside;
	pid_t who;

	(void)state;
	hold_register_thread(&plain);
	outside = my_seq();
	hold_call(&plain, &head, fake_cb);
	assert_int_equal(my_seq(), outside + 2);
	hold_read_lock(&plain);
	holds_look(&before);
	hold_call(&plain, &head, fake_cb);
	holds_look(&after);
	assert_true(holds_one_held_throughout(&before, &after, &who));
	hold_read_unlock(&plain, 7);
	hold_unregister_thread(&plain);
}

/* QSBR: online holds; a quiescent state moves it after it returns. */
static void qsbr_online_holds_until_a_quiescent_state(void **state)
{
	pid_t who;
	uint64_t online;

	(void)state;
	hold_register_thread(&qsbr);
	online = my_seq();
	assert_true(online & 1);
	holds_look(&before);
	hold_read_unlock(&qsbr, hold_read_lock(&qsbr)); /* QSBR: no change */
	holds_look(&after);
	assert_true(holds_one_held_throughout(&before, &after, &who));
	hold_quiescent_state(&qsbr);
	assert_int_equal(seq_in_hook, online);
	assert_int_equal(my_seq(), online + 2);
	holds_look(&after);
	assert_false(holds_one_held_throughout(&before, &after, &who));
	hold_thread_offline(&qsbr);
	assert_false(my_seq() & 1);
	hold_quiescent_state(&qsbr); /* offline: stays not holding */
	assert_false(my_seq() & 1);
	hold_thread_online(&qsbr);
	assert_true(my_seq() & 1);
	hold_thread_offline(&qsbr);
	hold_unregister_thread(&qsbr);
}

static void *hold_in_thread(void *arg)
{
	hold_register_thread(&plain);
	hold_read_lock(&plain);
	holds_look(&before);
	*(pid_t *)arg = gettid();
	hold_read_unlock(&plain, 7);
	hold_unregister_thread(&plain);
	return NULL;
}

/* Another thread's hold, once it is gone: tracked no more. */
static void threads_are_told_apart(void **state)
{
	pthread_t t;
	pid_t tid = 0, who;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, hold_in_thread, &tid), 0);
	pthread_join(t, NULL);
	assert_true(holds_tracks(&before, tid));
	assert_false(holds_tracks(&before, gettid()));
	holds_look(&after);
	assert_false(holds_tracks(&after, tid));
	assert_false(holds_one_held_throughout(&before, &after, &who));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			nested_section_holds_until_the_outermost_unlock),
		cmocka_unit_test(a_new_section_is_not_the_same_hold),
		cmocka_unit_test(call_holds_while_it_runs),
		cmocka_unit_test(qsbr_online_holds_until_a_quiescent_state),
		cmocka_unit_test(threads_are_told_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
