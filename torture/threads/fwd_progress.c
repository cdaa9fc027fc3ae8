// SPDX-License-Identifier: MIT
/*
 * Callback flood / forward progress (the kernel's rcu_torture_fwd_prog_cr):
 * after --fwd-progress-holdoff, post callbacks as fast as possible for at
 * most --stall-timeout / --fwd-progress-div (8 s at most), re-posting
 * ("laundering") those already invoked and allocating new ones only while
 * fewer than --cbflood-max are outstanding.  Grace periods and callback
 * invocation must keep up: a flood that invoked nothing, or saw fewer than
 * two grace periods, is a FAILURE.  Prints the kernel's summary and a
 * callback-invocation histogram per 100 ms.  Each round then runs the
 * second test with --fwd-progress-need-resched 0 or 1, read-side
 * sections that never sleep (fwd_nr.c), and prints the
 * kernel's progress messages: starting, waiting, n_max_cbs between
 * rounds, the tested count at the end.
 */
#include "../core/run.h"
#include "threads.h"
#include "../util/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FLOOD_NS 8000000000ULL  /* the kernel's MAX_FWD_CB_JIFFIES */
#define MIN_LAUNDERED 100	    /* callbacks that must each pass ... */
#define MIN_LAUNDERS 3		    /* ... this many grace periods */
#define HIST_BUCKET_NS 100000000ULL /* 100 ms */
#define HIST_BUCKETS 80

struct flood_cb {
	struct torture_cb cb;
	struct flood_cb *next; /* laundered list, all-callbacks list */
	struct flood_cb *all_next;
	int launders;
};

struct flood {
	struct torture_run *run;
	uint64_t start_ns;
	pthread_mutex_t lock;
	struct flood_cb *laundered; /* invoked, ready to re-post */
	struct flood_cb *all;	    /* every allocated one, to free */
	_Atomic long outstanding;   /* posted, not yet invoked (n_max_cbs) */
	_Atomic long busy; /* posted, invocation not yet finished (teardown) */
	long allocated;	   /* never more than --cbflood-max */
	long launders;	   /* re-posts of invoked callbacks */
	long launders_sa;  /* of them, since the last new allocation */
	long pending;	   /* outstanding when the posting stopped */
	_Atomic uint64_t hist[HIST_BUCKETS];
};

static void flood_cb_invoked(struct torture_cb *cb)
{
	struct flood_cb *fcb = (struct flood_cb *)cb;
	struct flood *fl = cb->owner;
	uint64_t b = (torture_now_ns() - fl->start_ns) / HIST_BUCKET_NS;

	atomic_fetch_add(&fl->hist[b < HIST_BUCKETS ? b : HIST_BUCKETS - 1], 1);
	atomic_fetch_sub(&fl->outstanding, 1);
	pthread_mutex_lock(&fl->lock);
	fcb->next = fl->laundered;
	fl->laundered = fcb;
	pthread_mutex_unlock(&fl->lock);
	/* Last: once zero, the flood may free everything, fl included. */
	atomic_fetch_sub(&fl->busy, 1);
}

/* A callback to post: a laundered one if any, else a new one if allowed. */
static struct flood_cb *next_cb(struct flood *fl, long *nlaundered)
{
	struct flood_cb *fcb;

	pthread_mutex_lock(&fl->lock);
	fcb = fl->laundered;
	if (fcb)
		fl->laundered = fcb->next;
	pthread_mutex_unlock(&fl->lock);
	if (fcb) {
		if (++fcb->launders == MIN_LAUNDERS)
			(*nlaundered)++;
		fl->launders++;
		fl->launders_sa++;
		return fcb;
	}
	if (fl->allocated >= fl->run->cfg->cbflood_max)
		return NULL;
	fcb = calloc(1, sizeof(*fcb));
	if (!fcb)
		return NULL;
	fl->allocated++;
	fl->launders_sa = 0;
	fcb->cb.owner = fl;
	fcb->all_next = fl->all;
	fl->all = fcb;
	return fcb;
}

static uint64_t gps_now(struct torture_run *run)
{
	const struct rcut_flavor *f = run->flavor;

	return f->get_gp_seq ? f->get_gp_seq() :
			       atomic_load(&run->counters.sync_gps);
}

/* What one flood measured, for its report. */
struct flood_result {
	uint64_t flood_ns, barrier_ns, gps, cver;
	long max_out, posted;
};

/*
 * The summary and histogram of one flood: our line, then the kernel's
 * rcu_torture_fwd_prog_cr line, field for field (no prefix, as the
 * kernel prints it), whose n_max_cbs kvm-recheck-rcu.sh summarizes.
 */
static void report(struct flood *fl, struct torture_thread *t,
		   const struct flood_result *r)
{
	const char *name = t->run->flavor->name;
	int last = 0;

	printf("%s-torture: fwd_prog_cr %d: Duration %llu ms barrier: %llu ms n_max_cbs: %ld posted: %ld gps: %llu\n",
	       name, t->id, (unsigned long long)(r->flood_ns / 1000000),
	       (unsigned long long)(r->barrier_ns / 1000000), r->max_out,
	       r->posted, (unsigned long long)r->gps);
	printf("rcu_torture_fwd_prog_cr Duration %llu barrier: %llu pending %ld n_launders: %ld n_launders_sa: %ld n_max_gps: %llu n_max_cbs: %ld cver %llu gps %llu\n",
	       (unsigned long long)(r->flood_ns * RCUT_HZ / 1000000000),
	       (unsigned long long)(r->barrier_ns * RCUT_HZ / 1000000000),
	       fl->pending, fl->launders, fl->launders_sa,
	       (unsigned long long)r->gps, r->max_out,
	       (unsigned long long)r->cver, (unsigned long long)r->gps);
	for (int i = 0; i < HIST_BUCKETS; i++)
		if (atomic_load(&fl->hist[i]))
			last = i;
	printf("%s-torture: Callback-invocation histogram %d (100 ms buckets):",
	       name, t->id);
	for (int i = 0; i <= last; i++)
		printf(" %d.%ds: %llu", (i + 1) / 10, (i + 1) % 10,
		       (unsigned long long)atomic_load(&fl->hist[i]));
	putchar('\n');
	fflush(stdout);
}

/* Post as fast as allowed until the limit; returns the number posted. */
static long flood_post(struct torture_thread *t, struct flood *fl,
		       uint64_t limit, long *max_out)
{
	struct torture_run *run = t->run;
	long posted = 0, nlaundered = 0;

	while (!torture_must_stop(run) && nlaundered < MIN_LAUNDERED &&
	       torture_now_ns() - fl->start_ns < limit) {
		struct flood_cb *fcb = next_cb(fl, &nlaundered);
		long out;

		torture_progress();
		torture_stutter_wait(t);
		if (!fcb) {
			/*
			 * Every callback out: wait off the CPU, or its offline
			 * waits for this thread (RCU_HOTPLUG, "fwd-progress 0
			 * (waiting) did not leave it") while the flood drains.
			 */
			torture_sleep_ns(run, 100000);
			continue;
		}
		torture_cpu_checkpoint();
		atomic_fetch_add(&fl->busy, 1);
		out = atomic_fetch_add(&fl->outstanding, 1) + 1;
		if (out > *max_out)
			*max_out = out;
		torture_cb_post(run, &fcb->cb, "callback flood",
				flood_cb_invoked);
		posted++;
	}
	return posted;
}

/* Wait until every flood callback was invoked; free them all. */
static void flood_drain(struct torture_thread *t, struct flood *fl)
{
	struct torture_run *run = t->run;

	printf("%s-torture: rcu_torture_fwd_prog_cr: Waiting for CBs: barrier() %d\n",
	       run->flavor->name, t->id);
	fflush(stdout);
	torture_op_begin("barrier (callback flood)");
	while (atomic_load(&fl->busy) > 0) {
		run->flavor->barrier();
		if (atomic_load(&fl->busy) > 0)
			torture_nap_ns(
				1000000); /* a barrier that returned early */
	}
	torture_op_end();
}

static void flood_free(struct flood *fl)
{
	while (fl->all) {
		struct flood_cb *next = fl->all->all_next;

		free(fl->all);
		fl->all = next;
	}
	pthread_mutex_destroy(&fl->lock);
}

/* One flood; returns its n_max_cbs (most callbacks outstanding). */
static long run_flood(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_config *c = run->cfg;
	uint64_t limit = c->stall_timeout_ns / (uint64_t)c->fwd_progress_div;
	uint64_t gp_start = gps_now(run), barrier_start, invoked = 0;
	uint64_t ver_start = atomic_load(&run->counters.ver);
	struct flood_result r = { 0 };
	struct flood fl;

	printf("%s-torture: rcu_torture_fwd_prog_cr: Starting forward-progress test %d\n",
	       run->flavor->name, t->id);
	memset(&fl, 0, sizeof(fl));
	fl.run = run;
	pthread_mutex_init(&fl.lock, NULL);
	fl.start_ns = torture_now_ns();
	if (limit > MAX_FLOOD_NS)
		limit = MAX_FLOOD_NS;
	r.posted = flood_post(t, &fl, limit, &r.max_out);
	fl.pending = atomic_load(&fl.outstanding);
	r.flood_ns = torture_now_ns() - fl.start_ns;
	barrier_start = torture_now_ns();
	flood_drain(t, &fl);
	r.barrier_ns = torture_now_ns() - barrier_start;
	r.gps = gps_now(run) - gp_start;
	r.cver = atomic_load(&run->counters.ver) - ver_start;
	for (int i = 0; i < HIST_BUCKETS; i++)
		invoked += atomic_load(&fl.hist[i]);
	report(&fl, t, &r);
	counter_inc(&run->counters.floods);
	/* A flood cut short by the end of the run proves nothing. */
	if (r.posted && (!invoked || r.gps < 2) && !torture_must_stop(run))
		torture_failure(
			run, "forward progress",
			"callback flood %d: %llu of %ld callbacks invoked and %llu grace periods in %llu ms",
			t->id, (unsigned long long)invoked, r.posted,
			(unsigned long long)r.gps,
			(unsigned long long)(r.flood_ns / 1000000));
	flood_free(&fl);
	return r.max_out;
}

void torture_fwd_progress(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const char *name = run->flavor->name;
	int tested = 0, tries = 0;
	long max_cbs = -1; /* -1: no flood yet (the kernel's firsttime) */

	while (!torture_must_stop(run)) {
		torture_sleep_ns(run, run->cfg->fwd_progress_holdoff_ns);
		if (torture_must_stop(run))
			break;
		if (max_cbs >= 0 && t->id == 0)
			printf("%s-torture: rcu_torture_fwd_prog n_max_cbs: %ld\n",
			       name, max_cbs);
		printf("%s-torture: rcu_torture_fwd_prog: Starting forward-progress test %d\n",
		       name, t->id);
		max_cbs = run_flood(t);
		if (!torture_must_stop(run) &&
		    run->cfg->fwd_progress_need_resched >= 0)
			torture_fwd_nr(t, &tested, &tries);
	}
	if (t->id == 0 && run->cfg->fwd_progress_need_resched >= 0)
		printf("%s-torture: rcu_torture_fwd_prog: tested %d tested_tries %d\n",
		       name, tested, tries);
	fflush(stdout);
}
