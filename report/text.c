// SPDX-License-Identifier: MIT
/*
 * Kernel-format stats lines, field for field as rcu_torture_stats_print()
 * prints them, so scripts written for kernel console logs parse ours.
 */
#include "text.h"

#include "histogram.h"
#include "verdict.h"
#include "../torture/util/value.h"

void rcut_report_stats(FILE *out, const char *flavor,
		       const struct rcut_snapshot *s)
{
	char hist[RCUT_HIST_LEN * 24];

	flockfile(out);
	fprintf(out,
		"%s-torture: rtc: %p ver: %llu tfle: %d rta: %llu rtaf: %llu rtf: %llu rtmbe: %llu rtmbkf: %llu/%llu rtbe: %llu rtbke: %llu rtbf: %llu rtb: %llu nt: %llu ",
		flavor, s->rtc, (unsigned long long)s->ver, s->tfle,
		(unsigned long long)s->rta, (unsigned long long)s->rtaf,
		(unsigned long long)s->rtf, (unsigned long long)s->rtmbe,
		(unsigned long long)s->mbchk_fail,
		(unsigned long long)s->mbchk_tries, (unsigned long long)s->rtbe,
		(unsigned long long)s->rtbke, (unsigned long long)s->rtbf,
		(unsigned long long)s->rtb, (unsigned long long)s->nt);
	/* torture_onoff_stats(): ons/attempts:offs/attempts, latencies. */
	fprintf(out, "onoff: %ld/%ld:%ld/%ld %ld,%ld:%ld,%ld %lu:%lu (HZ=%d) ",
		s->online_successes, s->online_attempts, s->offline_successes,
		s->offline_attempts, s->min_online_ms, s->max_online_ms,
		s->min_offline_ms, s->max_offline_ms, s->sum_online_ms,
		s->sum_offline_ms, RCUT_HZ);
	fprintf(out,
		"barrier: %llu/%llu:%llu read-exits: %llu preempts: %llu/%llu races: %llu/%llu",
		(unsigned long long)s->barrier_ok,
		(unsigned long long)s->barrier_attempts,
		(unsigned long long)s->barrier_errors,
		(unsigned long long)s->read_exits,
		(unsigned long long)s->preempt_sent,
		(unsigned long long)s->preempt_delays,
		(unsigned long long)s->race_hits,
		(unsigned long long)s->race_delays);
	/* Automatic race points: accesses seen, delays taken (points or
	 * PCT's waits), only while they run. */
	if (s->auto_race)
		fprintf(out, " auto-races: %llu/%llu",
			(unsigned long long)s->ar_accesses,
			(unsigned long long)(s->ar_points + s->ar_waits));
	/* The kernel's nocb-toggles field, only when toggling ran. */
	if (s->nocb_offloads || s->nocb_deoffloads)
		fprintf(out, " nocb-toggles: %llu:%llu",
			(unsigned long long)s->nocb_offloads,
			(unsigned long long)s->nocb_deoffloads);
	fputc('\n', out);
	fprintf(out, "%s-torture: %sReader Pipe: %s\n", flavor,
		rcut_snapshot_failed(s, NULL, 0) ? "!!! " : "",
		rcut_hist_format(s->pipe, RCUT_HIST_LEN, hist, sizeof(hist)));
	fprintf(out, "%s-torture: Reader Batch: %s\n", flavor,
		rcut_hist_format(s->batch, RCUT_HIST_LEN, hist, sizeof(hist)));
	fprintf(out, "%s-torture: Free-Block Circulation: %s\n", flavor,
		rcut_hist_format(s->wcount, RCUT_HIST_LEN, hist, sizeof(hist)));
	/* An instrumented plugin's store-buffer emulation (storebuf.h). */
	if (s->storebuf)
		fprintf(out,
			"%s-torture: Store buffer: buffered: %llu forwarded: %llu drains: %llu membarrier drains: %llu aged: %llu max age: %.1f us late loads: %llu\n",
			flavor, (unsigned long long)s->sb_buffered,
			(unsigned long long)s->sb_forwarded,
			(unsigned long long)s->sb_drains,
			(unsigned long long)s->sb_membarrier_drains,
			(unsigned long long)s->sb_aged,
			(double)s->sb_max_age_ns / 1e3,
			(unsigned long long)s->sb_late_loads);
	/* Where the kernel calls cur_ops->stats(): srcu's per-CPU line. */
	if (s->flavor_stats)
		fprintf(out, "%s-torture: %s\n", flavor, s->flavor_stats);
	fprintf(out,
		"%s-torture: Callbacks: invoked: %llu early: %llu duplicate: %llu lost: %llu\n",
		flavor, (unsigned long long)s->cbs_invoked,
		(unsigned long long)s->cbs_early,
		(unsigned long long)s->cbs_dup,
		(unsigned long long)s->cbs_lost);
	/*
	 * Every failure a check reported, when there was one; without "!!!":
	 * parse-console.sh counts a FAILURE's instances in the last "!!!"
	 * line, which must be Reader Pipe's, as the kernel's is.
	 */
	if (s->failed_checks)
		fprintf(out, "%s-torture: Failed checks: %llu\n", flavor,
			(unsigned long long)s->failed_checks);
	funlockfile(out);
	fflush(out);
}

void rcut_report_rates(FILE *out, const char *flavor,
		       const struct rcut_snapshot *s)
{
	fprintf(out,
		"%s-torture: Rates over %.2f s: reads/s: %.0f updates/s: %.1f GPs/s: %.1f callbacks/s: %.1f\n",
		flavor, (double)s->elapsed_ns / 1e9,
		rcut_per_second(s->reads, s->elapsed_ns),
		rcut_per_second(s->ver, s->elapsed_ns),
		rcut_per_second(s->gps, s->elapsed_ns),
		rcut_per_second(s->cbs_invoked, s->elapsed_ns));
	fprintf(out,
		"%s-torture: Writer GPs: sync: %llu exp: %llu normal: %llu cond: %llu poll: %llu\n",
		flavor, (unsigned long long)s->writer_gps[0],
		(unsigned long long)s->writer_gps[1],
		(unsigned long long)s->writer_gps[2],
		(unsigned long long)s->writer_gps[3],
		(unsigned long long)s->writer_gps[4]);
	if (s->writer_gps[5] || s->writer_gps[6])
		fprintf(out,
			"%s-torture: Writer GPs, full cookies: cond-full: %llu poll-full: %llu\n",
			flavor, (unsigned long long)s->writer_gps[5],
			(unsigned long long)s->writer_gps[6]);
	fprintf(out,
		"%s-torture: CPUs: thread migrations: %llu callback floods: %llu\n",
		flavor, (unsigned long long)s->migrations,
		(unsigned long long)s->floods);
	fprintf(out, "%s-torture: Memory: max RSS: %.1f MiB\n", flavor,
		(double)s->max_rss_kib / 1024.0);
	if (s->machine.load1 >= 0 && s->machine.cpus > 0) {
		char what[128];

		torture_machine_describe(&s->machine, what, sizeof(what));
		fprintf(out, "%s-torture: Machine: %s\n", flavor, what);
	}
	if (s->barrier_attempts)
		fprintf(out,
			"%s-torture: Barrier test latency: mean %.1f us max %.1f us over %llu barriers\n",
			flavor,
			(double)s->barrier_ns_sum / 1e3 /
				(double)s->barrier_attempts,
			(double)s->barrier_ns_max / 1e3,
			(unsigned long long)s->barrier_attempts);
	fflush(out);
}
