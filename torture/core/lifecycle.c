// SPDX-License-Identifier: MIT
/*
 * The lifecycle of every test (see lifecycle.h).  The main thread takes
 * SIGINT/SIGTERM (blocked in every thread, the flavor's included: they
 * are blocked before its init) and runs the watchdog, so a stall or a
 * signal is noticed however the threads behave.
 */
#define _GNU_SOURCE
#include "lifecycle.h"
#include "data_race.h"
#include "fatal.h"
#include "failure.h"
#include "flavor_stats.h"
#include "lostwake.h"
#include "progress.h"
#include "watchdog.h"
#include "../../flavors/plugin.h"

#include "../../report/verdict.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TICK_NS 10000000ULL		/* main loop period: 10 ms */
#define WATCHDOG_PERIOD_NS 100000000ULL /* stall checks: every 100 ms */

/*
 * SIGINT and SIGTERM stay blocked in every thread; the main thread takes
 * them with sigtimedwait() while it watches the round and while it waits
 * for threads to exit, so the report never depends on a handler.
 */
static sigset_t stop_sigs;

/*
 * Signals within this long of the first are the same request: GNU
 * timeout and many CI runners signal the child and then its process
 * group, so one stop arrives as two signals.
 */
#define SAME_REQUEST_NS 250000000ULL

static uint64_t first_signal_ns;
static int nsignals;
/* When a wait for them last found none pending. */
static uint64_t last_none_ns;

/* sigtimedwait() for a stop signal, noting when none came. */
static int wait_stop_signal(const struct timespec *tick)
{
	int sig = sigtimedwait(&stop_sigs, NULL, tick);

	if (sig <= 0)
		last_none_ns = torture_now_ns();
	return sig;
}

/*
 * Count a SIGINT/SIGTERM.  The first asks the run to stop (the full
 * shutdown: final barrier, report); true for one that asks to hurry: a
 * signal that came later than SAME_REQUEST_NS after the first, or a
 * third.  When the second came is known only to lie after the last wait
 * that found none: a main thread kept off its CPU takes GNU timeout's
 * second SIGTERM late (ASan beside the suite, other processes 95% of
 * the time: taken as a hurry), so it counts as the same request unless
 * a wait found none pending after the window.
 */
static bool take_signal(struct torture_run *run, int sig)
{
	uint64_t now = torture_now_ns();

	nsignals++;
	if (!first_signal_ns) {
		first_signal_ns = now;
		if (!run->stop_signal) {
			printf("%s-%s: SIG%s received, stopping\n",
			       run->flavor->name, run->tag, sigabbrev_np(sig));
			run->stop_signal = sig;
		}
		return false;
	}
	return nsignals >= 3 ||
	       last_none_ns >= first_signal_ns + SAME_REQUEST_NS;
}

/* The exit status of a report already printed (signals after it). */
static volatile sig_atomic_t reported_status;

/* A signal once the report is out (the flavor's cleanup hangs): exit. */
static void after_report_signal(int sig)
{
	(void)sig;
	_exit(reported_status);
}

/*
 * A stall: say what is stuck (the oldest stuck operation, then the others
 * waiting), the flavor's own view (its stats hook, bounded: it may block
 * on what hung), every thread's backtrace, then the test's closing lines;
 * exit 4 without joining the stuck threads or running exit handlers that
 * could block on them.
 */
static void __attribute__((noreturn))
stall_exit(struct torture_run *run, const struct torture_stall *s)
{
	const struct rcut_flavor *f = run->flavor;
	uint64_t bound = run->cfg->stall_timeout_ns / 4;
	char *state, busy[128];

	torture_mark_stop(run);
	/*
	 * The kernel's stall-warning header, which the kernel's
	 * parse-console.sh counts as a stall (no "!!!": that is a FAILURE).
	 */
	printf("%s-%s: INFO: %s detected stalls on CPUs/tasks:\n", f->name,
	       run->tag, f->name);
	printf("%s-%s: STALL at %.3f s: %s (--stall-timeout %.1f s)\n", f->name,
	       run->tag, (double)torture_elapsed_ns(run) / 1e9, s->what,
	       (double)run->cfg->stall_timeout_ns / 1e9);
	if (s->n_also)
		printf("%s-%s: also waiting (%d): %s%s\n", f->name, run->tag,
		       s->n_also, s->also,
		       s->n_also > TORTURE_STALL_ALSO_MAX ? "; ..." : "");
	if (torture_machine_busy_since(&run->clock.machine, busy, sizeof(busy)))
		printf("%s-%s: machine busy: %s: on a machine this busy a correct flavor's thread can wait this long; rerun on a quieter one or with a longer --stall-timeout\n",
		       f->name, run->tag, busy);
	state = torture_flavor_stats(f, bound < 500000000ULL ? bound :
							       500000000ULL);
	if (state)
		printf("%s-%s: flavor state: %s\n", f->name, run->tag, state);
	free(state);
	/* Backtraces first: once told to stop, healthy threads exit. */
	torture_print_backtraces(run);
	torture_stop(run);
	if (run->test->stall_report)
		run->test->stall_report(run, s->what);
	fflush(stdout);
	fflush(stderr);
	_exit(RCUT_EXIT_STALL);
}

/*
 * A second request to stop while threads are still finishing (a writer
 * stuck in a slow grace period, a final barrier): name what is still
 * running, print the report as it stands and exit with its verdict,
 * without joining those threads or running exit handlers that could
 * block on them.
 */
static void __attribute__((noreturn))
hurry_exit(struct torture_run *run, int sig)
{
	struct torture_threads *th = &run->threads;
	int status = RCUT_EXIT_SUCCESS, left = 0, named = 0;
	char names[160] = "";

	torture_stop(run);
	torture_mark_stop(run);
	for (int i = 0; i < th->n; i++) {
		size_t len = strlen(names);

		if (atomic_load(&th->t[i].exited))
			continue;
		left++;
		if (named < 4 && len < sizeof(names) - 40) {
			snprintf(names + len, sizeof(names) - len, "%s%s %d",
				 named ? ", " : "", th->t[i].kind, th->t[i].id);
			named++;
		}
	}
	printf("%s-%s: SIG%s again: reporting now, without waiting for %d thread%s still running%s%s%s%s\n",
	       run->flavor->name, run->tag, sigabbrev_np(sig), left,
	       left == 1 ? "" : "s", left ? " (" : "", names,
	       left > named ? ", ..." : "", left ? ")" : "");
	if (run->test->hurry_report)
		status = run->test->hurry_report(run);
	fflush(stdout);
	fflush(stderr);
	_exit(status);
}

/*
 * A lost wakeup: the grace period will never end, so the run reports
 * now, with every thread's stack (the sleeping one's among them),
 * without joining the threads stuck behind it.
 */
static void __attribute__((noreturn))
lost_wakeup_exit(struct torture_run *run, const char *what)
{
	const struct rcut_flavor *f = run->flavor;
	int status;

	torture_failure(run, "lost wakeup", "%s", what);
	printf("%s-%s: LOST WAKEUP at %.3f s: %s\n", f->name, run->tag,
	       (double)torture_elapsed_ns(run) / 1e9, what);
	torture_mark_stop(run);
	torture_print_backtraces(run);
	torture_stop(run);
	status = run->test->stuck_report(run);
	fflush(stdout);
	fflush(stderr);
	_exit(status);
}

/*
 * The lost-wakeup check, called every tick: it keeps its own pace
 * (lostwake.h); no return on a lost wakeup.
 */
static void lost_wakeup_watch(struct torture_run *run)
{
	static char what[256];

	if (run->test->stuck_report && torture_lost_wakeup_possible(run) &&
	    torture_lost_wakeup_look(run, torture_now_ns(), what, sizeof(what)))
		lost_wakeup_exit(run, what);
}

/*
 * Run the watchdog (the test's own stall check too) and the lost-wakeup
 * check; no return on a stall or a lost wakeup.
 */
static void watchdog(struct torture_run *run)
{
	static struct torture_stall s;

	if (torture_watchdog_check(run, &s))
		stall_exit(run, &s);
	lost_wakeup_watch(run);
}

void lifecycle_join(struct torture_run *run, int n)
{
	struct timespec tick = { 0, (long)TICK_NS };

	for (;;) {
		bool all = true;
		int sig;

		for (int i = 0; i < n; i++)
			if (!torture_thread_join(&run->threads.t[i], 0))
				all = false;
		if (all)
			return;
		watchdog(run);
		sig = wait_stop_signal(&tick);
		if (sig > 0 && take_signal(run, sig))
			hurry_exit(run, sig);
	}
}

int lifecycle_table(struct torture_run *run, int cap)
{
	struct torture_threads *th = &run->threads;

	th->t = calloc((size_t)(cap > 0 ? cap : 1), sizeof(*th->t));
	th->n = 0;
	th->cap = cap;
	if (!th->t) {
		fprintf(stderr,
			"rcutorture: cannot allocate the thread table\n");
		return -1;
	}
	return 0;
}

/*
 * The round is over: its table goes (the readers' view of it too),
 * unless callbacks may still be invoked: their checks read it.
 */
static void table_free(struct torture_run *run)
{
	struct torture_threads *th = &run->threads;

	if (!torture_cbs_settled(run))
		return;
	free(th->t);
	th->t = NULL;
	th->n = th->cap = 0;
}

int lifecycle_spawn(struct torture_run *run, const char *kind, int id,
		    void (*fn)(struct torture_thread *t))
{
	struct torture_threads *th = &run->threads;
	bool full = th->n >= th->cap;

	if (full || torture_thread_start(run, &th->t[th->n], kind, id, fn)) {
		fprintf(stderr, "rcutorture: cannot create %s thread %d: %s\n",
			kind, id, strerror(full ? ENOMEM : errno));
		return -1;
	}
	/* Atomic: the drain spawns while the preempter may read it. */
	__atomic_store_n(&th->n, th->n + 1, __ATOMIC_RELEASE);
	return 0;
}

bool lifecycle_interrupted(const struct torture_run *run)
{
	return run->stop_signal != 0;
}

/*
 * Create the round's threads behind the closed gate, wait until each has
 * its thread ID (the scale test tells the flavor's threads from ours by
 * it), then open the gate.  On a failure the run stops first, so the
 * threads that exist leave at once.
 */
static int round_start(struct torture_run *run)
{
	struct torture_threads *th = &run->threads;
	int err;

	pthread_mutex_lock(&th->gate_lock);
	th->gate_open = false;
	pthread_mutex_unlock(&th->gate_lock);
	torture_mark_start(run);
	err = run->test->spawn(run);
	if (err)
		torture_stop(run);
	for (int i = 0; i < th->n; i++)
		while (!atomic_load(&th->t[i].os_tid))
			torture_nap_ns(10000);
	torture_gate_open(run);
	return err;
}

static bool all_exited(struct torture_run *run)
{
	for (int i = 0; i < run->threads.n; i++)
		if (!atomic_load(&run->threads.t[i].exited))
			return false;
	return true;
}

/*
 * Wait in 10 ms ticks until the test is done, a signal, the deadline, or
 * a stop (a failure with --stop-on-failure, an internal error).  Returns
 * false if every thread exited by itself: nothing is left to stop.
 */
static bool watch(struct torture_run *run)
{
	const struct rcut_config *c = run->cfg;
	const struct torture_test *test = run->test;
	struct timespec tick = { 0, (long)TICK_NS };
	uint64_t now = torture_now_ns(), next_watchdog = 0;
	uint64_t deadline =
		test->timed && c->duration_ns ? now + c->duration_ns : 0;
	uint64_t next_stats = now + c->stat_interval_ns;
	bool progress = torture_progress_wanted(run), exited = false;

	atomic_store(&run->clock.deadline_ns, deadline);
	while (!torture_must_stop(run) && !(test->done && test->done(run))) {
		int sig;

		if (all_exited(run)) {
			exited = true;
			break;
		}
		torture_progress_tick(run, now);
		sig = wait_stop_signal(&tick);
		if (sig > 0) {
			take_signal(run, sig);
			break;
		}
		now = torture_now_ns();
		if (deadline && now >= deadline)
			break;
		if (now >= next_watchdog) {
			next_watchdog = now + WATCHDOG_PERIOD_NS;
			watchdog(run);
		} else {
			lost_wakeup_watch(run);
		}
		torture_data_race_poll(run);
		if (test->tick)
			test->tick(run);
		if ((test->interval || progress) && c->stat_interval_ns &&
		    now >= next_stats) {
			next_stats += c->stat_interval_ns;
			if (test->interval) {
				test->interval(run);
				torture_progress_redraw();
			}
			if (progress)
				torture_progress_print(run);
		}
	}
	torture_progress_hide();
	return !exited;
}

/* Tell every thread to stop (lifecycle_join() takes later signals). */
static void stop(struct torture_run *run)
{
	if (run->test->stopping)
		run->test->stopping(run);
	torture_stop(run);
	torture_mark_stop(run);
}

/* One round: start, watch, stop, drain, join, report. */
static int run_round(struct torture_run *run, int round)
{
	const struct torture_test *test = run->test;
	int status = test->round_begin(run, round);

	if (status)
		return status;
	if (round_start(run)) {
		lifecycle_join(run, run->threads.n);
		table_free(run);
		return RCUT_EXIT_INTERNAL;
	}
	if (watch(run))
		stop(run);
	if (test->drain)
		status = test->drain(run);
	lifecycle_join(run, run->threads.n);
	torture_data_race_poll(run);
	if (!status)
		status = test->round_end(run, round);
	table_free(run);
	return status;
}

/* Make f the flavor under test, initialize it, run its rounds. */
static int run_flavor(struct torture_run *run, const struct rcut_flavor *f)
{
	const struct torture_test *test = run->test;
	const struct rcut_config *c = run->cfg;
	int rounds, status = 0;

	run->flavor = f;
	if (f->set_call_mode &&
	    f->set_call_mode((enum rcut_call_mode)c->call_mode)) {
		fprintf(stderr,
			"rcutorture: flavor %s rejected --call-rcu %s\n",
			f->name, rcut_call_mode_names[c->call_mode]);
		return RCUT_EXIT_USAGE;
	}
	if (c->dry_run && test->dry_run)
		return test->dry_run(run);
	if (c->store_buffer_delay_ns && rcut_plugin_storebuf()) {
		if (rcut_plugin_storebuf()->model)
			rcut_plugin_storebuf()->model(c->store_buffer_model);
		rcut_plugin_storebuf()->configure(c->seed,
						  c->store_buffer_delay_ns);
	}
	if (f->init && f->init()) {
		fprintf(stderr, "rcutorture: flavor %s failed to initialize\n",
			f->name);
		return RCUT_EXIT_INTERNAL;
	}
	if (test->flavor_begin)
		test->flavor_begin(run);
	rounds = test->rounds ? test->rounds(run) : 1;
	for (int r = 0; r < rounds && !status && !run->stop_signal; r++)
		status = run_round(run, r);
	if (f->cleanup) {
		/* The report is out: a signal now only ends the wait. */
		reported_status = status;
		signal(SIGINT, after_report_signal);
		signal(SIGTERM, after_report_signal);
		pthread_sigmask(SIG_UNBLOCK, &stop_sigs, NULL);
		f->cleanup();
		pthread_sigmask(SIG_BLOCK, &stop_sigs, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	return status;
}

/*
 * Everything before the first flavor: the simulated CPUs, the test's
 * setup, the watchdog's and the fatal signals' handlers, and SIGINT and
 * SIGTERM blocked before any thread (the flavor's too) exists.
 */
static int setup(struct torture_run *run)
{
	char err[256];
	int status;

	if (torture_cpus_init(run, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_INTERNAL;
	}
	status = run->test->setup ? run->test->setup(run) : 0;
	if (status)
		return status;
	torture_watchdog_init();
	torture_fatal_init();
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop_sigs, NULL);
	return 0;
}

int lifecycle_run(const struct torture_test *test,
		  const struct rcut_config *cfg,
		  const struct rcut_flavor *const *flavors, int n)
{
	struct torture_run *run = malloc(sizeof(*run));
	int status;

	if (!run) {
		fprintf(stderr, "rcutorture: cannot allocate the run\n");
		return RCUT_EXIT_INTERNAL;
	}
	torture_run_init(run, cfg, flavors[0], test->tag);
	run->test = test;
	run->flavors = flavors;
	run->nflavors = n;
	torture_signal_run = run;
	status = setup(run);
	for (int i = 0; i < n && !status && !run->stop_signal; i++) {
		run->flavor_index = i;
		status = run_flavor(run, flavors[i]);
	}
	if (status == LIFECYCLE_DONE)
		status = RCUT_EXIT_SUCCESS;
	else if (test->finish)
		status = test->finish(run, status);
	if (test->cleanup)
		test->cleanup(run);
	return status;
}
