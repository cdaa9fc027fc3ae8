/* SPDX-License-Identifier: MIT */
/*
 * Snapshots of a run's counters (core/stats.c), for the report.
 */
#ifndef TORTURE_CORE_STATS_H
#define TORTURE_CORE_STATS_H

#include "../../report/snapshot.h"

struct torture_run;

/* Note the flavor's GP sequence at the start (torture/stats.c). */
void torture_stats_start(struct torture_run *run);
/*
 * The kernel's "Start-test grace-period state: gN f0x0" line (end: the
 * "End-test" one with total-gps=N), which kvm-recheck-rcu.sh summarizes:
 * the flavor's GP sequence, or the harness's completed GP waits.
 */
void torture_print_gp_state(struct torture_run *run, bool end);
/* Fill s with the current counters of the run and its thread table. */
void torture_snapshot(struct torture_run *run, struct rcut_snapshot *s);

#endif /* TORTURE_CORE_STATS_H */
