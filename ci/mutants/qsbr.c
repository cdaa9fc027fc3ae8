// SPDX-License-Identifier: MIT
/*
 * "qsbr": the mutant catalogue's correct quiescent-state-based RCU.  Each
 * QSBR mutant is this file built with one MUTANT_* defined.
 *
 * A global counter gp_ctr (never 0) names the
 * current grace period.  Every online thread has a counter ctr that it
 * sets to gp_ctr when it reports a quiescent state, between read-side
 * sections (read_lock and read_unlock are empty); an offline thread's is
 * 0.  A grace period advances gp_ctr and waits until every thread's ctr is
 * 0 or the new value: each thread then passed a quiescent state after the
 * grace period began.  Fences order a thread's earlier sections before its
 * report and its report before its later sections.  A registered thread
 * that blocks in synchronize, barrier or cond_sync goes offline meanwhile,
 * and a poll is a quiescent state (callers poll outside sections), or a
 * writer that polls would hold up the grace period it polls for.
 *
 * The update side (worker, callbacks, polling, barrier) is engine.h.
 */
#define _GNU_SOURCE
#include "engine.h"

#include <sched.h>
#include <time.h>

#ifndef MUTANT_NAME
#define MUTANT_NAME "qsbr"
#define MUTANT_DESCRIPTION \
	"mutant base: a correct quiescent-state-based RCU (ci/mutants/qsbr.c)"
#endif

/* One per registered thread: its last reported grace period, 0 offline. */
struct qreader {
	_Atomic unsigned long ctr;
	atomic_bool in_use;   /* owned by a live, registered thread */
	_Atomic int cpu;      /* where it last reported (MUTANT_QS_PER_CPU) */
	struct qreader *next; /* the registry: push-only, never unlinked */
} __attribute__((aligned(64)));

static struct qreader *_Atomic registry;
static __thread struct qreader *self;
static __thread bool wait_was_online; /* caller_wait_begin() went offline */
static _Atomic unsigned long gp_ctr = 1;

/* Come online: a quiescent state as of now, before any later section. */
static void qsbr_thread_online(void)
{
	atomic_store(&self->ctr, atomic_load(&gp_ctr));
#ifndef MUTANT_ONLINE_RELAXED
	/* MUTANT_ONLINE_RELAXED's bug: the sections can pass the store */
	atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* Go offline: every earlier section is over before ctr says so. */
static void qsbr_thread_offline(void)
{
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store(&self->ctr, 0);
}

REGISTRY_CLAIM(struct qreader, registry)

/* A registry entry for this thread, which starts online. */
static void qsbr_register(void)
{
	if (self)
		return;
	self = registry_claim();
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store(&self->ctr, atomic_load(&gp_ctr));
	atomic_thread_fence(memory_order_seq_cst);
}

static void qsbr_unregister(void)
{
	if (!self)
		return;
	qsbr_thread_offline();
	atomic_store(&self->in_use, false);
	self = NULL;
}

/* Between sections: this thread has passed a quiescent state. */
static void qsbr_quiescent_state(void)
{
	unsigned long g = atomic_load(&gp_ctr);

	if (!self)
		return;
	rcut_race_point(RCUT_RACE_OTHER); /* counter read, not reported */
	atomic_thread_fence(memory_order_seq_cst); /* sections, then report */
	atomic_store(&self->ctr, g);
	atomic_thread_fence(memory_order_seq_cst); /* report, then sections */
#ifdef MUTANT_QS_PER_CPU
	/*
	 * bug: a quiescent state of this simulated CPU covers every thread
	 * that last reported on it, as in a non-preemptible kernel, though
	 * such a thread may be inside a section now.
	 */
	int cpu = rcut_current_cpu();

	atomic_store(&self->cpu, cpu);
	for (struct qreader *r = atomic_load(&registry); r && cpu >= 0;
	     r = r->next) {
		unsigned long old = atomic_load(&r->ctr);

		if (r != self && old && atomic_load(&r->in_use) &&
		    atomic_load(&r->cpu) == cpu)
			atomic_compare_exchange_strong(&r->ctr, &old, g);
	}
#endif
}

/* The read side is empty: only the compiler must keep the section. */
static int qsbr_read_lock(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	return 0;
}

static void qsbr_read_unlock(int idx)
{
	(void)idx;
	atomic_signal_fence(memory_order_seq_cst);
}

/* Yield a few times, then sleep 1, 2, 4, ... us, at most 100 us. */
static void backoff(unsigned long round)
{
	struct timespec ts = { 0, 0 };

	if (round < 8) {
		sched_yield();
		return;
	}
	ts.tv_nsec = (round - 8 < 7 ? 1l << (round - 8) : 100) * 1000;
	nanosleep(&ts, NULL);
}

/* One grace period (gp_lock held): advance gp_ctr, wait for reports. */
static void run_gp(void)
{
	unsigned long g;

	atomic_thread_fence(memory_order_seq_cst); /* updates, then advance */
	g = atomic_load(&gp_ctr) + 1;
	atomic_store(&gp_ctr, g);
	rcut_race_point(RCUT_RACE_GP_FLIP);
	atomic_thread_fence(memory_order_seq_cst); /* advance, then scan */
	for (struct qreader *r = atomic_load(&registry); r; r = r->next) {
		for (unsigned long round = 0;; round++) {
			unsigned long c = atomic_load(&r->ctr);

			if (c == 0 || c == g)
				break;
			rcut_race_point(RCUT_RACE_GP_WAIT);
			backoff(round);
		}
	}
	atomic_thread_fence(memory_order_seq_cst); /* scan, then free */
}

/* A registered, online caller goes offline while it blocks. */
static void caller_wait_begin(void)
{
	wait_was_online = self && atomic_load(&self->ctr) != 0;
	if (wait_was_online)
		qsbr_thread_offline();
}

static void caller_wait_end(void)
{
	if (wait_was_online)
		qsbr_thread_online();
}

#ifdef MUTANT_POLL_QS
/* bug: takes every poll for one made outside any section */
static void caller_quiescent(void)
{
	if (self && atomic_load(&self->ctr) != 0)
		qsbr_quiescent_state();
}
#endif

static void qsbr_cleanup(void)
{
	engine_cleanup();
	registry_free();
}

static void qsbr_stats(FILE *out)
{
	engine_stats(out, MUTANT_NAME);
}

/* The one symbol rcutorture looks up (RCUT_FLAVOR_SYMBOL). */
__attribute__((visibility("default")))
const struct rcut_flavor rcutorture_flavor = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = MUTANT_NAME,
	.description = MUTANT_DESCRIPTION,
	.caps = RCUT_CAP_CB_FIFO | RCUT_CAP_READER_MAY_BLOCK |
		RCUT_CAP_NESTING | RCUT_CAP_QSBR,
	.init = engine_init,
	.cleanup = qsbr_cleanup,
	.register_thread = qsbr_register,
	.unregister_thread = qsbr_unregister,
	.read_lock = qsbr_read_lock,
	.read_unlock = qsbr_read_unlock,
	.quiescent_state = qsbr_quiescent_state,
	.thread_offline = qsbr_thread_offline,
	.thread_online = qsbr_thread_online,
	.stats = qsbr_stats,
	ENGINE_OPS,
};
