// SPDX-License-Identifier: MIT
/* The documented defaults of every option (keep --help and man in step). */
#include "../torture/config.h"

#include "parse.h"
#include "scenario.h"

#include <stdlib.h>
#include <string.h>

const char *const rcut_pin_names[] = { "compact", "scatter", "none", NULL };
const char *const rcut_call_mode_names[] = { "global", "percpu", "perthread",
					     NULL };
const char *const rcut_test_names[] = { "torture", "scale", "ref", NULL };

void rcut_config_defaults(struct rcut_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->action = RCUT_ACTION_RUN;
	cfg->flavor_name = "memb";
	cfg->duration_ns = 30 * NSEC_PER_SEC;
	cfg->nreaders = -1;
	cfg->nfakewriters = 4;
	cfg->stat_interval_ns = 15 * NSEC_PER_SEC;
	cfg->verbose = 1;
	cfg->call_mode = 0; /* RCUT_CALL_GLOBAL */
	cfg->stall_timeout_ns = 10 * NSEC_PER_SEC;
	cfg->read_exit_delay_ns = 2 * NSEC_PER_SEC;
	cfg->read_exit_burst = 16;
	cfg->ncpus = -1;
	cfg->pin = 0; /* RCUT_PIN_COMPACT */
	cfg->fwd_progress = 1;
	cfg->fwd_progress_holdoff_ns = 10 * NSEC_PER_SEC;
	cfg->fwd_progress_div = 4;
	cfg->cbflood_max = 50000;
	/* --test scale: the kernel's rcuscale, with userspace-sized waits */
	cfg->scale.nwriters = 1;
	cfg->scale.holdoff_ns = 1 * NSEC_PER_SEC;
	cfg->scale.gp_async_max = 1000;
	cfg->scale.min_samples = 100;
	cfg->scale.pd_busy_wait_ns = 5 * NSEC_PER_MSEC;
	/* --test ref: the kernel's refscale */
	cfg->ref.loops = 10000;
	cfg->ref.nruns = 30;
}

void rcut_config_release(struct rcut_config *cfg)
{
	if (cfg->scenario) {
		rcut_scenario_free(cfg->scenario);
		free(cfg->scenario);
		cfg->scenario = NULL;
	}
}
