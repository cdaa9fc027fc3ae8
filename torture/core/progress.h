/* SPDX-License-Identifier: MIT */
/*
 * The progress line (core/progress.c): on standard error, when it is a
 * terminal, for runs that print no stats blocks (--quiet, --test scale,
 * --test ref), at most once per --stat-interval.
 */
#ifndef TORTURE_CORE_PROGRESS_H
#define TORTURE_CORE_PROGRESS_H

#include <stdbool.h>

struct torture_run;

/* Whether this run prints progress lines. */
bool torture_progress_wanted(const struct torture_run *run);

/* "<flavor>-<tag>: progress: 12.0 s of 30.0 s" on standard error. */
void torture_progress_print(struct torture_run *run);

#endif /* TORTURE_CORE_PROGRESS_H */
