// SPDX-License-Identifier: MIT
/*
 * Concurrency Kit's epoch reclamation (ck_epoch, libck 0.7.1) as a flavor.
 *
 * Mapping:
 * - every thread that uses the flavor has its own ck_epoch_record_t
 *   (ck_epoch_recycle(), else a new one and ck_epoch_register());
 *   unregister_thread gives it back with ck_epoch_unregister() (ck never
 *   lets a registered record be freed: they are freed at cleanup only);
 * - read_lock/read_unlock are ck_epoch_begin/ck_epoch_end on the caller's
 *   record, with one ck_epoch_section_t per nesting level when
 *   ck-epoch.sections=1 (the index read_lock returns is the level);
 * - synchronize is ck_epoch_synchronize on the caller's record, or with
 *   ck-epoch.wait=yield|sleep (the default) ck_epoch_synchronize_wait
 *   with a callback that yields or sleeps while a reader holds it up;
 * - call() hands the callback to one worker, which owns a record of its
 *   own: it queues them with ck_epoch_call() and dispatches them with
 *   ck_epoch_poll() (ck-epoch.reclaim=poll) or ck_epoch_synchronize() +
 *   ck_epoch_reclaim() (=sync); barrier asks the worker for a
 *   ck_epoch_barrier() after everything queued before it.
 *
 * Why the hand-off: ck_epoch_call() pushes with a single-producer stack
 * and ck_epoch_poll()/ck_epoch_reclaim() pop without atomics, so ck allows
 * them only on the caller's own record (or ck_epoch_call_strict()
 * producers), and a poll writes the polled record's epoch, which would
 * corrupt a reader's record.  Calls on separate records (begin/end,
 * synchronize, register) need no serialization and get none.
 * ck has no expedited or polled grace periods and no GP sequence: the
 * adapter keeps one (gpseq_advance()).
 */
#include "../lib_entry.h"
#include "../registry.h"
#include "handoff.h"

#include <ck_epoch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#define CE_MAX_NEST 16 /* sections per thread; deeper ones pass NULL */

static const char *const ce_reclaim_names[] = { "poll", "sync", NULL };
enum { CE_RECLAIM_POLL, CE_RECLAIM_SYNC };

static long ce_sections = 1;
static long ce_reclaim = CE_RECLAIM_POLL;
static long ce_batch = 1;
static long ce_poll_us = 1000;
static const char *const ce_wait_names[] = { "spin", "yield", "sleep", NULL };
enum { CE_WAIT_SPIN, CE_WAIT_YIELD, CE_WAIT_SLEEP };
static long ce_wait = CE_WAIT_SLEEP;

static const struct rcut_param ce_params[] = {
	{ "sections",
	  "pass a ck_epoch_section_t to each ck_epoch_begin/end (1) or NULL (0)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &ce_sections },
	{ "reclaim",
	  "how the callback worker dispatches: poll (ck_epoch_poll) or sync (ck_epoch_synchronize + ck_epoch_reclaim)",
	  RCUT_PARAM_ENUM, 0, 0, ce_reclaim_names, &ce_reclaim },
	{ "batch",
	  "deferral batch: callbacks the worker queues with ck_epoch_call before it dispatches (it also dispatches when idle)",
	  RCUT_PARAM_INT, 1, 1000000, NULL, &ce_batch },
	{ "poll_us",
	  "microseconds the worker waits between dispatch attempts while callbacks are pending",
	  RCUT_PARAM_INT, 1, 1000000, NULL, &ce_poll_us },
	{ "wait",
	  "how a grace-period wait waits for a reader: spin (ck_epoch_synchronize), or yield / sleep 20 us in ck_epoch_synchronize_wait's callback",
	  RCUT_PARAM_ENUM, 0, 0, ce_wait_names, &ce_wait },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

/* A record and the link that lets cleanup free it. */
struct ce_record {
	ck_epoch_record_t rec; /* first: ck's records are cache aligned */
	struct ce_record *next;
};

static ck_epoch_t ce_epoch;
static struct handoff ce_q;
static pthread_t ce_worker;
static struct ce_record *ce_wrec;
static pthread_mutex_t ce_all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ce_record *ce_all; /* every record, freed at cleanup */
static unsigned long ce_nrecords;
static atomic_uint ce_gen; /* bumped per init: stale thread records */
static atomic_ulong ce_polls, ce_barriers, ce_dispatched;
static atomic_ulong ce_gp_seq; /* see gpseq_advance() */

static __thread ck_epoch_record_t *ce_rec;
static __thread unsigned int ce_rec_gen;
static __thread int ce_depth;
static __thread ck_epoch_section_t ce_sec[CE_MAX_NEST];

/* A new registered record, remembered for cleanup. */
static ck_epoch_record_t *ce_new_record(void)
{
	struct ce_record *r = aligned_alloc(128, (sizeof(*r) + 127) & ~127ul);

	if (!r)
		abort();
	memset(r, 0, sizeof(*r));
	rcut_sb_lib_entry(); /* into libck */
	ck_epoch_register(&ce_epoch, &r->rec, NULL);
	pthread_mutex_lock(&ce_all_lock);
	r->next = ce_all;
	ce_all = r;
	ce_nrecords++;
	pthread_mutex_unlock(&ce_all_lock);
	return &r->rec;
}

/* The caller's record: its own, a recycled one or a new one. */
static ck_epoch_record_t *ce_self(void)
{
	unsigned int gen = atomic_load_explicit(&ce_gen, memory_order_relaxed);

	if (__builtin_expect(ce_rec && ce_rec_gen == gen, 1))
		return ce_rec;
	rcut_sb_lib_entry(); /* into libck */
	ce_rec = ck_epoch_recycle(&ce_epoch, NULL);
	if (!ce_rec)
		ce_rec = ce_new_record();
	ce_rec_gen = gen;
	ce_depth = 0;
	return ce_rec;
}

static void ce_register_thread(void)
{
	ce_self();
}

/* Give the record back for ck_epoch_recycle() (never freed before cleanup). */
static void ce_unregister_thread(void)
{
	rcut_sb_lib_entry(); /* into libck */
	if (ce_rec && ce_rec_gen == atomic_load(&ce_gen))
		ck_epoch_unregister(ce_rec);
	ce_rec = NULL;
}

static int ce_read_lock(void)
{
	ck_epoch_record_t *rec = ce_self();
	int d = ce_depth++;

	ck_epoch_begin(rec, ce_sections && d < CE_MAX_NEST ? &ce_sec[d] : NULL);
	rcut_race_point(RCUT_RACE_READ_LOCK);
	return d;
}

static void ce_read_unlock(int d)
{
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	ck_epoch_end(ce_rec,
		     ce_sections && d < CE_MAX_NEST ? &ce_sec[d] : NULL);
	ce_depth--;
}

/*
 * ck's wait callback (ck_epoch_wait_cb_t): called while a grace-period
 * wait finds a reader still in an older epoch; ck's "custom blocking
 * behavior" hook.  Spinning starves the readers it waits for when
 * threads outnumber cores, as rcutorture's simulated CPUs do.
 */
static void ce_wait_cb(ck_epoch_t *epoch, ck_epoch_record_t *rec, void *ct)
{
	struct timespec nap = { 0, 20000 };

	(void)epoch;
	(void)rec;
	(void)ct;
	rcut_race_point(RCUT_RACE_GP_WAIT);
	if (ce_wait == CE_WAIT_YIELD)
		sched_yield();
	else
		nanosleep(&nap, NULL);
}

/* One grace period on rec's behalf, waiting as ck-epoch.wait says. */
static void ce_gp(ck_epoch_record_t *rec)
{
	rcut_sb_lib_entry(); /* into libck */
	if (ce_wait == CE_WAIT_SPIN)
		ck_epoch_synchronize(rec);
	else
		ck_epoch_synchronize_wait(rec->global, ce_wait_cb, NULL);
}

static void ce_synchronize(void)
{
	ck_epoch_record_t *rec = ce_self();
	unsigned long started = gpseq_get(&ce_gp_seq);

	rcut_race_point(RCUT_RACE_GP_START);
	ce_gp(rec);
	rcut_race_point(RCUT_RACE_GP_END);
	gpseq_advance(&ce_gp_seq, started);
}

static void ce_call(struct rcut_head *head, void (*func)(struct rcut_head *))
{
	head->func = func;
	rcut_race_point(RCUT_RACE_CB_QUEUE);
	handoff_push(&ce_q, head);
}

/* ck's callback: the entry is the head's flavor_priv[0..1]. */
static void ce_invoke(ck_epoch_entry_t *entry)
{
	struct rcut_head *h = (struct rcut_head *)(void *)entry;

	atomic_fetch_add_explicit(&ce_dispatched, 1, memory_order_relaxed);
	rcut_race_point(RCUT_RACE_CB_INVOKE);
	h->func(h);
}

/* One dispatch attempt on the worker's record, by the reclaim mode. */
static void ce_dispatch(void)
{
	atomic_fetch_add_explicit(&ce_polls, 1, memory_order_relaxed);
	if (ce_reclaim == CE_RECLAIM_POLL) {
		rcut_sb_lib_entry(); /* into libck */
		ck_epoch_poll(&ce_wrec->rec);
	} else {
		ce_gp(&ce_wrec->rec);
		rcut_sb_lib_entry(); /* into libck */
		ck_epoch_reclaim(&ce_wrec->rec);
	}
}

/* The worker: queue handed-off callbacks on its record, dispatch them. */
static void *ce_worker_fn(void *arg)
{
	unsigned long breq, bdone = 0, since = 0, before, invoked;
	unsigned long oldest = 0; /* sequence before the oldest pending one */
	bool stop;

	(void)arg;
	for (;;) {
		ck_epoch_record_t *w = &ce_wrec->rec;
		long wait = w->n_pending ? ce_poll_us * 1000L : 100000000L;
		struct rcut_head *h = handoff_take(&ce_q, wait, &breq, &stop);
		bool idle = !h;

		if (h && !w->n_pending)
			oldest = gpseq_get(&ce_gp_seq);
		for (; h; h = handoff_next(h), since++)
			ck_epoch_call(w, (ck_epoch_entry_t *)(void *)h,
				      ce_invoke);
		before = atomic_load(&ce_dispatched);
		if (breq != bdone) {
			rcut_sb_lib_entry(); /* into libck */
			if (ce_wait == CE_WAIT_SPIN)
				ck_epoch_barrier(w);
			else
				ck_epoch_barrier_wait(w, ce_wait_cb, NULL);
			atomic_fetch_add(&ce_barriers, 1);
			since = 0;
		} else if (w->n_pending &&
			   (since >= (unsigned long)ce_batch || idle)) {
			ce_dispatch();
			since = 0;
		}
		invoked = atomic_load(&ce_dispatched) - before;
		/* All dispatched: a grace period passed since the oldest. */
		if (invoked && !w->n_pending)
			gpseq_advance(&ce_gp_seq, oldest);
		if (invoked || breq != bdone)
			handoff_progress(&ce_q, invoked, breq);
		bdone = breq;
		if (stop && !w->n_pending)
			return NULL;
	}
}

static int ce_init(void)
{
	ck_epoch_init(&ce_epoch);
	atomic_fetch_add(&ce_gen, 1);
	handoff_init(&ce_q);
	atomic_store(&ce_polls, 0);
	atomic_store(&ce_barriers, 0);
	atomic_store(&ce_dispatched, 0);
	atomic_store(&ce_gp_seq, 0);
	ce_wrec = (struct ce_record *)(void *)ce_new_record();
	return pthread_create(&ce_worker, NULL, ce_worker_fn, NULL) ? -1 : 0;
}

static void ce_cleanup(void)
{
	handoff_stop(&ce_q);
	pthread_join(ce_worker, NULL);
	pthread_mutex_lock(&ce_all_lock);
	while (ce_all) {
		struct ce_record *r = ce_all;

		ce_all = r->next;
		free(r);
	}
	ce_nrecords = 0;
	pthread_mutex_unlock(&ce_all_lock);
	atomic_fetch_add(&ce_gen, 1);
	ce_rec = NULL;
}

static void ce_barrier(void)
{
	handoff_worker_barrier(&ce_q);
}

static unsigned long ce_get_gp_seq(void)
{
	return gpseq_get(&ce_gp_seq);
}

/* ck's own counters: the epoch, the records, the worker record's queue. */
static void ce_stats(FILE *out)
{
	ck_epoch_record_t *w = &ce_wrec->rec;

	fprintf(out,
		"ck-epoch: epoch %u records %lu free %u pending %u peak %u dispatch %u polls %lu barriers %lu backlog %lu reclaim %s sections %ld batch %ld\n",
		ck_epoch_value(&ce_epoch), ce_nrecords,
		ck_pr_load_uint(&ce_epoch.n_free),
		ck_pr_load_uint(&w->n_pending), ck_pr_load_uint(&w->n_peak),
		ck_pr_load_uint(&w->n_dispatch), atomic_load(&ce_polls),
		atomic_load(&ce_barriers), handoff_backlog(&ce_q),
		ce_reclaim_names[ce_reclaim], ce_sections, ce_batch);
}

/* The read side inlined, for --test ref. */
static void ce_ref_loop(unsigned long n)
{
	ck_epoch_record_t *rec = ce_self();
	ck_epoch_section_t sec;

	for (unsigned long i = 0; i < n; i++) {
		ck_epoch_begin(rec, ce_sections ? &sec : NULL);
		ck_epoch_end(rec, ce_sections ? &sec : NULL);
	}
}

/*
 * The built-in table, or in the instrumented build (RCUT_SB_PLUGIN, the
 * Makefile's ck-epoch-sb plugin) the plugin's.
 */
#ifdef RCUT_SB_PLUGIN
const struct rcut_flavor rcutorture_flavor = {
	.name = "ck-epoch-sb",
	.description =
		"Concurrency Kit ck_epoch: epoch records, sections, a ck_epoch_poll worker; instrumented (store-buffer SDK)",
#else
const struct rcut_flavor rcut_flavor_ck_epoch = {
	.name = "ck-epoch",
	.description =
		"Concurrency Kit ck_epoch: per-thread epoch records, sections, callbacks via a ck_epoch_poll worker",
#endif
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING,
	.params = ce_params,
	.init = ce_init,
	.cleanup = ce_cleanup,
	.register_thread = ce_register_thread,
	.unregister_thread = ce_unregister_thread,
	.read_lock = ce_read_lock,
	.read_unlock = ce_read_unlock,
	.synchronize = ce_synchronize,
	.call = ce_call,
	.barrier = ce_barrier,
	.get_gp_seq = ce_get_gp_seq,
	.stats = ce_stats,
	.ref_loop = ce_ref_loop,
};
