// SPDX-License-Identifier: MIT
/*
 * Unit tests: preemption injection (torture/preempt.c).  A signalled
 * thread is kept away for the time the handler reports, at most the
 * configured maximum; signals that come sooner after the last delay
 * than it lasted are skipped; the signal is none of liburcu's or the
 * watchdog's.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <urcu/static/urcu-signal-nr.h> /* SIGRCU, liburcu's signal */

#include "../../torture/util/delay.h"
#include "../../torture/core/preempt.h"

/* Sleeps overshoot by timer slack and scheduling (2 busy cores: tens of ms). */
#define SLACK_NS 250000000ULL

/* A victim: reads the clock in a loop, noting its longest gap. */
struct victim {
	pthread_t thread;
	_Atomic pid_t tid;
	_Atomic uint64_t max_gap_ns;
	_Atomic int stop;
	_Atomic int errno_kept;
};

static void *victim_main(void *arg)
{
	struct victim *v = arg;
	uint64_t prev = delay_now_ns();

	v->tid = gettid();
	errno = EDOM;
	while (!v->stop) {
		uint64_t now = delay_now_ns();

		if (now - prev > v->max_gap_ns)
			v->max_gap_ns = now - prev;
		prev = now;
	}
	v->errno_kept = errno == EDOM;
	return NULL;
}

static void victim_start(struct victim *v)
{
	memset(v, 0, sizeof(*v));
	assert_int_equal(pthread_create(&v->thread, NULL, victim_main, v), 0);
	while (!v->tid)
		sched_yield();
}

static void victim_stop(struct victim *v)
{
	v->stop = 1;
	pthread_join(v->thread, NULL);
}

/* Wait until the handler has run n times (delayed or skipped). */
static void wait_handled(uint64_t n)
{
	struct preempt_stats st;
	uint64_t deadline = delay_now_ns() + 5000000000ULL;

	do {
		preempt_snapshot(&st);
		assert_true(delay_now_ns() < deadline);
	} while (st.delays + st.skipped < n);
}

/* Wait (1 s at most) until the victim has noticed a gap of ns. */
static void wait_gap(struct victim *v, uint64_t ns)
{
	uint64_t deadline = delay_now_ns() + 1000000000ULL;

	while (v->max_gap_ns < ns)
		assert_true(delay_now_ns() < deadline);
}

static int setup(void **state)
{
	(void)state;
	preempt_reset_stats();
	return preempt_install();
}

static void signal_is_our_own(void **state)
{
	int sig = preempt_signal();

	(void)state;
	assert_int_not_equal(sig, SIGRCU);
	assert_int_not_equal(sig, SIGUSR1);
	assert_int_not_equal(sig, SIGRTMIN + 1); /* torture/watchdog.c */
	assert_true(sig > SIGRTMIN && sig <= SIGRTMAX);
}

/* Each signal stops the thread for what the handler measured, <= max. */
static void handler_keeps_the_thread_away(void **state)
{
	const uint64_t max = 5000000; /* 5 ms */
	struct preempt_stats st;
	static struct victim v; /* outlives a failed test's frame */
	uint64_t longest = 0;

	(void)state;
	assert_int_equal(preempt_configure(max, 11), 0);
	victim_start(&v);
	for (int i = 1; i <= 40; i++) {
		uint64_t before, total;

		preempt_snapshot(&st);
		before = st.delay_ns_max;
		total = st.delay_ns_total;
		v.max_gap_ns = 0;
		assert_int_equal(preempt_thread(v.tid), 0);
		wait_handled((uint64_t)i);
		preempt_snapshot(&st);
		assert_int_equal(st.skipped, 0);
		/* The victim sees a gap at least as long as this delay. */
		if (st.delay_ns_max > before) {
			wait_gap(&v, st.delay_ns_max);
			longest = st.delay_ns_max;
		}
		/* Let it run longer than it was away, so none is skipped. */
		delay_sleep_ns(st.delay_ns_total - total + 1000000);
	}
	victim_stop(&v);
	preempt_snapshot(&st);
	assert_int_equal(st.sent, 40);
	assert_int_equal(st.delays, 40);
	assert_int_equal(st.spins + st.sleeps, 40);
	assert_true(st.spins > 0 && st.sleeps > 0);
	assert_true(longest > 0 && st.delay_ns_max <= max + SLACK_NS);
	assert_true(st.delay_ns_total >= st.delay_ns_max);
	assert_true(v.errno_kept);
}

/*
 * A second signal right behind the first: skipped, not stacked.  The
 * scheduler may run something else between the two handlers on a busy
 * machine, which makes the second one legitimately late: of five pairs,
 * at least one must be skipped, and every signal is either.
 */
static void back_to_back_signals_do_not_stack(void **state)
{
	static struct victim v; /* outlives a failed test's frame */
	struct preempt_stats st;

	(void)state;
	assert_int_equal(preempt_configure(1000000, 5), 0);
	victim_start(&v);
	for (int i = 1; i <= 5; i++) {
		assert_int_equal(preempt_thread(v.tid), 0);
		assert_int_equal(preempt_thread(v.tid), 0);
		wait_handled(2 * (uint64_t)i);
		/* Let it run longer than it was away: the next pair is new. */
		preempt_snapshot(&st);
		delay_sleep_ns(st.delay_ns_max + 1000000);
	}
	victim_stop(&v);
	preempt_snapshot(&st);
	assert_int_equal(st.sent, 10);
	assert_int_equal(st.delays + st.skipped, 10);
	assert_true(st.skipped >= 1 && st.delays >= 5);
}

static void gone_thread_and_bad_settings(void **state)
{
	uint64_t deadline = delay_now_ns() + 2000000000ULL, ok = 0;
	struct preempt_stats st;
	static struct victim v; /* outlives a failed test's frame */
	pid_t tid;

	(void)state;
	victim_start(&v);
	tid = v.tid;
	victim_stop(&v);
	/* The kernel may take a moment to reap a joined thread. */
	while (preempt_thread(tid) == 0) {
		ok++;
		assert_true(delay_now_ns() < deadline);
		delay_sleep_ns(1000000);
	}
	assert_int_equal(errno, ESRCH);
	preempt_snapshot(&st);
	assert_int_equal(st.send_failed, 1);
	assert_int_equal(st.sent, ok);
	assert_int_equal(preempt_configure(999, 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(signal_is_our_own),
		cmocka_unit_test_setup(handler_keeps_the_thread_away, setup),
		cmocka_unit_test_setup(back_to_back_signals_do_not_stack,
				       setup),
		cmocka_unit_test_setup(gone_thread_and_bad_settings, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
