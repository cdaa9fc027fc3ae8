// SPDX-License-Identifier: MIT
/*
 * --test ref, the kernel's refscale in userspace: the cost of one
 * read-side section.  For each flavor or baseline and each reader count,
 * --nruns runs; in each, every reader (pinned, one simulated CPU each)
 * warms up, waits for the others while still reading, times --loops
 * sections with the flavor's ref_loop (read side inlined), then keeps
 * reading until the last reader is done, so that every timed loop runs
 * under full load.  A run's result is the kernel's: total time over
 * readers x loops, in ns per section.  With --readdelay, or for a flavor
 * without ref_loop, sections go through read_lock/read_unlock calls.
 * Each reader count of each flavor is one round of the lifecycle.
 */
#include "ref.h"

#include "../core/lifecycle.h"
#include "ref_table.h"
#include "../config/repro.h"
#include "../../report/verdict.h"

#include <stdio.h>
#include <stdlib.h>

#define WAIT_CHUNK 1000UL	/* sections between checks while waiting */
#define TIMED_CHUNK (1UL << 20) /* sections between watchdog pats */

struct ref_column {
	long nreaders, loops, nruns;
	_Atomic int *warm, *cool; /* per run: readers checked in / out */
	uint64_t *ns;		  /* [reader * nruns + run]: timed loop, ns */
	_Atomic long *done;	  /* per reader: runs completed */
};

/* The ref test's state (run->test_state). */
struct ref_state {
	struct ref_column col; /* the round in progress */
	double delay_iters_per_ns;
	long counts[RCUT_MAX_SWEEP]; /* the reader counts: one round each */
	int ncounts;
	double *median; /* [flavor * ncounts + count], < 0: none */
};

static struct ref_state *ref_state(struct torture_run *run)
{
	return run->test_state;
}

/* A busy wait of iters empty iterations (the kernel's ndelay). */
static void delay_loop(uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		__asm__ __volatile__("" ::: "memory");
}

/*
 * Iterations per ns of delay_loop: the best of many short timings, as
 * short ones are the least likely to include a preemption.
 */
static double calibrate_delay(void)
{
	const uint64_t iters = 1 << 15;
	double best = 0;

	for (int k = 0; k < 200; k++) {
		uint64_t t0 = torture_now_ns(), t;

		delay_loop(iters);
		t = torture_now_ns() - t0;
		if (t && (double)iters / (double)t > best)
			best = (double)iters / (double)t;
	}
	return best;
}

/* n read-side sections of the flavor under test. */
static void sections(struct torture_run *run, unsigned long n)
{
	const struct rcut_flavor *f = run->flavor;
	long delay = run->cfg->ref.readdelay_ns;
	uint64_t iters =
		(uint64_t)((double)delay * ref_state(run)->delay_iters_per_ns);

	if (!delay && f->ref_loop) {
		f->ref_loop(n);
		return;
	}
	for (unsigned long i = 0; i < n; i++) {
		int idx = f->read_lock();

		delay_loop(iters);
		f->read_unlock(idx);
	}
}

/* Keep reading until all readers reached count (or the run stops). */
static void read_until(struct torture_run *run, _Atomic int *count)
{
	while (atomic_load(count) < ref_state(run)->col.nreaders &&
	       !torture_must_stop(run)) {
		sections(run, WAIT_CHUNK);
		torture_progress();
	}
}

static void ref_reader(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct ref_column *col = &ref_state(run)->col;

	for (long r = 0; r < col->nruns && !torture_must_stop(run); r++) {
		uint64_t t0, t1;

		sections(run, (unsigned long)col->loops); /* warm up */
		atomic_fetch_add(&col->warm[r], 1);
		read_until(run, &col->warm[r]);
		t0 = torture_now_ns();
		for (long left = col->loops; left > 0;
		     left -= (long)TIMED_CHUNK) {
			sections(run, left < (long)TIMED_CHUNK ?
					      (unsigned long)left :
					      TIMED_CHUNK);
			torture_progress();
		}
		t1 = torture_now_ns();
		col->ns[t->id * col->nruns + r] = t1 - t0;
		atomic_fetch_add(&col->cool[r], 1);
		read_until(run, &col->cool[r]);
		atomic_store(&col->done[t->id], r + 1);
	}
}

static int alloc_column(struct torture_run *run, long nreaders)
{
	const struct rcut_ref_config *rc = &run->cfg->ref;
	struct ref_column *col = &ref_state(run)->col;

	col->nreaders = nreaders;
	col->loops = rc->loops;
	col->nruns = rc->nruns;
	col->warm = calloc((size_t)rc->nruns, sizeof(*col->warm));
	col->cool = calloc((size_t)rc->nruns, sizeof(*col->cool));
	col->ns = calloc((size_t)(nreaders * rc->nruns), sizeof(*col->ns));
	col->done = calloc((size_t)nreaders, sizeof(*col->done));
	return col->warm && col->cool && col->ns && col->done ? 0 : -1;
}

static void free_column(struct ref_column *col)
{
	free(col->warm);
	free(col->cool);
	free(col->ns);
	free(col->done);
	col->warm = col->cool = NULL;
	col->ns = NULL;
	col->done = NULL;
}

/* Runs every reader finished, and each one's ns per section. */
static long column_results(const struct ref_column *col, double *per_run)
{
	long runs = col->nruns;

	for (long r = 0; r < col->nreaders; r++)
		if (atomic_load(&col->done[r]) < runs)
			runs = atomic_load(&col->done[r]);
	for (long run = 0; run < runs; run++) {
		uint64_t sum = 0;

		for (long r = 0; r < col->nreaders; r++)
			sum += col->ns[r * col->nruns + run];
		per_run[run] =
			ref_ns_per_section(sum, col->nreaders, col->loops);
	}
	return runs;
}

/* The reader counts (--threads, or the kernel's default), the delay. */
static int setup(struct torture_run *run)
{
	const struct rcut_config *cfg = run->cfg;
	const struct rcut_ref_config *rc = &cfg->ref;
	struct ref_state *s = calloc(1, sizeof(*s));
	int cells;

	if (!s)
		return RCUT_EXIT_INTERNAL;
	run->test_state = s;
	s->ncounts = rc->nthreads;
	for (int i = 0; i < s->ncounts; i++)
		s->counts[i] = rc->threads[i];
	if (!s->ncounts) {
		long cpus = torture_cpus_available();

		/* The kernel's default: three quarters of the CPUs. */
		s->counts[0] = cfg->nreaders > 0 ? cfg->nreaders :
			       cpus * 3 / 4 > 0	 ? cpus * 3 / 4 :
						   1;
		s->ncounts = 1;
	}
	if (rc->readdelay_ns)
		s->delay_iters_per_ns = calibrate_delay();
	cells = run->nflavors * s->ncounts;
	s->median = calloc((size_t)cells, sizeof(*s->median));
	if (!s->median)
		return RCUT_EXIT_INTERNAL;
	for (int i = 0; i < cells; i++)
		s->median[i] = -1;
	return 0;
}

static void flavor_begin(struct torture_run *run)
{
	ref_print_method(run, run->flavor);
}

/*
 * --dry-run: the Start line of every column the run would measure (each
 * flavor at each reader count), and no thread.
 */
static int dry_run(struct torture_run *run)
{
	struct ref_state *s = ref_state(run);

	for (int i = 0; i < s->ncounts; i++)
		ref_print_params(run, s->counts[i], "Start of test");
	return run->flavor_index + 1 < run->nflavors ? 0 : LIFECYCLE_DONE;
}

static int rounds(struct torture_run *run)
{
	return ref_state(run)->ncounts;
}

/* One flavor at one reader count: the column, the table, Start line. */
static int round_begin(struct torture_run *run, int round)
{
	struct ref_state *s = ref_state(run);
	long nreaders = s->counts[round];

	run->nreaders = nreaders;
	if (alloc_column(run, nreaders) ||
	    lifecycle_table(run, (int)nreaders)) {
		fprintf(stderr, "rcutorture: cannot allocate the readers\n");
		free_column(&s->col);
		return RCUT_EXIT_INTERNAL;
	}
	ref_print_params(run, nreaders, "Start of test");
	torture_threads_reset_placement(run);
	return 0;
}

static int spawn(struct torture_run *run)
{
	for (long i = 0; i < run->nreaders; i++)
		if (lifecycle_spawn(run, "reader", (int)i, ref_reader))
			torture_internal_error(run, "cannot start the readers");
	return 0;
}

/* The column's results and End line; its median, or -1 if cut short. */
static int round_end(struct torture_run *run, int round)
{
	struct ref_state *s = ref_state(run);
	struct ref_column *col = &s->col;
	bool interrupted = lifecycle_interrupted(run);
	double *per_run, median = -1;
	long runs;

	per_run = calloc((size_t)col->nruns, sizeof(*per_run));
	runs = per_run ? column_results(col, per_run) : 0;
	if (run->cfg->verbose > 1)
		ref_print_experiments(run, col->ns, col->nreaders, col->nruns,
				      runs);
	if (runs)
		median = ref_print_runs(run, per_run, runs);
	ref_print_params(run, col->nreaders,
			 interrupted ? "End of test: INTERRUPTED" :
				       "End of test: SUCCESS");
	s->median[run->flavor_index * s->ncounts + round] =
		interrupted && runs < col->nruns ? -1 : median;
	free(per_run);
	free_column(col);
	return 0;
}

/* The tables over every flavor that ran; the exit status. */
static int finish(struct torture_run *run, int status)
{
	struct ref_state *s = ref_state(run);

	if (!s || !s->median)
		return status;
	ref_print_tables(run, run->flavors, run->nflavors, s->counts,
			 s->ncounts, s->median);
	if (!status && torture_had_internal_error(run))
		status = RCUT_EXIT_INTERNAL;
	return status;
}

static void cleanup(struct torture_run *run)
{
	struct ref_state *s = ref_state(run);

	if (s) {
		free_column(&s->col);
		free(s->median);
	}
	free(s);
	run->test_state = NULL;
}

/* A run that did not end SUCCESS: the command that runs it again. */
static void print_repro(struct torture_run *run)
{
	char tag[128];

	snprintf(tag, sizeof(tag), "%s-ref-scale", run->flavor->name);
	rcut_repro_print(stdout, tag, run->cfg, rcut_nr_cpus());
}

static void stall_report(struct torture_run *run, const char *what)
{
	(void)what;
	print_repro(run);
	ref_print_params(run, run->nreaders, "End of test: STALL");
}

/* A second signal: the readers still run; the rounds done are out. */
static int hurry_report(struct torture_run *run)
{
	ref_print_params(run, run->nreaders, "End of test: INTERRUPTED");
	return RCUT_EXIT_SUCCESS;
}

static void crash_report(struct torture_run *run)
{
	print_repro(run);
	ref_print_params(run, run->nreaders, "End of test: CRASH");
}

static const struct torture_test ref_test = {
	.tag = "ref-scale",
	.setup = setup,
	.dry_run = dry_run,
	.flavor_begin = flavor_begin,
	.rounds = rounds,
	.round_begin = round_begin,
	.spawn = spawn,
	.round_end = round_end,
	.finish = finish,
	.cleanup = cleanup,
	.stall_report = stall_report,
	.hurry_report = hurry_report,
	.crash_report = crash_report,
};

int ref_run(const struct rcut_config *cfg,
	    const struct rcut_flavor *const *flavors, int n)
{
	return lifecycle_run(&ref_test, cfg, flavors, n);
}
