// SPDX-License-Identifier: MIT
/* Collecting the counters of every thread into one snapshot. */
#include "torture.h"

#include <string.h>
#include <sys/resource.h>

struct torture_counters torture_counters;

#define LOAD(x) atomic_load_explicit(&(x), relaxed)

static unsigned long gp_seq_start;

void torture_stats_start(void)
{
	if (torture_flavor->get_gp_seq)
		gp_seq_start = torture_flavor->get_gp_seq();
}

/* Grace periods so far: the flavor's own count where it keeps one. */
static uint64_t gps_completed(void)
{
	const struct rcut_flavor *f = torture_flavor;

	if (!f->get_gp_seq)
		return LOAD(torture_counters.sync_gps);
	if (f->gp_diff)
		return f->gp_diff(f->get_gp_seq(), gp_seq_start);
	return f->get_gp_seq() - gp_seq_start;
}

/* Peak memory: callback floods and queued callbacks show up here. */
static uint64_t max_rss_kib(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)ru.ru_maxrss; /* Linux counts in KiB */
}

void torture_snapshot(struct rcut_snapshot *s, struct torture_thread *threads,
		      int nthreads)
{
	const struct torture_counters *c = &torture_counters;
	struct onoff_stats onoff;

	memset(s, 0, sizeof(*s));
	s->elapsed_ns = torture_elapsed_ns();
	s->rtc = atomic_load_explicit(&torture_current, relaxed);
	s->ver = LOAD(c->ver);
	s->tfle = torture_pool_empty();
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
	s->max_rss_kib = max_rss_kib();
	torture_onoff_read(&onoff);
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
	s->cbs_invoked = LOAD(c->cbs_invoked);
	s->cbs_early = LOAD(c->cbs_early);
	s->cbs_dup = LOAD(c->cbs_dup);
	s->gps = gps_completed();
	for (int i = 0; i < RCUT_HIST_LEN; i++)
		s->wcount[i] = LOAD(c->wcount[i]);
	for (int k = 0; k < RCUT_GP_NKINDS; k++)
		s->writer_gps[k] = LOAD(c->writer_gps[k]);
	for (int t = 0; t < nthreads; t++) {
		for (int i = 0; i < RCUT_HIST_LEN; i++) {
			s->pipe[i] += LOAD(threads[t].pipe[i]);
			s->batch[i] += LOAD(threads[t].batch[i]);
		}
		s->reads += LOAD(threads[t].reads);
	}
}
_Static_assert(RCUT_GP_NKINDS ==
		       sizeof(((struct rcut_snapshot *)0)->writer_gps) /
			       sizeof(uint64_t),
	       "snapshot writer_gps must match enum rcut_gp_kind");
