// SPDX-License-Identifier: MIT
/*
 * Unit tests: one thread of this process as the kernel sees it
 * (torture/util/task_stat.c).  A thread asleep in FUTEX_WAIT is seen
 * asleep on its word; one asleep elsewhere, one spinning, and a thread
 * that does not exist are not; two looks tell an unbroken sleep from
 * one a wake broke.  Each waits, within a generous budget, for
 * the other thread to get where it is going: never a time window.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../torture/util/task_stat.h"

#define BUDGET_POLLS 20000 /* of 1 ms: 20 s, however loaded the machine */

enum what { FUTEX_SLEEPER, NANO_SLEEPER, SPINNER };

struct subject {
	enum what what;
	_Atomic pid_t tid;
	atomic_bool stop;
	_Atomic int word; /* the futex word: 0 while it should sleep */
};

static void *subject_main(void *arg)
{
	struct subject *s = arg;
	struct timespec ms = { 0, 1000000 };

	atomic_store(&s->tid, (pid_t)syscall(SYS_gettid));
	while (!atomic_load(&s->stop)) {
		switch (s->what) {
		case FUTEX_SLEEPER:
			syscall(SYS_futex, &s->word, FUTEX_WAIT_PRIVATE, 0,
				NULL, NULL, 0);
			break;
		case NANO_SLEEPER:
			nanosleep(&ms, NULL);
			break;
		case SPINNER:
			break;
		}
	}
	return NULL;
}

static void pause_ms(void)
{
	struct timespec ms = { 0, 1000000 };

	nanosleep(&ms, NULL);
}

static pid_t start(struct subject *s, pthread_t *t, enum what what)
{
	s->what = what;
	atomic_store(&s->tid, 0);
	atomic_store(&s->stop, false);
	atomic_store(&s->word, 0);
	assert_int_equal(pthread_create(t, NULL, subject_main, s), 0);
	while (!atomic_load(&s->tid))
		pause_ms();
	return atomic_load(&s->tid);
}

static void finish(struct subject *s, pthread_t t)
{
	atomic_store(&s->stop, true);
	atomic_store(&s->word, 1);
	syscall(SYS_futex, &s->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	pthread_join(t, NULL);
}

static void futex_sleeper_is_seen_on_its_word(void **state)
{
	struct subject s;
	struct task_stat st;
	uintptr_t addr = 0;
	pthread_t t;
	pid_t tid = start(&s, &t, FUTEX_SLEEPER);
	int i;

	(void)state;
	for (i = 0; i < BUDGET_POLLS; i++) {
		if (task_futex_waiting(tid, &addr))
			break;
		pause_ms();
	}
	assert_true(i < BUDGET_POLLS);
	assert_int_equal(addr, (uintptr_t)&s.word);
	assert_true(task_stat_read(tid, &st));
	assert_int_equal(st.state, 'S');
	finish(&s, t);
}

/* Look until the subject is seen asleep on its futex, within the budget. */
static void look_asleep(pid_t tid, struct task_futex_look *look)
{
	int i;

	for (i = 0; i < BUDGET_POLLS; i++) {
		if (task_futex_look(tid, look))
			break;
		pause_ms();
	}
	assert_true(i < BUDGET_POLLS);
}

/* Two looks at one sleep, with nothing in between to wake it. */
static void an_unbroken_sleep_is_seen_unbroken(void **state)
{
	struct subject s;
	struct task_futex_look a, b;
	pthread_t t;
	pid_t tid = start(&s, &t, FUTEX_SLEEPER);

	(void)state;
	look_asleep(tid, &a);
	assert_int_equal(a.word, (uintptr_t)&s.word);
	pause_ms();
	look_asleep(tid, &b);
	assert_true(task_futex_slept_through(&a, &b));
	finish(&s, t);
}

/* Woken between two looks, asleep on the same word again at the second. */
static void a_wake_between_two_looks_is_seen(void **state)
{
	struct subject s;
	struct task_futex_look a, b;
	pthread_t t;
	pid_t tid = start(&s, &t, FUTEX_SLEEPER);
	int i;

	(void)state;
	look_asleep(tid, &a);
	assert_int_equal(syscall(SYS_futex, &s.word, FUTEX_WAKE_PRIVATE, 1,
				 NULL, NULL, 0),
			 1);
	for (i = 0; i < BUDGET_POLLS; i++) {
		look_asleep(tid, &b);
		if (b.sleep.nvcsw_after != a.sleep.nvcsw_after)
			break; /* asleep again after the wake */
		pause_ms();
	}
	assert_true(i < BUDGET_POLLS);
	assert_int_equal(b.word, a.word);
	assert_false(task_futex_slept_through(&a, &b));
	finish(&s, t);
}

/* Any sleep: one unbroken sleep, then one a wake broke; the listing. */
static void sleep_looks_and_the_thread_list(void **state)
{
	struct subject s;
	struct task_futex_look f;
	struct task_sleep_look a, b;
	pid_t tids[64];
	pthread_t t;
	pid_t tid = start(&s, &t, FUTEX_SLEEPER);
	int n, i;
	bool listed = false, me = false;

	(void)state;
	n = task_list(tids, 64);
	for (i = 0; i < n; i++) {
		listed |= tids[i] == tid;
		me |= tids[i] == (pid_t)syscall(SYS_gettid);
	}
	assert_true(listed && me);
	look_asleep(tid, &f);
	assert_true(task_sleep_look(tid, &a));
	assert_true(a.asleep);
	pause_ms();
	assert_true(task_sleep_look(tid, &b));
	assert_true(task_slept_through(&a, &b));
	syscall(SYS_futex, &s.word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	for (i = 0; i < BUDGET_POLLS; i++) {
		if (task_sleep_look(tid, &b) && b.asleep &&
		    b.nvcsw_after != a.nvcsw_after)
			break;
		pause_ms();
	}
	assert_true(i < BUDGET_POLLS);
	assert_false(task_slept_through(&a, &b));
	finish(&s, t);
	assert_false(task_sleep_look(0x7ffffff0, &a));
}

/* Asleep, but not on a futex; and running: never seen waiting. */
static void others_are_not(void **state)
{
	struct subject s;
	struct task_stat st;
	uintptr_t addr = 0;
	pthread_t t;
	pid_t tid;
	bool seen_asleep = false;

	(void)state;
	tid = start(&s, &t, NANO_SLEEPER);
	for (int i = 0; i < 2000 && !seen_asleep; i++) {
		assert_false(task_futex_waiting(tid, &addr));
		seen_asleep = task_stat_read(tid, &st) && st.state == 'S';
		pause_ms();
	}
	assert_true(seen_asleep);
	finish(&s, t);
	tid = start(&s, &t, SPINNER);
	for (int i = 0; i < 200; i++) {
		assert_false(task_futex_waiting(tid, &addr));
		pause_ms();
	}
	finish(&s, t);
	assert_false(task_futex_waiting(0, &addr));
	assert_false(task_futex_waiting(-5, &addr));
	assert_false(task_futex_waiting(0x7ffffff0, &addr));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(futex_sleeper_is_seen_on_its_word),
		cmocka_unit_test(others_are_not),
		cmocka_unit_test(an_unbroken_sleep_is_seen_unbroken),
		cmocka_unit_test(a_wake_between_two_looks_is_seen),
		cmocka_unit_test(sleep_looks_and_the_thread_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
