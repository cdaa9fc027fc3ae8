// SPDX-License-Identifier: MIT
/*
 * Unit tests: the lifecycle (torture/lifecycle.c).  Threads wait at the
 * gate until it opens, however many there are; a test description's
 * hooks run in the lifecycle's order, every thread has exited before the
 * round's report, and the report's status is the run's exit status.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../torture/core/lifecycle.h"

static struct rcut_config cfg;
static const struct rcut_flavor unit_flavor = { .name = "unit" };
static atomic_int ran;
static char trace[32];

/* A thread body: counts itself in, then waits for the stop. */
static void body(struct torture_thread *t)
{
	atomic_fetch_add(&ran, 1);
	while (!torture_must_stop(t->run))
		torture_nap_ns(100000);
}

static void note(char c)
{
	size_t n = strlen(trace);

	if (n + 1 < sizeof(trace))
		trace[n] = c;
}

static int setup(void **state)
{
	(void)state;
	rcut_config_defaults(&cfg);
	cfg.ncpus = 2;
	cfg.pin = RCUT_PIN_NONE;
	atomic_store(&ran, 0);
	memset(trace, 0, sizeof(trace));
	return 0;
}

static const struct torture_test bare_test = { .tag = "unit" };

/* A bare run with n reader threads running fn, behind the closed gate. */
static void spawn_readers(struct torture_run *run, int n,
			  void (*fn)(struct torture_thread *t))
{
	char err[256];

	torture_run_init(run, &cfg, &unit_flavor, "unit");
	run->test = &bare_test;
	assert_int_equal(torture_cpus_init(run, err, sizeof(err)), 0);
	assert_int_equal(lifecycle_table(run, n), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(lifecycle_spawn(run, "reader", i, fn), 0);
}

static void gate_holds_threads_until_open(void **state)
{
	static struct torture_run run;

	(void)state;
	spawn_readers(&run, 8, body);
	torture_nap_ns(50000000);
	assert_int_equal(atomic_load(&ran), 0);
	torture_gate_open(&run);
	for (int i = 0; i < 2000 && atomic_load(&ran) < 8; i++)
		torture_nap_ns(1000000);
	assert_int_equal(atomic_load(&ran), 8);
	torture_stop(&run);
	lifecycle_join(&run, run.threads.n);
}

/* A busy thread body: reads nothing, only gets on until the stop. */
static void busy_body(struct torture_thread *t)
{
	atomic_fetch_add(&ran, 1);
	while (!torture_must_stop(t->run))
		torture_progress();
}

/*
 * Issue 13 item 1: a main thread starved by spinning threads (here: one
 * that never looks) cannot let them run on past a timed test's deadline;
 * the threads stop the run themselves, and the elapsed time freezes near
 * the deadline.
 */
static void threads_enforce_the_deadline(void **state)
{
	static struct torture_run run;

	(void)state;
	spawn_readers(&run, 4, busy_body);
	torture_mark_start(&run);
	atomic_store(&run.clock.deadline_ns, torture_now_ns() + 50000000);
	torture_gate_open(&run);
	for (int i = 0; i < 5000 && !torture_must_stop(&run); i++)
		torture_nap_ns(1000000);
	assert_true(torture_must_stop(&run));
	assert_true(torture_elapsed_ns(&run) >= 50000000);
	assert_true(torture_elapsed_ns(&run) < 2000000000);
	lifecycle_join(&run, run.threads.n);
	assert_int_equal(atomic_load(&ran), 4);
}

static int t_setup(struct torture_run *run)
{
	(void)run;
	note('S');
	return 0;
}

static int t_round_begin(struct torture_run *run, int round)
{
	note('B');
	assert_int_equal(round, 0);
	return lifecycle_table(run, 2);
}

static int t_spawn(struct torture_run *run)
{
	note('P');
	for (int i = 0; i < 2; i++)
		if (lifecycle_spawn(run, "reader", i, body))
			return -1;
	return 0;
}

static bool t_done(struct torture_run *run)
{
	(void)run;
	return atomic_load(&ran) == 2;
}

static void t_stopping(struct torture_run *run)
{
	assert_false(torture_must_stop(run));
	note('T');
}

static int t_drain(struct torture_run *run)
{
	assert_true(torture_must_stop(run));
	note('D');
	return 0;
}

/* Every thread has been joined by the report: status 3 (RCU_HOTPLUG). */
static int t_round_end(struct torture_run *run, int round)
{
	(void)round;
	note('E');
	for (int i = 0; i < run->threads.n; i++)
		assert_true(atomic_load(&run->threads.t[i].exited));
	return 3;
}

static void t_cleanup(struct torture_run *run)
{
	(void)run;
	note('C');
}

static const struct torture_test hook_test = {
	.tag = "unit",
	.setup = t_setup,
	.round_begin = t_round_begin,
	.spawn = t_spawn,
	.done = t_done,
	.stopping = t_stopping,
	.drain = t_drain,
	.round_end = t_round_end,
	.cleanup = t_cleanup,
};

static void hooks_run_in_order(void **state)
{
	const struct rcut_flavor *f = &unit_flavor;

	(void)state;
	assert_int_equal(lifecycle_run(&hook_test, &cfg, &f, 1), 3);
	assert_string_equal(trace, "SBPTDEC");
	assert_int_equal(atomic_load(&ran), 2);
	assert_ptr_equal(torture_signal_run->test, &hook_test);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(gate_holds_threads_until_open, setup),
		cmocka_unit_test_setup(threads_enforce_the_deadline, setup),
		cmocka_unit_test_setup(hooks_run_in_order, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
