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

#include "../core/lifecycle.h"
#include "../../report/verdict.h"

#include <stdio.h>
#include <stdlib.h>

#define READS_PER_QS 1000	  /* load reader: sections between checks */
#define MIN_SAMPLE_CAP 10000	  /* the kernel's MAX_MEAS */
#define SAMPLE_BUDGET (1UL << 20) /* durations kept over all writers */
#define WINDOW_POLL_NS 100000ULL

static unsigned long gp_seq(const struct rcut_flavor *f)
{
	return f->get_gp_seq ? f->get_gp_seq() : 0;
}

void scale_load_ready(struct scale_state *s)
{
	atomic_fetch_add(&s->load_ready, 1);
}

/* The readers and the holdout that must be at work before measuring. */
static int load_expected(struct torture_run *run)
{
	return (int)scale_state(run)->nreaders + run->cfg->scale.pd_test;
}

/* The last writer out of its holdoff opens the window for all. */
static void open_window(struct torture_run *run)
{
	struct scale_state *s = scale_state(run);

	s->gp_seq_start = gp_seq(run->flavor);
	scale_worker_cpu_begin(&s->worker_cpu, run->threads.t, run->threads.n);
	atomic_store(&s->window_ns, torture_now_ns());
}

/* Time one synchronous grace period; only the flavor's call is timed. */
static void timed_gp(struct torture_run *run, struct scale_writer *w)
{
	const struct rcut_flavor *f = run->flavor;
	uint64_t t0, t1;

	if (scale_state(run)->gp_kind == RCUT_GP_EXP) {
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
	scale_samples_add(&w->samples, t1 - t0, torture_must_stop(run));
}

/* Done: --min-samples timed and --duration over (0: no minimum time). */
static void check_done(struct torture_run *run, struct scale_writer *w)
{
	const struct rcut_config *c = run->cfg;
	struct scale_state *s = scale_state(run);

	if (w->done ||
	    atomic_load(&w->samples.seen) < (uint64_t)c->scale.min_samples ||
	    torture_now_ns() - atomic_load(&s->window_ns) < c->duration_ns)
		return;
	w->done = true;
	atomic_fetch_add(&s->writers_done, 1);
}

/* Wait for the holdoff, the load, and the other writers. */
static void writer_wait_window(struct torture_run *run)
{
	struct scale_state *s = scale_state(run);

	torture_sleep_ns(run, run->cfg->scale.holdoff_ns);
	while (atomic_load(&s->load_ready) < load_expected(run) &&
	       !torture_must_stop(run))
		torture_sleep_ns(run, WINDOW_POLL_NS);
	if (atomic_fetch_add(&s->writers_started, 1) + 1 == s->nwriters)
		open_window(run);
	while (!atomic_load(&s->window_ns) && !torture_must_stop(run))
		torture_sleep_ns(run, WINDOW_POLL_NS);
}

static void scale_writer(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_scale_config *sc = &run->cfg->scale;
	struct scale_state *s = scale_state(run);
	struct scale_writer *w = &s->writers[t->id];
	uint64_t cpu0;

	writer_wait_window(run);
	cpu0 = scale_thread_cpu_ns();
	while (!torture_must_stop(run)) {
		if (s->gp_kind == RCUT_GP_NORMAL)
			scale_async_post(w);
		else
			timed_gp(run, w);
		w->gps++;
		check_done(run, w);
		if (sc->writer_holdoff_ns)
			torture_sleep_ns(run, sc->writer_holdoff_ns);
		torture_progress();
	}
	w->cpu_ns = scale_thread_cpu_ns() - cpu0;
}

/* Load: empty read-side sections, or --readdelay long ones. */
static void scale_reader(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	uint64_t delay = (uint64_t)run->cfg->ref.readdelay_ns;

	scale_load_ready(scale_state(run));
	while (!torture_must_stop(run)) {
		if (delay) {
			int idx = f->read_lock();

			torture_spin_ns(run, delay);
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

/* Per-writer sample store: a share of the budget, at least the kernel's. */
static int alloc_writers(struct torture_run *run)
{
	const struct rcut_config *c = run->cfg;
	struct scale_state *s = scale_state(run);
	size_t cap = SAMPLE_BUDGET / (size_t)s->nwriters;

	if (cap < MIN_SAMPLE_CAP)
		cap = MIN_SAMPLE_CAP;
	if (cap < (size_t)c->scale.min_samples)
		cap = (size_t)c->scale.min_samples;
	s->writers = calloc((size_t)s->nwriters, sizeof(*s->writers));
	if (!s->writers)
		return -1;
	for (int i = 0; i < s->nwriters; i++) {
		s->writers[i].run = run;
		if (scale_samples_init(&s->writers[i].samples, cap))
			return -1;
		if (s->gp_kind == RCUT_GP_NORMAL &&
		    scale_async_init(&s->writers[i], c->scale.gp_async_max))
			return -1;
	}
	return 0;
}

static int setup(struct torture_run *run)
{
	run->test_state = calloc(1, sizeof(struct scale_state));
	return run->test_state ? 0 : RCUT_EXIT_INTERNAL;
}

/* The writer and reader counts and the primitive the writers time. */
static void resolve_counts(struct torture_run *run)
{
	const struct rcut_config *cfg = run->cfg;
	struct scale_state *s = scale_state(run);

	int cpus = torture_cpus_available();

	s->nwriters =
		(int)torture_resolve_scale_count(cfg->scale.nwriters, 1, cpus);
	s->nreaders = run->nreaders =
		torture_resolve_scale_count(cfg->nreaders, cpus, cpus);
	s->gp_kind = cfg->gp_mask == 1u << RCUT_GP_EXP	  ? RCUT_GP_EXP :
		     cfg->gp_mask == 1u << RCUT_GP_NORMAL ? RCUT_GP_NORMAL :
							    RCUT_GP_SYNC;
}

/* --dry-run: the Start line the run would print, and no thread. */
static int dry_run(struct torture_run *run)
{
	resolve_counts(run);
	scale_print_params(run, "Start of test");
	return LIFECYCLE_DONE;
}

/* The counts, the writers, the thread table, the Start line. */
static int round_begin(struct torture_run *run, int round)
{
	const struct rcut_config *cfg = run->cfg;
	const struct rcut_flavor *f = run->flavor;
	struct scale_state *s = scale_state(run);

	(void)round;
	resolve_counts(run);
	if (alloc_writers(run) ||
	    lifecycle_table(run, s->nwriters + (int)s->nreaders + 2)) {
		fprintf(stderr, "rcutorture: cannot allocate the writers\n");
		return RCUT_EXIT_INTERNAL;
	}
	scale_print_params(run, "Start of test");
	if (s->gp_kind == RCUT_GP_EXP && (f->caps & RCUT_CAP_EXP_IS_SYNC))
		printf("%s-scale: flavor %s has no expedited grace period: --gp-exp times its synchronize\n",
		       f->name, f->name);
	if (cfg->verbose > 1)
		torture_cpus_print(run, stdout);
	return 0;
}

/* Writers first (writer 0 on CPU 0), then readers, then the holdout. */
static int spawn(struct torture_run *run)
{
	struct scale_state *s = scale_state(run);

	for (int i = 0; i < s->nwriters; i++)
		if (lifecycle_spawn(run, "writer", i, scale_writer))
			return -1;
	for (long i = 0; i < s->nreaders; i++)
		if (lifecycle_spawn(run, "reader", (int)i, scale_reader))
			return -1;
	if (run->cfg->scale.pd_test &&
	    lifecycle_spawn(run, "holdout", 0, scale_holdout))
		return -1;
	return 0;
}

static bool all_writers_done(struct torture_run *run)
{
	struct scale_state *s = scale_state(run);

	return atomic_load(&s->writers_done) >= s->nwriters;
}

/* --gp-async: a callback not invoked for the stall timeout. */
static bool stalled(struct torture_run *run, uint64_t now, char *what,
		    size_t len)
{
	return scale_state(run)->gp_kind == RCUT_GP_NORMAL &&
	       scale_async_stalled(run, now, what, len);
}

/* The sequence before the stop: in-flight GPs are not counted. */
static void stopping(struct torture_run *run)
{
	const struct rcut_flavor *f = run->flavor;
	struct scale_state *s = scale_state(run);
	unsigned long now = gp_seq(f);

	if (atomic_load(&s->window_ns))
		s->result.batches = f->gp_diff ?
					    f->gp_diff(now, s->gp_seq_start) :
					    now - s->gp_seq_start;
}

/* Close the window, join, and let every callback still in flight run. */
static int drain(struct torture_run *run)
{
	struct scale_state *s = scale_state(run);
	struct scale_result *r = &s->result;
	uint64_t opened = atomic_load(&s->window_ns);

	if (opened) {
		r->start_ns = opened - run->clock.start_ns;
		r->end_ns = torture_now_ns() - run->clock.start_ns;
		scale_worker_cpu_end(&s->worker_cpu, run->threads.t,
				     run->threads.n);
	}
	lifecycle_join(run, run->threads.n);
	if (opened)
		r->worker_cpu_ns =
			scale_worker_cpu_settle(&s->worker_cpu, run->threads.t,
						run->threads.n, &r->nworkers);
	if (scale_async_inflight(s) > 0)
		lifecycle_spawn(run, "final-barrier", 0, scale_async_drain);
	return 0;
}

static int round_end(struct torture_run *run, int round)
{
	struct scale_result *r = &scale_state(run)->result;
	int status;

	(void)round;
	r->interrupted = lifecycle_interrupted(run);
	scale_report(run, r);
	status = torture_had_internal_error(run) ? RCUT_EXIT_INTERNAL :
						   RCUT_EXIT_SUCCESS;
	if (status)
		scale_print_repro(run);
	scale_print_params(run, status ? "End of test: INTERNAL_ERROR" :
					 "End of test: SUCCESS");
	return status;
}

static void cleanup(struct torture_run *run)
{
	struct scale_state *s = scale_state(run);

	for (int i = 0; s && s->writers && i < s->nwriters; i++) {
		scale_samples_free(&s->writers[i].samples);
		scale_async_free(&s->writers[i]);
	}
	if (s)
		free(s->writers);
	free(s);
	run->test_state = NULL;
}

static void stall_report(struct torture_run *run, const char *what)
{
	(void)what;
	scale_print_repro(run);
	scale_print_params(run, "End of test: STALL");
}

/* A second signal: the writers' samples may still grow; no tables. */
static int hurry_report(struct torture_run *run)
{
	scale_print_params(run, "End of test: INTERRUPTED");
	return RCUT_EXIT_SUCCESS;
}

static void crash_report(struct torture_run *run)
{
	scale_print_repro(run);
	scale_print_params(run, "End of test: CRASH");
}

static const struct torture_test scale_test = {
	.tag = "scale",
	.setup = setup,
	.dry_run = dry_run,
	.round_begin = round_begin,
	.spawn = spawn,
	.done = all_writers_done,
	.stalled = stalled,
	.stopping = stopping,
	.drain = drain,
	.round_end = round_end,
	.cleanup = cleanup,
	.stall_report = stall_report,
	.hurry_report = hurry_report,
	.crash_report = crash_report,
};

int scale_run(const struct rcut_config *cfg, const struct rcut_flavor *f)
{
	return lifecycle_run(&scale_test, cfg, &f, 1);
}
