/* SPDX-License-Identifier: MIT */
/*
 * --minimize: shrink a failing torture command (delta debugging over its
 * options, then over their values) by running candidates as separate
 * processes of this binary, each judged by its --json report.
 */
#ifndef CMD_MINIMIZE_H
#define CMD_MINIMIZE_H

#include "../torture/config/config.h"

#include <rcutorture/flavor.h>

/*
 * Minimize the command cfg describes (checked, its flavor resolved).
 * Prints a progress line per trial and the result on stdout.  Returns 0
 * when it printed a command it saw fail, 1 when the command given did
 * not fail often enough to start, 5 on an internal error.
 */
int rcut_minimize(const struct rcut_config *cfg,
		  const struct rcut_flavor *flavor);

#endif /* CMD_MINIMIZE_H */
