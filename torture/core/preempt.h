/* SPDX-License-Identifier: MIT */
/*
 * Preemption injection: the userspace form of the kernel's
 * preempt_duration/preempt_interval.  preempt_thread() sends a thread
 * PREEMPT_SIGNAL; the handler keeps it away for a random time (spinning
 * up to DELAY_SPIN_MAX_NS, sleeping beyond), drawn by delay_draw_ns()
 * up to the configured maximum.  The thread stops at whatever
 * instruction it was on, inside the flavor's read_lock included.
 *
 * The handler is async-signal-safe (clock_gettime, nanosleep, atomics),
 * keeps errno, and never stacks: a thread signalled again sooner after
 * its last injected delay than that delay lasted (or than 100 us) runs
 * on (counted as skipped), so it is away at most half the time and any
 * one absence is bounded by the maximum (see the stall rule in delay.h).
 */
#ifndef RCUT_TORTURE_PREEMPT_H
#define RCUT_TORTURE_PREEMPT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Our signal: not SIGUSR1 (liburcu's signal flavor, SIGRCU), not
 * SIGRTMIN + 1 (the watchdog's backtrace requests), not SIGRTMIN (kept
 * free for flavors and libraries that take the first real-time signal).
 */
#define PREEMPT_SIGNAL (SIGRTMIN + 2)

struct preempt_stats {
	uint64_t sent;	      /* signals preempt_thread() sent */
	uint64_t send_failed; /* the thread had gone (ESRCH) or other */
	uint64_t delays;      /* handler runs that kept the thread away */
	uint64_t skipped;     /* handler runs too soon after the last */
	uint64_t spins, sleeps;
	uint64_t delay_ns_total; /* measured time spent in the handler */
	uint64_t delay_ns_max;
};

/*
 * Set the longest single preemption (>= 1000 ns; keep it at most
 * delay_stall_bound_ns(--stall-timeout)) and the seed of the handler's
 * random streams.  May be called again; 0, or -1 for a bad value.
 */
int preempt_configure(uint64_t max_duration_ns, uint64_t seed);

/* Install the handler (before the threads start).  0, or -1 and errno. */
int preempt_install(void);

/* The signal number used (PREEMPT_SIGNAL, resolved at run time). */
int preempt_signal(void);

/*
 * Preempt the thread with kernel id os_tid (gettid()) of this process.
 * 0, or -1 with errno (ESRCH: it exited).
 */
int preempt_thread(pid_t os_tid);

/* Sum the counters. */
void preempt_snapshot(struct preempt_stats *out);

/*
 * Injected preemptions the calling thread has taken so far: a reader
 * compares it around read_lock to learn it was stopped inside it.
 */
uint64_t preempt_self_delays(void);

/* Zero the counters. */
void preempt_reset_stats(void);

#endif /* RCUT_TORTURE_PREEMPT_H */
