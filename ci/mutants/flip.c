// SPDX-License-Identifier: MIT
/*
 * "flip": the mutant catalogue's correct two-phase counter-flip RCU, and
 * with FLIP_MEMBARRIER "flip-memb", the same with asymmetric fences.  Each
 * catalogue mutant is this file built with one MUTANT_* defined
 * (ci/mutants/CATALOGUE; the Makefile's mutants target).
 *
 * Every thread has two reader counters, one per phase, written only by
 * itself.  read_lock adds one to the counter of the current phase, then a
 * full fence orders that store before the section's loads; read_unlock
 * fences and takes it off.  A grace period first waits until no thread
 * has a reader in the other phase (readers that fetched the phase before
 * the last flip but counted themselves after its wait), flips, and waits
 * until no thread has a reader in the old phase.  flip-memb's readers have
 * no fence, only a compiler barrier: the grace period makes every running
 * thread execute one with membarrier(2) where flip has its fences.
 *
 * The update side (worker, callbacks, polling, barrier) is engine.h.
 */
#define _GNU_SOURCE
#include "engine.h"

#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef MUTANT_NAME
#define MUTANT_NAME "flip"
#define MUTANT_DESCRIPTION \
	"mutant base: a correct two-phase counter-flip RCU (ci/mutants/flip.c)"
#endif

/* One per thread that ever read: its readers in progress, per phase. */
struct reader {
	_Atomic long count[2];
	atomic_bool in_use;  /* owned by a live, registered thread */
	struct reader *next; /* the registry: push-only, never unlinked */
} __attribute__((aligned(64)));

static struct reader *_Atomic registry;
static __thread struct reader *self;
static _Atomic unsigned int phase; /* 0 or 1 */

REGISTRY_CLAIM(struct reader, registry)

static void flip_register(void)
{
	if (!self)
		self = registry_claim();
}

/* Outside any read-side section: the counters are zero. */
static void flip_unregister(void)
{
	if (!self)
		return;
	atomic_store(&self->in_use, false);
	self = NULL;
}

/* The reader's fence: a full one, or (flip-memb) only the compiler's. */
static inline void reader_fence(void)
{
#ifdef FLIP_MEMBARRIER
	atomic_signal_fence(memory_order_seq_cst);
#else
	atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* The writer's fence: its own, or (flip-memb) every running thread's. */
static void writer_fence(void)
{
#ifdef FLIP_MEMBARRIER
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
		abort();
#else
	atomic_thread_fence(memory_order_seq_cst);
#endif
}

static int flip_read_lock(void)
{
	int idx;
	long c;

	if (!self)
		flip_register(); /* a thread the harness did not register */
	idx = (int)(atomic_load(&phase) & 1);
	rcut_race_point(RCUT_RACE_READ_LOCK); /* phase read, not counted */
	c = atomic_load_explicit(&self->count[idx], memory_order_relaxed) + 1;
#if defined(MUTANT_LOCK_RELAXED) || defined(FLIP_MEMBARRIER)
	/* MUTANT_LOCK_RELAXED's bug: no full fence in a fenced design */
	atomic_store_explicit(&self->count[idx], c, memory_order_release);
#else
	atomic_store(&self->count[idx], c);
#endif
#ifndef MUTANT_LOCK_RELAXED
	reader_fence(); /* count, then read */
#endif
	PARKED_ENTER();
	return idx;
}

static void flip_read_unlock(int idx)
{
	long c = atomic_load_explicit(&self->count[idx], memory_order_relaxed);

	PARKED_LEAVE();
#ifdef MUTANT_UNLOCK_RELAXED
	/* bug: nothing orders the section's loads before the uncount */
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	atomic_store_explicit(&self->count[idx], c - 1, memory_order_relaxed);
#else
	reader_fence(); /* reads, then uncount */
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	atomic_store_explicit(&self->count[idx], c - 1, memory_order_release);
#endif
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

/* The first registered thread with a reader in phase p, or NULL. */
static struct reader *busy_reader(unsigned int p)
{
	struct reader *r;

	for (r = atomic_load(&registry); r; r = r->next)
		if (atomic_load(&r->count[p]))
			break;
	return r;
}

/* Wait until no registered thread has a reader in phase p. */
static void wait_for_readers(unsigned int p)
{
	for (unsigned long round = 0;; round++) {
		struct reader *r;

		atomic_thread_fence(memory_order_seq_cst);
		r = busy_reader(p);
		if (!r)
			break;
		rcut_race_point(RCUT_RACE_GP_WAIT);
#ifdef MUTANT_WAIT_FIRST
		/* bug: waits for the first busy reader only, not the rest */
		while (atomic_load(&r->count[p]))
			backoff(round++);
		break;
#endif
		backoff(round);
	}
	atomic_thread_fence(memory_order_seq_cst);
}

/* One grace period (gp_lock held): drain, flip, drain. */
static void run_gp(void)
{
	unsigned int cur;

#ifdef MUTANT_WRITER_NOFENCE
	/* bug: orders only this thread, not the fenceless readers */
	atomic_thread_fence(memory_order_seq_cst);
#else
	writer_fence(); /* updates, then scan */
#endif
	cur = atomic_load(&phase);
	rcut_race_point(RCUT_RACE_GP_START);
#ifndef MUTANT_FLIP_ONCE
	wait_for_readers(cur ^ 1);
#endif
	atomic_store(&phase, cur ^ 1);
	rcut_race_point(RCUT_RACE_GP_FLIP);
	writer_fence(); /* flip, then scan */
	wait_for_readers(cur);
	rcut_race_point(RCUT_RACE_GP_END);
	writer_fence(); /* scan, then free */
}

/* No quiescent states here: blocking callers need nothing. */
static void caller_wait_begin(void)
{
}

static void caller_wait_end(void)
{
}

static int flip_init(void)
{
#ifdef FLIP_MEMBARRIER
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
		    0, 0)) {
		perror(MUTANT_NAME ": membarrier");
		return -1;
	}
#endif
	return engine_init();
}

static void flip_cleanup(void)
{
	engine_cleanup();
	registry_free();
}

static void flip_stats(FILE *out)
{
	engine_stats(out, MUTANT_NAME);
}

/* The one symbol rcutorture looks up (RCUT_FLAVOR_SYMBOL). */
__attribute__((visibility("default")))
const struct rcut_flavor rcutorture_flavor = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = MUTANT_NAME,
	.description = MUTANT_DESCRIPTION,
	.caps = RCUT_CAP_CB_FIFO | RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING,
	.init = flip_init,
	.cleanup = flip_cleanup,
	.register_thread = flip_register,
	.unregister_thread = flip_unregister,
	.read_lock = flip_read_lock,
	.read_unlock = flip_read_unlock,
	.stats = flip_stats,
	ENGINE_OPS,
};
