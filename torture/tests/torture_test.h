/* SPDX-License-Identifier: MIT */
/* Running one torture test from a parsed configuration. */
#ifndef TORTURE_TORTURE_TEST_H
#define TORTURE_TORTURE_TEST_H

#include "../config/config.h"

#include <rcutorture/flavor.h>

/*
 * Start the threads, report every stat interval, stop at the deadline, a
 * signal or (with --stop-on-failure) the first failure, print the final
 * report, and return the exit status (report/verdict.h).  Bounded: a
 * thread that does not come back is a stall (exit 4).
 */
int torture_test_run(const struct rcut_config *cfg,
		     const struct rcut_flavor *f);

struct torture_run;
struct rcut_snapshot;

/*
 * The exit status the final report announces for snapshot s: a stall
 * (stuck) before an internal error, before a failure (by the snapshot's
 * rules or recorded by a check), before a failed CPU hotplug attempt.
 * Exported for the unit tests.
 */
int torture_test_verdict(struct torture_run *run, const struct rcut_snapshot *s,
			 bool stuck);

#endif /* TORTURE_TORTURE_TEST_H */
