/* SPDX-License-Identifier: MIT */
/*
 * The scale test (the kernel's rcuscale): writers time grace periods,
 * readers load the flavor, an optional holdout reader delays grace
 * periods; the report has the latency distribution, grace periods and
 * batches, and the updater's CPU time per grace period.
 */
#ifndef TORTURE_SCALE_H
#define TORTURE_SCALE_H

#include "../core/run.h"

#include <sys/types.h>

/* Run --test scale with flavor f; returns the exit status. */
int scale_run(const struct rcut_config *cfg, const struct rcut_flavor *f);

/* --- one writer's samples (torture/scale_samples.c) --- */
struct scale_samples {
	_Atomic uint64_t *ns; /* grace-period durations kept */
	size_t cap;
	_Atomic uint64_t seen;	    /* grace periods timed and counted */
	_Atomic uint64_t discarded; /* still in flight when the test stopped */
};

int scale_samples_init(struct scale_samples *s, size_t cap);
void scale_samples_free(struct scale_samples *s);
/*
 * A grace period that just ended took ns: counted, unless the test is
 * stopping by now (then it is discarded, never counted: a stop-time
 * outlier must not reach the percentiles).  Beyond cap, a uniform random
 * sample of cap durations is kept (reservoir sampling).  Any thread;
 * stopping: whether the run is stopping by now.
 */
void scale_samples_add(struct scale_samples *s, uint64_t ns, bool stopping);
/* How many durations are kept: min(seen, cap). */
size_t scale_samples_kept(const struct scale_samples *s);

/* --- the test's state (torture/scale.c) --- */
struct scale_cb;

/* One writer: its samples, its CPU time, its asynchronous callbacks. */
struct scale_writer {
	struct torture_run *run; /* for its callbacks */
	struct scale_samples samples;
	uint64_t gps;	      /* grace periods it started in the window */
	uint64_t cpu_ns;      /* its thread CPU time over the window */
	bool done;	      /* has --min-samples and --duration is over */
	struct scale_cb *cbs; /* --gp-async: gp_async_max callback heads */
	long next;	      /* where to look for a free head */
	_Atomic long inflight;
};

/* What the report needs beyond the writers. */
struct scale_result {
	uint64_t start_ns, end_ns; /* the window, since the run started */
	unsigned long batches;	   /* the flavor's GP sequence delta */
	uint64_t worker_cpu_ns;	   /* the flavor's own threads */
	int nworkers;
	bool interrupted;
};

/* CPU time of the threads that are not ours: the flavor's GP workers. */
struct scale_task_cpu {
	int n;
	pid_t *tid;
	uint64_t *ns;
};

struct scale_worker_cpu {
	struct scale_task_cpu start, end;
};

/* The scale test's state (run->test_state). */
struct scale_state {
	struct scale_writer *writers;
	int nwriters;
	long nreaders;
	enum rcut_gp_kind gp_kind; /* what the writers time */
	atomic_int writers_started, writers_done, load_ready;
	_Atomic uint64_t
		window_ns; /* measuring since (monotonic); 0: not yet */
	unsigned long gp_seq_start;
	struct scale_worker_cpu worker_cpu;
	struct scale_result result;
};

static inline struct scale_state *scale_state(struct torture_run *run)
{
	return run->test_state;
}

/* A reader or the holdout is at work: the window may open once all are. */
void scale_load_ready(struct scale_state *s);

/* --- asynchronous grace periods (torture/scale_async.c) --- */
int scale_async_init(struct scale_writer *w, long max);
void scale_async_free(struct scale_writer *w);
/* One call(); first waits (barrier) while gp_async_max are in flight. */
void scale_async_post(struct scale_writer *w);
/* Callbacks posted and not yet invoked, over every writer. */
long scale_async_inflight(struct scale_state *s);
/* A callback not invoked for --stall-timeout (a lifecycle stall check). */
bool scale_async_stalled(struct torture_run *run, uint64_t now, char *what,
			 size_t len);
/* Thread body: wait until every posted callback has been invoked. */
void scale_async_drain(struct torture_thread *t);

/* --- the report (torture/scale_report.c) --- */
/* "<flavor>-scale:--- <what>: <parameters>" as the kernel prints it. */
void scale_print_params(struct torture_run *run, const char *what);

/* A run that did not end SUCCESS: "<flavor>-scale: Reproduce: ...". */
void scale_print_repro(struct torture_run *run);
/* Samples, the latency summary, grace periods, batches, CPU time. */
void scale_report(struct torture_run *run, const struct scale_result *r);

/* --- the holdout reader (torture/holdout.c) --- */
/* --pd-test: stays in a section for --pd-busy-wait per loop. */
void scale_holdout(struct torture_thread *t);

/* --- updater CPU time (torture/scale_cpu.c) --- */
/* CPU time of the calling thread, ns. */
uint64_t scale_thread_cpu_ns(void);

/* Note every other thread's CPU time at the start of the window. */
void scale_worker_cpu_begin(struct scale_worker_cpu *w,
			    const struct torture_thread *ours, int nours);
/* Note their CPU time at the end of the window. */
void scale_worker_cpu_end(struct scale_worker_cpu *w,
			  const struct torture_thread *ours, int nours);
/*
 * After our threads are joined: their CPU time over the window, in ns;
 * *nthreads: how many there were.  The end's listing of /proc/self/task
 * stops short at a thread that exits while it is read (the kernel's
 * next_tid() gives up at a dead task), and ours exit then: a thread it
 * missed is noted here, where none of ours is exiting.
 */
uint64_t scale_worker_cpu_settle(struct scale_worker_cpu *w,
				 const struct torture_thread *ours, int nours,
				 int *nthreads);

#endif /* TORTURE_SCALE_H */
