// SPDX-License-Identifier: MIT
/*
 * --test scale, the kernel's rcuscale in userspace.  --nwriters writers,
 * pinned on simulated CPUs, each wait --holdoff, then time grace periods
 * back to back (synchronize, expedited, or call() to callback with
 * --gp-async) on the monotonic clock.  Readers do empty read-side
 * sections as load (QSBR: a quiescent state every READS_PER_QS), or
 * sections that busy-wait --readdelay (a quiescent state after each), at
 * normal priority: the kernel's run at nice 19, but a userspace grace
 * period may need the readers to run (signal handlers, QSBR reports),
 * and at nice 19 on a busy machine they starve it for seconds.  The
 * measurement window opens when every writer has finished its holdoff
 * and every reader (and the holdout, inside its first section) is at
 * work, and ends when every writer has --min-samples
 * grace periods and --duration has passed (the kernel's MIN_MEAS and
 * minruntime); a grace period still in flight then is discarded.  Writers
 * are torture threads inside torture_op_begin/end, so a grace period
 * that never returns is a stall (exit 4).
 */
#define _GNU_SOURCE
#include "scale.h"

#include "harness.h"
#include "../report/verdict.h"

#include <stdio.h>
#include <stdlib.h>

#define READS_PER_QS 1000	  /* load reader: sections between checks */
#define MIN_SAMPLE_CAP 10000	  /* the kernel's MAX_MEAS */
#define SAMPLE_BUDGET (1UL << 20) /* durations kept over all writers */
#define WINDOW_POLL_NS 100000ULL

struct scale_writer *scale_writers;
int scale_nwriters;
long scale_nreaders;

static struct harness h;
static enum rcut_gp_kind gp_kind;
static atomic_int writers_started, writers_done, load_ready;
static _Atomic uint64_t window_ns; /* measuring since (monotonic); 0: not yet */
static unsigned long gp_seq_start;
static uint64_t run_start_ns;
static struct scale_worker_cpu worker_cpu;

static unsigned long gp_seq(void)
{
	const struct rcut_flavor *f = torture_flavor;

	return f->get_gp_seq ? f->get_gp_seq() : 0;
}

void scale_load_ready(void)
{
	atomic_fetch_add(&load_ready, 1);
}

/* The readers and the holdout that must be at work before measuring. */
static int load_expected(void)
{
	return (int)scale_nreaders + torture_cfg->scale.pd_test;
}

/* The last writer out of its holdoff opens the window for all. */
static void open_window(void)
{
	gp_seq_start = gp_seq();
	scale_worker_cpu_begin(&worker_cpu, h.threads, h.n);
	atomic_store(&window_ns, torture_now_ns());
}

/* Time one synchronous grace period; only the flavor's call is timed. */
static void timed_gp(struct scale_writer *w)
{
	const struct rcut_flavor *f = torture_flavor;
	uint64_t t0, t1;

	if (gp_kind == RCUT_GP_EXP) {
		torture_op_begin("synchronize_expedited");
		t0 = torture_now_ns();
		f->synchronize_expedited();
	} else {
		torture_op_begin("synchronize");
		t0 = torture_now_ns();
		f->synchronize();
	}
	t1 = torture_now_ns();
	torture_op_end();
	scale_samples_add(&w->samples, t1 - t0);
}

/* Done: --min-samples timed and --duration over (0: no minimum time). */
static void check_done(struct scale_writer *w)
{
	const struct rcut_config *c = torture_cfg;

	if (w->done ||
	    atomic_load(&w->samples.seen) < (uint64_t)c->scale.min_samples ||
	    torture_now_ns() - atomic_load(&window_ns) < c->duration_ns)
		return;
	w->done = true;
	atomic_fetch_add(&writers_done, 1);
}

static void scale_writer(struct torture_thread *t)
{
	const struct rcut_scale_config *sc = &torture_cfg->scale;
	struct scale_writer *w = &scale_writers[t->id];
	uint64_t cpu0;

	torture_sleep_ns(sc->holdoff_ns);
	while (atomic_load(&load_ready) < load_expected() &&
	       !torture_must_stop())
		torture_sleep_ns(WINDOW_POLL_NS);
	if (atomic_fetch_add(&writers_started, 1) + 1 == scale_nwriters)
		open_window();
	while (!atomic_load(&window_ns) && !torture_must_stop())
		torture_sleep_ns(WINDOW_POLL_NS);
	cpu0 = scale_thread_cpu_ns();
	while (!torture_must_stop()) {
		if (gp_kind == RCUT_GP_NORMAL)
			scale_async_post(w);
		else
			timed_gp(w);
		w->gps++;
		check_done(w);
		if (sc->writer_holdoff_ns)
			torture_sleep_ns(sc->writer_holdoff_ns);
		torture_progress();
	}
	w->cpu_ns = scale_thread_cpu_ns() - cpu0;
}

/* Load: empty read-side sections, or --readdelay long ones. */
static void scale_reader(struct torture_thread *t)
{
	const struct rcut_flavor *f = torture_flavor;
	uint64_t delay = (uint64_t)torture_cfg->ref.readdelay_ns;

	(void)t;
	scale_load_ready();
	while (!torture_must_stop()) {
		if (delay) {
			int idx = f->read_lock();

			torture_spin_ns(delay);
			f->read_unlock(idx);
		} else {
			for (int i = 0; i < READS_PER_QS; i++)
				f->read_unlock(f->read_lock());
		}
		if (f->quiescent_state)
			f->quiescent_state();
		torture_progress();
		torture_cpu_checkpoint();
	}
}

static bool all_writers_done(void)
{
	return atomic_load(&writers_done) >= scale_nwriters;
}

/* Per-writer sample store: a share of the budget, at least the kernel's. */
static int alloc_writers(const struct rcut_config *c)
{
	size_t cap = SAMPLE_BUDGET / (size_t)scale_nwriters;

	if (cap < MIN_SAMPLE_CAP)
		cap = MIN_SAMPLE_CAP;
	if (cap < (size_t)c->scale.min_samples)
		cap = (size_t)c->scale.min_samples;
	scale_writers = calloc((size_t)scale_nwriters, sizeof(*scale_writers));
	if (!scale_writers)
		return -1;
	for (int i = 0; i < scale_nwriters; i++) {
		if (scale_samples_init(&scale_writers[i].samples, cap))
			return -1;
		if (gp_kind == RCUT_GP_NORMAL &&
		    scale_async_init(&scale_writers[i], c->scale.gp_async_max))
			return -1;
	}
	return 0;
}

static void free_writers(void)
{
	for (int i = 0; scale_writers && i < scale_nwriters; i++) {
		scale_samples_free(&scale_writers[i].samples);
		scale_async_free(&scale_writers[i]);
	}
	free(scale_writers);
	scale_writers = NULL;
}

static void stall_end(void)
{
	scale_print_params("End of test: STALL");
}

static void crash_end(void)
{
	scale_print_params("End of test: CRASH");
}

/* Writers first (writer 0 on CPU 0), then readers, then the holdout. */
static int start_threads(const struct rcut_config *c)
{
	for (int i = 0; i < scale_nwriters; i++)
		if (harness_start(&h, "writer", i, scale_writer))
			return -1;
	for (long i = 0; i < scale_nreaders; i++)
		if (harness_start(&h, "reader", (int)i, scale_reader))
			return -1;
	if (c->scale.pd_test && harness_start(&h, "holdout", 0, scale_holdout))
		return -1;
	return 0;
}

/* Stop, join, and let every callback still in flight run. */
static void stop_and_drain(struct scale_result *r)
{
	const struct rcut_flavor *f = torture_flavor;
	uint64_t opened = atomic_load(&window_ns);

	/* The sequence before the stop: in-flight GPs are not counted. */
	if (opened)
		r->batches = f->gp_diff ? f->gp_diff(gp_seq(), gp_seq_start) :
					  gp_seq() - gp_seq_start;
	harness_stop(&h);
	if (opened) {
		r->start_ns = opened - run_start_ns;
		r->end_ns = torture_now_ns() - run_start_ns;
		r->worker_cpu_ns = scale_worker_cpu_end(&worker_cpu, h.threads,
							h.n, &r->nworkers);
	}
	harness_join(&h);
	if (scale_async_inflight() > 0 &&
	    harness_start(&h, "final-barrier", 0, scale_async_drain) == 0)
		harness_join(&h);
}

int scale_run(const struct rcut_config *cfg, const struct rcut_flavor *f)
{
	struct scale_result r = { 0 };
	int status;

	status = harness_setup(cfg, "scale");
	if (!status)
		status = harness_flavor_init(f);
	if (status)
		return status;
	scale_nwriters = (int)cfg->scale.nwriters;
	scale_nreaders =
		cfg->nreaders < 0 ? torture_cpus_available() : cfg->nreaders;
	gp_kind = cfg->gp_mask == 1u << RCUT_GP_EXP    ? RCUT_GP_EXP :
		  cfg->gp_mask == 1u << RCUT_GP_NORMAL ? RCUT_GP_NORMAL :
							 RCUT_GP_SYNC;
	if (alloc_writers(cfg) ||
	    harness_begin(&h, scale_nwriters + (int)scale_nreaders + 2)) {
		fprintf(stderr, "rcutorture: cannot allocate the writers\n");
		return RCUT_EXIT_INTERNAL;
	}
	h.stalled = gp_kind == RCUT_GP_NORMAL ? scale_async_stalled : NULL;
	h.on_stall = stall_end;
	torture_crash_hook = crash_end;
	scale_print_params("Start of test");
	if (gp_kind == RCUT_GP_EXP && (f->caps & RCUT_CAP_EXP_IS_SYNC))
		printf("%s-scale: flavor %s has no expedited grace period: --gp-exp times its synchronize\n",
		       f->name, f->name);
	if (cfg->verbose > 1)
		torture_cpus_print(stdout);
	torture_mark_start();
	run_start_ns = torture_now_ns();
	if (start_threads(cfg)) {
		harness_stop(&h);
		harness_join(&h);
		return RCUT_EXIT_INTERNAL;
	}
	r.interrupted = harness_wait(&h, all_writers_done) != 0;
	stop_and_drain(&r);
	scale_report(&r);
	status = torture_had_internal_error() ? RCUT_EXIT_INTERNAL :
						RCUT_EXIT_SUCCESS;
	scale_print_params(status ? "End of test: INTERNAL_ERROR" :
				    "End of test: SUCCESS");
	if (f->cleanup)
		f->cleanup();
	free_writers();
	harness_end(&h);
	return status;
}
