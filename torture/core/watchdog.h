/* SPDX-License-Identifier: MIT */
/*
 * The stall watchdog (core/watchdog.c) and the backtraces of every thread
 * of the process that a stall report prints (core/backtraces.c).
 */
#ifndef TORTURE_CORE_WATCHDOG_H
#define TORTURE_CORE_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct torture_run;

#define TORTURE_STALL_ALSO_MAX 8 /* "also waiting" entries named */

/* A stall: its cause and what else was stuck when it was found. */
struct torture_stall {
	uint64_t age_ns; /* how long the cause has been stuck */
	char what[256];	 /* the cause: the oldest stuck operation */
	char also[1024]; /* the others, oldest first, "; "-separated */
	int n_also;	 /* how many others (some may not be named) */
};

/* Install the backtrace-request signal handler; before threads start. */
void torture_watchdog_init(void);
/*
 * Look for a stall: a thread of the run's table without progress for
 * --stall-timeout, or the test's own check (a callback never invoked).
 * On a stall, returns true with the cause in s: the operation stuck the
 * longest among every thread without progress for a quarter of the
 * timeout (and the test's stalled callback, counted as stuck for the
 * timeout); the others are listed in s->also.
 */
bool torture_watchdog_check(struct torture_run *run, struct torture_stall *s);
/*
 * Print a backtrace of every thread of the process (each task of
 * /proc/self/task): torture threads with their role and the call they are
 * in, the main thread, the flavor's own threads with their name.  Each
 * thread unwinds its own stack on a signal.
 */
void torture_print_backtraces(struct torture_run *run);

#endif /* TORTURE_CORE_WATCHDOG_H */
