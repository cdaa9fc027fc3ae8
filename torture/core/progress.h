/* SPDX-License-Identifier: MIT */
/*
 * The progress line (core/progress.c), on standard error when it is a
 * terminal: live (redrawn in place every second, erased before any other
 * output) where the terminal can, else, for runs that print no stats
 * blocks (--quiet, --test scale, --test ref), a line at most once per
 * --stat-interval.
 */
#ifndef TORTURE_CORE_PROGRESS_H
#define TORTURE_CORE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct torture_run;

/* Whether this run prints the once-per-interval progress lines. */
bool torture_progress_wanted(const struct torture_run *run);

/* "<flavor>-<tag>: progress: 12.0 s of 30.0 s" on standard error. */
void torture_progress_print(struct torture_run *run);

/*
 * The live line: drawn at the first call on a capable terminal and
 * redrawn once a second (now: torture_now_ns()); nothing elsewhere.
 */
void torture_progress_tick(struct torture_run *run, uint64_t now);

/* Redraw at the next tick (after a stats block erased the line). */
void torture_progress_redraw(void);

/* Erase the live line if it is shown (the run's watch is over). */
void torture_progress_hide(void);

#endif /* TORTURE_CORE_PROGRESS_H */
