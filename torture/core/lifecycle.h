/* SPDX-License-Identifier: MIT */
/*
 * The one lifecycle every test runs through, and the description a test
 * gives of itself.  lifecycle_run() sets the run up (simulated CPUs, the
 * watchdog's and the fatal signals' handlers, SIGINT/SIGTERM blocked in
 * every thread: the main one takes them with sigtimedwait()), then for
 * each flavor under test and each round of the test (the ref test has
 * one per reader count, the others one): starts the round's threads
 * behind a gate (none runs its loop until all exist), watches them from
 * the main thread (signals, the deadline, the stall watchdog, the stats
 * interval), stops them, joins them (bounded by the watchdog: a thread
 * that never comes back is a stall, exit 4; and by a second request to
 * stop), and has the test report.  The main thread never calls into the
 * flavor except through the test's hooks, so the report always comes
 * out.
 */
#ifndef TORTURE_LIFECYCLE_H
#define TORTURE_LIFECYCLE_H

#include "run.h"

/* Returned by a setup hook: the test is complete (--dry-run), exit 0. */
#define LIFECYCLE_DONE (-1)

/*
 * A test: its tag and its hooks.  Hooks marked optional may be NULL.
 * Every hook gets the run; the test keeps its own state in
 * run->test_state.
 */
struct torture_test {
	const char *tag; /* "<flavor>-<tag>:" on every line */
	bool timed;	 /* a round ends at --duration */
	/*
	 * Before any flavor's init: resolve counts, allocate the test's
	 * state.  0, an exit status, or LIFECYCLE_DONE.
	 */
	int (*setup)(struct torture_run *run);
	/* Optional: after --call-rcu was accepted, before the flavor's init. */
	int (*dry_run)(struct torture_run *run);
	/* Optional: after a flavor's init, before its first round. */
	void (*flavor_begin)(struct torture_run *run);
	/* Optional: rounds per flavor (1 if NULL). */
	int (*rounds)(struct torture_run *run);
	/* Allocate the round's thread table, print its Start line. */
	int (*round_begin)(struct torture_run *run, int round);
	/* Create the round's threads with lifecycle_spawn(); -1 on failure. */
	int (*spawn)(struct torture_run *run);
	/* Optional: the round is complete before its deadline. */
	bool (*done)(struct torture_run *run);
	/* Optional: every --stat-interval while the round runs. */
	void (*interval)(struct torture_run *run);
	/* Optional: every tick of the main loop (10 ms) while it runs. */
	void (*tick)(struct torture_run *run);
	/* Optional: another stall than a thread without progress. */
	bool (*stalled)(struct torture_run *run, uint64_t now, char *what,
			size_t len);
	/* Optional: the round is about to be told to stop. */
	void (*stopping)(struct torture_run *run);
	/*
	 * Optional: after the stop, finish the work (join, final barrier
	 * threads); 0 or an exit status.  Every thread is joined after.
	 */
	int (*drain)(struct torture_run *run);
	/* The round's report and End line; returns its exit status. */
	int (*round_end)(struct torture_run *run, int round);
	/* Optional: after every flavor; returns the final exit status. */
	int (*finish)(struct torture_run *run, int status);
	/* Free the test's state (the flavor's cleanup is done by then). */
	void (*cleanup)(struct torture_run *run);
	/* A stall, after the backtraces: the closing lines (exit 4). */
	void (*stall_report)(struct torture_run *run, const char *what);
	/*
	 * Optional: a second SIGINT/SIGTERM while threads still run: the
	 * report as it stands and the End line; returns the exit status.
	 */
	int (*hurry_report)(struct torture_run *run);
	/*
	 * Optional: a failure left a thread stuck for good (a lost wakeup):
	 * the report without joining or draining, and the End line; returns
	 * the exit status.  Without it the lost-wakeup check does not run.
	 */
	int (*stuck_report)(struct torture_run *run);
	/* A fatal signal (fatal.c): the report so far and the End line. */
	void (*crash_report)(struct torture_run *run);
};

/*
 * Run test with flavors[0..n) (one, except for the ref test) and return
 * the exit status (report/verdict.h).  The run stays allocated until exit
 * (torture_signal_run points at it).
 */
int lifecycle_run(const struct torture_test *test,
		  const struct rcut_config *cfg,
		  const struct rcut_flavor *const *flavors, int n);

/* A thread table for cap threads (the round's, freed at its end). */
int lifecycle_table(struct torture_run *run, int cap);

/*
 * Create a thread in the next slot of the table; it waits at the gate.
 * -1 with a message if it could not be created.
 */
int lifecycle_spawn(struct torture_run *run, const char *kind, int id,
		    void (*fn)(struct torture_thread *t));

/*
 * Join the first n threads of the table, however long it takes, unless
 * the watchdog finds a stall (then the stall report and exit 4) or a
 * second request to stop comes (then the report as it stands, exit with
 * its verdict).
 */
void lifecycle_join(struct torture_run *run, int n);

/* Whether a signal (SIGINT/SIGTERM) ended the round. */
bool lifecycle_interrupted(const struct torture_run *run);

#endif /* TORTURE_LIFECYCLE_H */
