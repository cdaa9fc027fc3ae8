/* SPDX-License-Identifier: MIT */
/*
 * The reproduction command of a configuration: the arguments that make
 * a run do again what this one did (every option that differs from its
 * default, the flavor parameters, the seed, the simulated CPU count), as
 * a list (the JSON "config.args", the minimizer's items) and as one line
 * a user can paste into a shell.  Values are printed the way the option
 * parser reads them back (a round-trip test checks it).
 */
#ifndef TORTURE_CONFIG_REPRO_H
#define TORTURE_CONFIG_REPRO_H

#include "config.h"

#include <stddef.h>
#include <stdio.h>

#define RCUT_REPRO_MAX_ARGS 256
#define RCUT_REPRO_BUF 16384

struct rcut_repro {
	int n;
	const char *arg[RCUT_REPRO_MAX_ARGS]; /* into buf */
	char buf[RCUT_REPRO_BUF];
	size_t used;
};

/*
 * Fill r with the arguments that reproduce cfg, the options as given
 * (before a --swarm draw): "--flavor=NAME", "--seed=N", "--cpus=N" (ncpus,
 * the resolved count, when above 0: the default depends on the machine),
 * each other option that differs from its default as "--NAME=VALUE" or
 * "--NAME", the --plugin-dir values and the NAME.KEY=VALUE parameters.
 * Under --swarm an option given at its default is kept (the draw leaves
 * given options alone); under --hunt what the preset set is left to it.
 * Output destinations (--json), --dry-run and the minimizer's own options
 * are left out.  Returns 0, or -1 if the arguments do not fit.
 */
int rcut_repro_build(struct rcut_repro *r, const struct rcut_config *cfg,
		     long ncpus);

/* Append one argument to r; -1 if it does not fit. */
int rcut_repro_add(struct rcut_repro *r, const char *arg);

/*
 * The command line "rcutorture ARG..." with each argument quoted for a
 * POSIX shell where it needs it; cut short (with "...") if len is small.
 */
void rcut_repro_line(const struct rcut_repro *r, char *buf, size_t len);

/*
 * Print "<tag>: Reproduce: rcutorture ARG..." for cfg to out (static
 * storage: callable from a crash report).
 */
void rcut_repro_print(FILE *out, const char *tag, const struct rcut_config *cfg,
		      long ncpus);

/* Whether row index i is a run option the reproduction command may hold. */
bool rcut_repro_row(int i);

#endif /* TORTURE_CONFIG_REPRO_H */
