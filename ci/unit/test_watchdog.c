// SPDX-License-Identifier: MIT
/*
 * Unit tests: the watchdog's stall decision (torture/watchdog.c and the
 * element pool's callback check in torture/elements.c).  A thread of the
 * run's table whose progress counter stays put for longer than
 * --stall-timeout is a stall, reported with its kind, id and the flavor
 * call it is in; a thread that makes progress, or has exited, is not; an
 * aging callback not invoked for the timeout is a stall.  Of several
 * stuck, the one stuck the longest is the cause.  The thread table
 * holds no real threads (the watchdog only reads their counters), except
 * in the tests of the wait for a CPU, which need the kernel's account of
 * a real thread.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../torture/core/run.h"
#include "../../torture/core/watchdog.h"
#include "fake_flavor.h"

#define TIMEOUT_NS 2000000ULL /* --stall-timeout for these tests: 2 ms */
#define PAST_TIMEOUT_NS 3000000ULL

static struct torture_run run; /* a context, no run started */
static struct rcut_config cfg;
static struct torture_thread thr[2];
static const struct rcut_flavor fake_flavor = {
	.name = "fake",
	.synchronize = fake_synchronize,
	.call = fake_call,
};
static struct torture_stall stall;
static char what[256];

static int setup(void **state)
{
	(void)state;
	rcut_config_defaults(&cfg);
	cfg.stall_timeout_ns = TIMEOUT_NS;
	torture_run_init(&run, &cfg, &fake_flavor, "torture");
	memset(thr, 0, sizeof(thr));
	thr[0] = (struct torture_thread){ .run = &run, .kind = "writer" };
	thr[1] = (struct torture_thread){ .run = &run,
					  .kind = "reader",
					  .id = 1 };
	for (int i = 0; i < 2; i++)
		thr[i].created = true; /* as if started: never exited */
	run.threads.t = thr;
	run.threads.n = 2;
	memset(&stall, 0, sizeof(stall));
	memset(what, 0, sizeof(what));
	fake_reset();
	return 0;
}

static bool check(void)
{
	return torture_watchdog_check(&run, &stall);
}

static void bump(int i)
{
	atomic_fetch_add(&thr[i].progress, 1);
}

/* Writer 0 blocked in a flavor call, reader 1 reading on. */
static void stuck_thread_reported_with_its_op(void **state)
{
	(void)state;
	atomic_store(&thr[0].op_since_ns, torture_now_ns());
	atomic_store(&thr[0].op, "synchronize");
	assert_false(check()); /* the first look only notes the counters */
	torture_nap_ns(PAST_TIMEOUT_NS);
	bump(1);
	assert_true(check());
	assert_non_null(
		strstr(stall.what, "writer 0 stuck in synchronize for "));
}

/*
 * Both stuck past the timeout: the cause is the operation stuck the
 * longest (fakewriter 1's barrier, older), not the first thread of the
 * table (writer 0, its victim); the victim is listed as also waiting.
 */
static void oldest_stuck_operation_is_the_cause(void **state)
{
	uint64_t now = torture_now_ns();

	(void)state;
	thr[1].kind = "fakewriter";
	atomic_store(&thr[1].op_since_ns, now - 1000000);
	atomic_store(&thr[1].op, "barrier");
	atomic_store(&thr[0].op_since_ns, now);
	atomic_store(&thr[0].op, "synchronize");
	assert_false(check());
	torture_nap_ns(PAST_TIMEOUT_NS);
	assert_true(check());
	assert_non_null(
		strstr(stall.what, "fakewriter 1 stuck in barrier for "));
	assert_int_equal(stall.n_also, 1);
	assert_non_null(
		strstr(stall.also, "writer 0 stuck in synchronize for "));
	assert_true(stall.age_ns >= PAST_TIMEOUT_NS);
}

/* A thread that got on with its work is no longer listed as waiting. */
static void thread_that_got_on_is_not_also_waiting(void **state)
{
	(void)state;
	cfg.stall_timeout_ns = 40 * TIMEOUT_NS;
	atomic_store(&thr[0].op_since_ns, torture_now_ns());
	atomic_store(&thr[0].op, "synchronize");
	assert_false(check());
	torture_nap_ns(41 * TIMEOUT_NS);
	assert_true(check()); /* the reader: never bumped */
	bump(0);	      /* the writer gets on... */
	assert_true(check()); /* ...and is seen stuck no more */
	assert_non_null(strstr(stall.what, "reader 1 made no progress"));
	assert_int_equal(stall.n_also, 0);
	assert_string_equal(stall.also, "");
}

/* No op: "made no progress"; the progressing writer is not the one. */
static void thread_without_progress_is_a_stall(void **state)
{
	(void)state;
	assert_false(check());
	torture_nap_ns(PAST_TIMEOUT_NS);
	bump(0);
	assert_true(check());
	assert_non_null(strstr(stall.what, "reader 1 made no progress for "));
}

static void progressing_threads_are_no_stall(void **state)
{
	(void)state;
	for (int round = 0; round < 3; round++) {
		assert_false(check());
		torture_nap_ns(PAST_TIMEOUT_NS);
		bump(0);
		bump(1);
	}
	assert_false(check());
	assert_string_equal(stall.what, "");
}

/* Shorter than the timeout, or exited: no stall. */
static void within_timeout_or_exited_is_no_stall(void **state)
{
	(void)state;
	cfg.stall_timeout_ns = 1000000000ULL;
	assert_false(check());
	torture_nap_ns(PAST_TIMEOUT_NS);
	assert_false(check());
	cfg.stall_timeout_ns = TIMEOUT_NS;
	atomic_store(&thr[0].exited, true);
	atomic_store(&thr[1].exited, true);
	assert_false(check());
}

/* An aging callback not invoked for the timeout; none once invoked. */
static void callback_not_invoked_is_a_stall(void **state)
{
	struct torture_elem *e = torture_elem_alloc(&run);
	uint64_t posted;

	(void)state;
	torture_elem_age_async(&run, e);
	posted = e->cb[0].posted_ns;
	assert_false(torture_pool_stalled_callback(
		&run.pool, posted + TIMEOUT_NS - 1, TIMEOUT_NS, what,
		sizeof(what)));
	assert_true(
		torture_pool_stalled_callback(&run.pool, posted + TIMEOUT_NS,
					      TIMEOUT_NS, what, sizeof(what)));
	assert_non_null(strstr(what, "element aging callback "));
	assert_non_null(strstr(what, " not invoked "));
	fake_invoke_all(); /* every stage: the element is freed */
	assert_false(torture_pool_stalled_callback(
		&run.pool, UINT64_MAX / 2, TIMEOUT_NS, what, sizeof(what)));
}

/*
 * A real thread for thr[1]: spinning (runnable) at nice 19 on one CPU
 * beside two spinning threads at nice 0 (it gets about 1 % of that CPU,
 * so nearly all its time is a wait for it), or blocked in a read.
 */
struct cpu_wait_rig {
	pthread_t victim, hogs[2];
	int wake[2]; /* the sleeping victim blocks reading wake[0] */
	atomic_bool stop, spin;
	_Atomic pid_t victim_tid;
	cpu_set_t cpu;
};

static struct cpu_wait_rig rig;

static void *hog_main(void *arg)
{
	(void)arg;
	pthread_setaffinity_np(pthread_self(), sizeof(rig.cpu), &rig.cpu);
	while (!atomic_load(&rig.stop))
		;
	return NULL;
}

static void *victim_main(void *arg)
{
	(void)arg;
	pthread_setaffinity_np(pthread_self(), sizeof(rig.cpu), &rig.cpu);
	setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	atomic_store(&rig.victim_tid, gettid());
	if (atomic_load(&rig.spin)) {
		while (!atomic_load(&rig.stop))
			;
	} else {
		char c;

		while (read(rig.wake[0], &c, 1) < 0)
			;
	}
	return NULL;
}

/* thr[1] is the victim, spinning or not; false if schedstat is missing. */
static bool rig_start(bool spin)
{
	char path[64];
	cpu_set_t all;

	CPU_ZERO(&rig.cpu);
	sched_getaffinity(0, sizeof(all), &all);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &rig.cpu);
			break;
		}
	atomic_store(&rig.stop, false);
	atomic_store(&rig.spin, spin);
	atomic_store(&rig.victim_tid, 0);
	assert_int_equal(pipe(rig.wake), 0);
	assert_int_equal(pthread_create(&rig.victim, NULL, victim_main, NULL),
			 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(
			pthread_create(&rig.hogs[i], NULL, hog_main, NULL), 0);
	while (!atomic_load(&rig.victim_tid))
		torture_nap_ns(1000000);
	atomic_store(&thr[1].os_tid, atomic_load(&rig.victim_tid));
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat",
		 (int)atomic_load(&rig.victim_tid));
	return access(path, R_OK) == 0;
}

static void rig_stop(void)
{
	atomic_store(&rig.stop, true);
	assert_int_equal(write(rig.wake[1], "x", 1), 1);
	pthread_join(rig.victim, NULL);
	close(rig.wake[0]);
	close(rig.wake[1]);
	for (int i = 0; i < 2; i++)
		pthread_join(rig.hogs[i], NULL);
}

/* Checks every 20 ms for 'for_ns', the writer getting on: any stall? */
static bool stall_within(uint64_t for_ns)
{
	uint64_t end = torture_now_ns() + for_ns;
	bool stalled = false;

	while (!stalled && torture_now_ns() < end) {
		bump(0);
		stalled = check();
		torture_nap_ns(20000000);
	}
	return stalled;
}

/*
 * A reader that waited for a CPU the whole time (issue 45: at load 8.5
 * one was named a stall's cause) is not charged that wait: three times
 * the timeout of waiting is no stall.
 */
static void wait_for_a_cpu_is_not_charged(void **state)
{
	bool have = rig_start(true);
	bool stalled;

	(void)state;
	cfg.stall_timeout_ns = 200000000ULL;
	stalled = have && stall_within(3 * cfg.stall_timeout_ns);
	rig_stop();
	if (!have)
		skip();
	assert_false(stalled);
}

/* The same thread asleep (not waiting for a CPU) is a stall. */
static void asleep_without_progress_is_charged(void **state)
{
	bool have = rig_start(false);
	bool stalled;

	(void)state;
	cfg.stall_timeout_ns = 200000000ULL;
	stalled = stall_within(3 * cfg.stall_timeout_ns);
	rig_stop();
	if (!have)
		skip();
	assert_true(stalled);
	assert_non_null(strstr(stall.what, "reader 1 made no progress for "));
}

/* Checks every 20 ms for up to 'for_ns', nothing getting on: a stall? */
static bool writer_stall_within(uint64_t for_ns)
{
	uint64_t end = torture_now_ns() + for_ns;
	bool stalled = false;

	while (!(stalled = check()) && torture_now_ns() < end)
		torture_nap_ns(20000000);
	return stalled;
}

/*
 * Writer 0 in synchronize from after the watchdog saw reader 1's counter
 * (the reader starved on its CPU, inside a section or not) for up to
 * 'for_ns': a stall?  *have: false if schedstat is missing.
 */
static bool writer_behind_starved_reader(bool in_section, uint64_t for_ns,
					 bool *have)
{
	bool stalled;

	*have = rig_start(true);
	atomic_store(&thr[1].section, in_section ? 1 : 0);
	cfg.stall_timeout_ns = 200000000ULL;
	check(); /* the reader's counter, seen before the call began */
	torture_nap_ns(20000000);
	atomic_store(&thr[0].op_since_ns, torture_now_ns());
	atomic_store(&thr[0].op, "synchronize");
	stalled = writer_stall_within(for_ns);
	rig_stop();
	return stalled;
}

/*
 * Issue 45's chained blame: a writer whose grace period waits for a
 * reader that the machine keeps from its CPU inside its section is not
 * charged that wait, as the reader is not (three times the timeout of
 * it is no stall)...
 */
static void writer_behind_a_starved_reader_is_not_charged(void **state)
{
	bool have, stalled;

	(void)state;
	stalled = writer_behind_starved_reader(true, 600000000ULL, &have);
	if (!have)
		skip();
	assert_false(stalled);
}

/*
 * ...but a reader starved outside any section holds up no grace period:
 * the writer stuck in synchronize is the stall.
 */
static void writer_behind_a_reader_outside_a_section_is_charged(void **state)
{
	bool have, stalled;

	(void)state;
	stalled = writer_behind_starved_reader(false, 10000000000ULL, &have);
	if (!have)
		skip();
	assert_true(stalled);
	assert_non_null(
		strstr(stall.what, "writer 0 stuck in synchronize for "));
	assert_null(strstr(stall.what, "behind readers"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(stuck_thread_reported_with_its_op,
				       setup),
		cmocka_unit_test_setup(thread_without_progress_is_a_stall,
				       setup),
		cmocka_unit_test_setup(progressing_threads_are_no_stall, setup),
		cmocka_unit_test_setup(within_timeout_or_exited_is_no_stall,
				       setup),
		cmocka_unit_test_setup(callback_not_invoked_is_a_stall, setup),
		cmocka_unit_test_setup(oldest_stuck_operation_is_the_cause,
				       setup),
		cmocka_unit_test_setup(thread_that_got_on_is_not_also_waiting,
				       setup),
		cmocka_unit_test_setup(wait_for_a_cpu_is_not_charged, setup),
		cmocka_unit_test_setup(
			writer_behind_a_starved_reader_is_not_charged, setup),
		cmocka_unit_test_setup(
			writer_behind_a_reader_outside_a_section_is_charged,
			setup),
		cmocka_unit_test_setup(asleep_without_progress_is_charged,
				       setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
