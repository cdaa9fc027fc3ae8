// SPDX-License-Identifier: MIT
/* rcutorture: parse the command line, then run the selected test. */
#include "options.h"
#include "parse.h"
#include "../flavors/registry.h"
#include "../report/verdict.h"
#include "../torture/ref.h"
#include "../torture/run.h"
#include "../torture/scale.h"

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

int main(int argc, char **argv)
{
	struct rcut_config cfg;
	const struct rcut_flavor *flavor;
	char err[512];

	setvbuf(stdout, NULL, _IOLBF, 0);
	rcut_config_defaults(&cfg);
	if (rcut_options_parse(argc, argv, &cfg, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_USAGE;
	}
	switch (cfg.action) {
	case RCUT_ACTION_HELP:
	case RCUT_ACTION_USAGE:
		rcut_options_help(stdout, cfg.action == RCUT_ACTION_USAGE);
		return 0;
	case RCUT_ACTION_VERSION:
		printf("rcutorture %s (flavor ABI %d)\n", RCUT_VERSION,
		       RCUT_FLAVOR_ABI_VERSION);
		return 0;
	case RCUT_ACTION_LIST_FLAVORS:
		rcut_flavor_list(stdout);
		return 0;
	case RCUT_ACTION_RUN:
		break;
	}
	if (!cfg.seed_given)
		cfg.seed = clock_seed();
	if (cfg.test == RCUT_TEST_REF)
		return run_ref(&cfg);
	if (rcut_options_resolve(&cfg, &flavor, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_USAGE;
	}
	if (cfg.test == RCUT_TEST_SCALE)
		return scale_run(&cfg, flavor);
	return torture_run(&cfg, flavor);
}
