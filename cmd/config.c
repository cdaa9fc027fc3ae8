// SPDX-License-Identifier: MIT
/* The documented defaults of every option (keep --help and man in step). */
#include "../torture/config.h"

#include "parse.h"

#include <string.h>

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
}
