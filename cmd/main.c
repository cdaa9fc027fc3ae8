// SPDX-License-Identifier: MIT
/* rcutorture: parse the command line, then run the selected test. */
#include "options.h"
#include "bundled.h"
#include "scenario.h"
#include "minimize.h"
#include "../torture/util/parse.h"
#include "../flavors/plugin.h"
#include "../flavors/registry.h"
#include "../report/json.h"
#include "../report/verdict.h"
#include "../torture/config/options_table.h"
#include "../torture/core/data_race.h"
#include "../torture/tests/ref.h"
#include "../torture/tests/torture_test.h"
#include "../torture/tests/scale.h"

#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#ifndef RCUT_VERSION
#define RCUT_VERSION "0.1.0"
#endif

/* A seed nobody chose: clock and pid, printed so the run can be repeated. */
static uint64_t clock_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000000007ULL) ^ (uint64_t)ts.tv_nsec ^
	       ((uint64_t)getpid() << 32);
}

/* --list-flavors: the built-in ones, and a plugin --flavor names. */
static int list_flavors(const struct rcut_config *cfg)
{
	bool detail = cfg->verbose > 1, named = rcut_opt_given(cfg, "flavor");
	const struct rcut_flavor *f;
	char err[512];

	/* The flavor --flavor names gets its details, the others a line. */
	rcut_flavor_list(stdout, detail,
			 named ? rcut_flavor_find(cfg->flavor_name) : NULL);
	printf("--test ref also takes the baselines %s in --flavor.\n",
	       ref_baseline_names());
	if (rcut_bundled_dir()[0]) {
		printf("\nBundled plugins (%s):\n", rcut_bundled_dir());
		rcut_bundled_list(stdout, detail,
				  named ? cfg->flavor_name : NULL);
	}
	if (!detail && !named)
		printf("\n-v shows each flavor's primitives, aliases and parameters; --flavor NAME --list-flavors one flavor's.\n");
	if (rcut_flavor_find(cfg->flavor_name) &&
	    !rcut_plugin_is_file(cfg->flavor_name))
		return 0;
	if (rcut_options_resolve(cfg, &f, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_USAGE;
	}
	printf("\nPlugin %s:\n", rcut_plugin_path());
	rcut_flavor_list_one(stdout, f, NULL, true);
	return 0;
}

/* --test ref: a list of flavors and baselines. */
static int run_ref(struct rcut_config *cfg)
{
	const struct rcut_flavor *flavors[RCUT_MAX_SWEEP];
	char err[512];
	int n;

	if (rcut_options_resolve_ref(cfg, flavors, &n, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_USAGE;
	}
	return ref_run(cfg, flavors, n);
}

/* Check everything that can be checked before the run, then run it. */
static int run(struct rcut_config *cfg)
{
	const struct rcut_flavor *flavor;
	char err[512];

	if (!cfg->seed_given)
		cfg->seed = clock_seed();
	if (cfg->test == RCUT_TEST_REF)
		return run_ref(cfg);
	if (rcut_options_resolve(cfg, &flavor, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_USAGE;
	}
	/* The default barrier test only for a flavor with a barrier, */
	if (!flavor->barrier)
		cfg->n_barrier_cbs = 0;
	/* ... the default counter lag only where it was applied. */
	if (!rcut_gpwrap_lag_applies(cfg, flavor))
		cfg->gpwrap_lag = 0;
	/*
	 * The store-buffer delay (default or --hunt's): instrumented only,
	 * and not to be timed by a scale run.
	 */
	if (!rcut_plugin_storebuf() || cfg->test != RCUT_TEST_TORTURE) {
		cfg->store_buffer_delay_ns = 0;
		cfg->store_buffer_model = RCUT_STOREBUF_TSO;
	}
	/* ... and its automatic race points for one with them. */
	if (!rcut_plugin_storebuf() || !rcut_plugin_storebuf()->sched_configure)
		cfg->auto_race = 0;
	if (cfg->json_path &&
	    (cfg->dry_run ? rcut_json_check(cfg->json_path, err, sizeof(err)) :
			    rcut_json_open(cfg->json_path, err, sizeof(err)))) {
		rcut_one_line(err);
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_USAGE;
	}
	if (cfg->test == RCUT_TEST_SCALE)
		return scale_run(cfg, flavor);
	return torture_test_run(cfg, flavor);
}

/*
 * A report that could not be written (stdout full or closed, the --json
 * document cut short) is an internal error: the caller cannot trust what
 * it got, whatever the verdict was.
 */
static int check_output(int status)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr,
			"rcutorture: writing the report to standard output failed\n");
		return RCUT_EXIT_INTERNAL;
	}
	if (rcut_json_write_failed())
		return RCUT_EXIT_INTERNAL;
	return status;
}

/* --minimize: the command must be valid and its flavor resolve first. */
static int minimize(struct rcut_config *cfg)
{
	const struct rcut_flavor *flavor;
	char err[512];

	if (!cfg->seed_given)
		cfg->seed = clock_seed();
	if (cfg->json_path || cfg->dry_run || cfg->test != RCUT_TEST_TORTURE) {
		fprintf(stderr,
			"rcutorture: --minimize: only for a --test torture run, without --json or --dry-run\n");
		return RCUT_EXIT_USAGE;
	}
	if (rcut_options_resolve(cfg, &flavor, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_USAGE;
	}
	return rcut_minimize(cfg, flavor);
}

/*
 * SIGINT and SIGTERM wait, blocked, for the run's main loop to take them
 * (torture/core/lifecycle.c) from the start of a run: one that arrives
 * while a loaded machine still runs the set-up (CPU topology, plugin,
 * flavor) stops the run with its report, instead of ending the process
 * by the default action, without one (GNU timeout 1 at a load of 160).
 */
static void hold_stop_signals(void)
{
	sigset_t stop;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
}

int main(int argc, char **argv)
{
	struct rcut_config cfg;
	char err[512];
	int status = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rcut_config_defaults(&cfg);
	if (rcut_options_parse(argc, argv, &cfg, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		rcut_config_release(&cfg);
		return RCUT_EXIT_USAGE;
	}
	switch (cfg.action) {
	case RCUT_ACTION_HELP:
	case RCUT_ACTION_USAGE:
		rcut_options_help(stdout, cfg.action == RCUT_ACTION_USAGE);
		break;
	case RCUT_ACTION_VERSION:
		printf("rcutorture %s (flavor ABI %d)\n", RCUT_VERSION,
		       RCUT_FLAVOR_ABI_VERSION);
		break;
	case RCUT_ACTION_LIST_FLAVORS:
		status = list_flavors(&cfg);
		break;
	case RCUT_ACTION_RUN:
		hold_stop_signals();
		status = run(&cfg);
		break;
	case RCUT_ACTION_MINIMIZE:
		status = minimize(&cfg);
		break;
	}
	rcut_config_release(&cfg);
	return torture_data_race_exit(check_output(status));
}
