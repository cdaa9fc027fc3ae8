/* SPDX-License-Identifier: MIT */
/*
 * The lifecycle the scale and ref tests share: set the run up, start
 * torture threads, wait in the main thread for the end, a signal or a
 * stall (the watchdog covers every thread, so a grace period that never
 * returns is a stall, exit 4), then stop and join.  The torture test has
 * its own in run.c: its report and final barrier differ.
 */
#ifndef TORTURE_HARNESS_H
#define TORTURE_HARNESS_H

#include "torture.h"

#include <signal.h>

struct harness {
	struct torture_thread *threads;
	int n, cap;
	sigset_t sigs; /* SIGINT, SIGTERM: the main thread waits for them */
	/* Optional: another stall to look for, as the watchdog does. */
	bool (*stalled)(uint64_t now, char *what, size_t len);
	/* Optional: the closing lines of a stalled run, before exit 4. */
	void (*on_stall)(void);
};

/*
 * Everything before the first flavor: the config, the output tag, the
 * simulated CPUs, the watchdog's and the fatal signals' handlers.
 * Returns 0 or an exit status.
 */
int harness_setup(const struct rcut_config *cfg, const char *tag);

/* Make f the flavor under test and initialize it; 0 or an exit status. */
int harness_flavor_init(const struct rcut_flavor *f);

/* A thread table for up to cap threads; SIGINT/SIGTERM blocked. */
int harness_begin(struct harness *h, int cap);

/* Start a thread and wait until it runs; -1 with a message if not. */
int harness_start(struct harness *h, const char *kind, int id,
		  void (*fn)(struct torture_thread *t));

/*
 * Wait until done() (if not NULL) is true, every thread has exited, the
 * run was stopped, or a signal came (returned; 0 otherwise).  A stall
 * prints the backtraces and exits 4.
 */
int harness_wait(struct harness *h, bool (*done)(void));

/* Set the stop flag (a second signal now exits 130). */
void harness_stop(struct harness *h);

/* Join every thread, however long it takes, unless a stall is found. */
void harness_join(struct harness *h);

/* Free the table; the next harness_begin starts a new one. */
void harness_end(struct harness *h);

#endif /* TORTURE_HARNESS_H */
