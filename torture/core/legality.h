/* SPDX-License-Identifier: MIT */
/*
 * Calls whose legality the kernel rules on, made on purpose (issue 18):
 * call() from inside a read-side section (legal, --reader-cbs), call()
 * on a CPU that is offline (--onoff-call: the callback must still run),
 * and barrier() inside a read-side section or from a callback (illegal:
 * --illegal-barrier, only on flavors that declare they refuse it).  The
 * state they share and the summary line of the final report.
 */
#ifndef TORTURE_CORE_LEGALITY_H
#define TORTURE_CORE_LEGALITY_H

#include "callbacks.h"
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

struct torture_run;

/*
 * A callback that its poster posts again: busy from the post until its
 * function has run (the state goes idle before the invocation's checks
 * are done, so a re-post on seeing it idle would overwrite them).
 */
struct torture_legal_cb {
	struct torture_cb cb;
	atomic_bool busy;
};

struct torture_legality {
	struct torture_legal_cb *reader_cbs; /* --reader-cbs: one per reader */
	struct torture_legal_cb updown_cb;   /* ... and the up/down readers' */
	struct torture_legal_cb offline_cb;  /* --onoff-call */
	struct torture_legal_cb barrier_cb;  /* --illegal-barrier's callback */
	_Atomic uint64_t reader_posts;	     /* call() inside a section */
	_Atomic uint64_t updown_posts;	     /* ... inside an up/down one */
	_Atomic uint64_t offline_posts, offline_leaks;
	_Atomic uint64_t illegal_tries, illegal_reported; /* by the flavor */
};

/* Allocate the per-reader callbacks (--reader-cbs); 0 or -1. */
int torture_legality_init(struct torture_run *run, int nreaders);
void torture_legality_cleanup(struct torture_run *run);

/* The final report's line for the options given (nothing otherwise). */
void torture_legality_report(struct torture_run *run, FILE *out);

#endif /* TORTURE_CORE_LEGALITY_H */
