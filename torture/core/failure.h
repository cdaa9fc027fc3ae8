/* SPDX-License-Identifier: MIT */
/*
 * Failures (core/failure.c): the first one is kept for the report.
 */
#ifndef TORTURE_CORE_FAILURE_H
#define TORTURE_CORE_FAILURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct torture_run;

/* How often one check failed, when and how first: a row per check. */
struct torture_check_tally {
	const char *check; /* a string that outlives the run (a literal) */
	uint64_t count;
	uint64_t first_ns;
	char first[256]; /* the first failure's message, maybe cut short */
};

/* Distinct checks a run tallies; more are counted in failed_checks only. */
#define TORTURE_MAX_CHECKS 24

/* --- failures (torture/failure.c) --- */
struct torture_failures {
	pthread_mutex_t lock;
	bool failed;
	uint64_t first_ns;	 /* the first failure: when, ... */
	const char *first_check; /* ... and which check caught it */
	/* Every check that failed, in the order each first failed. */
	struct torture_check_tally checks[TORTURE_MAX_CHECKS];
	int nchecks;
	atomic_bool internal;	 /* the harness itself failed */
	/*
	 * The first problem that ends a run with another verdict than
	 * FAILURE (a stall, a CPU transition that failed): for the First
	 * failure line and the JSON, when no check failed.
	 */
	bool problem;
	uint64_t problem_ns;
	const char *problem_kind; /* "stall", "CPU hotplug" */
	char problem_text[192];
};

/*
 * Record a failure: the first one's time and check are kept for the final
 * report and its details printed at once; with --stop-on-failure the run
 * stops.  Callable from any thread, including flavor callbacks.
 */
void torture_failure(struct torture_run *run, const char *check,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The harness itself failed (cannot bind a CPU, ...): stop, exit 5. */
void torture_internal_error(struct torture_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool torture_had_internal_error(struct torture_run *run);
/* Time and name of the first failure; false if none was seen. */
bool torture_first_failure(struct torture_run *run, uint64_t *at_ns,
			   const char **check);

/*
 * The checks that failed, in the order they first failed: up to max rows
 * copied to out; returns how many there are.  Two checks often race to
 * catch one bug: this says which caught it, not only which was first.
 */
int torture_failed_checks(struct torture_run *run,
			  struct torture_check_tally *out, int max);

/*
 * Record the first problem of a kind that is no check failure (a stall,
 * a failed CPU transition): kept for the First failure line, and with
 * alert set announced at once as a "!!!" line like a failure.
 */
void torture_problem(struct torture_run *run, bool alert, const char *kind,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The first such problem: when, its kind and text; false if none. */
bool torture_first_problem(struct torture_run *run, uint64_t *at_ns,
			   const char **kind, const char **text);

#endif /* TORTURE_CORE_FAILURE_H */
