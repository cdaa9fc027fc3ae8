// SPDX-License-Identifier: MIT
/*
 * The lost-callback check (see lostcb.h).  A barrier's guarantee is the
 * evidence: every callback whose call() returned before the barrier
 * began has been invoked when it returns.  A flavor whose barrier
 * returns early (busted-barrier, rtbe) still runs those callbacks soon
 * after, so a callback counts as lost only once a few grace periods that
 * began after the barrier returned have ended too; and one posted from a
 * simulated CPU that has gone offline since is left to the barrier test
 * and the final barrier.
 */
#include "run.h"

#include <string.h>
#include <time.h>

#define LOST_AFTER_GPS 4  /* GPs begun after the barrier's return, ended */
#define ASK_BARRIER_GPS 8 /* GPs begun after call(), ended: want a barrier */
#define MARGIN_US 100	  /* clock reads around call() and barrier() */
#define LOST_MIN_WAIT_US 100000 /* and 100 ms (--stall-timeout / 4 at most) */

void torture_lostcb_init(struct torture_lostcb *l)
{
	memset(l, 0, sizeof(*l));
	pthread_mutex_init(&l->lock, NULL);
}

uint64_t torture_lostcb_now_us(void)
{
	return torture_now_ns() / 1000;
}

void torture_lostcb_gp_done(struct torture_run *run, uint64_t start_us)
{
	struct torture_lostcb *l = &run->lostcb;
	unsigned int i = atomic_fetch_add(&l->gp_next, 1) % TORTURE_LOSTCB_RING;

	atomic_store(&l->gp_start_us[i], start_us);
}

void torture_lostcb_barrier(struct torture_run *run, const char *op)
{
	struct torture_lostcb *l = &run->lostcb;
	uint64_t start, end;

	torture_op_begin(op);
	/* Every call() that returned before this read is covered. */
	atomic_thread_fence(memory_order_seq_cst);
	start = torture_lostcb_now_us();
	run->flavor->barrier();
	torture_op_end();
	end = torture_lostcb_now_us();
	pthread_mutex_lock(&l->lock);
	l->barrier_start_us[l->barrier_next] = start;
	l->barrier_end_us[l->barrier_next] = end;
	l->barrier_next = (l->barrier_next + 1) % TORTURE_LOSTCB_BARRIERS;
	pthread_mutex_unlock(&l->lock);
}

bool torture_lostcb_take_request(struct torture_run *run)
{
	return atomic_load_explicit(&run->lostcb.want_barrier,
				    memory_order_relaxed) &&
	       atomic_exchange(&run->lostcb.want_barrier, false);
}

/* The start of the k-th latest completed grace period, 0 if fewer. */
static uint64_t kth_latest_gp(struct torture_lostcb *l, int k)
{
	uint64_t v[TORTURE_LOSTCB_RING];

	for (int i = 0; i < TORTURE_LOSTCB_RING; i++) {
		uint64_t x = atomic_load(&l->gp_start_us[i]);
		int j = i;

		/* Insertion sort, latest first. */
		for (; j > 0 && v[j - 1] < x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v[k - 1];
}

/* What the check compares a callback's call() time with. */
struct lost_bounds {
	uint64_t now, covered; /* call() before covered: lost if waiting */
	uint64_t ask;	       /* call() before ask: ask for a barrier */
	uint64_t barrier_start, barrier_end;
};

/* Mark cb lost if it still is the post whose stamp we read. */
static bool mark_lost(struct torture_cb *cb, uint64_t stamp)
{
	int expected = TORTURE_CB_POSTED;

	if (atomic_load(&cb->stamp) != stamp ||
	    !atomic_compare_exchange_strong(&cb->state, &expected,
					    TORTURE_CB_LOST))
		return false;
	if (atomic_load(&cb->stamp) == stamp)
		return true;
	/* Invoked and posted again meanwhile: that post is not lost. */
	expected = TORTURE_CB_LOST;
	atomic_compare_exchange_strong(&cb->state, &expected,
				       TORTURE_CB_POSTED);
	return false;
}

/* Check one callback against the bounds; report it if it is lost. */
static void check_one(struct torture_run *run, struct torture_cb *cb,
		      const struct lost_bounds *b)
{
	uint64_t stamp, us;

	if (atomic_load(&cb->state) != TORTURE_CB_POSTED)
		return;
	stamp = atomic_load(&cb->stamp);
	us = TORTURE_CB_STAMP_US(stamp);
	if (!us) /* call() still running */
		return;
	/*
	 * Its CPU went offline since: a barrier that skips an offline CPU's
	 * callbacks is the barrier test's rtbe, not a lost callback.
	 */
	if (cb->cpu >= 0 &&
	    (!torture_cpu_is_online(&run->cpus, cb->cpu) ||
	     torture_cpu_offlines(&run->cpus, cb->cpu) != cb->cpu_offlines))
		return;
	if (us < b->covered) {
		if (!mark_lost(cb, stamp))
			return;
		counter_inc(&run->counters.cbs_lost);
		torture_failure(
			run, "lost callback",
			"%s callback %p not invoked: its call() returned %.3f s before a barrier began, which returned %.3f s ago, and %d grace periods that began after that have ended",
			cb->kind, (void *)cb,
			(double)(b->barrier_start - us) / 1e6,
			(double)(b->now - b->barrier_end) / 1e6,
			LOST_AFTER_GPS);
	} else if (us + MARGIN_US < b->ask) {
		atomic_store(&run->lostcb.want_barrier, true);
	}
}

void torture_lostcb_check(struct torture_run *run)
{
	struct torture_lostcb *l = &run->lostcb;
	uint64_t min_wait = run->cfg->stall_timeout_ns / 4000;
	struct lost_bounds b = { .now = torture_lostcb_now_us() };
	uint64_t gp_k;

	if (!run->flavor->barrier)
		return;
	if (min_wait > LOST_MIN_WAIT_US)
		min_wait = LOST_MIN_WAIT_US;
	gp_k = kth_latest_gp(l, LOST_AFTER_GPS);
	/*
	 * The latest barrier that returned long enough ago, with enough
	 * grace periods after it (barriers come often: the latest alone
	 * would never be old enough).
	 */
	pthread_mutex_lock(&l->lock);
	for (int i = 0; i < TORTURE_LOSTCB_BARRIERS; i++) {
		uint64_t start = l->barrier_start_us[i],
			 end = l->barrier_end_us[i];

		if (start > b.barrier_start && gp_k > end + MARGIN_US &&
		    b.now >= end + min_wait) {
			b.barrier_start = start;
			b.barrier_end = end;
		}
	}
	pthread_mutex_unlock(&l->lock);
	if (b.barrier_start)
		b.covered = b.barrier_start - MARGIN_US;
	b.ask = kth_latest_gp(l, ASK_BARRIER_GPS);
	for (int i = 0; i < TORTURE_POOL_SIZE; i++)
		for (int k = 0; k < 2; k++)
			check_one(run, &run->pool.elem[i].cb[k], &b);
	for (long i = 0; run->barrier.cbs && i < run->cfg->n_barrier_cbs; i++)
		check_one(run, &run->barrier.cbs[i], &b);
	for (long i = 0; run->legality.reader_cbs && i < run->nreaders; i++)
		check_one(run, &run->legality.reader_cbs[i].cb, &b);
	check_one(run, &run->legality.updown_cb.cb, &b);
}
