/* SPDX-License-Identifier: MIT */
/*
 * Race delays: the harness side of the flavor ABI's race points
 * (rcut_race_point() in <rcutorture/flavor.h>).  Off by default; while
 * on, each race point a flavor passes delays its caller with the
 * configured probability: a sched_yield(), a spin or a sleep, drawn from
 * delay_draw_ns() (mostly microseconds, one in eight up to max_delay_ns).
 * Self-contained: the caller passes the seed and limits; counters are
 * read with inject_snapshot().
 */
#ifndef RCUT_TORTURE_INJECT_H
#define RCUT_TORTURE_INJECT_H

#include <rcutorture/flavor.h>

#include <stdint.h>

/* What race points did since the last inject_reset_stats(). */
struct inject_stats {
	uint64_t hits[RCUT_RACE_NWHERE]; /* race points passed, per kind */
	uint64_t hits_total;
	uint64_t delays; /* hits that delayed: yields + spins + sleeps */
	uint64_t yields, spins, sleeps;
	uint64_t delay_ns_total; /* measured time spent delaying */
	uint64_t delay_ns_max;
	/* Automatic race points (RCUT_RACE_AUTO), not in the above. */
	uint64_t auto_delays, auto_delay_ns_total, auto_delay_ns_max;
};

/*
 * Turn race delays on (probability > 0) or off (probability 0).
 * probability: the chance, in [0, 1], that a race point delays;
 * max_delay_ns: the longest single delay (>= 1000; keep it at most
 * delay_stall_bound_ns(--stall-timeout), see delay.h); seed: the base of
 * every thread's random stream.  Threads pick the new settings up at
 * their next race point.  Returns 0, or -1 for a value out of range
 * (nothing changes then).
 */
int inject_configure(double probability, uint64_t max_delay_ns, uint64_t seed);

/*
 * Automatic race points: the instrumented plugin's SDK chooses the
 * accesses (storebuf.h, rcut_sched_configure), the harness delays each
 * one it is handed (RCUT_RACE_AUTO) from the same distribution, at most
 * max_delay_ns; 0 turns them off.  Returns 0, or -1 for a maximum below
 * DELAY_MIN_NS.
 */
int inject_auto_configure(uint64_t max_delay_ns, uint64_t seed);

/* Turn race delays off (the end of the run); counters are kept. */
void inject_stop(void);

/* Whether race delays are on. */
bool inject_enabled(void);

/* Sum the counters (racy but consistent enough for stats lines). */
void inject_snapshot(struct inject_stats *out);

/* Zero the counters (tests, and a harness that runs twice). */
void inject_reset_stats(void);

/* A short name for a race point kind ("read_lock", ...), for output. */
const char *inject_where_name(int where);

#endif /* RCUT_TORTURE_INJECT_H */
