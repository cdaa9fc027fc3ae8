// SPDX-License-Identifier: MIT
/*
 * The ref test's baselines: what a read-side section costs without RCU.
 * Each is a flavor table with only a read side and a ref_loop (the
 * harness never asks them for grace periods), so the ref test measures
 * them exactly as it measures flavors.  All readers share one counter or
 * lock, as the kernel's refscale refcnt/rwlock/lock do: the point is how
 * they scale.
 */
#include "ref.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define barrier() __asm__ __volatile__("" ::: "memory")

static void no_gp(void)
{
}

/* none: an empty section the compiler may not remove. */
static int none_lock(void)
{
	barrier();
	return 0;
}

static void none_unlock(int idx)
{
	(void)idx;
	barrier();
}

/* refcnt: one shared atomic reference count, taken and dropped. */
static atomic_long refcnt;

static int refcnt_lock(void)
{
	atomic_fetch_add_explicit(&refcnt, 1, memory_order_acquire);
	return 0;
}

static void refcnt_unlock(int idx)
{
	(void)idx;
	atomic_fetch_sub_explicit(&refcnt, 1, memory_order_release);
}

/* rwlock: the read side of one pthread rwlock. */
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;

static int rwlock_lock(void)
{
	pthread_rwlock_rdlock(&rwlock);
	return 0;
}

static void rwlock_unlock(int idx)
{
	(void)idx;
	pthread_rwlock_unlock(&rwlock);
}

/* mutex: one pthread mutex. */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static int mutex_lock(void)
{
	pthread_mutex_lock(&mutex);
	return 0;
}

static void mutex_unlock(int idx)
{
	(void)idx;
	pthread_mutex_unlock(&mutex);
}

/* The table, and a ref_loop with id's lock and unlock inlined. */
#define BASELINE(id, desc)                                \
	static void id##_loop(unsigned long n)            \
	{                                                 \
		for (unsigned long i = 0; i < n; i++)     \
			id##_unlock(id##_lock());         \
	}                                                 \
	static const struct rcut_flavor baseline_##id = { \
		.abi_version = RCUT_FLAVOR_ABI_VERSION,   \
		.name = #id,                              \
		.description = desc,                      \
		.read_lock = id##_lock,                   \
		.read_unlock = id##_unlock,               \
		.synchronize = no_gp,                     \
		.ref_loop = id##_loop,                    \
	}

BASELINE(none, "baseline: no protection at all");
BASELINE(refcnt, "baseline: one shared atomic reference count");
BASELINE(rwlock, "baseline: read side of one pthread rwlock");
BASELINE(mutex, "baseline: one pthread mutex");

const struct rcut_flavor *const ref_baselines[] = {
	&baseline_none, &baseline_refcnt, &baseline_rwlock, &baseline_mutex,
	NULL,
};

const struct rcut_flavor *ref_baseline_find(const char *name)
{
	for (int i = 0; ref_baselines[i]; i++)
		if (!strcmp(name, ref_baselines[i]->name))
			return ref_baselines[i];
	return NULL;
}

const char *ref_baseline_names(void)
{
	return "none, refcnt, rwlock, mutex";
}
