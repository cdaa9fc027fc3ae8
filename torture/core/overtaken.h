/* SPDX-License-Identifier: MIT */
/*
 * Overtaken grace-period waits (core/overtaken.c), under --hunt: a
 * synchronize (or expedited, cond or poll wait) still blocked while many
 * grace-period waits that began after it have returned, or callbacks
 * posted after it began have been invoked, has lost its wakeup.  The watchdog declares the stall after half of --stall-timeout
 * instead of the whole of it.
 */
#ifndef TORTURE_CORE_OVERTAKEN_H
#define TORTURE_CORE_OVERTAKEN_H

#include <stdatomic.h>
#include <stdint.h>

struct torture_run;

#define TORTURE_OVERTAKEN_RING 16 /* completed waits remembered */
/* Later waits or callbacks completed: enough to call it a stall. */
#define TORTURE_OVERTAKEN_MIN TORTURE_OVERTAKEN_RING

struct torture_overtaken {
	/* When the latest completed waits began (ns), a ring. */
	_Atomic uint64_t start_ns[TORTURE_OVERTAKEN_RING];
	_Atomic unsigned int next;
};

/*
 * A grace-period wait named op (its torture_op_begin() name) that began
 * at since_ns has returned.
 */
void torture_overtaken_done(struct torture_run *run, const char *op,
			    uint64_t since_ns);

/*
 * --hunt: a callback posted at posted_ns was invoked, so a grace period
 * that began after it has ended (callbacks.c).
 */
void torture_overtaken_cb(struct torture_run *run, uint64_t posted_ns);

/*
 * How many grace-period waits or callbacks that began after since_ns have
 * completed (at most TORTURE_OVERTAKEN_RING); 0 if op is no such wait.
 */
int torture_overtaken_count(struct torture_run *run, const char *op,
			    uint64_t since_ns);

#endif /* TORTURE_CORE_OVERTAKEN_H */
