// SPDX-License-Identifier: MIT
/*
 * DPDK's QSBR library (rte_rcu_qsbr, librte_rcu 22.11) as a flavor,
 * without the EAL (rte_eal_init() is never called).
 *
 * Mapping:
 * - one QS variable of dpdk-qsbr.max_threads threads (rte_rcu_qsbr_init);
 *   each thread that uses the flavor takes a free thread id (our own
 *   allocator: DPDK leaves ids to the application), then
 *   rte_rcu_qsbr_thread_register + rte_rcu_qsbr_thread_online; leaving:
 *   offline + unregister, the id back in the pool;
 * - read_lock/read_unlock: rte_rcu_qsbr_lock/unlock (empty unless DPDK is
 *   built with RTE_LIBRTE_RCU_DEBUG); quiescent_state:
 *   rte_rcu_qsbr_quiescent; thread_offline/online: the same DPDK calls;
 * - synchronize: rte_rcu_qsbr_start, then rte_rcu_qsbr_check without
 *   wait and a 50 us sleep until done (dpdk-qsbr.sync=poll, the default:
 *   DPDK's own wait spins, which starves the readers it waits for when
 *   threads outnumber cores), or rte_rcu_qsbr_synchronize(v,
 *   RTE_QSBR_THRID_INVALID) (=synchronize); either with the caller
 *   offline around it: DPDK allows only one of several concurrent
 *   synchronize callers to report its own quiescent state, and the
 *   harness has many updaters;
 * - call(): token = rte_rcu_qsbr_start(v), queued for one worker that
 *   invokes callbacks in order once rte_rcu_qsbr_check(v, token) says
 *   every online reader has reported a quiescent state since;
 *   barrier waits until the worker has invoked everything queued before
 *   it.  DPDK's defer queue (rte_rcu_qsbr_dq_create) allocates with
 *   rte_zmalloc and rte_ring_create, which fail (ENOMEM) without the EAL
 *   heap, hence the start/check worker.
 * Every blocking wait goes offline first: a thread that waits online
 * holds up every rte_rcu_qsbr_check, its own wait's included.
 * DPDK has no expedited or polled grace periods and no GP sequence: the
 * adapter keeps one (gpseq_advance()).
 */
#include "../lib_entry.h"
#include "../registry.h"
#include "handoff.h"

#include <pthread.h>
#include <rte_rcu_qsbr.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long dq_max_threads = 128;
static long dq_poll_us = 1000;
static long dq_check_wait;
static const char *const dq_sync_names[] = { "synchronize", "poll", NULL };
enum { DQ_SYNC_SYNCHRONIZE, DQ_SYNC_POLL };
static long dq_sync = DQ_SYNC_POLL;
static const char *const dq_check_names[] = { "api", "scan", NULL };
enum { DQ_CHECK_API, DQ_CHECK_SCAN };
static long dq_check = DQ_CHECK_API;

static const struct rcut_param dq_params[] = {
	{ "max_threads",
	  "threads the QS variable holds (rte_rcu_qsbr_init's max_threads); more concurrent harness threads fail the run",
	  RCUT_PARAM_INT, 1, 65536, NULL, &dq_max_threads },
	{ "poll_us",
	  "microseconds the callback worker sleeps after an rte_rcu_qsbr_check that was not yet done",
	  RCUT_PARAM_INT, 1, 1000000, NULL, &dq_poll_us },
	{ "check_wait",
	  "the worker calls rte_rcu_qsbr_check with wait=true (spins in DPDK until done) instead of polling",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &dq_check_wait },
	{ "sync",
	  "synchronize: rte_rcu_qsbr_synchronize (DPDK spins until done), or poll: rte_rcu_qsbr_start, then rte_rcu_qsbr_check without wait and a 50 us sleep until done",
	  RCUT_PARAM_ENUM, 0, 0, dq_sync_names, &dq_sync },
	{ "check",
	  "api: the worker and sync=poll ask rte_rcu_qsbr_check; scan: they read DPDK's per-thread counters themselves, never its acked_token cache (see docs/findings/dpdk-qsbr-early-callback.md)",
	  RCUT_PARAM_ENUM, 0, 0, dq_check_names, &dq_check },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

static struct rte_rcu_qsbr *dq_v;
static struct handoff dq_q;
static pthread_t dq_worker;
static pthread_mutex_t dq_ids_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *dq_id_used; /* our thread-id pool */
static atomic_uint dq_gen;	  /* bumped per init: stale thread ids */
static atomic_ulong dq_checks, dq_checks_done, dq_overflow;
static atomic_ulong dq_gp_seq; /* see gpseq_advance() */

static __thread int dq_id = -1;
static __thread unsigned int dq_id_gen;
static __thread bool dq_online;

/* The caller's thread id, registered and online on first use. */
static int dq_self(void)
{
	if (__builtin_expect(dq_id >= 0 && dq_id_gen == atomic_load(&dq_gen),
			     1))
		return dq_id;
	dq_id = -1;
	pthread_mutex_lock(&dq_ids_lock);
	for (int i = 0; i < dq_max_threads; i++)
		if (!dq_id_used[i]) {
			dq_id_used[i] = 1;
			dq_id = i;
			break;
		}
	pthread_mutex_unlock(&dq_ids_lock);
	if (dq_id < 0) {
		/* Readers would go unprotected: a hard error, not a skip. */
		atomic_fetch_add(&dq_overflow, 1);
		fprintf(stderr,
			"dpdk-qsbr: more than dpdk-qsbr.max_threads=%ld threads; raise it\n",
			dq_max_threads);
		abort();
	}
	dq_id_gen = atomic_load(&dq_gen);
	rcut_sb_lib_entry(); /* into librte_rcu */
	rte_rcu_qsbr_thread_register(dq_v, (unsigned int)dq_id);
	rte_rcu_qsbr_thread_online(dq_v, (unsigned int)dq_id);
	dq_online = true;
	return dq_id;
}

static void dq_register_thread(void)
{
	dq_self();
}

static void dq_unregister_thread(void)
{
	if (dq_id < 0 || dq_id_gen != atomic_load(&dq_gen))
		return;
	rte_rcu_qsbr_thread_offline(dq_v, (unsigned int)dq_id);
	rcut_sb_lib_entry(); /* into librte_rcu */
	rte_rcu_qsbr_thread_unregister(dq_v, (unsigned int)dq_id);
	pthread_mutex_lock(&dq_ids_lock);
	dq_id_used[dq_id] = 0;
	pthread_mutex_unlock(&dq_ids_lock);
	dq_id = -1;
	dq_online = false;
}

static int dq_read_lock(void)
{
	rte_rcu_qsbr_lock(dq_v, (unsigned int)dq_self());
	rcut_race_point(RCUT_RACE_READ_LOCK);
	return 0;
}

static void dq_read_unlock(int idx)
{
	(void)idx;
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	rte_rcu_qsbr_unlock(dq_v, (unsigned int)dq_id);
}

static void dq_quiescent_state(void)
{
	rte_rcu_qsbr_quiescent(dq_v, (unsigned int)dq_self());
}

static void dq_thread_offline(void)
{
	rte_rcu_qsbr_thread_offline(dq_v, (unsigned int)dq_self());
	dq_online = false;
}

static void dq_thread_online(void)
{
	rte_rcu_qsbr_thread_online(dq_v, (unsigned int)dq_self());
	dq_online = true;
}

/* Go offline for a blocking wait; returns whether to come back online. */
static bool dq_wait_begin(void)
{
	bool was = dq_id >= 0 && dq_id_gen == atomic_load(&dq_gen) && dq_online;

	if (was)
		dq_thread_offline();
	return was;
}

static void dq_wait_end(bool was_online)
{
	if (was_online)
		dq_thread_online();
}

/*
 * check=scan: whether every thread DPDK counts as online has reported a
 * quiescent state at or after token t, read from its counters alone (as
 * rte_rcu_qsbr_check's scan does, without its acked_token shortcut and
 * without storing one).  Unused and unregistered ids read 0, offline.
 */
static bool dq_scan(uint64_t t)
{
	for (uint32_t i = 0; i < dq_v->max_threads; i++) {
		uint64_t c = __atomic_load_n(&dq_v->qsbr_cnt[i].cnt,
					     __ATOMIC_ACQUIRE);

		if (c != __RTE_QSBR_CNT_THR_OFFLINE && c < t)
			return false;
	}
	return true;
}

/* Whether token t's grace period has ended, by the chosen check. */
static bool dq_done(uint64_t t, bool wait)
{
	if (dq_check == DQ_CHECK_API)
		return rte_rcu_qsbr_check(dq_v, t, wait);
	while (!dq_scan(t))
		if (!wait)
			return false;
	return true;
}

static void dq_synchronize(void)
{
	bool was = dq_wait_begin();

	unsigned long started = gpseq_get(&dq_gp_seq);

	rcut_race_point(RCUT_RACE_GP_START);
	if (dq_sync == DQ_SYNC_SYNCHRONIZE) {
		rcut_sb_lib_entry(); /* into librte_rcu */
		rte_rcu_qsbr_synchronize(dq_v, RTE_QSBR_THRID_INVALID);
	} else {
		uint64_t t = rte_rcu_qsbr_start(dq_v);
		struct timespec nap = { 0, 50000 };

		rcut_race_point(RCUT_RACE_GP_WAIT);
		while (!dq_done(t, false))
			nanosleep(&nap, NULL);
	}
	rcut_race_point(RCUT_RACE_GP_END);
	gpseq_advance(&dq_gp_seq, started);
	dq_wait_end(was);
}

static void dq_call(struct rcut_head *head, void (*func)(struct rcut_head *))
{
	head->func = func;
	head->flavor_priv[1] = (void *)(uintptr_t)gpseq_get(&dq_gp_seq);
	head->flavor_priv[0] = (void *)(uintptr_t)rte_rcu_qsbr_start(dq_v);
	rcut_race_point(RCUT_RACE_CB_QUEUE);
	handoff_push(&dq_q, head);
}

/* Whether the grace period of callback h's token has ended. */
static bool dq_ready(struct rcut_head *h)
{
	int done =
		dq_done((uint64_t)(uintptr_t)h->flavor_priv[0], dq_check_wait);

	atomic_fetch_add_explicit(&dq_checks, 1, memory_order_relaxed);
	if (done)
		atomic_fetch_add_explicit(&dq_checks_done, 1,
					  memory_order_relaxed);
	return done;
}

/* The worker: invoke queued callbacks in order as their tokens complete. */
static void *dq_worker_fn(void *arg)
{
	struct rcut_head *fifo = NULL, **tail = &fifo;
	unsigned long breq;
	bool stop;

	(void)arg;
	for (;;) {
		struct rcut_head *h = handoff_take(
			&dq_q, fifo ? dq_poll_us * 1000L : 100000000L, &breq,
			&stop);
		unsigned long n = 0;

		if (h) {
			*tail = h;
			while (handoff_next(h))
				h = handoff_next(h);
			tail = (struct rcut_head **)&h->flavor_priv[2];
		}
		while (fifo && dq_ready(fifo)) {
			h = fifo;
			fifo = handoff_next(h);
			if (!fifo)
				tail = &fifo;
			gpseq_advance(
				&dq_gp_seq,
				(unsigned long)(uintptr_t)h->flavor_priv[1]);
			rcut_race_point(RCUT_RACE_CB_INVOKE);
			h->func(h);
			n++;
		}
		if (n)
			handoff_progress(&dq_q, n, breq);
		if (stop && !fifo)
			return NULL;
	}
}

static int dq_init(void)
{
	size_t sz = rte_rcu_qsbr_get_memsize((uint32_t)dq_max_threads);

	sz = (sz + 127) & ~(size_t)127;
	dq_v = aligned_alloc(128, sz);
	dq_id_used = calloc((size_t)dq_max_threads, 1);
	if (!dq_v || !dq_id_used ||
	    rte_rcu_qsbr_init(dq_v, (uint32_t)dq_max_threads))
		return -1;
	atomic_fetch_add(&dq_gen, 1);
	atomic_store(&dq_checks, 0);
	atomic_store(&dq_checks_done, 0);
	atomic_store(&dq_gp_seq, 0);
	handoff_init(&dq_q);
	return pthread_create(&dq_worker, NULL, dq_worker_fn, NULL) ? -1 : 0;
}

static void dq_cleanup(void)
{
	handoff_stop(&dq_q);
	pthread_join(dq_worker, NULL);
	atomic_fetch_add(&dq_gen, 1);
	free(dq_v);
	free(dq_id_used);
	dq_v = NULL;
	dq_id_used = NULL;
	dq_id = -1;
}

static void dq_barrier(void)
{
	bool was = dq_wait_begin();

	handoff_wait_invoked(&dq_q);
	dq_wait_end(was);
}

static unsigned long dq_get_gp_seq(void)
{
	return gpseq_get(&dq_gp_seq);
}

/* DPDK's own counters: token, acked token, threads; the worker's checks. */
static void dq_stats(FILE *out)
{
	fprintf(out,
		"dpdk-qsbr: token %" PRIu64 " acked %" PRIu64
		" threads %u/%u checks %lu done %lu backlog %lu\n",
		__atomic_load_n(&dq_v->token, __ATOMIC_RELAXED),
		__atomic_load_n(&dq_v->acked_token, __ATOMIC_RELAXED),
		__atomic_load_n(&dq_v->num_threads, __ATOMIC_RELAXED),
		dq_v->max_threads, atomic_load(&dq_checks),
		atomic_load(&dq_checks_done), handoff_backlog(&dq_q));
}

/* The read side inlined, for --test ref (empty without RCU debug). */
static void dq_ref_loop(unsigned long n)
{
	unsigned int id = (unsigned int)dq_self();

	for (unsigned long i = 0; i < n; i++) {
		rte_rcu_qsbr_lock(dq_v, id);
		__asm__ __volatile__("" ::: "memory");
		rte_rcu_qsbr_unlock(dq_v, id);
	}
}

/*
 * The built-in table, or in the instrumented build (RCUT_SB_PLUGIN, the
 * Makefile's dpdk-qsbr-sb plugin) the plugin's.
 */
#ifdef RCUT_SB_PLUGIN
const struct rcut_flavor rcutorture_flavor = {
	.name = "dpdk-qsbr-sb",
	.description =
		"DPDK rte_rcu_qsbr without the EAL: QSBR readers, a start/check callback worker; instrumented (store-buffer SDK)",
#else
const struct rcut_flavor rcut_flavor_dpdk_qsbr = {
	.name = "dpdk-qsbr",
	.description =
		"DPDK rte_rcu_qsbr without the EAL: QSBR readers, synchronize, callbacks via a start/check worker",
#endif
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING | RCUT_CAP_QSBR,
	.params = dq_params,
	.init = dq_init,
	.cleanup = dq_cleanup,
	.register_thread = dq_register_thread,
	.unregister_thread = dq_unregister_thread,
	.read_lock = dq_read_lock,
	.read_unlock = dq_read_unlock,
	.quiescent_state = dq_quiescent_state,
	.thread_offline = dq_thread_offline,
	.thread_online = dq_thread_online,
	.synchronize = dq_synchronize,
	.call = dq_call,
	.barrier = dq_barrier,
	.get_gp_seq = dq_get_gp_seq,
	.stats = dq_stats,
	.ref_loop = dq_ref_loop,
};
