/* SPDX-License-Identifier: MIT */
/*
 * The harness core: the run context (struct torture_run) and the
 * subsystems whose state it holds: time, failures, counters, simulated
 * CPUs, threads, callbacks, the element pool, the memory-ordering check,
 * the barrier test, CPU hotplug and stutter.  Each subsystem has its
 * own header in torture/core/; this one gathers those the run holds.
 *
 * Nothing here is a global: a thread body reaches the run through its
 * struct torture_thread (t->run), a callback through its struct
 * torture_cb (cb->run).  The one exception is torture_signal_run below.
 */
#ifndef TORTURE_CORE_RUN_H
#define TORTURE_CORE_RUN_H

#include "callbacks.h"
#include "clock.h"
#include "counters.h"
#include "cpus.h"
#include "elements.h"
#include "failure.h"
#include "legality.h"
#include "lostcb.h"
#include "onoff_stats.h"
#include "overtaken.h"
#include "thread.h"
#include "../config/config.h"

#include <pthread.h>
#include <rcutorture/flavor.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct torture_run;
struct torture_thread;
struct torture_test;
struct torture_updown;

/* The barrier test's state (threads/barrier.c). */
struct torture_barrier {
	struct torture_cb *cbs; /* one per poster */
	_Atomic long phase;	/* bumped by the driver to start a phase */
	_Atomic long posted, invoked;
};

/*
 * --extendables (threads/reader_segments.c): the segments of the first
 * reader that failed, or else came close (its Reader Batch slot >= 2),
 * as the kernel's err_segs; printed with the final report.
 */
#define TORTURE_MAX_SEGS 10 /* the kernel's RCUTORTURE_RDR_MAX_SEGS */
struct torture_seg {
	int state;	   /* the segment's kinds (reader_segments.c) */
	uint64_t delay_ns; /* spun in it */
	bool preempted;	   /* it yielded or slept */
};
struct torture_segs {
	atomic_bool taken; /* the first writer claims the record */
	atomic_bool ready; /* and publishes it */
	bool failure;	   /* a failure, not a close call */
	int reader, n;
	struct torture_seg seg[TORTURE_MAX_SEGS];
};
/* Cache lines a tight read stores to before read_lock (reader.c). */
#define TORTURE_STUFF_LINES 48

struct torture_run {
	const struct rcut_config *cfg;	  /* the options, read-only */
	const struct rcut_flavor *flavor; /* the flavor under test */
	/* Every flavor under test (the ref test's list), flavor among them. */
	const struct rcut_flavor *const *flavors;
	int nflavors, flavor_index;
	const struct torture_test *test; /* what runs (lifecycle.h) */
	/* The output prefix after "<flavor>-": "torture", "scale", ... */
	const char *tag;
	long nreaders;	   /* resolved reader count */
	long nfakewriters; /* resolved fake-writer count */
	/* Reader features without an option of their own (--swarm sets). */
	bool read_nesting;     /* nested read-side sections, where allowed */
	bool read_delays;      /* the kernel's in-section delays */
	bool read_delays_long; /* and often a longer one (--swarm) */
	bool fast_gps; /* the writers pause 1/20, fake writers 1/100 as long */
	/* Tight reads (--swarm): back to back, store buffer stuffed first. */
	bool read_tight;
	bool offlining;	      /* a CPU is going offline: no tight read starts */
	atomic_bool stopping; /* every loop polls this */
	int stop_signal;      /* the SIGINT/SIGTERM that stopped it, or 0 */
	struct torture_clock clock;
	struct torture_failures failure;
	struct torture_counters counters;
	struct torture_threads threads;
	struct torture_cpus cpus;
	struct torture_pool pool;
	struct torture_mbchk *mbchk; /* one slot per reader */
	struct torture_barrier barrier;
	struct torture_legality legality; /* --reader-cbs, --onoff-call, ... */
	struct torture_lostcb lostcb;
	struct torture_overtaken overtaken; /* --hunt: lost wakeups */
	struct torture_onoff onoff;
	struct torture_updown *updown; /* --n-up-down (threads/updown.c) */
	struct torture_segs err_segs;  /* --extendables */
	unsigned long gp_seq_start;    /* the flavor's, at the start */
	atomic_bool stutter_paused;    /* the stutter pauses the test */
	_Atomic unsigned int stutter_pauses; /* pause starts and ends so far */
	/* --hunt's quiet spells (swarm.c): the stutter thread runs for them */
	bool quiet_drawn;
	uint64_t quiet_ns; /* this draw's run and pause length; 0: none */
	_Atomic unsigned int witness_scan;   /* callbacks.c: rotating start */
	/* The report is out: a callback invoked now is ignored. */
	atomic_bool cbs_closed;
	void *test_state; /* the test's own (struct scale_state, ...) */
	/* Lines every tight reader stores to: they bounce between cores. */
	struct torture_stuff_line {
		_Atomic uint64_t v;
	} __attribute__((aligned(64))) stuff[TORTURE_STUFF_LINES];
};

/*
 * A thread count as the kernel resolves nreaders and nfakewriters
 * (core/counts.c): RCUT_COUNT_AUTO gives auto_count, a negative value
 * ncpus - 2 - value (at least 1), anything else itself.
 */
long torture_resolve_count(long value, long auto_count, int ncpus);

/*
 * A thread count as rcuscale's compute_real() resolves nreaders and
 * nwriters: RCUT_COUNT_AUTO gives auto_count, a negative value
 * ncpus + 1 + value (-1: one per CPU; at least 1), anything else itself.
 */
long torture_resolve_scale_count(long value, long auto_count, int ncpus);

/*
 * A run that has not started: every subsystem in its idle state, nothing
 * allocated, no thread.  Unit tests build their context with this.
 */
void torture_run_init(struct torture_run *run, const struct rcut_config *cfg,
		      const struct rcut_flavor *flavor, const char *tag);

/*
 * The one process-wide pointer to the run in progress (NULL before), for
 * code that is handed no context: the fatal-signal handler, the flavor
 * ABI's rcut_nr_cpus() and ThreadSanitizer's report hook (data_race.c).
 * Set by the lifecycle before the flavor's init; it keeps the run
 * reachable until exit.  Nothing else may read it.
 */
extern struct torture_run *torture_signal_run;

static inline bool torture_must_stop(struct torture_run *run)
{
	return atomic_load_explicit(&run->stopping, memory_order_relaxed);
}

/* Set the stop flag: every loop ends soon. */
static inline void torture_stop(struct torture_run *run)
{
	atomic_store(&run->stopping, true);
}

#endif /* TORTURE_CORE_RUN_H */
