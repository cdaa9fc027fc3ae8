// SPDX-License-Identifier: MIT
/*
 * The torture test's main loop: thread start-up, periodic stats, the stop,
 * bounded shutdown, the final barrier, the verdict and the closing lines.
 * The main thread is the stats thread: it owns SIGINT/SIGTERM (blocked in
 * every torture thread) and never blocks in the flavor except through a
 * bounded helper, so the report always comes out.
 */
#define _GNU_SOURCE
#include "run.h"

#include "gp.h"
#include "torture.h"
#include "../cmd/parse.h"
#include "../flavors/registry.h"
#include "../report/text.h"
#include "../report/verdict.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAIN_TICK_NS 10000000ULL	/* main loop period: 10 ms */
#define WATCHDOG_PERIOD_NS 100000000ULL /* stall checks: every 100 ms */

const struct rcut_config *torture_cfg;
const struct rcut_flavor *torture_flavor;
atomic_bool torture_stopping;
long torture_nreaders;

static struct torture_thread *threads;

/* CPUs this process may run on (taskset, cgroups), at least 1. */
static long usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	return 1;
}
static int nthreads;

/* A second SIGINT/SIGTERM after the stop began: exit at once (130). */
static void second_signal(int sig)
{
	static const char msg[] =
		"rcutorture: interrupted again, exiting without the final report\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(130);
	_exit(130);
}

/* "<flavor>-torture:--- <what>: nreaders=... " as the kernel prints it. */
static void print_params(const char *what)
{
	const struct rcut_config *c = torture_cfg;
	char interval[32], duration[32], read_exit[32];

	rcut_format_duration(c->stat_interval_ns, interval, sizeof(interval));
	rcut_format_duration(c->duration_ns, duration, sizeof(duration));
	rcut_format_duration(c->read_exit_delay_ns, read_exit,
			     sizeof(read_exit));
	printf("%s-torture:--- %s: nreaders=%ld nfakewriters=%ld stat_interval=%s duration=%s seed=%llu stop_on_failure=%d call_rcu=%s read_exit_delay=%s read_exit_burst=%ld",
	       torture_flavor->name, what, torture_nreaders, c->nfakewriters,
	       interval, duration, (unsigned long long)c->seed,
	       c->stop_on_failure, rcut_call_mode_names[c->call_mode],
	       read_exit, c->read_exit_burst);
	for (int k = 0; k < RCUT_GP_NKINDS; k++)
		if (c->gp_mask & (1u << k))
			printf(" gp_%s=1", torture_gp_names[k]);
	for (int i = 0; i < c->nparams; i++)
		printf(" %s", c->params[i]);
	putchar('\n');
	fflush(stdout);
}

/* --verbose: what will run, before it runs. */
static void print_setup(void)
{
	char caps[128];

	rcut_flavor_caps(torture_flavor, caps, sizeof(caps));
	printf("%s-torture: flavor %s: %s; primitives: %s\n",
	       torture_flavor->name, torture_flavor->name,
	       torture_flavor->description, caps);
	printf("%s-torture: threads: 1 writer, %ld fake writers, %ld readers; element pool %d, pipe length %d\n",
	       torture_flavor->name, torture_cfg->nfakewriters,
	       torture_nreaders, TORTURE_POOL_SIZE, RCUT_PIPE_LEN);
}

/*
 * Create the threads: the reader table for callback witnesses is filled
 * before any thread that posts callbacks starts.
 */
static int start_threads(void)
{
	const struct rcut_config *c = torture_cfg;
	int n = 0, read_exit = c->read_exit_burst > 0;

	nthreads = (int)(torture_nreaders + c->nfakewriters + 1 + read_exit);
	/* One spare slot for the final-barrier thread. */
	threads = calloc((size_t)nthreads + 1, sizeof(*threads));
	torture_readers =
		calloc((size_t)torture_nreaders, sizeof(*torture_readers));
	if (!threads || !torture_readers) {
		fprintf(stderr,
			"rcutorture: cannot allocate the thread table\n");
		return -1;
	}
	for (long i = 0; i < torture_nreaders; i++)
		torture_readers[i] = &threads[i];
	torture_nreader_threads = (int)torture_nreaders;
	for (long i = 0; i < torture_nreaders; i++)
		if (torture_thread_start(&threads[n++], "reader", (int)i,
					 torture_reader))
			goto fail;
	if (torture_thread_start(&threads[n++], "writer", 0, torture_writer))
		goto fail;
	for (long i = 0; i < c->nfakewriters; i++)
		if (torture_thread_start(&threads[n++], "fakewriter", (int)i,
					 torture_fakewriter))
			goto fail;
	if (read_exit && torture_thread_start(&threads[n++], "read-exit", 0,
					      torture_read_exit))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "rcutorture: cannot create %s thread %d: %s\n",
		threads[n - 1].kind, threads[n - 1].id, strerror(errno));
	atomic_store(&torture_stopping, true);
	return -1;
}

static int verdict(const struct rcut_snapshot *s, int stuck);
static void print_first_failure(void);

/* The final barrier, a torture thread so the watchdog covers it too. */
static void final_barrier(struct torture_thread *t)
{
	const struct rcut_flavor *f = torture_flavor;

	(void)t;
	/* Aging callbacks re-post themselves: one barrier per stage. */
	for (int i = 0; i <= RCUT_PIPE_LEN && torture_cbs_in_flight() > 0;
	     i++) {
		torture_op_begin("final barrier");
		f->barrier();
		torture_op_end();
	}
}

void torture_crash_report(void)
{
	struct rcut_snapshot s;

	atomic_store(&torture_stopping, true);
	torture_mark_stop();
	torture_snapshot(&s, threads, nthreads);
	rcut_report_stats(stdout, torture_flavor->name, &s);
	rcut_report_rates(stdout, torture_flavor->name, &s);
	print_first_failure();
	print_params("End of test: CRASH");
}

/* Print the final report; returns the exit status it announces. */
static int final_report(bool stalled, bool drained)
{
	const char *name = torture_flavor->name;
	struct rcut_snapshot s;
	int status;

	torture_snapshot(&s, threads, nthreads);
	if (drained) {
		s.cbs_lost = (uint64_t)torture_cbs_in_flight();
		if (s.cbs_lost)
			torture_failure(
				"lost callbacks",
				"%llu callbacks were never invoked by the final barrier",
				(unsigned long long)s.cbs_lost);
	}
	rcut_report_stats(stdout, name, &s);
	rcut_report_rates(stdout, name, &s);
	print_first_failure();
	status = verdict(&s, stalled);
	print_params(status == RCUT_EXIT_STALL ? "End of test: STALL" :
		     status		       ? "End of test: FAILURE" :
						 "End of test: SUCCESS");
	return status;
}

/*
 * A stall: say what is stuck, the flavor's own view, every thread's
 * backtrace, then the final report; exit 4 without joining the stuck
 * threads or running exit handlers that could block on them.
 */
static void __attribute__((noreturn)) stall_exit(const char *what)
{
	const struct rcut_flavor *f = torture_flavor;

	torture_mark_stop();
	printf("%s-torture: !!! STALL at %.3f s: %s (--stall-timeout %.1f s)\n",
	       f->name, (double)torture_elapsed_ns() / 1e9, what,
	       (double)torture_cfg->stall_timeout_ns / 1e9);
	if (f->stats) {
		printf("%s-torture: flavor state: ", f->name);
		f->stats(stdout);
	}
	/* Backtraces first: once told to stop, healthy threads exit. */
	torture_print_backtraces(threads, nthreads);
	atomic_store(&torture_stopping, true);
	final_report(true, false);
	fflush(stdout);
	fflush(stderr);
	_exit(RCUT_EXIT_STALL);
}

/* Run the watchdog; never returns if it finds a stall. */
static void watchdog(void)
{
	char what[256];

	if (torture_watchdog_check(threads, nthreads, what, sizeof(what)))
		stall_exit(what);
}

/* Join every thread, however long it takes, unless the watchdog fires. */
static void wait_for_threads(void)
{
	for (;;) {
		bool all = true;

		for (int i = 0; i < nthreads; i++)
			if (!torture_thread_join(&threads[i], 0))
				all = false;
		if (all)
			return;
		watchdog();
		torture_nap_ns(MAIN_TICK_NS);
	}
}

/* Wait in 10 ms ticks until the deadline, a signal, or a failure stop. */
static void main_loop(const sigset_t *sigs)
{
	const struct rcut_config *c = torture_cfg;
	uint64_t deadline =
		c->duration_ns ? torture_now_ns() + c->duration_ns : 0;
	uint64_t next_stats = torture_now_ns() + c->stat_interval_ns;
	struct timespec tick = { 0, (long)MAIN_TICK_NS };
	uint64_t next_watchdog = 0;
	struct rcut_snapshot s;
	int sig;

	while (!torture_must_stop()) {
		uint64_t now;

		sig = sigtimedwait(sigs, NULL, &tick);
		if (sig > 0) {
			printf("%s-torture: SIG%s received, stopping\n",
			       torture_flavor->name, sigabbrev_np(sig));
			break;
		}
		now = torture_now_ns();
		if (deadline && now >= deadline)
			break;
		if (now >= next_watchdog) {
			next_watchdog = now + WATCHDOG_PERIOD_NS;
			watchdog();
		}
		if (c->stat_interval_ns && now >= next_stats) {
			next_stats += c->stat_interval_ns;
			if (c->verbose > 0) {
				torture_snapshot(&s, threads, nthreads);
				rcut_report_stats(stdout, torture_flavor->name,
						  &s);
			}
		}
	}
	atomic_store(&torture_stopping, true);
	torture_mark_stop();
}

static int verdict(const struct rcut_snapshot *s, int stuck)
{
	uint64_t at;
	const char *check;

	if (stuck)
		return RCUT_EXIT_STALL;
	if (rcut_snapshot_failed(s, NULL, 0) ||
	    torture_first_failure(&at, &check))
		return RCUT_EXIT_FAILURE;
	return RCUT_EXIT_SUCCESS;
}

static void print_first_failure(void)
{
	const char *name = torture_flavor->name;
	uint64_t at;
	const char *check;

	if (torture_first_failure(&at, &check))
		printf("%s-torture: First failure: at %.3f s, caught by: %s\n",
		       name, (double)at / 1e9, check);
	else
		printf("%s-torture: First failure: none\n", name);
}

int torture_run(const struct rcut_config *cfg, const struct rcut_flavor *f)
{
	sigset_t sigs;
	int status;

	torture_cfg = cfg;
	torture_flavor = f;
	torture_nreaders = cfg->nreaders;
	if (torture_nreaders < 0)
		torture_nreaders = usable_cpus();
	if (f->set_call_mode &&
	    f->set_call_mode((enum rcut_call_mode)cfg->call_mode)) {
		fprintf(stderr,
			"rcutorture: flavor %s rejected --call-rcu %s\n",
			f->name, rcut_call_mode_names[cfg->call_mode]);
		return RCUT_EXIT_USAGE;
	}
	if (f->init && f->init()) {
		fprintf(stderr, "rcutorture: flavor %s failed to initialize\n",
			f->name);
		return RCUT_EXIT_INTERNAL;
	}
	torture_pool_init();
	torture_watchdog_init();
	torture_fatal_init();
	print_params("Start of test");
	if (cfg->verbose > 1)
		print_setup();

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	torture_mark_start();
	torture_stats_start();
	if (start_threads()) {
		wait_for_threads();
		return RCUT_EXIT_INTERNAL;
	}
	main_loop(&sigs);
	signal(SIGINT, second_signal);
	signal(SIGTERM, second_signal);
	pthread_sigmask(SIG_UNBLOCK, &sigs, NULL);

	wait_for_threads();
	if (f->barrier && torture_cbs_in_flight() > 0) {
		if (torture_thread_start(&threads[nthreads], "final-barrier", 0,
					 final_barrier)) {
			fprintf(stderr,
				"rcutorture: cannot create the final-barrier thread: %s\n",
				strerror(errno));
			return RCUT_EXIT_INTERNAL;
		}
		nthreads++;
		wait_for_threads();
	}
	status = final_report(false, true);
	if (f->cleanup)
		f->cleanup();
	free(torture_readers);
	free(threads);
	return status;
}
