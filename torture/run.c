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
#include "options_table.h"
#include "torture.h"
#include "../cmd/parse.h"
#include "../cmd/scenario.h"
#include "../flavors/plugin.h"
#include "../flavors/registry.h"
#include "../report/json.h"
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
#define STRAGGLER_WAIT_NS 1000000000ULL /* after an early final barrier */
#define WATCHDOG_PERIOD_NS 100000000ULL /* stall checks: every 100 ms */

const struct rcut_config *torture_cfg;
const struct rcut_flavor *torture_flavor;
atomic_bool torture_stopping;
long torture_nreaders;
const char *torture_tag = "torture";

static struct torture_thread *threads;

static int nthreads;
static const char *stall_what; /* for the JSON document */

/* A second SIGINT/SIGTERM after the stop began: exit at once (130). */
void torture_second_signal(int sig)
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
	const struct rcut_opt_run run = { .test = RCUT_TEST_TORTURE,
					  .nreaders = torture_nreaders,
					  .ncpus = rcut_nr_cpus() };

	rcut_opt_print_params(stdout, torture_cfg, &run, torture_flavor->name,
			      what);
}

/* Where the flavor and the options came from: plugin file, scenario. */
static void print_origin(void)
{
	const struct rcut_scenario *sc = torture_cfg->scenario;
	const char *name = torture_flavor->name;

	if (rcut_plugin_path())
		printf("%s-torture: flavor %s from plugin %s\n", name, name,
		       rcut_plugin_path());
	if (sc)
		printf("%s-torture: scenario %s from %s, expected verdict %s\n",
		       name, sc->name, sc->path, rcut_exit_name(sc->expect));
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
	const struct rcut_flavor *f = torture_flavor;
	bool barrier = f->barrier && c->n_barrier_cbs > 0;
	const struct {
		const char *kind;
		long count;
		void (*fn)(struct torture_thread *t);
	} kinds[] = {
		{ "reader", torture_nreaders, torture_reader },
		{ "writer", 1, torture_writer },
		{ "fakewriter", c->nfakewriters, torture_fakewriter },
		{ "read-exit", c->read_exit_burst > 0, torture_read_exit },
		{ "onoff", c->onoff_interval_ns && rcut_nr_cpus() > 1,
		  torture_onoff },
		{ "barrier-poster", barrier ? c->n_barrier_cbs : 0,
		  torture_barrier_poster },
		{ "barrier-driver", barrier, torture_barrier_driver },
		{ "fwd-progress", f->call && f->barrier ? c->fwd_progress : 0,
		  torture_fwd_progress },
		{ "stutter", c->stutter_ns > 0, torture_stutter },
		{ "shuffle", c->shuffle_interval_ns > 0, torture_shuffle },
	};
	int n = 0;

	nthreads = 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		nthreads += (int)kinds[k].count;
	/* Spare slots for the final-barrier and final-gp threads. */
	threads = calloc((size_t)nthreads + 2, sizeof(*threads));
	torture_readers =
		calloc((size_t)torture_nreaders, sizeof(*torture_readers));
	if (!threads || !torture_readers ||
	    (barrier && torture_barrier_init()) ||
	    torture_mbchk_init((int)torture_nreaders)) {
		fprintf(stderr,
			"rcutorture: cannot allocate the thread table\n");
		return -1;
	}
	/* Readers come first: callback witnesses look at them. */
	for (long i = 0; i < torture_nreaders; i++)
		torture_readers[i] = &threads[i];
	torture_nreader_threads = (int)torture_nreaders;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		for (long i = 0; i < kinds[k].count; i++) {
			if (torture_thread_start(&threads[n++], kinds[k].kind,
						 (int)i, kinds[k].fn) == 0)
				continue;
			fprintf(stderr,
				"rcutorture: cannot create %s thread %ld: %s\n",
				kinds[k].kind, i, strerror(errno));
			nthreads = n - 1;
			atomic_store(&torture_stopping, true);
			return -1;
		}
	}
	return 0;
}

static int verdict(const struct rcut_snapshot *s, int stuck);

/* The closing line for each exit status (DESIGN §6). */
static const char *const end_of_test[] = {
	[RCUT_EXIT_SUCCESS] = "End of test: SUCCESS",
	[RCUT_EXIT_FAILURE] = "End of test: FAILURE",
	[RCUT_EXIT_USAGE] = "End of test: USAGE",
	[RCUT_EXIT_HOTPLUG] = "End of test: RCU_HOTPLUG",
	[RCUT_EXIT_STALL] = "End of test: STALL",
	[RCUT_EXIT_INTERNAL] = "End of test: INTERNAL_ERROR",
};
static void print_first_failure(void);

static atomic_bool final_done;

/*
 * While the final barrier waits, keep grace periods coming: a flavor
 * whose callbacks only advance inside synchronize calls (PRCU's RFC) has
 * no other caller left.
 */
static void final_gp(struct torture_thread *t)
{
	(void)t;
	while (!atomic_load(&final_done)) {
		torture_op_begin("final synchronize");
		torture_flavor->synchronize();
		torture_op_end();
		torture_nap_ns(1000000);
	}
}

/* Start a thread of the final phase in a spare slot of the table. */
static int start_final_thread(const char *kind,
			      void (*fn)(struct torture_thread *t))
{
	if (torture_thread_start(&threads[nthreads], kind, 0, fn)) {
		fprintf(stderr, "rcutorture: cannot create the %s thread: %s\n",
			kind, strerror(errno));
		return -1;
	}
	nthreads++;
	return 0;
}

/* The final barrier, a torture thread so the watchdog covers it too. */
static void final_barrier(struct torture_thread *t)
{
	const struct rcut_flavor *f = torture_flavor;
	uint64_t deadline;

	(void)t;
	/* Aging callbacks re-post themselves: one barrier per stage. */
	for (int i = 0; i <= RCUT_PIPE_LEN && torture_cbs_in_flight() > 0;
	     i++) {
		torture_op_begin("final barrier");
		f->barrier();
		torture_op_end();
	}
	if (torture_cbs_in_flight() <= 0)
		goto out;
	/*
	 * A barrier that returned early: give stragglers a moment, so that
	 * only callbacks that never come are reported lost.
	 */
	printf("%s-torture: note: the final barriers returned with %lld callbacks outstanding\n",
	       f->name, (long long)torture_cbs_in_flight());
	deadline = torture_now_ns() + STRAGGLER_WAIT_NS;
	while (torture_cbs_in_flight() > 0 && torture_now_ns() < deadline)
		torture_nap_ns(1000000);
out:
	atomic_store(&final_done, true);
}

/* --json: the document, from the final snapshot and the verdict. */
static void write_json(int status, const char *verdict,
		       const struct rcut_snapshot *s)
{
	const struct rcut_scenario *sc = torture_cfg->scenario;
	struct rcut_json_run run = {
		.cfg = torture_cfg,
		.flavor = torture_flavor,
		.plugin = rcut_plugin_path(),
		.scenario_name = sc ? sc->name : NULL,
		.scenario_path = sc ? sc->path : NULL,
		.scenario_expect = sc ? rcut_exit_name(sc->expect) : NULL,
		.gp_names = torture_gp_names,
		.nreaders = torture_nreaders,
		.ncpus = rcut_nr_cpus(),
		.exit_status = status,
		.verdict = verdict,
		.stall = stall_what,
		.final = s,
	};
	uint64_t at;

	for (int k = 0; k < RCUT_GP_NKINDS; k++)
		if (torture_gp_available(torture_flavor,
					 (enum rcut_gp_kind)k) &&
		    (!torture_cfg->gp_mask ||
		     (torture_cfg->gp_mask & (1u << k))))
			run.gp_kinds |= 1u << k;
	run.failed = torture_first_failure(&at, &run.failure_check);
	run.failure_s = run.failed ? (double)at / 1e9 : 0;
	rcut_json_write(&run);
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
	fflush(stdout);
	/* Best effort: the heap may be damaged; the text is out already. */
	write_json(RCUT_EXIT_INTERNAL, "CRASH", &s);
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
	print_params(end_of_test[status]);
	write_json(status, rcut_exit_name(status), &s);
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
	stall_what = what;
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

/*
 * Join the first n threads of the table, however long it takes, unless
 * the watchdog fires.
 */
static void join_threads(int n)
{
	for (;;) {
		bool all = true;

		for (int i = 0; i < n; i++)
			if (!torture_thread_join(&threads[i], 0))
				all = false;
		if (all)
			return;
		watchdog();
		torture_nap_ns(MAIN_TICK_NS);
	}
}

static void wait_for_threads(void)
{
	join_threads(nthreads);
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
			if (c->verbose > 0 || rcut_json_enabled()) {
				torture_snapshot(&s, threads, nthreads);
				rcut_json_add_interval(&s);
			}
			if (c->verbose > 0)
				rcut_report_stats(stdout, torture_flavor->name,
						  &s);
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
	if (torture_had_internal_error())
		return RCUT_EXIT_INTERNAL;
	if (rcut_snapshot_failed(s, NULL, 0) ||
	    torture_first_failure(&at, &check))
		return RCUT_EXIT_FAILURE;
	if (rcut_snapshot_hotplug_failed(s))
		return RCUT_EXIT_HOTPLUG;
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
	int status, nworkers;

	torture_cfg = cfg;
	torture_flavor = f;
	torture_nreaders = cfg->nreaders;
	if (torture_nreaders < 0)
		torture_nreaders = torture_cpus_available();
	if (f->set_call_mode &&
	    f->set_call_mode((enum rcut_call_mode)cfg->call_mode)) {
		fprintf(stderr,
			"rcutorture: flavor %s rejected --call-rcu %s\n",
			f->name, rcut_call_mode_names[cfg->call_mode]);
		return RCUT_EXIT_USAGE;
	}
	{
		char err[256];

		if (torture_cpus_init(err, sizeof(err))) {
			fprintf(stderr, "rcutorture: %s\n", err);
			return RCUT_EXIT_INTERNAL;
		}
	}
	if (cfg->dry_run) {
		print_params("Start of test");
		print_origin();
		return RCUT_EXIT_SUCCESS;
	}
	/*
	 * Only the main thread takes SIGINT/SIGTERM: block them before the
	 * flavor's init, so that threads it creates inherit the mask too.
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	if (f->init && f->init()) {
		fprintf(stderr, "rcutorture: flavor %s failed to initialize\n",
			f->name);
		return RCUT_EXIT_INTERNAL;
	}
	torture_pool_init();
	torture_watchdog_init();
	torture_fatal_init();
	print_params("Start of test");
	print_origin();
	if (cfg->verbose > 1) {
		print_setup();
		torture_cpus_print(stdout);
	}

	torture_mark_start();
	torture_stats_start();
	if (start_threads()) {
		wait_for_threads();
		return RCUT_EXIT_INTERNAL;
	}
	main_loop(&sigs);
	signal(SIGINT, torture_second_signal);
	signal(SIGTERM, torture_second_signal);
	pthread_sigmask(SIG_UNBLOCK, &sigs, NULL);

	/*
	 * Grace periods keep coming during the shutdown: threads blocked in
	 * a barrier or a poll of a flavor that only advances inside
	 * synchronize calls (PRCU's RFC) must be able to finish.
	 */
	nworkers = nthreads;
	if (start_final_thread("final-gp", final_gp)) {
		atomic_store(&final_done, true);
		wait_for_threads();
		return RCUT_EXIT_INTERNAL;
	}
	/*
	 * Every thread that posts callbacks has exited before the final
	 * barrier starts: a writer still finishing its last update could
	 * otherwise post after the barrier saw nothing in flight, and that
	 * callback would be reported lost.
	 */
	join_threads(nworkers);
	if (f->barrier && torture_cbs_in_flight() > 0 &&
	    start_final_thread("final-barrier", final_barrier) == 0) {
		/* final_barrier() ends final-gp once done. */
	} else {
		atomic_store(&final_done, true);
	}
	wait_for_threads();
	status = final_report(false, true);
	if (f->cleanup)
		f->cleanup();
	free(torture_readers);
	torture_mbchk_cleanup();
	free(threads);
	return status;
}
