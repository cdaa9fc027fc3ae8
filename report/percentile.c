// SPDX-License-Identifier: MIT
/*
 * Grace-period latency percentiles and histogram with the arithmetic of
 * the kernel's kvm-recheck-rcuscale.sh (see percentile.h), so that its
 * figures and ours agree on the same samples.
 */
#include "percentile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t rcut_percentile_rank(size_t n, unsigned int p)
{
	size_t rank = (size_t)((double)n * p / 100); /* awk's int() */

	return rank < 1 ? 1 : rank;
}

double rcut_median(const double *sorted, size_t n)
{
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* awk's 10 ** e for an integer e: exact products, 1 / 10 ** -e if < 0. */
static double pow10_int(long e)
{
	double r = 1;

	for (long i = 0; i < labs(e); i++)
		r *= 10;
	return e < 0 ? 1 / r : r;
}

double rcut_bucket_size(double p90_us)
{
	/* awk: div = 10 ** int(log(p90) / log(10) + .5) / 100 */
	if (!(p90_us > 0))
		return 1; /* log(0) would make the script divide by zero */
	return pow10_int((long)trunc(log(p90_us) / log(10) + .5)) / 100;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Run-length count of div * int(v / div) over the sorted samples. */
static int histogram(const double *v, size_t n, struct rcut_gp_summary *s)
{
	double div = s->bucket_size, last = v[0] - 10;
	size_t count = 0;

	s->buckets = calloc(n, sizeof(*s->buckets));
	if (!s->buckets)
		return -1;
	for (size_t i = 0; i < n; i++) {
		double current = div * trunc(v[i] / div);

		if (last == current) {
			count++;
			continue;
		}
		if (count > 0)
			s->buckets[s->nbuckets++] =
				(struct rcut_bucket){ last, count };
		count = 1;
		last = current;
	}
	if (count > 0)
		s->buckets[s->nbuckets++] = (struct rcut_bucket){ last, count };
	return 0;
}

int rcut_gp_summarize(const uint64_t *ns, size_t n, struct rcut_gp_summary *s)
{
	double *v, sum = 0;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -1;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		v[i] = (double)ns[i] / 1000.;
		sum += v[i];
	}
	qsort(v, n, sizeof(*v), cmp_double);
	s->n = n;
	s->avg = sum / (double)n;
	s->min = v[0];
	s->p50 = v[rcut_percentile_rank(n, 50) - 1];
	s->p90 = v[rcut_percentile_rank(n, 90) - 1];
	s->p99 = v[rcut_percentile_rank(n, 99) - 1];
	s->max = v[n - 1];
	s->bucket_size = rcut_bucket_size(s->p90);
	if (histogram(v, n, s)) {
		free(v);
		return -1;
	}
	free(v);
	return 0;
}

void rcut_gp_summary_free(struct rcut_gp_summary *s)
{
	free(s->buckets);
	s->buckets = NULL;
	s->nbuckets = 0;
}

char *rcut_awk_number(double v, char *buf, size_t len)
{
	if (v == trunc(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

void rcut_gp_summary_print(FILE *out, const struct rcut_gp_summary *s)
{
	const struct {
		const char *what;
		double us;
	} lines[] = {
		{ "Minimum", s->min },	       { "50th percentile", s->p50 },
		{ "90th percentile", s->p90 }, { "99th percentile", s->p99 },
		{ "Maximum", s->max },
	};
	char a[32];

	fprintf(out, "Histogram bucket size: %s\n",
		rcut_awk_number(s->bucket_size, a, sizeof(a)));
	for (size_t i = 0; i < s->nbuckets; i++)
		fprintf(out, "%s %zu\n",
			rcut_awk_number(s->buckets[i].bucket, a, sizeof(a)),
			s->buckets[i].count);
	fprintf(out, "Average grace-period duration: %s microseconds\n",
		rcut_awk_number(s->avg, a, sizeof(a)));
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		fprintf(out, "%s grace-period duration: %s\n", lines[i].what,
			rcut_awk_number(lines[i].us, a, sizeof(a)));
}
