/* SPDX-License-Identifier: MIT */
/*
 * Store-buffer emulation (sdk/storebuf/): the two calls an instrumented
 * plugin exports for the harness.  A plugin compiled with
 * -fsanitize=thread and linked with librcutorture-storebuf.a (pkg-config
 * rcutorture-storebuf) routes every C11/__atomic access through the
 * emulation, which delays its stores in a per-thread FIFO as an x86 store
 * buffer does, only much longer.  The harness finds these two symbols with
 * dlsym() when it loads the plugin; a plugin without them is not
 * instrumented.
 */
#ifndef RCUTORTURE_STOREBUF_H
#define RCUTORTURE_STOREBUF_H

#include <stdint.h>

#define RCUT_STOREBUF_CONFIGURE "rcut_storebuf_configure"
#define RCUT_STOREBUF_STATS "rcut_storebuf_stats"
#define RCUT_STOREBUF_MODEL "rcut_storebuf_model"

/* Which reorderings the emulation shows (rcut_storebuf_model_fn). */
enum rcut_storebuf_model {
	RCUT_STOREBUF_TSO, /* x86: seq_cst stores and RMWs drain the buffer */
	RCUT_STOREBUF_ARM, /* Armv8: seq_cst stores are buffered too; a
			      seq_cst load, fence or RMW drains */
};

/* What the emulation did so far, summed over every thread. */
struct rcut_storebuf_stats {
	uint64_t buffered;	    /* atomic stores put in a store buffer */
	uint64_t forwarded;	    /* loads served from the own buffer */
	uint64_t drains;	    /* own-buffer drains: fence, sc op, RMW */
	uint64_t membarrier_drains; /* every buffer drained (membarrier) */
	uint64_t aged;	     /* entries committed when their delay ran out */
	uint64_t max_age_ns; /* longest an entry stayed buffered */
};

/*
 * Start (max_delay_ns > 0) or stop (0) buffering.  Each buffered store
 * becomes visible after a random delay of at most max_delay_ns (later if
 * its thread is descheduled), or earlier at a drain.  seed seeds the
 * delays.  Call it while no plugin thread runs (before the flavor's init).
 */
typedef void (*rcut_storebuf_configure_fn)(uint64_t seed,
					   uint64_t max_delay_ns);

/* Copy the figures into *out. */
typedef void (*rcut_storebuf_stats_fn)(struct rcut_storebuf_stats *out);

/*
 * Loads that pass a later store, under RCUT_STOREBUF_ARM (optional: an
 * older library has neither call).  The harness's own loads are not
 * instrumented; it arms the calling thread before a read_unlock() with
 * late_loads(fn, arg): if the thread's first store after that is weaker
 * than release, with no fence, read-modify-write, release store, plain
 * write or libc synchronisation call before it, the emulation makes that
 * store visible at once and calls fn(arg) inside it, where the harness
 * loads again what it loaded before: as late as Arm lets those loads be.
 * Anything else first disarms it.  Returns -1 (and arms nothing) unless
 * stores are buffered under the Arm model; fn NULL disarms.
 * order_count() moves whenever the calling thread orders its accesses or
 * any thread calls membarrier(2): a load made late in fn counts only if
 * the count did not move since before late_loads() armed the thread (a
 * grace period may see the store and end before fn even starts).
 */
#define RCUT_STOREBUF_LATE_LOADS "rcut_storebuf_late_loads"
#define RCUT_STOREBUF_ORDER_COUNT "rcut_storebuf_order_count"
typedef int (*rcut_storebuf_late_loads_fn)(void (*fn)(void *arg), void *arg);
typedef uint64_t (*rcut_storebuf_order_count_fn)(void);

/* Pick the model before configure (optional: absent means TSO only). */
typedef void (*rcut_storebuf_model_fn)(enum rcut_storebuf_model model);

/*
 * Automatic race points (sdk/storebuf/sched.c): the same library also
 * perturbs the schedule at the plugin's instrumented accesses (every
 * load, store, read-modify-write and fence, plain accesses included), so
 * that no hand-placed rcut_race_point() is needed.  At a chosen access
 * the thread calls rcut_race_delay(RCUT_RACE_AUTO), which yields, spins
 * or sleeps from the race-delay distribution.  It works with and without
 * the store-buffer emulation.  Found with dlsym() like the calls above;
 * an older library without them has none.
 */
#define RCUT_SCHED_CONFIGURE "rcut_sched_configure"
#define RCUT_SCHED_STATS "rcut_sched_stats"

enum rcut_sched_mode {
	RCUT_SCHED_OFF,
	/* one access in about rate, chosen uniformly, is a race point */
	RCUT_SCHED_UNIFORM,
	/*
	 * PCT (Burckhardt et al., ASPLOS 2010) adapted to threads the OS
	 * schedules: random thread priorities, redrawn every epoch; a
	 * thread that sees a higher one running waits at its accesses;
	 * depth - 1 random change points per epoch demote the thread that
	 * reaches one below all others.
	 */
	RCUT_SCHED_PCT,
};

struct rcut_sched_params {
	enum rcut_sched_mode mode;
	uint64_t rate;	    /* uniform: mean accesses between points */
	unsigned int depth; /* pct: the bug depth d (>= 1) */
	uint64_t epoch_ns;  /* pct: how long priorities hold */
	uint64_t seed;
};

struct rcut_sched_stats {
	uint64_t accesses;  /* instrumented accesses seen while on */
	uint64_t points;    /* uniform: race points taken there */
	uint64_t waits;	    /* pct: accesses a lower priority waited at */
	uint64_t demotions; /* pct: change points reached */
};

/* Start (mode != off) or stop; threads see it at their next access. */
typedef void (*rcut_sched_configure_fn)(const struct rcut_sched_params *p);

/* Copy the figures into *out. */
typedef void (*rcut_sched_stats_fn)(struct rcut_sched_stats *out);

#endif /* RCUTORTURE_STOREBUF_H */
