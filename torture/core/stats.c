// SPDX-License-Identifier: MIT
/* Collecting the counters of every thread into one snapshot. */
#include "stats.h"
#include "run.h"
#include "inject.h"
#include "preempt.h"
#include "../../flavors/plugin.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

_Static_assert(RCUT_SNAP_GP_KINDS == RCUT_GP_NKINDS,
	       "report/snapshot.h counts the grace-period kinds of config.h");

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)

void torture_stats_start(struct torture_run *run)
{
	if (run->flavor->get_gp_seq)
		run->gp_seq_start = run->flavor->get_gp_seq();
}

/* Grace periods so far: the flavor's own count where it keeps one. */
static uint64_t gps_completed(struct torture_run *run)
{
	const struct rcut_flavor *f = run->flavor;

	if (!f->get_gp_seq)
		return LOAD(run->counters.sync_gps);
	if (f->gp_diff)
		return f->gp_diff(f->get_gp_seq(), run->gp_seq_start);
	return f->get_gp_seq() - run->gp_seq_start;
}

void torture_print_gp_state(struct torture_run *run, bool end)
{
	const struct rcut_flavor *f = run->flavor;
	unsigned long g = f->get_gp_seq ?
				  f->get_gp_seq() :
				  (unsigned long)LOAD(run->counters.sync_gps);

	printf("%s-%s: %s-test grace-period state: g%lu f0x0", f->name,
	       run->tag, end ? "End" : "Start", g);
	if (end)
		printf(" total-gps=%llu",
		       (unsigned long long)gps_completed(run));
	putchar('\n');
}

/* Peak memory: callback floods and queued callbacks show up here. */
static uint64_t max_rss_kib(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)ru.ru_maxrss; /* Linux counts in KiB */
}

/* The onoff field: attempts, successes and latencies (ms). */
static void snapshot_onoff(struct torture_run *run, struct rcut_snapshot *s)
{
	struct onoff_stats onoff;

	torture_onoff_read(run, &onoff);
	s->online_attempts = onoff.online_attempts;
	s->online_successes = onoff.online_successes;
	s->offline_attempts = onoff.offline_attempts;
	s->offline_successes = onoff.offline_successes;
	s->min_online_ms = onoff.min_online_ms;
	s->max_online_ms = onoff.max_online_ms;
	s->min_offline_ms = onoff.min_offline_ms;
	s->max_offline_ms = onoff.max_offline_ms;
	s->sum_online_ms = onoff.sum_online_ms;
	s->sum_offline_ms = onoff.sum_offline_ms;
}

/* The injection engines' counters (preempt.c, inject.c). */
static void snapshot_injection(struct rcut_snapshot *s)
{
	struct preempt_stats p;
	struct inject_stats r;

	preempt_snapshot(&p);
	s->preempt_sent = p.sent;
	s->preempt_delays = p.delays;
	s->preempt_ns_max = p.delay_ns_max;
	inject_snapshot(&r);
	s->race_hits = r.hits_total;
	s->race_delays = r.delays;
	s->race_ns_max = r.delay_ns_max;
}

/*
 * An instrumented plugin's figures while they run (storebuf.h): the
 * store-buffer emulation's and the automatic race points'.
 */
static void snapshot_storebuf(struct torture_run *run, struct rcut_snapshot *s)
{
	const struct rcut_storebuf_ops *sb = rcut_plugin_storebuf();
	struct rcut_storebuf_stats st;

	if (!sb)
		return;
	if (sb->sched_stats && run->cfg->auto_race) {
		struct rcut_sched_stats sc;
		struct inject_stats r;

		sb->sched_stats(&sc);
		inject_snapshot(&r);
		s->auto_race = true;
		s->ar_accesses = sc.accesses;
		s->ar_points = sc.points;
		s->ar_waits = sc.waits;
		s->ar_demotions = sc.demotions;
		s->ar_delay_ns_max = r.auto_delay_ns_max;
	}
	if (!run->cfg->store_buffer_delay_ns)
		return;
	sb->stats(&st);
	s->storebuf = true;
	s->sb_buffered = st.buffered;
	s->sb_forwarded = st.forwarded;
	s->sb_drains = st.drains;
	s->sb_membarrier_drains = st.membarrier_drains;
	s->sb_aged = st.aged;
	s->sb_max_age_ns = st.max_age_ns;
	s->sb_late_loads = LOAD(run->counters.late_loads);
}

/* The per-thread histograms, summed over the thread table. */
static void snapshot_threads(struct torture_run *run, struct rcut_snapshot *s)
{
	const struct torture_threads *th = &run->threads;

	for (int t = 0; t < th->n; t++) {
		for (int i = 0; i < RCUT_HIST_LEN; i++) {
			s->pipe[i] += LOAD(th->t[t].pipe[i]) +
				      LOAD(th->t[t].irq_pipe[i]);
			s->batch[i] += LOAD(th->t[t].batch[i]);
		}
		s->reads += LOAD(th->t[t].reads);
	}
}

void torture_snapshot(struct torture_run *run, struct rcut_snapshot *s)
{
	const struct torture_counters *c = &run->counters;

	memset(s, 0, sizeof(*s));
	s->elapsed_ns = torture_elapsed_ns(run);
	s->rtc = atomic_load_explicit(&run->pool.current, memory_order_relaxed);
	s->ver = LOAD(c->ver);
	s->tfle = torture_pool_empty(&run->pool);
	s->rta = LOAD(c->rta);
	s->rtaf = LOAD(c->rtaf);
	s->rtf = LOAD(c->rtf);
	s->rtmbe = LOAD(c->rtmbe);
	s->mbchk_fail = LOAD(c->mbchk_fail);
	s->mbchk_tries = LOAD(c->mbchk_tries);
	s->rtbe = LOAD(c->rtbe);
	s->barrier_ok = LOAD(c->barrier_ok);
	s->barrier_attempts = LOAD(c->barrier_attempts);
	s->barrier_ns_sum = LOAD(c->barrier_ns_sum);
	s->barrier_ns_max = LOAD(c->barrier_ns_max);
	s->barrier_errors = s->rtbe;
	s->read_exits = LOAD(c->read_exits);
	s->migrations = LOAD(c->migrations);
	s->floods = LOAD(c->floods);
	s->nocb_offloads = LOAD(c->nocb_offloads);
	s->nocb_deoffloads = LOAD(c->nocb_deoffloads);
	s->max_rss_kib = max_rss_kib();
	s->machine = torture_machine_since(&run->clock.machine);
	snapshot_onoff(run, s);
	snapshot_injection(s);
	snapshot_storebuf(run, s);
	s->cbs_invoked = LOAD(c->cbs_invoked);
	s->cbs_early = LOAD(c->cbs_early);
	s->cbs_dup = LOAD(c->cbs_dup);
	s->cbs_lost = LOAD(c->cbs_lost);
	s->failed_checks = LOAD(c->failed_checks);
	s->nt = LOAD(c->irq_reads);
	s->gps = gps_completed(run);
	for (int i = 0; i < RCUT_HIST_LEN; i++)
		s->wcount[i] = LOAD(c->wcount[i]);
	for (int k = 0; k < RCUT_GP_NKINDS; k++)
		s->writer_gps[k] = LOAD(c->writer_gps[k]);
	snapshot_threads(run, s);
}
_Static_assert(RCUT_GP_NKINDS ==
		       sizeof(((struct rcut_snapshot *)0)->writer_gps) /
			       sizeof(uint64_t),
	       "snapshot writer_gps must match enum rcut_gp_kind");
