/* SPDX-License-Identifier: MIT */
/* The ref test's output: the kernel's refscale lines and our tables. */
#ifndef TORTURE_REF_TABLE_H
#define TORTURE_REF_TABLE_H

#include <rcutorture/flavor.h>
#include <stdint.h>

struct torture_run;

/* "<flavor>-ref-scale:--- <what>: loops=... nreaders=..." */
void ref_print_params(struct torture_run *run, long nreaders, const char *what);

/* How f's sections are made, when not by its inlined ref_loop. */
void ref_print_method(struct torture_run *run, const struct rcut_flavor *f);

/*
 * The kernel's result for a run: 1000 * sum / (nreaders * loops) in
 * integer arithmetic, i.e. ns per section truncated to 3 decimals.
 */
double ref_ns_per_section(uint64_t sum_ns, long nreaders, long loops);

/* --verbose: each run's loop time per reader, as the kernel's verbose. */
void ref_print_experiments(struct torture_run *run, const uint64_t *ns,
			   long nreaders, long nruns, long runs);

/*
 * "END OF TEST...", the "Runs\tTime(ns)" lines, then average, minimum,
 * median and maximum.  Returns the median.
 */
double ref_print_runs(struct torture_run *run, const double *per_run,
		      long runs);

/*
 * The tables: ns per section and lookups/s, one row per reader count,
 * one column per flavor; median[f * ncounts + c] < 0 is "-".
 */
void ref_print_tables(struct torture_run *run,
		      const struct rcut_flavor *const *flavors, int n,
		      const long *counts, int ncounts, const double *median);

#endif /* TORTURE_REF_TABLE_H */
