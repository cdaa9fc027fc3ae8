/* SPDX-License-Identifier: MIT */
/*
 * The data-race mode (core/data_race.c): in a build with the real
 * ThreadSanitizer (make tsan), a race it reports inside a flavor's code
 * is a failure of the run's "data race" check.
 */
#ifndef TORTURE_CORE_DATA_RACE_H
#define TORTURE_CORE_DATA_RACE_H

/*
 * The process's exit status: status itself, unless ThreadSanitizer would
 * replace it by its own (it does when it reported anything).  When every
 * report was a flavor's race, already the run's FAILURE, the verdict's
 * status stands; a race in the harness keeps TSan's status (66): it is
 * our bug; so does a flavor's race reported too late for the verdict.
 * Flushes stdio and does not return when the verdict's status stands.
 */
int torture_data_race_exit(int status);

struct torture_run;
/*
 * Fail run's "data race" check, with both stacks, if a race in a flavor
 * was reported since: the lifecycle polls it every tick and before the
 * verdict.
 */
void torture_data_race_poll(struct torture_run *run);

#endif /* TORTURE_CORE_DATA_RACE_H */
