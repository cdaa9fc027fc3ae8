/* SPDX-License-Identifier: MIT */
/*
 * One consistent-enough reading of every counter of a run: what the stats
 * block, the verdict and the JSON document are made from.
 */
#ifndef REPORT_SNAPSHOT_H
#define REPORT_SNAPSHOT_H

#include "../torture/util/machine.h"

#include <stdbool.h>
#include <stdint.h>

#define RCUT_PIPE_LEN 10 /* pipe stages; histograms have PIPE_LEN + 1 slots */
#define RCUT_HIST_LEN (RCUT_PIPE_LEN + 1)
/* Grace-period kinds (enum rcut_gp_kind; torture/core/stats.c checks). */
#define RCUT_SNAP_GP_KINDS 7

struct rcut_snapshot {
	uint64_t elapsed_ns;	 /* since the threads started */
	const void *rtc;	 /* element readers currently see */
	uint64_t ver;		 /* writer updates */
	int tfle;		 /* free list empty */
	uint64_t rta, rtaf, rtf; /* allocations, failed allocations, frees */
	uint64_t rtmbe;		 /* reader saw an element marked not-in-use */
	uint64_t mbchk_fail, mbchk_tries; /* rtmbkf */
	uint64_t rtbe, rtbke, rtbf, rtb;  /* barrier / boost errors */
	uint64_t nt; /* --irqreader: signal-handler reads */
	uint64_t barrier_ok, barrier_attempts, barrier_errors;
	uint64_t barrier_ns_sum, barrier_ns_max; /* barrier-test latency */
	uint64_t read_exits;
	/* CPU offline simulation, the kernel's onoff field (ms). */
	long online_attempts, online_successes;
	long offline_attempts, offline_successes;
	long min_online_ms, max_online_ms, min_offline_ms, max_offline_ms;
	unsigned long sum_online_ms, sum_offline_ms;
	uint64_t migrations; /* threads moved off offline or idle CPUs */
	uint64_t nocb_offloads, nocb_deoffloads; /* call-queue toggles */
	uint64_t floods;			 /* callback floods completed */
	uint64_t max_rss_kib; /* the process's peak resident set so far */
	struct torture_machine machine; /* load, CPUs, others' share */
	uint64_t pipe[RCUT_HIST_LEN];	/* Reader Pipe */
	uint64_t batch[RCUT_HIST_LEN];	/* Reader Batch */
	uint64_t wcount[RCUT_HIST_LEN]; /* Free-Block Circulation */
	uint64_t reads;			/* read-side sections completed */
	uint64_t gps; /* grace periods completed (flavor sequence or waits) */
	uint64_t cbs_invoked; /* harness callbacks invoked */
	uint64_t cbs_early; /* invoked while a reader from before call() read */
	uint64_t cbs_dup;   /* invoked more than once */
	uint64_t cbs_lost;  /* callbacks never invoked by the final barrier */
	/* Failures any check reported, counted or not in a field above. */
	uint64_t failed_checks;
	/* Preemption injection: signals sent, delays the handler took. */
	uint64_t preempt_sent, preempt_delays, preempt_ns_max;
	/* Race points: passes, delays taken there. */
	uint64_t race_hits, race_delays, race_ns_max;
	/* Writer updates by GP kind: sync, exp, normal, cond, poll. */
	uint64_t writer_gps[RCUT_SNAP_GP_KINDS];
	/* Store-buffer emulation of an instrumented plugin, when it runs. */
	bool storebuf;
	uint64_t sb_buffered, sb_forwarded, sb_drains, sb_membarrier_drains;
	uint64_t sb_aged, sb_max_age_ns;
	uint64_t sb_late_loads; /* section loads made late (Arm model) */
	/* Its automatic race points, when they run (--auto-race). */
	bool auto_race;
	uint64_t ar_accesses, ar_points, ar_waits, ar_demotions;
	uint64_t ar_delay_ns_max;
	/* The flavor's stats line (its stats hook), NULL for none. */
	const char *flavor_stats;
};

/* Events per second over ns, 0 for a run of no measurable length. */
static inline double rcut_per_second(uint64_t count, uint64_t ns)
{
	return ns ? (double)count * 1e9 / (double)ns : 0.0;
}

#endif /* REPORT_SNAPSHOT_H */
