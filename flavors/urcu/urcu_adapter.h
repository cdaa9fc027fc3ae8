/* SPDX-License-Identifier: MIT */
/*
 * The body of a liburcu 0.13 flavor adapter, shared by flavors/{memb,mb,
 * signal,qsbr,bp}.c.  Each of those files defines URCU_FLAVOR (memb, mb,
 * ...), defines URCU_ADAPTER_QSBR for the QSBR flavor, includes its one
 * liburcu header with _LGPL_SOURCE (so the read side is inlined here), then
 * this file, then fills its table with URCU_ADAPTER_OPS.  liburcu's
 * headers must not be mixed in one translation unit, hence one file each.
 *
 * What the adapter adds to liburcu:
 * - a grace-period sequence (liburcu 0.13 exports none): a synchronize or
 *   a callback that sampled it at s before its grace period began moves it
 *   to at least s + 1 when the grace period has ended.  Concurrent callers
 *   sharing a grace period advance it once.
 * - polled grace periods built on that sequence, as liburcu 0.14 does: a
 *   cookie c is complete once the sequence reaches c + 2 (a grace period
 *   began after c was taken and has ended); start_gp_poll keeps a
 *   self-requeuing callback going until then.
 * - call_rcu queue modes: global, per simulated CPU, per thread.  Per CPU,
 *   each simulated CPU has its own queue and worker; offlining the CPU
 *   unpublishes it, waits a grace period, frees it (liburcu moves its
 *   pending callbacks to the default queue) and joins the worker;
 *   onlining creates a new one.
 * - QSBR: call() goes online if the caller is offline, since liburcu
 *   requires online callers.
 * - race points (rcut_race_point()): just inside the read-side section
 *   and just before leaving it (where liburcu's own DEBUG_YIELD test
 *   builds yield: 0.13's installed headers have no hook inside
 *   read_lock itself, see docs/race-points.md), around synchronize's
 *   sequence sampling, before handing a callback to liburcu (per CPU:
 *   with the CPU's queue chosen) and before invoking one.
 */
#ifndef FLAVORS_URCU_ADAPTER_H
#define FLAVORS_URCU_ADAPTER_H

#include <urcu/call-rcu.h>

#include "../lib_entry.h"

#include <pthread.h>
#include <rcutorture/flavor.h>
#include <stdatomic.h>
#include <stdint.h>

#define UA_CAT3_(a, b, c) a##b##c
#define UA_CAT3(a, b, c) UA_CAT3_(a, b, c)
/* UA(read_lock) is urcu_<flavor>_read_lock. */
#define UA(name) UA_CAT3(urcu_, URCU_FLAVOR, _##name)

/*
 * A call into liburcu's shared library (not its inlined read side), the
 * caller's emulated store buffer drained first (lib_entry.h): without it,
 * liburcu's call_rcu(), which takes a read lock of its own, read inside
 * our per-CPU read lock the reader count our lock had not yet written and
 * left it at -1 (every grace period then waited for that thread).
 */
#define UA_LIB(name) (rcut_sb_lib_entry(), UA(name))

_Static_assert(sizeof(struct rcu_head) <= 2 * sizeof(void *),
	       "liburcu's rcu_head must fit in rcut_head.flavor_priv[0..1]");

static atomic_ulong ua_gp_seq;
static atomic_ulong ua_poll_target;
static atomic_bool ua_poll_busy;
static struct rcut_head ua_poll_head;
static _Atomic enum rcut_call_mode ua_call_mode = RCUT_CALL_GLOBAL;
/* Serializes mode switches with CPU offline/online (the queue slots). */
static pthread_mutex_t ua_switch_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread bool ua_registered; /* a harness thread, not a worker */
static __thread struct call_rcu_data *ua_thread_crdp;
static struct call_rcu_data *_Atomic *ua_cpu_crdp; /* per simulated CPU */
static int ua_ncpus;

static unsigned long ua_get_gp_seq(void)
{
	return atomic_load_explicit(&ua_gp_seq, memory_order_acquire);
}

/* A grace period that began after the sequence read 'started' has ended. */
static void ua_gp_advance(unsigned long started)
{
	unsigned long cur = ua_get_gp_seq();

	while (cur < started + 1 &&
	       !atomic_compare_exchange_weak(&ua_gp_seq, &cur, started + 1))
		;
}

static int ua_read_lock(void)
{
	UA(read_lock)();
	rcut_race_point(RCUT_RACE_READ_LOCK);
	return 0;
}

static void ua_read_unlock(int idx)
{
	(void)idx;
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	UA(read_unlock)();
}

static void ua_synchronize(void)
{
	unsigned long started = ua_get_gp_seq();

	rcut_race_point(RCUT_RACE_GP_START); /* sequence sampled */
	UA_LIB(synchronize_rcu)();
	rcut_race_point(RCUT_RACE_GP_END); /* ended, sequence not moved */
	ua_gp_advance(started);
}

/* liburcu's callback: note the grace period, then run the harness's. */
static void ua_invoke(struct rcu_head *h)
{
	struct rcut_head *rh = (struct rcut_head *)(void *)h;

	ua_gp_advance((unsigned long)(uintptr_t)rh->flavor_priv[2]);
	rcut_race_point(RCUT_RACE_CB_INVOKE);
	rh->func(rh);
}

static void ua_free_queue(struct call_rcu_data *crdp);

/*
 * Per-thread mode: the calling harness thread's own queue and worker,
 * (re)selected at each call, since a switch of mode (switch_call_mode)
 * may have come in between.  Outside that mode a thread queues on the
 * default queue, and drops its own queue when it may (offline, for QSBR:
 * freeing waits for a grace period); its callbacks move to the default.
 */
static void ua_use_thread_queue(bool may_free)
{
	if (atomic_load(&ua_call_mode) != RCUT_CALL_PERTHREAD) {
		if (!ua_thread_crdp)
			return;
		UA_LIB(set_thread_call_rcu_data)(NULL);
		if (may_free) {
			ua_free_queue(ua_thread_crdp);
			ua_thread_crdp = NULL;
		}
		return;
	}
	if (!ua_registered)
		return;
	if (!ua_thread_crdp)
		ua_thread_crdp = UA_LIB(create_call_rcu_data)(0, -1);
	UA_LIB(set_thread_call_rcu_data)(ua_thread_crdp);
}

static void ua_call(struct rcut_head *head, void (*func)(struct rcut_head *))
{
#ifdef URCU_ADAPTER_QSBR
	bool was_offline = !UA(read_ongoing)();

	ua_use_thread_queue(was_offline);
	if (was_offline)
		UA(thread_online)();
#else
	/*
	 * Not inside a read-side section (a reader's call(), --reader-cbs):
	 * freeing the queue stops its worker, which may be waiting for a
	 * grace period that waits for this very section.
	 */
	ua_use_thread_queue(!UA(read_ongoing)());
#endif
	head->func = func;
	head->flavor_priv[2] = (void *)(uintptr_t)ua_get_gp_seq();
	if (atomic_load(&ua_call_mode) == RCUT_CALL_PERCPU) {
		int cpu = rcut_current_cpu();

		/* The read lock keeps an offlined CPU's queue alive. */
		UA(read_lock)();
		UA_LIB(set_thread_call_rcu_data)
		(cpu >= 0 && cpu < ua_ncpus ? atomic_load(&ua_cpu_crdp[cpu]) :
					      NULL);
		rcut_race_point(RCUT_RACE_CB_QUEUE); /* queue chosen */
		UA_LIB(call_rcu)((struct rcu_head *)(void *)head, ua_invoke);
		UA_LIB(set_thread_call_rcu_data)(ua_thread_crdp);
		UA(read_unlock)();
	} else {
		rcut_race_point(RCUT_RACE_CB_QUEUE);
		UA_LIB(call_rcu)((struct rcu_head *)(void *)head, ua_invoke);
	}
#ifdef URCU_ADAPTER_QSBR
	if (was_offline)
		UA(thread_offline)();
#endif
}

static void ua_barrier(void)
{
	UA_LIB(barrier)();
}

static unsigned long ua_get_gp_state(void)
{
	return ua_get_gp_seq();
}

static bool ua_poll_gp_state(unsigned long cookie)
{
	return (long)(ua_get_gp_seq() - cookie) >= 2;
}

/* Keep one callback circulating until the poll target is reached. */
static void ua_poll_cb(struct rcut_head *head)
{
	for (;;) {
		unsigned long target = atomic_load(&ua_poll_target);
		bool idle = false;

		if ((long)(ua_get_gp_seq() - target) < 0) {
			ua_call(head, ua_poll_cb);
			return;
		}
		atomic_store(&ua_poll_busy, false);
		/* A poller may have raised the target after our check. */
		if ((long)(ua_get_gp_seq() - atomic_load(&ua_poll_target)) >=
			    0 ||
		    !atomic_compare_exchange_strong(&ua_poll_busy, &idle, true))
			return;
	}
}

static unsigned long ua_start_gp_poll(void)
{
	unsigned long cookie = ua_get_gp_seq(), target = cookie + 2;
	unsigned long cur = atomic_load(&ua_poll_target);
	bool idle = false;

	while ((long)(cur - target) < 0 &&
	       !atomic_compare_exchange_weak(&ua_poll_target, &cur, target))
		;
	if (atomic_compare_exchange_strong(&ua_poll_busy, &idle, true))
		ua_call(&ua_poll_head, ua_poll_cb);
	return cookie;
}

static void ua_cond_sync(unsigned long cookie)
{
	if (!ua_poll_gp_state(cookie))
		ua_synchronize();
}

static int ua_set_call_mode(enum rcut_call_mode mode)
{
	atomic_store(&ua_call_mode, mode);
	return 0;
}

/* A queue in every empty per-CPU slot (under ua_switch_lock or init). */
static int ua_fill_cpu_queues(void)
{
	for (int cpu = 0; cpu < ua_ncpus; cpu++) {
		if (atomic_load(&ua_cpu_crdp[cpu]))
			continue;
		atomic_store(&ua_cpu_crdp[cpu],
			     UA_LIB(create_call_rcu_data)(0, -1));
		if (!atomic_load(&ua_cpu_crdp[cpu]))
			return -1;
	}
	return 0;
}

/* The slots exist in every mode, for a switch to percpu at run time. */
static int ua_init(void)
{
	ua_ncpus = rcut_nr_cpus();
	ua_cpu_crdp = calloc((size_t)ua_ncpus, sizeof(*ua_cpu_crdp));
	if (!ua_cpu_crdp)
		return -1;
	return ua_call_mode == RCUT_CALL_PERCPU ? ua_fill_cpu_queues() : 0;
}

/*
 * Leave percpu mode: empty every slot, wait until no call() can still
 * be using one (callers load it inside a read-side section), free them;
 * their callbacks move to the default queue.
 */
static void ua_drop_cpu_queues(void)
{
	struct call_rcu_data *old[ua_ncpus];

	for (int cpu = 0; cpu < ua_ncpus; cpu++)
		old[cpu] = atomic_exchange(&ua_cpu_crdp[cpu], NULL);
	UA_LIB(synchronize_rcu)();
	for (int cpu = 0; cpu < ua_ncpus; cpu++)
		if (old[cpu])
			ua_free_queue(old[cpu]);
}

/*
 * switch_call_mode (ABI version 3; the kernel's nocb toggling): per-CPU
 * queues are created on the way in and freed on the way out; per-thread
 * queues follow at each thread's next call().  Called from a torture
 * thread that is offline for QSBR.
 */
static __attribute__((unused)) int ua_switch_call_mode(enum rcut_call_mode mode)
{
	enum rcut_call_mode old;
	int ret = 0;

	pthread_mutex_lock(&ua_switch_lock);
	old = atomic_load(&ua_call_mode);
	if (mode == RCUT_CALL_PERCPU && old != mode)
		ret = ua_fill_cpu_queues();
	if (!ret)
		atomic_store(&ua_call_mode, mode);
	if (!ret && old == RCUT_CALL_PERCPU && mode != old)
		ua_drop_cpu_queues();
	pthread_mutex_unlock(&ua_switch_lock);
	return ret;
}

/* Stop and free a queue, joining its worker (0.13.2 does not). */
/*
 * liburcu 0.13.3 on joins the worker itself (RCUT_LIBURCU_JOINS_WORKER,
 * from the Makefile): a second join of a thread whose ID a new thread may
 * have taken could wait for that one.
 */
static void ua_free_queue(struct call_rcu_data *crdp)
{
#ifdef RCUT_LIBURCU_JOINS_WORKER
	UA_LIB(call_rcu_data_free)(crdp);
#else
	pthread_t worker = UA_LIB(get_call_rcu_thread)(crdp);

	UA_LIB(call_rcu_data_free)(crdp);
	pthread_join(worker, NULL);
#endif
}

static int ua_cpu_offline(int cpu)
{
	struct call_rcu_data *crdp;

	pthread_mutex_lock(&ua_switch_lock);
	crdp = ua_call_mode == RCUT_CALL_PERCPU ?
		       atomic_exchange(&ua_cpu_crdp[cpu], NULL) :
		       NULL;
	if (crdp) {
		UA_LIB(synchronize_rcu)(); /* no call() still uses it */
		ua_free_queue(crdp);
	}
	pthread_mutex_unlock(&ua_switch_lock);
	return 0;
}

static int ua_cpu_online(int cpu)
{
	int ret = 0;

	pthread_mutex_lock(&ua_switch_lock);
	if (ua_call_mode == RCUT_CALL_PERCPU &&
	    !atomic_load(&ua_cpu_crdp[cpu])) {
		struct call_rcu_data *crdp =
			UA_LIB(create_call_rcu_data)(0, -1);

		if (crdp)
			atomic_store(&ua_cpu_crdp[cpu], crdp);
		else
			ret = -1;
	}
	pthread_mutex_unlock(&ua_switch_lock);
	return ret;
}

static void ua_register_thread(void)
{
	UA_LIB(register_thread)();
	ua_registered = true;
}

/*
 * Free the thread's own queue: its pending callbacks move to the default
 * queue.  liburcu 0.13.2 does not join the worker it stops (an 8 MiB stack
 * leaked per queue), so ua_free_queue() joins it.  A QSBR thread goes offline first:
 * the worker's last grace period must not wait for this thread.
 */
static void ua_unregister_thread(void)
{
#ifdef URCU_ADAPTER_QSBR
	if (UA(read_ongoing)())
		UA(thread_offline)();
#endif
	if (ua_thread_crdp) {
		UA_LIB(set_thread_call_rcu_data)(NULL);
		ua_free_queue(ua_thread_crdp);
		ua_thread_crdp = NULL;
	}
	ua_registered = false;
	UA_LIB(unregister_thread)();
}

/*
 * QSBR's read side is empty: a compiler barrier per section (what the
 * kernel's non-preemptible rcu_read_lock() is) keeps the compiler from
 * deleting the loop.  The other flavors' sections store to memory.
 */
static void ua_ref_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		UA(read_lock)();
#ifdef URCU_ADAPTER_QSBR
		__asm__ __volatile__("" ::: "memory");
#endif
		UA(read_unlock)();
	}
}

#ifdef URCU_ADAPTER_QSBR
static void ua_quiescent_state(void)
{
	UA(quiescent_state)();
}

static void ua_thread_offline(void)
{
	UA(thread_offline)();
}

static void ua_thread_online(void)
{
	UA(thread_online)();
}

#define UA_QSBR_OPS                            \
	.quiescent_state = ua_quiescent_state, \
	.thread_offline = ua_thread_offline,   \
	.thread_online = ua_thread_online,
#else
#define UA_QSBR_OPS
#endif

#ifdef URCU_ADAPTER_GP_FUTEX
/* What synchronize_rcu() sleeps on until a reader wakes it (not bp's). */
static int *ua_gp_wait_word(void)
{
	return &UA(gp).futex;
}

#define UA_GP_WAIT_OPS .gp_wait_word = ua_gp_wait_word,
#else
#define UA_GP_WAIT_OPS
#endif

/*
 * The flavor's table: the built-in one (rcut_flavor_memb), or, in an
 * instrumented build (RCUT_SB_PLUGIN, the Makefile's -sb plugins), the
 * plugin's, named memb-sb, or in a plain plugin (RCUT_LIB_PLUGIN, built
 * against a variant of liburcu's source by ci/liburcu-mutants) the
 * plugin's, named memb.
 */
#ifdef RCUT_SB_PLUGIN
#define UA_TABLE(flavor) rcutorture_flavor
#define UA_NAME(flavor) #flavor "-sb"
#define UA_DESCRIPTION(text) text "; instrumented (store-buffer SDK)"
#ifdef RCUT_LIBURCU
extern const char rcutorture_flavor_library[];
const char rcutorture_flavor_library[] = RCUT_LIBURCU;
#endif
#elif defined(RCUT_LIB_PLUGIN)
#define UA_TABLE(flavor) rcutorture_flavor
#define UA_NAME(flavor) #flavor
#define UA_DESCRIPTION(text) \
	text "; a plugin built against liburcu's source (ci/liburcu-mutants)"
#else
#define UA_TABLE(flavor) UA_CAT3(rcut_flavor_, flavor, )
#define UA_NAME(flavor) #flavor
#define UA_DESCRIPTION(text) text
#endif

/* The hooks every liburcu adapter shares; name, description, caps vary. */
#define URCU_ADAPTER_OPS                                                      \
	.abi_version = RCUT_FLAVOR_ABI_VERSION, .init = ua_init,              \
	.register_thread = ua_register_thread,                                \
	.unregister_thread = ua_unregister_thread, .read_lock = ua_read_lock, \
	.read_unlock = ua_read_unlock, .synchronize = ua_synchronize,         \
	.synchronize_expedited = ua_synchronize, .call = ua_call,             \
	.barrier = ua_barrier, .set_call_mode = ua_set_call_mode,             \
	.get_gp_seq = ua_get_gp_seq, .get_gp_state = ua_get_gp_state,         \
	.start_gp_poll = ua_start_gp_poll, .poll_gp_state = ua_poll_gp_state, \
	.cond_sync = ua_cond_sync, .ref_loop = ua_ref_loop,                   \
	.cpu_offline = ua_cpu_offline, .cpu_online = ua_cpu_online,           \
	.switch_call_mode = ua_switch_call_mode, UA_QSBR_OPS UA_GP_WAIT_OPS

#endif /* FLAVORS_URCU_ADAPTER_H */
