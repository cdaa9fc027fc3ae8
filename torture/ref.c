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
 */
#include "ref.h"

#include "harness.h"
#include "ref_table.h"
#include "../report/verdict.h"

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

static struct ref_column col;
static struct harness h;
static double delay_iters_per_ns;

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
static void calibrate_delay(void)
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
	delay_iters_per_ns = best;
}

/* n read-side sections of the flavor under test. */
static void sections(unsigned long n)
{
	const struct rcut_flavor *f = torture_flavor;
	long delay = torture_cfg->ref.readdelay_ns;
	uint64_t iters = (uint64_t)((double)delay * delay_iters_per_ns);

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
static void read_until(_Atomic int *count)
{
	while (atomic_load(count) < col.nreaders && !torture_must_stop()) {
		sections(WAIT_CHUNK);
		torture_progress();
	}
}

static void ref_reader(struct torture_thread *t)
{
	for (long run = 0; run < col.nruns && !torture_must_stop(); run++) {
		uint64_t t0, t1;

		sections((unsigned long)col.loops); /* warm up */
		atomic_fetch_add(&col.warm[run], 1);
		read_until(&col.warm[run]);
		t0 = torture_now_ns();
		for (long left = col.loops; left > 0;
		     left -= (long)TIMED_CHUNK) {
			sections(left < (long)TIMED_CHUNK ?
					 (unsigned long)left :
					 TIMED_CHUNK);
			torture_progress();
		}
		t1 = torture_now_ns();
		col.ns[t->id * col.nruns + run] = t1 - t0;
		atomic_fetch_add(&col.cool[run], 1);
		read_until(&col.cool[run]);
		atomic_store(&col.done[t->id], run + 1);
	}
}

static void stall_end(void)
{
	ref_print_params(col.nreaders, "End of test: STALL");
}

static void crash_end(void)
{
	ref_print_params(col.nreaders, "End of test: CRASH");
}

static int alloc_column(long nreaders)
{
	const struct rcut_ref_config *rc = &torture_cfg->ref;

	col.nreaders = nreaders;
	col.loops = rc->loops;
	col.nruns = rc->nruns;
	col.warm = calloc((size_t)rc->nruns, sizeof(*col.warm));
	col.cool = calloc((size_t)rc->nruns, sizeof(*col.cool));
	col.ns = calloc((size_t)(nreaders * rc->nruns), sizeof(*col.ns));
	col.done = calloc((size_t)nreaders, sizeof(*col.done));
	return col.warm && col.cool && col.ns && col.done ? 0 : -1;
}

static void free_column(void)
{
	free(col.warm);
	free(col.cool);
	free(col.ns);
	free(col.done);
}

/* Runs every reader finished, and each one's ns per section. */
static long column_results(double *per_run)
{
	long runs = col.nruns;

	for (long r = 0; r < col.nreaders; r++)
		if (atomic_load(&col.done[r]) < runs)
			runs = atomic_load(&col.done[r]);
	for (long run = 0; run < runs; run++) {
		uint64_t sum = 0;

		for (long r = 0; r < col.nreaders; r++)
			sum += col.ns[r * col.nruns + run];
		per_run[run] = ref_ns_per_section(sum, col.nreaders, col.loops);
	}
	return runs;
}

/* One flavor at one reader count; its median ns, or -1 if cut short. */
static double run_column(long nreaders, bool *interrupted)
{
	double *per_run, median = -1;
	long runs;

	if (alloc_column(nreaders) || harness_begin(&h, (int)nreaders)) {
		fprintf(stderr, "rcutorture: cannot allocate the readers\n");
		free_column();
		return -1;
	}
	h.on_stall = stall_end;
	ref_print_params(nreaders, "Start of test");
	torture_threads_reset_placement();
	for (long i = 0; i < nreaders; i++)
		if (harness_start(&h, "reader", (int)i, ref_reader))
			torture_internal_error("cannot start the readers");
	if (harness_wait(&h, NULL)) {
		*interrupted = true;
		harness_stop(&h);
	}
	harness_join(&h);
	per_run = calloc((size_t)col.nruns, sizeof(*per_run));
	runs = per_run ? column_results(per_run) : 0;
	if (torture_cfg->verbose > 1)
		ref_print_experiments(col.ns, col.nreaders, col.nruns, runs);
	if (runs)
		median = ref_print_runs(per_run, runs);
	ref_print_params(nreaders, *interrupted ? "End of test: INTERRUPTED" :
						  "End of test: SUCCESS");
	free(per_run);
	free_column();
	harness_end(&h);
	return *interrupted && runs < col.nruns ? -1 : median;
}

int ref_run(const struct rcut_config *cfg,
	    const struct rcut_flavor *const *flavors, int n)
{
	const struct rcut_ref_config *rc = &cfg->ref;
	long counts[RCUT_MAX_SWEEP];
	int ncounts = rc->nthreads, status;
	double *median;
	bool interrupted = false;

	status = harness_setup(cfg, "ref-scale");
	if (status)
		return status;
	torture_crash_hook = crash_end;
	for (int i = 0; i < ncounts; i++)
		counts[i] = rc->threads[i];
	if (!ncounts) {
		long cpus = torture_cpus_available();

		/* The kernel's default: three quarters of the CPUs. */
		counts[0] = cfg->nreaders > 0 ? cfg->nreaders :
			    cpus * 3 / 4 > 0  ? cpus * 3 / 4 :
						1;
		ncounts = 1;
	}
	if (rc->readdelay_ns)
		calibrate_delay();
	median = calloc((size_t)(n * ncounts), sizeof(*median));
	if (!median)
		return RCUT_EXIT_INTERNAL;
	for (int i = 0; i < n * ncounts; i++)
		median[i] = -1;
	for (int fi = 0; fi < n && !interrupted; fi++) {
		status = harness_flavor_init(flavors[fi]);
		if (status)
			break;
		ref_print_method(flavors[fi]);
		for (int ci = 0; ci < ncounts && !interrupted; ci++)
			median[fi * ncounts + ci] =
				run_column(counts[ci], &interrupted);
		if (flavors[fi]->cleanup)
			flavors[fi]->cleanup();
	}
	ref_print_tables(flavors, n, counts, ncounts, median);
	free(median);
	if (!status && torture_had_internal_error())
		status = RCUT_EXIT_INTERNAL;
	return status;
}
