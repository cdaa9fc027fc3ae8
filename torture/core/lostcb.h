/* SPDX-License-Identifier: MIT */
/*
 * The lost-callback check (core/lostcb.c).  A callback whose call()
 * returned before a barrier began, and that is still not invoked once
 * that barrier has returned and a few grace periods that began after
 * the return have ended, is lost: a FAILURE within a few grace periods,
 * instead of a STALL at --stall-timeout.  A callback still waiting after
 * many grace periods that began after its call() asks for a barrier, to
 * tell a lost callback from one that is only batched.
 */
#ifndef TORTURE_CORE_LOSTCB_H
#define TORTURE_CORE_LOSTCB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct torture_run;
struct torture_cb;

#define TORTURE_LOSTCB_RING 16	   /* completed grace periods remembered */
#define TORTURE_LOSTCB_BARRIERS 16 /* returned barriers remembered */

struct torture_lostcb {
	pthread_mutex_t lock; /* of the barrier history */
	/* The latest returned barriers: start and return (us), a ring. */
	uint64_t barrier_start_us[TORTURE_LOSTCB_BARRIERS];
	uint64_t barrier_end_us[TORTURE_LOSTCB_BARRIERS];
	unsigned int barrier_next;
	/* The start times (us) of the latest grace periods the harness
	 * waited for, as they completed. */
	_Atomic uint64_t gp_start_us[TORTURE_LOSTCB_RING];
	_Atomic unsigned int gp_next;
	atomic_bool want_barrier; /* a callback waits long: rule out batching */
};

void torture_lostcb_init(struct torture_lostcb *l);

/* The clock the check uses, in microseconds. */
uint64_t torture_lostcb_now_us(void);

/* A grace-period wait that began at start_us has completed. */
void torture_lostcb_gp_done(struct torture_run *run, uint64_t start_us);

/*
 * Call the flavor's barrier as a torture thread's operation (op names it
 * for the watchdog) and record it for the check.
 */
void torture_lostcb_barrier(struct torture_run *run, const char *op);

/* Whether the check asked for a barrier (and take the request). */
bool torture_lostcb_take_request(struct torture_run *run);

/*
 * Look for lost callbacks among the element pool's and the barrier
 * test's; each is reported once as a "lost callback" failure.  Run by
 * the main thread with the stall watchdog.
 */
void torture_lostcb_check(struct torture_run *run);

#endif /* TORTURE_CORE_LOSTCB_H */
