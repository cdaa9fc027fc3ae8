// SPDX-License-Identifier: MIT
/*
 * The torture test (the kernel's rcutorture) as a test description for
 * the lifecycle: its threads, its periodic stats, the final barrier, the
 * verdict and the closing lines.
 */
#define _GNU_SOURCE
#include "torture_test.h"
#include "../core/mbchk.h"
#include "../threads/threads.h"
#include "../core/stats.h"

#include "../core/gp.h"
#include "../core/lifecycle.h"
#include "../core/flavor_stats.h"
#include "../config/options_table.h"
#include "../config/repro.h"
#include "../core/run.h"
#include "../util/delay.h"
#include "../util/parse.h"
#include "../../flavors/plugin.h"
#include "../../flavors/registry.h"
#include "../../report/json.h"
#include "../../report/text.h"
#include "../../report/verdict.h"
#include "../core/inject.h"
#include "../core/preempt.h"
#include "../threads/irqreader.h"
#include "swarm.h"
#include "torture_lines.h"
#include "swarm_live.h"
#include "auto_race.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRAGGLER_WAIT_NS 1000000000ULL /* after an early final barrier */

/* The torture test's own state (run->test_state). */
struct torture_state {
	const char *stall_what; /* for the JSON document */
	atomic_bool final_done; /* ends the final-gp thread */
	int nworkers;		/* threads before the final phase */
	/* --swarm: the options as drawn (run->cfg points here) and the draw. */
	const struct rcut_config *parsed; /* the options as given */
	struct rcut_config drawn;
	struct torture_swarm swarm;
	struct rcut_json_pair swarm_json[SWARM_MAX_ITEMS];
	/* The last stats block printed: its ver and the stutter pauses. */
	uint64_t block_ver;
	unsigned int block_pauses;
	uint64_t last_ver; /* the version at the last stats block */
	/* --swarm-interval: draw 0's options (the Start and End lines). */
	struct rcut_config first;
	struct swarm_live live;
};

static struct torture_state *state(struct torture_run *run)
{
	return run->test_state;
}

/* Whether swarm draws change while the run goes on (--swarm-interval). */
static bool redrawing(struct torture_run *run)
{
	return run->test_state && state(run)->parsed &&
	       state(run)->first.swarm_interval_ns;
}

/*
 * The options of the Start and End lines and the JSON config: as drawn
 * first (later draws are printed as they come).
 */
static const struct rcut_config *report_cfg(struct torture_run *run)
{
	return redrawing(run) ? &state(run)->first : run->cfg;
}

/* "<flavor>-torture:--- <what>: nreaders=... " as the kernel prints it. */
static void print_params(struct torture_run *run, const char *what)
{
	const struct rcut_opt_run r = { .test = RCUT_TEST_TORTURE,
					.nreaders = run->nreaders,
					.nfakewriters = run->nfakewriters,
					.ncpus = rcut_nr_cpus() };

	rcut_opt_print_params(stdout, report_cfg(run), &r, run->flavor->name,
			      what);
}

/* Where the flavor and the options came from: plugin file, scenario. */
static void print_origin(struct torture_run *run)
{
	const struct rcut_config *c = run->cfg;
	const char *name = run->flavor->name;
	const char *lib = rcut_flavor_library(run->flavor);

	if (rcut_plugin_path())
		printf("%s-torture: flavor %s from plugin %s\n", name, name,
		       rcut_plugin_path());
	if (lib)
		printf("%s-torture: flavor %s built against %s\n", name, name,
		       lib);
	if (c->scenario_name)
		printf("%s-torture: scenario %s from %s, expected verdict %s\n",
		       name, c->scenario_name, c->scenario_path,
		       rcut_exit_name(c->scenario_expect));
	if (run->cfg->swarm)
		printf("%s-torture: swarm: %s\n", name, state(run)->swarm.text);
}

/* --verbose: what will run, before it runs. */
static void print_setup(struct torture_run *run)
{
	const struct rcut_flavor *f = run->flavor;
	char caps[128];

	rcut_flavor_caps(f, caps, sizeof(caps));
	printf("%s-torture: flavor %s: %s; primitives: %s\n", f->name, f->name,
	       f->description, caps);
	printf("%s-torture: threads: 1 writer, %ld fake writers, %ld readers; element pool %d, pipe length %d\n",
	       f->name, run->nfakewriters, run->nreaders, TORTURE_POOL_SIZE,
	       RCUT_PIPE_LEN);
}

/*
 * --swarm: draw the features into the test's copy of the options, which
 * the run uses from here on (the Start line shows what was drawn).
 */
static void swarm_setup(struct torture_run *run, struct torture_state *st)
{
	st->parsed = run->cfg;
	st->drawn = *run->cfg;
	torture_swarm_draw(&st->swarm, &st->drawn, run);
	run->cfg = &st->drawn;
	st->first = st->drawn;
	swarm_live_start(&st->live, &st->swarm, st->parsed, &st->drawn);
	for (int i = 0; i < st->swarm.n; i++)
		st->swarm_json[i] =
			(struct rcut_json_pair){ st->swarm.item[i].key,
						 st->swarm.item[i].value };
}

/*
 * The test's state, the swarm draw, and the thread counts as the kernel
 * resolves them, from the simulated CPUs: one reader per CPU by default
 * (--hunt: two, at least 4), negative counts relative to the CPUs.
 */
static int setup(struct torture_run *run)
{
	struct torture_state *st = calloc(1, sizeof(struct torture_state));
	const struct rcut_config *c;
	long readers;

	if (!st)
		return RCUT_EXIT_INTERNAL;
	run->test_state = st;
	if (run->cfg->swarm)
		swarm_setup(run, st);
	c = run->cfg;
	readers = c->hunt ? 2L * run->cpus.n : run->cpus.n;
	if (c->hunt && readers < 4)
		readers = 4;
	run->nreaders =
		torture_resolve_count(c->nreaders, readers, run->cpus.n);
	run->nfakewriters =
		torture_resolve_count(c->nfakewriters, 4, run->cpus.n);
	return 0;
}

/* Preemption injection and race delays, before any thread runs. */
static int injection_start(struct torture_run *run)
{
	const struct rcut_config *c = run->cfg;

	preempt_reset_stats();
	inject_reset_stats();
	if ((c->preempt_duration_ns || redrawing(run)) &&
	    (preempt_configure(c->preempt_duration_ns ? c->preempt_duration_ns :
							DELAY_MIN_NS,
			       c->seed) ||
	     preempt_install())) {
		fprintf(stderr,
			"rcutorture: cannot set up preemption injection\n");
		return RCUT_EXIT_INTERNAL;
	}
	if (c->irqreader && irqreader_possible(run->flavor) &&
	    irqreader_install()) {
		fprintf(stderr, "rcutorture: cannot set up irqreader\n");
		return RCUT_EXIT_INTERNAL;
	}
	if (c->race_delay && inject_configure(1.0 / (double)c->race_delay,
					      c->race_delay_max_ns, c->seed)) {
		fprintf(stderr, "rcutorture: cannot set up race delays\n");
		return RCUT_EXIT_INTERNAL;
	}
	if (torture_auto_race_configure(c, c->seed)) {
		fprintf(stderr,
			"rcutorture: cannot set up automatic race points\n");
		return RCUT_EXIT_INTERNAL;
	}
	return 0;
}

/* --dry-run: the Start line and where things came from; no thread. */
static int dry_run(struct torture_run *run)
{
	print_params(run, "Start of test");
	print_origin(run);
	return LIFECYCLE_DONE;
}

/* The Start line; the flavor's GP count from now on. */
static int round_begin(struct torture_run *run, int round)
{
	(void)round;
	print_params(run, "Start of test");
	print_origin(run);
	if (run->cfg->n_up_down && !torture_updown_possible(run->flavor))
		printf("%s-torture: n_up_down: flavor %s has no down_read/up_read: no up/down readers\n",
		       run->flavor->name, run->flavor->name);
	if (run->cfg->irqreader && !irqreader_possible(run->flavor))
		printf("%s-torture: irqreader: the read side of flavor %s is not declared async-signal-safe: no signal-handler readers\n",
		       run->flavor->name, run->flavor->name);
	/* The kernel's torture_onoff_init() says the same. */
	if (run->cfg->onoff_interval_ns && run->cpus.n < 2)
		printf("%s-torture: Only one CPU, so CPU-hotplug testing is disabled\n",
		       run->flavor->name);
	if (run->cfg->verbose > 1) {
		print_setup(run);
		torture_cpus_print(run, stdout);
	}
	torture_stats_start(run);
	torture_print_gp_state(run, false);
	torture_lines_update_types(run);
	state(run)->last_ver = UINT64_MAX;
	return injection_start(run);
}

/* One kind of thread: how many, and its body. */
struct thread_kind {
	const char *kind;
	long count;
	void (*fn)(struct torture_thread *t);
};

/* The thread table (with two spare slots), the readers, the checks. */
static int alloc_tables(struct torture_run *run, const struct thread_kind *k,
			size_t nk, bool barrier)
{
	int n = 0;

	for (size_t i = 0; i < nk; i++)
		n += (int)k[i].count;
	/* Spare slots for the final-barrier and final-gp threads. */
	if (lifecycle_table(run, n + 2))
		return -1;
	run->threads.readers =
		calloc((size_t)run->nreaders, sizeof(*run->threads.readers));
	if (!run->threads.readers || (barrier && torture_barrier_init(run)) ||
	    torture_mbchk_init(run, (int)run->nreaders) ||
	    (torture_reader_cbs_possible(run->flavor) &&
	     torture_legality_init(run, (int)run->nreaders))) {
		fprintf(stderr,
			"rcutorture: cannot allocate the thread table\n");
		return -1;
	}
	/* Readers come first: callback witnesses look at them. */
	for (long i = 0; i < run->nreaders; i++)
		run->threads.readers[i] = &run->threads.t[i];
	run->threads.nreaders = (int)run->nreaders;
	return 0;
}

/*
 * Create the threads: the reader table for callback witnesses is filled
 * before any thread that posts callbacks starts.
 */
static int spawn(struct torture_run *run)
{
	const struct rcut_config *c = run->cfg;
	const struct rcut_flavor *f = run->flavor;
	bool barrier = f->barrier && c->n_barrier_cbs > 0;
	bool stall = c->stall_cpu_ns || c->stall_gp_kthread_ns;
	bool updown = c->n_up_down > 0 && torture_updown_possible(f);
	const struct thread_kind kinds[] = {
		{ "reader", run->nreaders, torture_reader },
		{ "stall", stall, torture_stall },
		{ "writer", 1, torture_writer },
		{ "fakewriter", run->nfakewriters, torture_fakewriter },
		{ "read-exit", c->read_exit_burst > 0, torture_read_exit },
		{ "onoff", c->onoff_interval_ns && run->cpus.n > 1,
		  torture_onoff },
		{ "barrier-poster", barrier ? c->n_barrier_cbs : 0,
		  torture_barrier_poster },
		{ "barrier-driver", barrier, torture_barrier_driver },
		/* The kernel disables floods under a CPU stall, as here. */
		{ "fwd-progress",
		  f->call && f->barrier && !c->stall_cpu_ns ? c->fwd_progress :
							      0,
		  torture_fwd_progress },
		{ "nocb-toggle", c->nocbs_nthreads, torture_call_toggle },
		{ "stutter", c->stutter_ns > 0 || run->quiet_drawn,
		  torture_stutter },
		{ "shuffle", c->shuffle_interval_ns > 0, torture_shuffle },
		{ "preempter", c->preempt_duration_ns > 0 || redrawing(run),
		  torture_preempter },
		{ "object-debug", c->object_debug && f->call && f->barrier,
		  torture_object_debug },
		{ "illegal-barrier",
		  c->illegal_barrier && torture_illegal_barrier_possible(f),
		  torture_illegal_barrier },
		{ "updown-down", updown, torture_updown_down },
		{ "updown-up", updown, torture_updown_up },
	};
	size_t nk = sizeof(kinds) / sizeof(kinds[0]);

	if (alloc_tables(run, kinds, nk, barrier) ||
	    (updown && torture_updown_init(run, (int)c->n_up_down)))
		return -1;
	for (size_t k = 0; k < nk; k++)
		for (long i = 0; i < kinds[k].count; i++)
			if (lifecycle_spawn(run, kinds[k].kind, (int)i,
					    kinds[k].fn))
				return -1;
	return 0;
}

/*
 * A stats block with the flavor's stats line in it.  The hook runs on a
 * helper thread, waited for at most a quarter of --stall-timeout (500 ms
 * at most): it may block on a lock a hung thread holds, and the main
 * thread printing this block also runs the stall watchdog.
 */
static void report_stats(struct torture_run *run, struct rcut_snapshot *s)
{
	uint64_t bound = run->cfg->stall_timeout_ns / 4;
	char *line = torture_flavor_stats(
		run->flavor, bound < 500000000ULL ? bound : 500000000ULL);

	s->flavor_stats = line;
	rcut_report_stats(stdout, run->flavor->name, s);
	s->flavor_stats = NULL;
	free(line);
}

/*
 * A block whose ver would not have moved since the last one because the
 * stutter paused the writer waits until it moves: the kernel's
 * parse-console.sh reads an unchanged ver as a hang (BAD SEQ).
 */
static bool held_back(struct torture_run *run, const struct rcut_snapshot *s)
{
	struct torture_state *st = state(run);
	unsigned int pauses = atomic_load(&run->stutter_pauses);

	return s->ver == st->block_ver && (atomic_load(&run->stutter_paused) ||
					   pauses != st->block_pauses);
}

/*
 * Every --stat-interval: the stats block with --verbose, headed by the
 * elapsed time, and the JSON.
 */
static void interval(struct torture_run *run)
{
	struct torture_state *st = state(run);
	struct rcut_snapshot s;
	const char *name = run->flavor->name;

	if (run->cfg->verbose <= 0 && !rcut_json_enabled())
		return;
	torture_snapshot(run, &s);
	rcut_json_add_interval(&s);
	if (run->cfg->verbose <= 0 || held_back(run, &s))
		return;
	st->block_ver = s.ver;
	st->block_pauses = atomic_load(&run->stutter_pauses);
	if (run->cfg->duration_ns)
		printf("%s-torture: Elapsed: %.3f s of %.3f s\n", name,
		       (double)torture_elapsed_ns(run) / 1e9,
		       (double)run->cfg->duration_ns / 1e9);
	else
		printf("%s-torture: Elapsed: %.3f s\n", name,
		       (double)torture_elapsed_ns(run) / 1e9);
	report_stats(run, &s);
	torture_lines_writer_stall(run, s.ver, &st->last_ver);
}

/* The main loop's tick: --swarm-interval's new draws. */
static void tick(struct torture_run *run)
{
	if (redrawing(run))
		swarm_live_tick(&state(run)->live, run, &state(run)->drawn);
}

/*
 * A lost callback (a failure, found within a few grace periods), or an
 * element's aging callback that never came (the watchdog's stall).
 */
static bool stalled(struct torture_run *run, uint64_t now, char *what,
		    size_t len)
{
	torture_lostcb_check(run);
	return torture_pool_stalled_callback(
		&run->pool, now, run->cfg->stall_timeout_ns, what, len);
}

/*
 * While the final barrier waits, keep grace periods coming: a flavor
 * whose callbacks only advance inside synchronize calls (PRCU's RFC) has
 * no other caller left.
 */
static void final_gp(struct torture_thread *t)
{
	struct torture_run *run = t->run;

	while (!atomic_load(&state(run)->final_done)) {
		torture_op_begin("final synchronize");
		run->flavor->synchronize();
		torture_op_end();
		torture_nap_ns(1000000);
	}
}

/* The final barrier, a torture thread so the watchdog covers it too. */
static void final_barrier(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	uint64_t deadline;

	/* Aging callbacks re-post themselves: one barrier per stage. */
	for (int i = 0; i <= RCUT_PIPE_LEN && torture_cbs_in_flight(run) > 0;
	     i++) {
		torture_op_begin("final barrier");
		f->barrier();
		torture_op_end();
	}
	if (torture_cbs_in_flight(run) <= 0)
		goto out;
	/*
	 * A barrier that returned early: give stragglers a moment, so that
	 * only callbacks that never come are reported lost.
	 */
	printf("%s-torture: note: the final barriers returned with %lld callbacks outstanding\n",
	       f->name, (long long)torture_cbs_in_flight(run));
	deadline = torture_now_ns() + STRAGGLER_WAIT_NS;
	while (torture_cbs_in_flight(run) > 0 && torture_now_ns() < deadline)
		torture_nap_ns(1000000);
out:
	atomic_store(&state(run)->final_done, true);
}

/*
 * Grace periods keep coming during the shutdown: threads blocked in a
 * barrier or a poll of a flavor that only advances inside synchronize
 * calls (PRCU's RFC) must be able to finish.  Every thread that posts
 * callbacks has exited before the final barrier starts: a writer still
 * finishing its last update could otherwise post after the barrier saw
 * nothing in flight, and that callback would be reported lost.
 */
static int drain(struct torture_run *run)
{
	struct torture_state *st = state(run);

	/* Race points delay nothing more: the final barrier runs clean. */
	inject_stop();
	st->nworkers = run->threads.n;
	if (lifecycle_spawn(run, "final-gp", 0, final_gp)) {
		atomic_store(&st->final_done, true);
		return RCUT_EXIT_INTERNAL;
	}
	lifecycle_join(run, st->nworkers);
	/* final_barrier() ends final-gp once done. */
	if (!run->flavor->barrier || torture_cbs_in_flight(run) <= 0 ||
	    lifecycle_spawn(run, "final-barrier", 0, final_barrier))
		atomic_store(&st->final_done, true);
	return 0;
}

/* The closing line for each exit status (DESIGN §6). */
static const char *const end_of_test[] = {
	[RCUT_EXIT_SUCCESS] = "End of test: SUCCESS",
	[RCUT_EXIT_FAILURE] = "End of test: FAILURE",
	[RCUT_EXIT_USAGE] = "End of test: USAGE",
	[RCUT_EXIT_HOTPLUG] = "End of test: RCU_HOTPLUG",
	[RCUT_EXIT_STALL] = "End of test: STALL",
	[RCUT_EXIT_INTERNAL] = "End of test: INTERNAL_ERROR",
};

/* --swarm-interval: the draws and the one a first failure came under. */
static void json_live(struct torture_run *run, struct rcut_json_run *doc)
{
	struct swarm_live *l = &state(run)->live;

	doc->swarm_draws = l->ndraws;
	doc->swarm_failure_index = -1;
	if (swarm_live_note_failure(l, run)) {
		doc->swarm_failure_index = l->at_failure.index;
		doc->swarm_failure_from_s = (double)l->at_failure.from_ns / 1e9;
		doc->swarm_failure_draw = l->at_failure.text;
	}
}

/* --json: the document, from the final snapshot and the verdict. */
static void write_json(struct torture_run *run, int status, const char *verdict,
		       const struct rcut_snapshot *s,
		       const struct rcut_repro *repro)
{
	static char line[RCUT_REPRO_BUF];
	const struct rcut_config *c = report_cfg(run);
	const struct rcut_opt_run resolved = {
		.test = RCUT_TEST_TORTURE,
		.nreaders = run->nreaders,
		.nfakewriters = run->nfakewriters,
		.ncpus = run->cpus.n,
	};
	struct rcut_value params[RCUT_OPT_MAX];
	struct rcut_json_run doc = {
		.params = params,
		.nparams = rcut_opt_params(c, &resolved, RCUT_PARAMS_JSON,
					   params, RCUT_OPT_MAX),
		.flavor_params = c->params,
		.nflavor_params = c->nparams,
		.seed = c->seed,
		.flavor = run->flavor,
		.plugin = rcut_plugin_path(),
		.scenario_name = c->scenario_name,
		.scenario_path = c->scenario_path,
		.scenario_expect = c->scenario_name ?
					   rcut_exit_name(c->scenario_expect) :
					   NULL,
		.gp_names = torture_gp_names,
		.exit_status = status,
		.verdict = verdict,
		.stall = run->test_state ? state(run)->stall_what : NULL,
		.final = s,
		.repro_args = repro->arg,
		.nrepro_args = repro->n,
	};
	uint64_t at;

	unsigned int mask = c->gp_mask;

	if (status != RCUT_EXIT_SUCCESS) {
		rcut_repro_line(repro, line, sizeof(line));
		doc.repro = line;
	}

	if (redrawing(run))
		mask = swarm_live_gp_mask(&state(run)->live);
	for (int k = 0; k < RCUT_GP_NKINDS; k++)
		if (torture_gp_available(run->flavor, (enum rcut_gp_kind)k) &&
		    (!mask || (mask & (1u << k))))
			doc.gp_kinds |= 1u << k;
	if (c->swarm && run->test_state) {
		doc.swarm = state(run)->swarm.text;
		doc.swarm_items = state(run)->swarm_json;
		doc.nswarm = state(run)->swarm.n;
	}
	if (redrawing(run))
		json_live(run, &doc);
	doc.failed = torture_first_failure(run, &at, &doc.failure_check) ||
		     torture_first_problem(run, &at, &doc.failure_check,
					   &doc.failure_detail);
	doc.failure_s = doc.failed ? (double)at / 1e9 : 0;
	static struct torture_check_tally tally[TORTURE_MAX_CHECKS];
	struct rcut_json_check checks[TORTURE_MAX_CHECKS];

	doc.nchecks = torture_failed_checks(run, tally, TORTURE_MAX_CHECKS);
	for (int i = 0; i < doc.nchecks; i++)
		checks[i] = (struct rcut_json_check){
			tally[i].check, tally[i].count,
			(double)tally[i].first_ns / 1e9, tally[i].first
		};
	doc.checks = checks;
	rcut_json_write(&doc);
}

/*
 * A line per check that failed, in the order they first failed: two
 * checks often race to catch one bug, and the first to fire says less
 * than all of them with their first messages.
 */
static void print_failed_checks(struct torture_run *run)
{
	static struct torture_check_tally t[TORTURE_MAX_CHECKS]; /* 4 KiB */
	int n = torture_failed_checks(run, t, TORTURE_MAX_CHECKS);

	for (int i = 0; i < n; i++)
		printf("%s-torture: Failed check: %s: %llu %s from %.3f s, first: %s\n",
		       run->flavor->name, t[i].check,
		       (unsigned long long)t[i].count,
		       t[i].count == 1 ? "failure" : "failures",
		       (double)t[i].first_ns / 1e9, t[i].first);
}

static void print_first_failure(struct torture_run *run)
{
	const char *name = run->flavor->name;
	uint64_t at;
	const char *check;

	const char *text;

	if (torture_first_failure(run, &at, &check))
		printf("%s-torture: First failure: at %.3f s, caught by: %s\n",
		       name, (double)at / 1e9, check);
	else if (torture_first_problem(run, &at, &check, &text))
		printf("%s-torture: First failure: at %.3f s, caught by: %s: %s\n",
		       name, (double)at / 1e9, check, text);
	else
		printf("%s-torture: First failure: none\n", name);
	if (redrawing(run)) {
		struct swarm_live *l = &state(run)->live;

		if (swarm_live_note_failure(l, run))
			printf("%s-torture: First failure under swarm draw %d (from %.3f s): %s\n",
			       name, l->at_failure.index,
			       (double)l->at_failure.from_ns / 1e9,
			       l->at_failure.text);
	} else if (run->cfg->swarm && run->test_state &&
		   (torture_first_failure(run, &at, &check) ||
		    torture_first_problem(run, &at, &check, &text)))
		printf("%s-torture: First failure under swarm: %s\n", name,
		       state(run)->swarm.text);
	print_failed_checks(run);
}

/* The command that reproduces this run: the options as given, the seed. */
static void build_repro(struct torture_run *run, struct rcut_repro *r)
{
	const struct rcut_config *c = run->cfg;

	if (run->test_state && state(run)->parsed)
		c = state(run)->parsed;
	if (rcut_repro_build(r, c, run->cpus.n))
		fprintf(stderr,
			"rcutorture: the reproduction command is too long; it is cut short\n");
}

/* A run that did not end SUCCESS: the line to paste to run it again. */
static void print_repro(struct torture_run *run, const struct rcut_repro *r)
{
	static char line[RCUT_REPRO_BUF];

	rcut_repro_line(r, line, sizeof(line));
	printf("%s-torture: Reproduce: %s\n", run->flavor->name, line);
}

/* The report so far and "End of test: CRASH" (a fatal signal). */
static void crash_report(struct torture_run *run)
{
	static struct rcut_repro crash_repro; /* off the signal stack */
	struct rcut_snapshot s;

	torture_stop(run);
	torture_mark_stop(run);
	torture_snapshot(run, &s);
	rcut_report_stats(stdout, run->flavor->name, &s);
	rcut_report_rates(stdout, run->flavor->name, &s);
	print_first_failure(run);
	build_repro(run, &crash_repro);
	print_repro(run, &crash_repro);
	print_params(run, "End of test: CRASH");
	fflush(stdout);
	/* Best effort: the heap may be damaged; the text is out already. */
	write_json(run, RCUT_EXIT_INTERNAL, "CRASH", &s, &crash_repro);
}

int torture_test_verdict(struct torture_run *run, const struct rcut_snapshot *s,
			 bool stuck)
{
	uint64_t at;
	const char *check;

	if (stuck)
		return RCUT_EXIT_STALL;
	if (torture_had_internal_error(run))
		return RCUT_EXIT_INTERNAL;
	if (rcut_snapshot_failed(s, NULL, 0) ||
	    torture_first_failure(run, &at, &check))
		return RCUT_EXIT_FAILURE;
	if (rcut_snapshot_hotplug_failed(s))
		return RCUT_EXIT_HOTPLUG;
	return RCUT_EXIT_SUCCESS;
}

/* Print the final report; returns the exit status it announces. */
static int final_report(struct torture_run *run, bool stalled_run, bool drained)
{
	static struct rcut_repro repro; /* 20 KiB: not on the stack */
	const char *name = run->flavor->name;
	struct rcut_snapshot s;
	int status;

	torture_gp_exp_final(run);
	torture_snapshot(run, &s);
	if (drained) {
		s.cbs_lost = (uint64_t)torture_cbs_in_flight(run);
		if (s.cbs_lost) {
			torture_failure(
				run, "lost callbacks",
				"%llu callbacks were never invoked by the final barrier",
				(unsigned long long)s.cbs_lost);
			/* The report counts this failure too. */
			s.failed_checks =
				atomic_load(&run->counters.failed_checks);
		}
	}
	report_stats(run, &s);
	rcut_report_rates(stdout, name, &s);
	torture_segments_print(run, stdout);
	irqreader_summary(run, stdout);
	torture_legality_report(run, stdout);
	torture_gp_exp_report(run, stdout);
	print_first_failure(run);
	torture_print_gp_state(run, true);
	status = torture_test_verdict(run, &s, stalled_run);
	build_repro(run, &repro);
	if (status != RCUT_EXIT_SUCCESS)
		print_repro(run, &repro);
	print_params(run, end_of_test[status]);
	write_json(run, status, rcut_exit_name(status), &s, &repro);
	torture_cbs_close(run);
	return status;
}

static int round_end(struct torture_run *run, int round)
{
	(void)round;
	return final_report(run, false, true);
}

/* A stall: the final report after the backtraces (exit 4 follows). */
static void stall_report(struct torture_run *run, const char *what)
{
	state(run)->stall_what = what;
	/* Its "STALL at" line is out already: no second one. */
	torture_problem(run, false, "stall", "%s", what);
	final_report(run, true, false);
}

/* A second signal during the shutdown: the report without the drain. */
static int hurry_report(struct torture_run *run)
{
	printf("%s-torture: the shutdown did not finish: callbacks still in flight are not counted as lost\n",
	       run->flavor->name);
	return final_report(run, false, false);
}

/* A lost wakeup: the report without joining or draining. */
static int stuck_report(struct torture_run *run)
{
	return final_report(run, false, false);
}

/*
 * The reader table (callback witnesses), the barrier test's and up/down
 * readers' callbacks stay while callbacks may still be invoked (TSan saw
 * a barrier callback's witness check against the barrier's free).
 */
static void cleanup(struct torture_run *run)
{
	if (torture_cbs_settled(run)) {
		free(run->threads.readers);
		run->threads.readers = NULL;
		run->threads.nreaders = 0;
		torture_barrier_cleanup(run);
		torture_updown_cleanup(run);
	}
	torture_mbchk_cleanup(run);
	torture_legality_cleanup(run);
	if (run->test_state && state(run)->parsed)
		run->cfg = state(run)->parsed;
	free(run->test_state);
	run->test_state = NULL;
}

static const struct torture_test torture_test = {
	.tag = "torture",
	.timed = true,
	.setup = setup,
	.dry_run = dry_run,
	.round_begin = round_begin,
	.spawn = spawn,
	.interval = interval,
	.tick = tick,
	.stalled = stalled,
	.drain = drain,
	.round_end = round_end,
	.cleanup = cleanup,
	.stall_report = stall_report,
	.hurry_report = hurry_report,
	.stuck_report = stuck_report,
	.crash_report = crash_report,
};

int torture_test_run(const struct rcut_config *cfg, const struct rcut_flavor *f)
{
	return lifecycle_run(&torture_test, cfg, &f, 1);
}
