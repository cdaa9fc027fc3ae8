// SPDX-License-Identifier: MIT
/*
 * Injected delays: the random duration and the spin or sleep that takes
 * it (delay.h).  Async-signal-safe throughout: no locks, no allocation,
 * no stdio.
 */
#include "delay.h"

#include <errno.h>
#include <stdbool.h>
#include <time.h>

_Static_assert(__atomic_always_lock_free(sizeof(uint64_t), 0),
	       "delay counters must be lock-free to be signal-safe");

uint64_t delay_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t delay_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* floor(log2(v)) for v > 0. */
static int ilog2(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

/*
 * Roughly log-uniform in [lo, hi]: an octave picked uniformly, then a
 * uniform point inside it, clamped to the range.
 */
static uint64_t log_uniform(uint64_t *state, uint64_t lo, uint64_t hi)
{
	int a = ilog2(lo), b = ilog2(hi);
	int k = a + (int)(delay_rand(state) % (uint64_t)(b - a + 1));
	uint64_t v = (1ULL << k) + (delay_rand(state) & ((1ULL << k) - 1));

	return v < lo ? lo : v > hi ? hi : v;
}

uint64_t delay_draw_ns(uint64_t *state, uint64_t max_ns)
{
	uint64_t lo = max_ns < DELAY_MIN_NS ? max_ns : DELAY_MIN_NS;
	uint64_t short_max =
		max_ns < DELAY_SHORT_MAX_NS ? max_ns : DELAY_SHORT_MAX_NS;

	if (!max_ns)
		return 0;
	if (max_ns > DELAY_SHORT_MAX_NS && delay_rand(state) % 8 == 0)
		return log_uniform(state, DELAY_SHORT_MAX_NS, max_ns);
	return log_uniform(state, lo, short_max);
}

void delay_spin_ns(uint64_t ns)
{
	uint64_t end = delay_now_ns() + ns;

	while (delay_now_ns() < end)
		delay_cpu_relax();
}

void delay_sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL),
			       (long)(ns % 1000000000ULL) };
	int saved_errno = errno;

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	errno = saved_errno;
}

static __thread bool never_sleeps;

void delay_set_never_sleeps(bool on)
{
	never_sleeps = on;
}

bool delay_wait_ns(uint64_t ns)
{
	if (ns <= DELAY_SPIN_MAX_NS || never_sleeps) {
		delay_spin_ns(ns);
		return false;
	}
	delay_sleep_ns(ns);
	return true;
}

void delay_max_u64(uint64_t *max, uint64_t v)
{
	uint64_t cur = __atomic_load_n(max, __ATOMIC_RELAXED);

	while (v > cur &&
	       !__atomic_compare_exchange_n(max, &cur, v, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void delay_streams_reseed(struct delay_streams *s, uint64_t seed)
{
	__atomic_store_n(&s->seed_base, seed, __ATOMIC_RELAXED);
	__atomic_fetch_add(&s->generation, 1, __ATOMIC_RELEASE);
}

uint64_t *delay_stream(struct delay_streams *s, struct delay_stream *mine,
		       uint64_t mix)
{
	unsigned int gen = __atomic_load_n(&s->generation, __ATOMIC_ACQUIRE);

	if (mine->generation != gen) {
		uint64_t id = __atomic_fetch_add(&s->next_thread, 1,
						 __ATOMIC_RELAXED);

		mine->rng = __atomic_load_n(&s->seed_base, __ATOMIC_RELAXED) ^
			    (id + 1) * mix;
		mine->generation = gen;
	}
	return &mine->rng;
}
