/* SPDX-License-Identifier: MIT */
/*
 * Interrupt readers (--irqreader, threads/irqreader.c): a timer signal
 * per reader thread whose handler runs a read-side section on it.
 */
#ifndef TORTURE_THREADS_IRQREADER_H
#define TORTURE_THREADS_IRQREADER_H

#include "../core/run.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * Our signal: not SIGUSR1 (liburcu's signal flavor), not SIGRTMIN
 * (kept for flavors), SIGRTMIN + 1 (the watchdog's backtraces) or
 * SIGRTMIN + 2 (preemption injection, core/preempt.h).
 */
#define IRQREADER_SIGNAL (SIGRTMIN + 3)

/* The signal number used (IRQREADER_SIGNAL, resolved at run time). */
int irqreader_signal(void);

/* Whether f's read side may run in a signal handler (ABI v3 flag). */
bool irqreader_possible(const struct rcut_flavor *f);

/* Install the handler, before the threads start.  0, or -1 and errno. */
int irqreader_install(void);

/* Start t's timer (t is the calling thread).  0, or -1 and errno. */
int irqreader_arm(struct torture_thread *t);

/* Stop t's timer; the handler reads nothing more on t.  Idempotent. */
void irqreader_disarm(struct torture_thread *t);

/* The closing line: handler reads, and how many nested in a section. */
void irqreader_summary(struct torture_run *run, FILE *out);

/* Report, from t itself, the first bad read its handler saw. */
void irqreader_check(struct torture_thread *t);

#endif /* TORTURE_THREADS_IRQREADER_H */
