// SPDX-License-Identifier: MIT
/*
 * The second forward-progress test (the kernel's rcu_torture_fwd_prog_nr):
 * for a random time between --stall-timeout / --fwd-progress-div and
 * --stall-timeout (8 s at most), loop through short read-side sections
 * (10 us each) without ever sleeping, while a self-propagating callback
 * re-posts itself at each invocation.  Grace periods must still complete:
 * a full-length loop that saw neither an update nor two grace periods is
 * a FAILURE.  We also ask, which the kernel does not, for two grace
 * periods after the first one that ends in the loop: grace periods under
 * way when the loop began may end in its first moments (and the writer's
 * update with them, and async updates until the element pool runs dry,
 * updates that need no grace period), so a flavor whose grace periods
 * stop for the whole loop could pass the whole-loop check alone.
 * With --fwd-progress-need-resched 1 (the kernel's default)
 * the loop never yields on its own, only when the OS preempts it (the
 * userspace need_resched()); with 0 it yields after every section (the
 * kernel's unconditional cond_resched()).  QSBR flavors get a quiescent
 * state after each section, which is what cond_resched() gives them.
 */
#define _GNU_SOURCE
#include "../core/run.h"
#include "../util/delay.h"
#include "threads.h"

#include <sched.h>
#include <stdio.h>

#define NR_SECTION_NS 10000ULL	   /* the kernel's udelay(10) */
#define NR_MAX_NS 8000000000ULL	   /* the kernel's MAX_FWD_CB_JIFFIES */
#define NR_RECOVER_NS 100000000ULL /* "Let kthreads recover" */

/* The self-propagating callback: re-posts itself until told to stop. */
struct selfprop {
	struct torture_cb cb;
	_Atomic int stop; /* 0 run, 1 stop asked, 2 stopped */
};

static void selfprop_cb(struct torture_cb *cb)
{
	struct selfprop *sp = cb->owner;

	if (atomic_load(&sp->stop)) {
		atomic_store(&sp->stop, 2);
		return;
	}
	torture_cb_post(cb->run, cb, "self-propagating", selfprop_cb);
}

/* The loop's length: between the stall timeout / div and the timeout. */
static uint64_t nr_duration(struct torture_thread *t)
{
	const struct rcut_config *c = t->run->cfg;
	uint64_t sd = c->stall_timeout_ns < NR_MAX_NS ? c->stall_timeout_ns :
							NR_MAX_NS;
	uint64_t sd4 = sd / (uint64_t)c->fwd_progress_div;

	return sd4 + torture_random(&t->rand) % (sd - sd4 + 1);
}

/*
 * Updates and grace periods counted from the end of the loop's first
 * grace period (the mark), and at the loop's end, taken while the thread
 * is still online: once it goes offline, grace periods a QSBR loop held
 * up end at once and would count.
 */
struct nr_mark {
	unsigned long start_gps; /* at the loop's start */
	unsigned long gps, end_gps;
	unsigned long long end_ver;
	uint64_t at_ns, end_ns; /* when the mark was taken; the loop ended */
	bool taken;
};

static unsigned long nr_gps(struct torture_run *run);

/* Take the mark once a grace period has ended since the loop began. */
static void nr_mark_take(struct torture_run *run, struct nr_mark *m)
{
	unsigned long g;

	if (m->taken)
		return;
	g = nr_gps(run);
	if (g == m->start_gps)
		return;
	m->gps = g;
	m->at_ns = torture_now_ns();
	m->taken = true;
}

/* Short read-side sections, never sleeping, until end or the stop. */
static void nr_loop(struct torture_thread *t, uint64_t end, struct nr_mark *m)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	bool yield = !run->cfg->fwd_progress_need_resched;

	if (f->thread_online)
		hold_thread_online(f);
	delay_set_never_sleeps(true); /* injected delays spin here */
	while (torture_now_ns() < end && !torture_must_stop(run)) {
		int idx = hold_read_lock(f);

		torture_spin_ns(run, NR_SECTION_NS);
		hold_read_unlock(f, idx);
		if (f->quiescent_state)
			hold_quiescent_state(f);
		torture_progress();
		torture_cpu_checkpoint(); /* leave a CPU going offline */
		nr_mark_take(run, m);
		if (yield)
			sched_yield();
	}
	delay_set_never_sleeps(false);
	nr_mark_take(run, m);
	m->end_ver = atomic_load(&run->counters.ver);
	m->end_gps = nr_gps(run);
	m->end_ns = torture_now_ns();
	if (f->thread_offline)
		hold_thread_offline(f);
}

/* The grace periods so far, by the flavor's count where it has one. */
static unsigned long nr_gps(struct torture_run *run)
{
	const struct rcut_flavor *f = run->flavor;

	return f->get_gp_seq ?
		       f->get_gp_seq() :
		       (unsigned long)atomic_load(&run->counters.sync_gps);
}

/* Stop the self-propagating callback and wait for it to be gone. */
static void selfprop_stop(struct torture_thread *t, struct selfprop *sp)
{
	struct torture_run *run = t->run;

	atomic_store(&sp->stop, 1);
	torture_op_begin("synchronize (forward progress, need_resched)");
	run->flavor->synchronize();
	printf("%s-torture: rcu_torture_fwd_prog_nr: Waiting for CBs: barrier() %d\n",
	       run->flavor->name, t->id);
	torture_op_begin("barrier (forward progress, need_resched)");
	run->flavor->barrier();
	torture_op_end();
	if (atomic_load(&sp->stop) != 2 && !torture_must_stop(run))
		torture_failure(
			run, "forward progress",
			"need_resched test %d: the self-propagating callback did not stop by the barrier",
			t->id);
}

/*
 * The verdict of a full-length loop: the kernel's summary line, and a
 * FAILURE if the whole loop saw neither an update nor two grace periods
 * (the kernel's check), or if fewer than two grace periods ended after
 * the loop's first (ours; it implies the kernel's gps < 2).
 */
static void nr_verdict(struct torture_thread *t, uint64_t dur,
		       unsigned long long cver, unsigned long gps,
		       const struct nr_mark *m)
{
	struct torture_run *run = t->run;
	unsigned long after = m->taken ? m->end_gps - m->gps : 0;

	cver = m->end_ver - cver;
	gps = m->end_gps - gps;
	printf("%s-torture: rcu_torture_fwd_prog_nr: %d Duration %llu cver %llu gps %lu\n",
	       run->flavor->name, t->id, (unsigned long long)(dur / 1000000),
	       cver, gps);
	if (!cver && gps < 2)
		torture_failure(
			run, "forward progress",
			"need_resched test %d: no update and %lu grace periods in %llu ms of read-side sections",
			t->id, gps, (unsigned long long)(dur / 1000000));
	else if (after < 2)
		torture_failure(
			run, "forward progress",
			"need_resched test %d: %lu grace periods in the last %llu ms of %llu ms of read-side sections, after the first one ended (%llu updates and %lu grace periods in all)",
			t->id, after,
			(unsigned long long)((m->end_ns - (m->taken ?
								   m->at_ns :
								   m->end_ns)) /
					     1000000),
			(unsigned long long)(dur / 1000000), cver, gps);
}

void torture_fwd_nr(struct torture_thread *t, int *tested, int *tries)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	struct selfprop sp = { .stop = 0 };
	struct nr_mark m = { .taken = false };
	uint64_t dur, start;
	unsigned long long cver;
	unsigned long gps;
	bool selfprop = f->call && f->barrier;

	printf("%s-torture: rcu_torture_fwd_prog_nr: Starting forward-progress test %d\n",
	       f->name, t->id);
	fflush(stdout);
	sp.cb.owner = &sp;
	if (selfprop)
		torture_cb_post(run, &sp.cb, "self-propagating", selfprop_cb);
	cver = atomic_load(&run->counters.ver);
	gps = nr_gps(run);
	dur = nr_duration(t);
	start = torture_now_ns();
	m.start_gps = gps;
	nr_loop(t, start + dur, &m);
	(*tries)++;
	if (torture_now_ns() - start >= dur && !torture_must_stop(run)) {
		(*tested)++;
		nr_verdict(t, dur, cver, gps, &m);
	}
	if (selfprop)
		selfprop_stop(t, &sp);
	fflush(stdout);
	torture_sleep_ns(run, NR_RECOVER_NS);
}
