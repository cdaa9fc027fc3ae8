/* SPDX-License-Identifier: MIT */
/* Running one torture test from a parsed configuration. */
#ifndef TORTURE_RUN_H
#define TORTURE_RUN_H

#include "config.h"

#include <rcutorture/flavor.h>

/*
 * Start the threads, report every stat interval, stop at the deadline, a
 * signal or (with --stop-on-failure) the first failure, print the final
 * report, and return the exit status (report/verdict.h).  Bounded: returns
 * within about 2 s of the stop even if the flavor hangs.
 */
int torture_run(const struct rcut_config *cfg, const struct rcut_flavor *f);

#endif /* TORTURE_RUN_H */
