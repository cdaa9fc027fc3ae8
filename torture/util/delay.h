/* SPDX-License-Identifier: MIT */
/*
 * Injected delays, shared by race points (inject.c) and preemption
 * (preempt.c): a per-caller random stream, a duration drawn from a wide
 * distribution, and spinning or sleeping for it.  Everything here is
 * async-signal-safe (clock_gettime, nanosleep, sched_yield, plain
 * arithmetic), so the preemption signal handler may use it.
 */
#ifndef RCUT_TORTURE_DELAY_H
#define RCUT_TORTURE_DELAY_H

#include <stdbool.h>
#include <stdint.h>

/* Delays up to this long spin; longer ones sleep. */
#define DELAY_SPIN_MAX_NS 20000ULL
/* The short bucket's ceiling (liburcu's DEBUG_YIELD sleeps 0-50 us). */
#define DELAY_SHORT_MAX_NS 50000ULL
/* The floor of every drawn delay. */
#define DELAY_MIN_NS 1000ULL

/*
 * The stall rule: any single injected delay (a race-point delay or one
 * preemption) is at most stall_timeout / DELAY_STALL_DIVISOR.  A thread
 * can be away for a race-point delay with a preemption stacked on it,
 * at most stall_timeout / 2, so a thread the watchdog finds stuck for a
 * whole --stall-timeout is a real hang, not an injected delay.
 */
#define DELAY_STALL_DIVISOR 4

/* The longest single delay allowed under a given --stall-timeout. */
static inline uint64_t delay_stall_bound_ns(uint64_t stall_timeout_ns)
{
	return stall_timeout_ns / DELAY_STALL_DIVISOR;
}

/* CLOCK_MONOTONIC in ns. */
uint64_t delay_now_ns(void);

/* splitmix64 step: the next number of the stream at *state. */
uint64_t delay_rand(uint64_t *state);

/*
 * A delay in [min(DELAY_MIN_NS, max_ns), max_ns], roughly log-uniform:
 * seven draws in eight from DELAY_MIN_NS..DELAY_SHORT_MAX_NS (a few us
 * typically), one in eight from DELAY_SHORT_MAX_NS..max_ns (up to
 * several grace periods when max_ns is that long).  0 if max_ns is 0.
 */
uint64_t delay_draw_ns(uint64_t *state, uint64_t max_ns);

/* Busy-wait ns on the monotonic clock. */
void delay_spin_ns(uint64_t ns);

/* Sleep ns, resuming after signal handlers (EINTR). */
void delay_sleep_ns(uint64_t ns);

/*
 * Whether injected delays may sleep in the calling thread.  A thread that
 * stands for a task that never blocks (the need_resched loop of
 * --fwd-progress-need-resched) turns sleeping off: a sleep there would be
 * a voluntary context switch, which a flavor may rightly count as a
 * quiescent state, and the test would no longer test what it says.  Its
 * injected delays then spin for the same time, as the kernel's
 * preemption of a CPU-bound task does.  Thread-local, so the preemption
 * signal handler may read it.
 */
void delay_set_never_sleeps(bool on);

/* Wait ns: spin up to DELAY_SPIN_MAX_NS (or always, where sleeping is
 * off), else sleep.  True if it slept. */
bool delay_wait_ns(uint64_t ns);

/* Raise *max to v if v is larger (lock-free). */
void delay_max_u64(uint64_t *max, uint64_t v);

/* A spin-loop hint to the CPU. */
static inline void delay_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
}

/*
 * Per-thread random streams that a module reseeds as a whole: each
 * thread's stream is a function of the seed and of the order in which
 * threads first drew after the reseed.  Async-signal-safe.
 */
struct delay_streams {
	uint64_t seed_base;
	unsigned int generation; /* bumped by every reseed */
	unsigned int next_thread;
};

/* One thread's stream of a struct delay_streams (thread-local). */
struct delay_stream {
	uint64_t rng;
	unsigned int generation;
};

void delay_streams_reseed(struct delay_streams *s, uint64_t seed);
/* The calling thread's stream state, reseeded if s was; mix: an odd constant. */
uint64_t *delay_stream(struct delay_streams *s, struct delay_stream *mine,
		       uint64_t mix);

#endif /* RCUT_TORTURE_DELAY_H */
