/* SPDX-License-Identifier: MIT */
/*
 * The run's clock and stop-aware sleeps (core/clock.c): no torture
 * thread sleeps past the stop.
 */
#ifndef TORTURE_CORE_CLOCK_H
#define TORTURE_CORE_CLOCK_H

#include "../util/machine.h"

#include <stdatomic.h>
#include <stdint.h>

struct torture_run;

/* --- time (torture/time.c) --- */
struct torture_clock {
	uint64_t start_ns;		     /* when the threads started */
	struct torture_machine_mark machine; /* the CPUs' time then */
	_Atomic uint64_t stop_ns;	     /* when the stop began, 0 before */
	/* A timed test's end, 0 if none: every thread may enforce it. */
	_Atomic uint64_t deadline_ns;
};

uint64_t torture_now_ns(void); /* CLOCK_MONOTONIC */
/* Since the threads started, up to the stop once the run is stopping. */
uint64_t torture_elapsed_ns(struct torture_run *run);
void torture_mark_start(struct torture_run *run);
/* The stop began now, unless it began earlier. */
void torture_mark_stop(struct torture_run *run);
/*
 * Stop the run if its deadline has passed.  The main thread stops it at
 * the deadline; torture threads call this too, so that a main thread
 * starved by a thousand spinning readers cannot let them run on.
 */
void torture_deadline_check(struct torture_run *run);
/* Sleep ns, waking at least every 10 ms to notice the stop flag. */
void torture_sleep_ns(struct torture_run *run, uint64_t ns);
/* Sleep ns even while stopping: for waits a grace period depends on. */
void torture_nap_ns(uint64_t ns);
/* Busy-wait ns (inside read sections), also noticing the stop flag. */
void torture_spin_ns(struct torture_run *run, uint64_t ns);

#endif /* TORTURE_CORE_CLOCK_H */
