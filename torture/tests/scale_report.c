// SPDX-License-Identifier: MIT
/*
 * The scale test's report.  First the lines the kernel's rcuscale prints
 * (the samples as "writer-duration" lines, all of them with --verbose,
 * then each writer's count and the start/end/gps/batches line), which the
 * kernel's kvm-recheck-rcuscale.sh reads unchanged; then what that script
 * prints from them (histogram, average, minimum, percentiles, maximum,
 * grace periods and batches), computed the same way; then the updater's
 * CPU time per grace period.
 */
#include "scale.h"

#include "../config/options_table.h"
#include "../config/repro.h"
#include "../core/flavor_stats.h"
#include "../../report/percentile.h"

#include <stdio.h>
#include <stdlib.h>

void scale_print_params(struct torture_run *run, const char *what)
{
	const struct scale_state *s = scale_state(run);
	const struct rcut_opt_run r = { .test = RCUT_TEST_SCALE,
					.nreaders = s->nreaders,
					.nwriters = s->nwriters,
					.ncpus = rcut_nr_cpus() };

	rcut_opt_print_params(stdout, run->cfg, &r, run->flavor->name, what);
}

void scale_print_repro(struct torture_run *run)
{
	char tag[128];

	snprintf(tag, sizeof(tag), "%s-scale", run->flavor->name);
	rcut_repro_print(stdout, tag, run->cfg, rcut_nr_cpus());
}

/*
 * How many "writer-duration" lines a run prints without --verbose: the
 * kernel's MAX_MEAS, which bounds its own (about 0.4 MB); a run keeps up
 * to a million durations (47 MB of lines).
 */
#define PRINTED_DURATIONS 10000

/* Of n durations, print every stride-th: all with --verbose, none with -q. */
static size_t print_stride(struct torture_run *run, size_t n)
{
	if (run->cfg->verbose > 1)
		return 1;
	if (run->cfg->verbose < 1)
		return 0;
	return n <= PRINTED_DURATIONS ?
		       1 :
		       (n + PRINTED_DURATIONS - 1) / PRINTED_DURATIONS;
}

/*
 * Every kept sample, writer by writer, printed as the kernel's
 * "writer-duration" lines (which kvm-recheck-rcuscale.sh reads) at
 * print_stride().
 */
static uint64_t *collect(struct torture_run *run, size_t *n)
{
	const struct scale_state *ss = scale_state(run);
	const char *name = run->flavor->name;
	size_t stride;
	uint64_t *all;

	*n = 0;
	for (int i = 0; i < ss->nwriters; i++)
		*n += scale_samples_kept(&ss->writers[i].samples);
	all = malloc((*n ? *n : 1) * sizeof(*all));
	if (!all)
		return NULL;
	stride = print_stride(run, *n);
	if (stride > 1)
		printf("%s-scale: printing one in %zu of the %zu grace-period durations kept (--verbose prints them all)\n",
		       name, stride, *n);
	*n = 0;
	for (int i = 0; i < ss->nwriters; i++) {
		const struct scale_samples *s = &ss->writers[i].samples;
		size_t kept = scale_samples_kept(s);

		for (size_t k = 0; k < kept; k++) {
			all[*n] = atomic_load(&s->ns[k]);
			if (stride && *n % stride == 0)
				printf("%s-scale: %4d writer-duration: %5zu %llu\n",
				       name, i, k, (unsigned long long)all[*n]);
			(*n)++;
		}
	}
	return all;
}

/* The kernel's per-writer and whole-run lines; returns the GP count. */
static uint64_t print_counts(struct torture_run *run,
			     const struct scale_result *r, size_t kept)
{
	const struct scale_state *ss = scale_state(run);
	const char *name = run->flavor->name;
	uint64_t gps = 0, discarded = 0;

	for (int i = 0; i < ss->nwriters; i++) {
		const struct scale_samples *s = &ss->writers[i].samples;

		printf("%s-scale: writer %d gps: %llu\n", name, i,
		       (unsigned long long)atomic_load(&s->seen));
		gps += atomic_load(&s->seen);
		discarded += atomic_load(&s->discarded);
	}
	printf("%s-scale: start: %llu end: %llu duration: %llu gps: %llu batches: %lu\n",
	       name, (unsigned long long)r->start_ns,
	       (unsigned long long)r->end_ns,
	       (unsigned long long)(r->end_ns - r->start_ns),
	       (unsigned long long)gps, r->batches);
	printf("%s-scale: discarded %llu grace periods in flight at the stop\n",
	       name, (unsigned long long)discarded);
	if (kept < gps)
		printf("%s-scale: the durations below are a uniform random sample of %zu of the %llu grace periods\n",
		       name, kept, (unsigned long long)gps);
	if (r->interrupted)
		printf("%s-scale: interrupted before every writer had --min-samples %ld grace periods and --duration had passed\n",
		       name, run->cfg->scale.min_samples);
	return gps;
}

/* Writers' CPU plus the flavor's threads', over the window, per GP. */
static void print_cpu(struct torture_run *run, const struct scale_result *r)
{
	const struct scale_state *ss = scale_state(run);
	const char *name = run->flavor->name;
	uint64_t writer_ns = 0, started = 0;
	char a[32], b[32], c[32];

	for (int i = 0; i < ss->nwriters; i++) {
		writer_ns += ss->writers[i].cpu_ns;
		started += ss->writers[i].gps;
	}
	printf("%s-scale: Writer CPU time: %.3f us for %llu grace periods started\n",
	       name, (double)writer_ns / 1e3, (unsigned long long)started);
	printf("%s-scale: Grace-period worker CPU time: %.3f us (%d threads of the flavor)\n",
	       name, (double)r->worker_cpu_ns / 1e3, r->nworkers);
	if (r->end_ns > r->start_ns) {
		double window_s = (double)(r->end_ns - r->start_ns) / 1e9;

		/* Sleeping updaters cost nothing; spinning ones show here. */
		printf("Updater CPU utilization: %s%% of one CPU over %s s\n",
		       rcut_awk_number((double)(writer_ns + r->worker_cpu_ns) /
					       1e7 / window_s,
				       a, sizeof(a)),
		       rcut_awk_number(window_s, b, sizeof(b)));
	}
	if (!started)
		return;
	printf("Updater CPU time per grace period: %s microseconds (writers %s, flavor threads %s)\n",
	       rcut_awk_number((double)(writer_ns + r->worker_cpu_ns) / 1e3 /
				       (double)started,
			       a, sizeof(a)),
	       rcut_awk_number((double)writer_ns / 1e3 / (double)started, b,
			       sizeof(b)),
	       rcut_awk_number((double)r->worker_cpu_ns / 1e3 / (double)started,
			       c, sizeof(c)));
}

/*
 * The flavor's stats line, as the torture test's stats block gets it (a
 * helper thread, a bounded wait): the hook may block on what hung.
 */
static void print_flavor_stats(struct torture_run *run)
{
	uint64_t bound = run->cfg->stall_timeout_ns / 4;
	char *line = torture_flavor_stats(
		run->flavor, bound < 500000000ULL ? bound : 500000000ULL);

	if (line)
		printf("%s\n", line);
	free(line);
}

void scale_report(struct torture_run *run, const struct scale_result *r)
{
	const struct rcut_flavor *f = run->flavor;
	struct rcut_gp_summary s;
	size_t n;
	uint64_t *all = collect(run, &n), gps;
	char ratio[32];

	gps = print_counts(run, r, n);
	if (n && all && rcut_gp_summarize(all, n, &s) == 0) {
		rcut_gp_summary_print(stdout, &s);
		rcut_gp_summary_free(&s);
	} else {
		printf("No rcuscale records found???\n");
	}
	free(all);
	/*
	 * kvm-recheck-rcuscale.sh's last figures, as it computes them from
	 * the start/end line above: its grace periods ($9) over one batch.
	 * The flavor's own batch count is on that line.
	 */
	printf("Grace periods: %llu Batches: 1 Ratio: %llu\n",
	       (unsigned long long)gps, (unsigned long long)gps);
	if (f->get_gp_seq && r->batches)
		printf("%s-scale: batches: %lu grace periods per batch: %s\n",
		       f->name, r->batches,
		       rcut_awk_number((double)gps / (double)r->batches, ratio,
				       sizeof(ratio)));
	print_cpu(run, r);
	print_flavor_stats(run);
}
