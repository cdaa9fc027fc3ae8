// SPDX-License-Identifier: MIT
/*
 * busted-hang: liburcu's urcu-memb with one primitive that never returns,
 * a negative control for the stall watchdog (exit 4 with backtraces):
 * hang=sync (synchronize blocks), hang=barrier (barrier blocks),
 * hang=call (callbacks are never invoked), hang=read (read_lock blocks,
 * from busted-hang.after milliseconds into the run) or hang=lock (barrier
 * blocks holding the flavor's lock, which synchronize and the stats hook
 * then wait for: one hang and its victims).  A worker thread of its own
 * idles beside the torture threads, as a flavor's grace-period thread.
 */
#define _GNU_SOURCE
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "../registry.h"
#include "../urcu/urcu_adapter.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

enum { HANG_SYNC, HANG_BARRIER, HANG_CALL, HANG_READ, HANG_LOCK };

static const char *const hang_names[] = { "sync", "barrier", "call",
					  "read", "lock",    NULL };
static long hang = HANG_SYNC;
static long after_ms = 500;
static long nested_only;
static __thread int depth; /* this thread's read-side nesting */
static struct timespec start;
/* hang=lock: the barrier hangs holding it; synchronize and stats wait. */
static pthread_mutex_t flavor_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_ulong n_sync, n_barrier;
/* The worker: idles until cleanup. */
static pthread_t worker;
static pthread_mutex_t worker_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t worker_cond = PTHREAD_COND_INITIALIZER;
static bool worker_stop, worker_started;

static const struct rcut_param busted_hang_params[] = {
	{ "hang", "what never returns: sync, barrier, call, read or lock",
	  RCUT_PARAM_ENUM, 0, 0, hang_names, &hang },
	{ "after",
	  "ms into the run before read_lock starts to hang (hang=read)",
	  RCUT_PARAM_INT, 0, 3600000, NULL, &after_ms },
	{ "nested",
	  "hang=read hangs only in a nested read_lock, inside a section that holds grace periods up (0: any read_lock)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &nested_only },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

/* Block this thread for good (signal handlers still run). */
static void __attribute__((noreturn)) hang_forever(void)
{
	for (;;)
		pause();
}

/* The flavor's own thread: waits for cleanup (stall reports show it). */
static void *busted_hang_worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&worker_lock);
	while (!worker_stop)
		pthread_cond_wait(&worker_cond, &worker_lock);
	pthread_mutex_unlock(&worker_lock);
	return NULL;
}

static int busted_hang_init(void)
{
	clock_gettime(CLOCK_MONOTONIC, &start);
	worker_stop = false;
	worker_started =
		!pthread_create(&worker, NULL, busted_hang_worker, NULL);
	if (worker_started)
		pthread_setname_np(worker, "busted-hang-gp");
	return worker_started ? ua_init() : -1;
}

static void busted_hang_cleanup(void)
{
	if (!worker_started)
		return;
	pthread_mutex_lock(&worker_lock);
	worker_stop = true;
	pthread_cond_signal(&worker_cond);
	pthread_mutex_unlock(&worker_lock);
	pthread_join(worker, NULL);
	worker_started = false;
}

static int busted_hang_read_lock(void)
{
	struct timespec now;

	if (hang == HANG_READ && (!nested_only || depth > 0)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 +
			    (now.tv_nsec - start.tv_nsec) / 1000000 >=
		    after_ms)
			hang_forever();
	}
	depth++;
	return ua_read_lock();
}

static void busted_hang_read_unlock(int idx)
{
	depth--;
	ua_read_unlock(idx);
}

static void busted_hang_synchronize(void)
{
	atomic_fetch_add(&n_sync, 1);
	if (hang == HANG_SYNC)
		hang_forever();
	pthread_mutex_lock(&flavor_lock); /* hang=lock: held for good */
	pthread_mutex_unlock(&flavor_lock);
	ua_synchronize();
}

static void busted_hang_call(struct rcut_head *head,
			     void (*func)(struct rcut_head *))
{
	if (hang == HANG_CALL)
		return; /* queued forever */
	ua_call(head, func);
}

static void busted_hang_barrier(void)
{
	atomic_fetch_add(&n_barrier, 1);
	if (hang == HANG_BARRIER)
		hang_forever();
	if (hang == HANG_LOCK) {
		pthread_mutex_lock(&flavor_lock);
		hang_forever();
	}
	if (hang != HANG_CALL)
		ua_barrier();
}

/* Its counts, read under the flavor's lock: hang=lock blocks it. */
static void busted_hang_stats(FILE *out)
{
	pthread_mutex_lock(&flavor_lock);
	fprintf(out,
		"busted-hang: hang %s synchronize calls %lu barrier calls %lu\n",
		hang_names[hang], atomic_load(&n_sync),
		atomic_load(&n_barrier));
	pthread_mutex_unlock(&flavor_lock);
}

/* The shared adapter hooks, with the hanging ones replacing them. */
#pragma GCC diagnostic ignored "-Woverride-init"
const struct rcut_flavor rcut_flavor_busted_hang = {
	URCU_ADAPTER_OPS.name = "busted-hang",
	.description =
		"negative control: urcu-memb with a primitive that never returns (must STALL)",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC,
	.params = busted_hang_params,
	.init = busted_hang_init,
	.cleanup = busted_hang_cleanup,
	.stats = busted_hang_stats,
	.read_lock = busted_hang_read_lock,
	.read_unlock = busted_hang_read_unlock,
	.synchronize = busted_hang_synchronize,
	.synchronize_expedited = busted_hang_synchronize,
	.cond_sync = NULL,
	.poll_gp_state = NULL,
	.start_gp_poll = NULL,
	.get_gp_state = NULL,
	.call = busted_hang_call,
	.barrier = busted_hang_barrier,
};
