// SPDX-License-Identifier: MIT
/*
 * rtmbkf, the kernel's memory-ordering check (rcu_torture_reader_do_mbchk),
 * with a simpler hand-over.  A reader inside a section that holds element
 * p (the assigner) notes another reader's section counter and hangs the
 * check on p.  The first aging of p that follows a grace period marks the
 * check ready: that grace period began after the assigner's section did,
 * so it ended after the assigner read the counter.  Any reader but the
 * one whose counter was noted may then take the check and read that
 * counter again: it must not be lower than what the assigner saw.  Only
 * weakly ordered machines can fail it with a flavor whose grace periods
 * lack the full memory barriers RCU promises.
 */
#include "mbchk.h"
#include "run.h"

#include <stdlib.h>
#include <string.h>

enum { MBCHK_IDLE, MBCHK_ARMED, MBCHK_READY, MBCHK_CHECKING };

/* Per reader, as an assigner: the one check it may have outstanding. */
struct torture_mbchk {
	_Atomic int state;
	int chked;	   /* the reader whose counter was noted */
	uint64_t chkloops; /* its section counter then */
} __attribute__((aligned(64)));

int torture_mbchk_init(struct torture_run *run, int nreaders)
{
	size_t size =
		(size_t)(nreaders > 0 ? nreaders : 1) * sizeof(*run->mbchk);

	/* The slots are cache-line aligned: calloc() does not promise that. */
	run->mbchk = aligned_alloc(_Alignof(struct torture_mbchk), size);
	if (!run->mbchk)
		return -1;
	memset(run->mbchk, 0, size);
	return 0;
}

void torture_mbchk_cleanup(struct torture_run *run)
{
	free(run->mbchk);
	run->mbchk = NULL;
}

static uint64_t section_count(struct torture_run *run, int r)
{
	return atomic_load_explicit(&run->threads.readers[r]->section,
				    memory_order_relaxed);
}

/* As assigner: note reader chked's counter and hang the check on p. */
static void assign(struct torture_thread *t, struct torture_elem *p, int chked)
{
	struct torture_mbchk *me = &t->run->mbchk[t->id];
	struct torture_mbchk *expected = NULL;

	if (chked == t->id ||
	    atomic_load_explicit(&me->state, memory_order_acquire) !=
		    MBCHK_IDLE ||
	    atomic_load_explicit(&p->chkp, memory_order_relaxed))
		return;
	me->chked = chked;
	me->chkloops = section_count(t->run, chked);
	atomic_store_explicit(&me->state, MBCHK_ARMED, memory_order_relaxed);
	/* Release: whoever takes the check from p sees the fields above. */
	if (!atomic_compare_exchange_strong_explicit(&p->chkp, &expected, me,
						     memory_order_release,
						     memory_order_relaxed))
		atomic_store_explicit(&me->state, MBCHK_IDLE,
				      memory_order_relaxed);
}

/* As checker: take reader assigner's check if it is ready. */
static void check(struct torture_thread *t, int assigner)
{
	struct torture_run *run = t->run;
	struct torture_mbchk *a = &run->mbchk[assigner];
	int expected = MBCHK_READY;
	uint64_t loops;

	if (atomic_load_explicit(&a->state, memory_order_relaxed) !=
		    MBCHK_READY ||
	    !atomic_compare_exchange_strong_explicit(
		    &a->state, &expected, MBCHK_CHECKING, memory_order_acquire,
		    memory_order_relaxed))
		return;
	if (a->chked == t->id) {
		/* Reading its own counter proves nothing: leave it. */
		atomic_store_explicit(&a->state, MBCHK_READY,
				      memory_order_release);
		return;
	}
	loops = section_count(run, a->chked);
	counter_inc(&run->counters.mbchk_tries);
	if (loops < a->chkloops) {
		counter_inc(&run->counters.mbchk_fail);
		torture_failure(
			run, "rtmbkf",
			"%s %d read reader %d's section counter as %llu after a grace period, but %llu was seen before it began",
			t->kind, t->id, a->chked, (unsigned long long)loops,
			(unsigned long long)a->chkloops);
	}
	atomic_store_explicit(&a->state, MBCHK_IDLE, memory_order_release);
}

void torture_mbchk_read(struct torture_thread *t, struct torture_elem *p)
{
	struct torture_threads *th = &t->run->threads;
	unsigned int n = (unsigned int)th->nreaders;
	uint64_t r;

	if (!t->run->mbchk || t->id >= th->nreaders || th->readers[t->id] != t)
		return; /* read-exit threads take no part */
	/* One random number per read for both picks: readers are hot. */
	r = torture_random(&t->rand);
	assign(t, p, (int)((uint32_t)r % n));
	check(t, (int)((uint32_t)(r >> 32) % n));
}

void torture_mbchk_gp_passed(struct torture_elem *p)
{
	struct torture_mbchk *a =
		atomic_exchange_explicit(&p->chkp, NULL, memory_order_acquire);

	if (a)
		atomic_store_explicit(&a->state, MBCHK_READY,
				      memory_order_release);
}
