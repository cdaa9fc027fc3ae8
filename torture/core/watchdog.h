/* SPDX-License-Identifier: MIT */
/*
 * The stall watchdog (core/watchdog.c).
 */
#ifndef TORTURE_CORE_WATCHDOG_H
#define TORTURE_CORE_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>

struct torture_run;

/* --- the stall watchdog (torture/watchdog.c) --- */
/* Install the backtrace-request signal handler; before threads start. */
void torture_watchdog_init(void);
/*
 * Look for a stall: a thread of the run's table without progress for
 * --stall-timeout.  Returns true with a description in what.
 */
bool torture_watchdog_check(struct torture_run *run, char *what, size_t len);
/* Print every live thread's backtrace (each unwinds itself on a signal). */
void torture_print_backtraces(struct torture_run *run);

#endif /* TORTURE_CORE_WATCHDOG_H */
