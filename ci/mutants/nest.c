// SPDX-License-Identifier: MIT
/*
 * "nest": the mutant catalogue's correct nesting-word RCU, the design of
 * liburcu's urcu-mb (the 2009 paper's "general-purpose" RCU): one word per
 * thread holds both its nesting count (low bits) and, while the count is
 * non-zero, the grace-period phase it entered in (one high bit).  The
 * outermost read_lock copies the global word gp_ctr (phase bit, count 1)
 * into the thread's word and fences; nested ones add one.  A grace period
 * flips gp_ctr's phase bit twice, each time waiting until no thread is in
 * a section begun in the old phase.  Each NEST mutant is this file built
 * with one MUTANT_* defined (ci/mutants/CATALOGUE).
 *
 * Unlike flip.c, the reader's word is read and written with one access
 * each way and its nesting count lives in the same word, as in liburcu.
 *
 * The update side (worker, callbacks, polling, barrier) is engine.h.
 */
#define _GNU_SOURCE
#include "engine.h"

#include <sched.h>
#include <time.h>

#ifndef MUTANT_NAME
#define MUTANT_NAME "nest"
#define MUTANT_DESCRIPTION \
	"mutant base: a correct nesting-word RCU, liburcu-mb's design (ci/mutants/nest.c)"
#endif

#define NEST_COUNT 1ul
#define NEST_MASK 0xfffful
#define NEST_PHASE (1ul << 16)

struct nreader {
	_Atomic unsigned long ctr; /* 0: outside; else phase | nesting */
	atomic_bool in_use;
	struct nreader *next;
} __attribute__((aligned(64)));

static struct nreader *_Atomic registry;
static __thread struct nreader *self;
static _Atomic unsigned long gp_ctr = NEST_COUNT;

REGISTRY_CLAIM(struct nreader, registry)

static void nest_register(void)
{
	if (!self)
		self = registry_claim();
}

static void nest_unregister(void)
{
	if (!self)
		return;
	atomic_store(&self->in_use, false);
	self = NULL;
}

static int nest_read_lock(void)
{
	unsigned long tmp;

	if (!self)
		nest_register();
	tmp = atomic_load_explicit(&self->ctr, memory_order_relaxed);
	if (tmp & NEST_MASK) {
#ifdef MUTANT_NEST_REPHASE
		/* bug: a nested lock takes gp_ctr's phase as an outermost
		 * one does: a section begun before a flip looks begun after */
		tmp = (atomic_load_explicit(&gp_ctr, memory_order_relaxed) &
		       NEST_PHASE) |
		      (tmp & NEST_MASK);
#endif
		atomic_store_explicit(&self->ctr, tmp + NEST_COUNT,
				      memory_order_relaxed);
		return 0;
	}
	tmp = atomic_load_explicit(&gp_ctr, memory_order_relaxed);
#ifdef MUTANT_NEST_RELEASE
	/* bug: a release store and no fence; the section's loads pass it */
	atomic_store_explicit(&self->ctr, tmp, memory_order_release);
#else
	atomic_store_explicit(&self->ctr, tmp, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst); /* word, then reads */
#endif
	return 0;
}

static void nest_read_unlock(int idx)
{
	unsigned long tmp =
		atomic_load_explicit(&self->ctr, memory_order_relaxed);

	(void)idx;
#ifdef MUTANT_NEST_UNLOCK_OUTER
	/* bug: the outermost test is off by one, so the unlock at depth 2
	 * clears the word and ends the section the outer lock still holds;
	 * the decrement saturates, so the outer unlock finds 0 and keeps it */
	if ((tmp & NEST_MASK) <= 2 * NEST_COUNT) {
		atomic_thread_fence(memory_order_seq_cst);
		atomic_store_explicit(&self->ctr, 0, memory_order_relaxed);
		return;
	}
#endif
	if ((tmp & NEST_MASK) == NEST_COUNT)
		atomic_thread_fence(
			memory_order_seq_cst); /* reads, then word */
	atomic_store_explicit(&self->ctr, tmp - NEST_COUNT,
			      memory_order_relaxed);
}

/* Whether r is in a section begun before gp_ctr's last flip. */
static bool in_old_phase(struct nreader *r)
{
	unsigned long v = atomic_load_explicit(&r->ctr, memory_order_relaxed);

	return (v & NEST_MASK) &&
	       ((v ^ atomic_load_explicit(&gp_ctr, memory_order_relaxed)) &
		NEST_PHASE);
}

static void flip_and_wait(void)
{
	atomic_store_explicit(
		&gp_ctr,
		atomic_load_explicit(&gp_ctr, memory_order_relaxed) ^
			NEST_PHASE,
		memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst); /* flip, then scan */
	for (struct nreader *r = atomic_load(&registry); r; r = r->next) {
		struct timespec ts = { 0, 1000 };

		for (unsigned int round = 0; in_old_phase(r); round++) {
			if (round < 8)
				sched_yield();
			else
				nanosleep(&ts, NULL);
		}
	}
	atomic_thread_fence(memory_order_seq_cst); /* scan, then on */
}

/* One grace period (gp_lock held): two flips, as liburcu-mb does. */
static void run_gp(void)
{
	atomic_thread_fence(memory_order_seq_cst); /* updates, then flip */
	flip_and_wait();
#ifndef MUTANT_NEST_ONCE
	/* MUTANT_NEST_ONCE's bug: one flip misses a reader that read
	 * gp_ctr before it and stored its word after the scan passed */
	flip_and_wait();
#endif
}

static void caller_wait_begin(void)
{
}

static void caller_wait_end(void)
{
}

static int nest_init(void)
{
	return engine_init();
}

static void nest_cleanup(void)
{
	engine_cleanup();
	registry_free();
}

static void nest_stats(FILE *out)
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
	.init = nest_init,
	.cleanup = nest_cleanup,
	.register_thread = nest_register,
	.unregister_thread = nest_unregister,
	.read_lock = nest_read_lock,
	.read_unlock = nest_read_unlock,
	.stats = nest_stats,
	ENGINE_OPS,
};
