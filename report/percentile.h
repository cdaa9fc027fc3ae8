/* SPDX-License-Identifier: MIT */
/*
 * The grace-period latency summary of the scale test, computed exactly as
 * the kernel's kvm-recheck-rcuscale.sh computes it from writer-duration
 * lines: samples in microseconds (ns / 1000), sorted; the p-th percentile
 * is the int(N * p / 100)-th smallest (1-based, at least the first); the
 * histogram bucket is 10 ** int(log10(p90) + .5) / 100; numbers print as
 * awk prints them.  Pure functions, no I/O but the final print.
 */
#ifndef REPORT_PERCENTILE_H
#define REPORT_PERCENTILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The 1-based rank of the p-th percentile among n sorted samples. */
size_t rcut_percentile_rank(size_t n, unsigned int p);

/* The median of n > 0 sorted values (the mean of the middle two if even). */
double rcut_median(const double *sorted, size_t n);

/* The histogram bucket size for a 90th percentile of p90_us (> 0). */
double rcut_bucket_size(double p90_us);

/* One histogram line: samples in [bucket, bucket + size). */
struct rcut_bucket {
	double bucket;
	size_t count;
};

struct rcut_gp_summary {
	size_t n;
	double avg, min, p50, p90, p99, max; /* microseconds */
	double bucket_size;
	struct rcut_bucket *buckets; /* non-empty ones, ascending */
	size_t nbuckets;
};

/*
 * Summarize n samples given in nanoseconds, in the order they were
 * printed (the average sums them in that order, as awk does).  Returns 0,
 * or -1 if n is 0 or memory runs out.  Free with rcut_gp_summary_free.
 */
int rcut_gp_summarize(const uint64_t *ns, size_t n, struct rcut_gp_summary *s);
void rcut_gp_summary_free(struct rcut_gp_summary *s);

/*
 * A number as awk's print shows it: an integral value as an integer,
 * anything else with "%.6g".  Returns buf.
 */
char *rcut_awk_number(double v, char *buf, size_t len);

/*
 * The kvm-recheck-rcuscale.sh lines from "Histogram bucket size:" to
 * "Maximum grace-period duration:".
 */
void rcut_gp_summary_print(FILE *out, const struct rcut_gp_summary *s);

#endif /* REPORT_PERCENTILE_H */
