// SPDX-License-Identifier: MIT
/*
 * The ref test's text.  Per flavor and reader count, what the kernel's
 * refscale prints (so that kvm-recheck-refscale.sh reads it), then the
 * summary that script computes; at the end the tables comparing flavors.
 */
#include "ref_table.h"

#include "../config/options_table.h"
#include "../core/run.h"
#include "../../report/percentile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COL_WIDTH 14

void ref_print_params(struct torture_run *run, long nreaders, const char *what)
{
	const struct rcut_opt_run r = { .test = RCUT_TEST_REF,
					.nreaders = nreaders,
					.ncpus = rcut_nr_cpus() };

	rcut_opt_print_params(stdout, run->cfg, &r, run->flavor->name, what);
}

void ref_print_method(struct torture_run *run, const struct rcut_flavor *f)
{
	long delay = run->cfg->ref.readdelay_ns;

	if (delay)
		printf("%s-ref-scale: --readdelay %ld: each section calls read_lock, busy-waits %ld ns (a calibrated loop), calls read_unlock; not inlined\n",
		       f->name, delay, delay);
	else if (!f->ref_loop)
		printf("%s-ref-scale: the flavor has no ref_loop: sections call read_lock and read_unlock, not inlined\n",
		       f->name);
}

double ref_ns_per_section(uint64_t sum_ns, long nreaders, long loops)
{
	unsigned __int128 ps = (unsigned __int128)sum_ns * 1000 /
			       ((unsigned __int128)nreaders * (uint64_t)loops);

	return (double)(uint64_t)ps / 1000;
}

void ref_print_experiments(struct torture_run *run, const uint64_t *ns,
			   long nreaders, long nruns, long runs)
{
	const char *name = run->flavor->name;

	for (long k = 0; k < runs; k++) {
		printf("%s-ref-scale: Experiment #%ld (Format: <THREAD-NUM>:<Total loop time in ns>)\n",
		       name, k + 1);
		printf("%s-ref-scale:", name);
		for (long r = 0; r < nreaders; r++)
			printf(" %ld: %llu", r,
			       (unsigned long long)ns[r * nruns + k]);
		putchar('\n');
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double ref_print_runs(struct torture_run *run, const double *per_run, long runs)
{
	const char *name = run->flavor->name;
	double *sorted = malloc(sizeof(*sorted) * (size_t)runs), sum = 0, med;

	printf("%s-ref-scale: END OF TEST. Calculating average duration per loop (nanoseconds)...\n",
	       name);
	printf("Runs\tTime(ns)\n");
	for (long k = 0; k < runs; k++) {
		printf("%ld\t%.3f\n", k + 1, per_run[k]);
		sum += per_run[k];
	}
	if (!sorted)
		return -1;
	memcpy(sorted, per_run, sizeof(*sorted) * (size_t)runs);
	qsort(sorted, (size_t)runs, sizeof(*sorted), cmp_double);
	med = rcut_median(sorted, (size_t)runs);
	printf("%s-ref-scale: Average reader duration: %.3f nanoseconds\n",
	       name, sum / (double)runs);
	printf("%s-ref-scale: Minimum reader duration: %.3f\n", name,
	       sorted[0]);
	printf("%s-ref-scale: Median reader duration: %.3f\n", name, med);
	printf("%s-ref-scale: Maximum reader duration: %.3f\n", name,
	       sorted[runs - 1]);
	free(sorted);
	return med;
}

/* One table: a header of flavor names, one row per reader count. */
static void table(const struct rcut_flavor *const *flavors, int n,
		  const long *counts, int ncounts, const double *median,
		  bool throughput)
{
	printf("%-8s", "readers");
	for (int f = 0; f < n; f++)
		printf("%*s", COL_WIDTH, flavors[f]->name);
	putchar('\n');
	for (int c = 0; c < ncounts; c++) {
		printf("%-8ld", counts[c]);
		for (int f = 0; f < n; f++) {
			double m = median[f * ncounts + c];

			if (m < 0)
				printf("%*s", COL_WIDTH, "-");
			else if (!throughput)
				printf("%*.3f", COL_WIDTH, m);
			else if (m > 0)
				printf("%*.0f", COL_WIDTH,
				       (double)counts[c] * 1e9 / m);
			else
				printf("%*s", COL_WIDTH, "inf");
		}
		putchar('\n');
	}
}

void ref_print_tables(struct torture_run *run,
		      const struct rcut_flavor *const *flavors, int n,
		      const long *counts, int ncounts, const double *median)
{
	const struct rcut_ref_config *rc = &run->cfg->ref;

	printf("\nRead-side cost, ns per section (median of %ld runs of %ld sections per reader):\n",
	       rc->nruns, rc->loops);
	table(flavors, n, counts, ncounts, median, false);
	printf("\nLookups/s, all readers together (readers x 1e9 / ns per section):\n");
	table(flavors, n, counts, ncounts, median, true);
}
