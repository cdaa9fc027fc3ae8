/* SPDX-License-Identifier: MIT */
/* Command-line parsing: argp options, kernel-style and flavor parameters. */
#ifndef CMD_OPTIONS_H
#define CMD_OPTIONS_H

#include "../torture/config/config.h"

#include <rcutorture/flavor.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Parse argv into cfg (which must hold the defaults).  Returns 0, or 2
 * after writing a one-line reason naming the option to err.  Never exits
 * and never prints, so tests can call it.
 */
int rcut_options_parse(int argc, char **argv, struct rcut_config *cfg,
		       char *err, size_t errlen);

/*
 * Apply the lines of cfg->scenario (already read) to cfg, as --scenario
 * does.  Returns 0, or 2 with "FILE:LINE: reason" in err.
 */
int rcut_options_apply_scenario(struct rcut_config *cfg, char *err,
				size_t errlen);

/*
 * Resolve cfg->flavor_name (a built-in flavor, or a plugin, loaded here)
 * and apply the NAME.KEY=VALUE parameters.
 * Returns 0 with *flavor set, or 2 with a one-line reason in err.
 */
int rcut_options_resolve(const struct rcut_config *cfg,
			 const struct rcut_flavor **flavor, char *err,
			 size_t errlen);

/*
 * Whether --gpwrap-lag sets f's counters: given, or by default for a
 * torture run of a flavor with the gpwrap_lag parameter that
 * NAME.gpwrap_lag leaves alone (a scale run times counters from 0).
 */
bool rcut_gpwrap_lag_applies(const struct rcut_config *cfg,
			     const struct rcut_flavor *f);

/*
 * For --test ref: resolve the comma-separated --flavor list, in which
 * baseline names (none, refcnt, rwlock, mutex) may stand, add every
 * baseline with --ref-baselines, and apply the NAME.KEY=VALUE parameters
 * to the flavors they name.  Returns 0 with flavors[0..*n) set (at most
 * RCUT_MAX_SWEEP), or 2 with a one-line reason in err.
 */
int rcut_options_resolve_ref(const struct rcut_config *cfg,
			     const struct rcut_flavor **flavors, int *n,
			     char *err, size_t errlen);

/* Print --help or --usage text. */
void rcut_options_help(FILE *out, bool usage_only);

#endif /* CMD_OPTIONS_H */
