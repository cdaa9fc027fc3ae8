// SPDX-License-Identifier: MIT
/*
 * Race delays (inject.h): the exported race-point slow path
 * rcut_race_delay() and the enable flag rcut_race_enabled that the
 * inline rcut_race_point() tests.  Counters are spread over cache-line
 * shards, so that readers hitting race points millions of times a second
 * do not all bounce one line; a thread keeps to one shard.
 *
 * No locked instruction and no fence on the way through a race point: a
 * locked add in read_lock would drain the caller's store buffer, and the
 * store-to-load reorderings that a missing read-side fence allows (the
 * tight reads of reader.c) would never be seen.  So a shard's counters
 * are added to with a plain load and store: a shard is one thread's until
 * more than NSHARDS threads have hit race points, after which two threads
 * may share one and, rarely, an increment is lost (they are statistics).
 */
#include "inject.h"

#include "../util/delay.h"

#include <sched.h>
#include <string.h>

#define NSHARDS 64

/* The delays one kind of race point took. */
struct delays {
	uint64_t yields, spins, sleeps, ns;
};

struct shard {
	uint64_t hits[RCUT_RACE_NWHERE];
	struct delays hand;  /* the flavor's own rcut_race_point()s */
	struct delays autod; /* automatic ones (RCUT_RACE_AUTO) */
} __attribute__((aligned(64)));

/* Read by every race point (flavor.h); exported to plugins. */
int rcut_race_enabled;

static struct shard shards[NSHARDS];
static uint64_t delay_ns_max, auto_ns_max;
static uint64_t threshold; /* delay if a 32-bit draw is below this */
static uint64_t max_ns;
static struct delay_streams streams; /* reseeded by every configure */
/* Automatic race points: on or off, their longest delay, their draws. */
static int auto_on;
static uint64_t auto_max_ns;
static struct delay_streams auto_streams;

static __thread struct delay_stream rng, auto_rng;
static __thread int shard_id = -1;

static const char *const where_names[RCUT_RACE_NWHERE] = {
	[RCUT_RACE_READ_LOCK] = "read_lock",
	[RCUT_RACE_READ_UNLOCK] = "read_unlock",
	[RCUT_RACE_GP_START] = "gp_start",
	[RCUT_RACE_GP_FLIP] = "gp_flip",
	[RCUT_RACE_GP_WAIT] = "gp_wait",
	[RCUT_RACE_GP_END] = "gp_end",
	[RCUT_RACE_CB_QUEUE] = "cb_queue",
	[RCUT_RACE_CB_INVOKE] = "cb_invoke",
	[RCUT_RACE_OTHER] = "other",
	[RCUT_RACE_AUTO] = "auto",
};

const char *inject_where_name(int where)
{
	if (where < 0 || where >= RCUT_RACE_NWHERE)
		where = RCUT_RACE_OTHER;
	return where_names[where];
}

int inject_configure(double probability, uint64_t max_delay_ns, uint64_t seed)
{
	if (!(probability >= 0.0 && probability <= 1.0))
		return -1;
	if (probability > 0.0 && max_delay_ns < DELAY_MIN_NS)
		return -1;
	if (probability == 0.0) {
		inject_stop();
		return 0;
	}
	__atomic_store_n(&threshold, (uint64_t)(probability * 4294967296.0),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&max_ns, max_delay_ns, __ATOMIC_RELAXED);
	delay_streams_reseed(&streams, seed);
	__atomic_store_n(&rcut_race_enabled, 1, __ATOMIC_RELEASE);
	return 0;
}

void inject_stop(void)
{
	__atomic_store_n(&rcut_race_enabled, 0, __ATOMIC_RELEASE);
}

bool inject_enabled(void)
{
	return __atomic_load_n(&rcut_race_enabled, __ATOMIC_RELAXED);
}

int inject_auto_configure(uint64_t max_delay_ns, uint64_t seed)
{
	if (max_delay_ns && max_delay_ns < DELAY_MIN_NS)
		return -1;
	if (!max_delay_ns) {
		__atomic_store_n(&auto_on, 0, __ATOMIC_RELEASE);
		return 0;
	}
	__atomic_store_n(&auto_max_ns, max_delay_ns, __ATOMIC_RELAXED);
	delay_streams_reseed(&auto_streams, seed ^ 0xa0761d6478bd642fULL);
	__atomic_store_n(&auto_on, 1, __ATOMIC_RELEASE);
	return 0;
}

/* This thread's random stream, reseeded after every configure. */
static uint64_t *thread_rng(void)
{
	return delay_stream(&streams, &rng, 0xd1b54a32d192ed03ULL);
}

static struct shard *thread_shard(void)
{
	if (shard_id < 0)
		shard_id = (int)(__atomic_fetch_add(&streams.next_thread, 1,
						    __ATOMIC_RELAXED) %
				 NSHARDS);
	return &shards[shard_id];
}

/* Add to a shard's counter: a plain load and store, no locked add. */
static void add(uint64_t *counter, uint64_t n)
{
	__atomic_store_n(counter,
			 __atomic_load_n(counter, __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

/* Take one delay: a yield one time in four, else a spin or a sleep. */
static void take_delay(struct delays *c, uint64_t *r, uint64_t max,
		       uint64_t *longest)
{
	uint64_t start = delay_now_ns(), d, took;

	if (delay_rand(r) % 4 == 0) {
		sched_yield();
		add(&c->yields, 1);
	} else {
		d = delay_draw_ns(r, max);
		if (delay_wait_ns(d))
			add(&c->sleeps, 1);
		else
			add(&c->spins, 1);
	}
	took = delay_now_ns() - start;
	add(&c->ns, took);
	delay_max_u64(longest, took);
}

/* An automatic race point: the SDK chose it, so it always delays. */
static void auto_delay(void)
{
	struct shard *s;

	if (!__atomic_load_n(&auto_on, __ATOMIC_ACQUIRE))
		return;
	s = thread_shard();
	add(&s->hits[RCUT_RACE_AUTO], 1);
	take_delay(
		&s->autod,
		delay_stream(&auto_streams, &auto_rng, 0x8ebc6af09c88c6e3ULL),
		__atomic_load_n(&auto_max_ns, __ATOMIC_RELAXED), &auto_ns_max);
}

void rcut_race_delay(enum rcut_race_where where)
{
	struct shard *s;
	uint64_t *r;

	if (where == RCUT_RACE_AUTO) {
		auto_delay();
		return;
	}
	if (!__atomic_load_n(&rcut_race_enabled, __ATOMIC_ACQUIRE))
		return;
	s = thread_shard();
	r = thread_rng();
	if ((unsigned int)where >= RCUT_RACE_NWHERE)
		where = RCUT_RACE_OTHER;
	add(&s->hits[where], 1);
	if ((delay_rand(r) >> 32) <
	    __atomic_load_n(&threshold, __ATOMIC_RELAXED))
		take_delay(&s->hand, r,
			   __atomic_load_n(&max_ns, __ATOMIC_RELAXED),
			   &delay_ns_max);
}

void inject_snapshot(struct inject_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < NSHARDS; i++) {
		struct shard *s = &shards[i];

		for (int w = 0; w < RCUT_RACE_NWHERE; w++) {
			uint64_t h =
				__atomic_load_n(&s->hits[w], __ATOMIC_RELAXED);

			out->hits[w] += h;
			if (w != RCUT_RACE_AUTO)
				out->hits_total += h;
		}
		out->yields +=
			__atomic_load_n(&s->hand.yields, __ATOMIC_RELAXED);
		out->spins += __atomic_load_n(&s->hand.spins, __ATOMIC_RELAXED);
		out->sleeps +=
			__atomic_load_n(&s->hand.sleeps, __ATOMIC_RELAXED);
		out->delay_ns_total +=
			__atomic_load_n(&s->hand.ns, __ATOMIC_RELAXED);
		out->auto_delay_ns_total +=
			__atomic_load_n(&s->autod.ns, __ATOMIC_RELAXED);
	}
	out->delays = out->yields + out->spins + out->sleeps;
	out->delay_ns_max = __atomic_load_n(&delay_ns_max, __ATOMIC_RELAXED);
	out->auto_delays = out->hits[RCUT_RACE_AUTO];
	out->auto_delay_ns_max =
		__atomic_load_n(&auto_ns_max, __ATOMIC_RELAXED);
}

void inject_reset_stats(void)
{
	for (int i = 0; i < NSHARDS; i++) {
		struct shard *s = &shards[i];

		for (int w = 0; w < RCUT_RACE_NWHERE; w++)
			__atomic_store_n(&s->hits[w], 0, __ATOMIC_RELAXED);
		memset(&s->hand, 0, sizeof(s->hand));
		memset(&s->autod, 0, sizeof(s->autod));
	}
	__atomic_store_n(&delay_ns_max, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&auto_ns_max, 0, __ATOMIC_RELAXED);
}
