// SPDX-License-Identifier: MIT
/*
 * Reader segments (--extendables, the kernel's rcutorture_one_extend and
 * rcutorture_loop_extend): a reader builds its section from a random
 * list of 2 to 9 segments.  Each change of segment puts the new
 * protection in place before it drops the old one.  The outer read-side
 * section RCU_1 lasts the whole read; a nested one (RCU_2, where sections
 * nest) comes and goes inside it, and so do the kinds --extendables
 * allows: a signal-masked stretch (SIGMASK, the kernel's irqs-off: the
 * preemption and irqreader signals wait), a preemption point (PREEMPT: a
 * yield, or for blocking flavors now and then a sleep) and an in-section
 * delay (DELAY).  The first failing (or close-call) reader's list is kept
 * and printed at the end, in the kernel's "reader segments" format.
 */
#define _GNU_SOURCE
#include "threads.h"

#include "irqreader.h"
#include "../core/mbchk.h"
#include "../core/preempt.h"
#include "../../report/histogram.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>

/* Segment kinds: --extendables bits, and the kernel's RCU_1/RCU_2. */
#define SEG_SIGMASK RCUT_EXTEND_SIGMASK
#define SEG_PREEMPT RCUT_EXTEND_PREEMPT
#define SEG_DELAY RCUT_EXTEND_DELAY
#define SEG_RCU_1 0x20
#define SEG_RCU_2 0x40
#define SEG_NBITS 7
#define MAX_LOOPS 7 /* the kernel's RCUTORTURE_RDR_MAX_LOOPS */
#define SEG_DELAY_MAX_NS 100000ULL
#define SEG_SLEEP_NS 100000ULL
#define EXTEND_MAX 6 /* a classic read's extension: 2 to this many */

/* A reader's section in progress: its kinds and read_lock indexes. */
struct seg_reader {
	struct torture_thread *t;
	int state, idx1, idx2;
	sigset_t saved; /* the mask before a SIGMASK stretch */
};

/* The kinds this run's readers may use. */
static int seg_max(const struct torture_run *run)
{
	int m = SEG_RCU_1 | ((int)run->cfg->extendables & RCUT_EXTEND_ALL);

	if (run->flavor->caps & RCUT_CAP_NESTING)
		m |= SEG_RCU_2;
	return m;
}

/*
 * A random next state, mostly one kind besides RCU_1.  The outer section
 * RCU_1 lasts the whole read, as the kernel's does for SRCU: handing the
 * element over from one section to an overlapping later one protects
 * nothing in SRCU-like flavors (a grace period that began in between
 * need not wait for the later one), so RCU_2 only ever nests inside it.
 */
static int seg_next(struct seg_reader *r)
{
	uint64_t rnd = torture_random(&r->t->rand);
	int mask = seg_max(r->t->run);

	if (!(rnd & 7))
		mask &= (int)(rnd >> 3);
	else
		mask &= 1 << ((rnd >> 3) % SEG_NBITS);
	return mask | SEG_RCU_1;
}

/* Block (or restore) the harness's asynchronous signals. */
static void seg_sigmask(struct seg_reader *r, bool on)
{
	sigset_t set;

	if (!on) {
		pthread_sigmask(SIG_SETMASK, &r->saved, NULL);
		return;
	}
	sigemptyset(&set);
	sigaddset(&set, preempt_signal());
	sigaddset(&set, irqreader_signal());
	pthread_sigmask(SIG_BLOCK, &set, &r->saved);
}

/* What a middle segment does: its preemption point and delay. */
static void seg_body(struct seg_reader *r, struct torture_seg *seg)
{
	struct torture_thread *t = r->t;
	uint64_t rnd = torture_random(&t->rand);

	if (r->state & SEG_DELAY) {
		seg->delay_ns = 1000 + (rnd >> 8) % SEG_DELAY_MAX_NS;
		torture_spin_ns(t->run, seg->delay_ns);
	}
	if (!(r->state & SEG_PREEMPT))
		return;
	seg->preempted = true;
	if ((t->run->flavor->caps & RCUT_CAP_READER_MAY_BLOCK) &&
	    rnd % 16 == 0) {
		bool detached = torture_cpu_detach();

		torture_nap_ns(SEG_SLEEP_NS);
		if (detached)
			torture_cpu_attach();
	} else {
		sched_yield();
	}
}

/*
 * Change to state new (0: leave the section): new protection first, then
 * drop the old, then the new segment's body if it is a middle one.
 */
static void seg_change(struct seg_reader *r, int new, struct torture_seg *seg)
{
	const struct rcut_flavor *f = r->t->run->flavor;
	int old = r->state, on = new & ~old, off = old & ~new;

	if (on & SEG_SIGMASK)
		seg_sigmask(r, true);
	if (on & SEG_RCU_1)
		r->idx1 = hold_read_lock(f);
	if (on & SEG_RCU_2)
		r->idx2 = hold_read_lock(f);
	if (off & SEG_RCU_2)
		hold_read_unlock(f, r->idx2);
	if (off & SEG_RCU_1)
		hold_read_unlock(f, r->idx1);
	if (off & SEG_SIGMASK)
		seg_sigmask(r, false);
	r->state = new;
	if (!seg)
		return;
	*seg = (struct torture_seg){ .state = new };
	if (old && new)
		seg_body(r, seg);
}

/* Keep the first failing (or close-call) reader's segments. */
static void seg_record(struct torture_thread *t, const struct torture_seg *s,
		       int n, bool failure)
{
	struct torture_segs *e = &t->run->err_segs;

	if (atomic_exchange(&e->taken, true))
		return;
	e->failure = failure;
	e->reader = t->id;
	e->n = n;
	for (int i = 0; i < n; i++)
		e->seg[i] = s[i];
	atomic_store_explicit(&e->ready, true, memory_order_release);
}

/* The element's checks and histograms once the section is over. */
static void seg_account(struct torture_thread *t, struct torture_elem *p,
			int pipe, unsigned long batch,
			const struct torture_seg *s, int n)
{
	if (pipe > RCUT_PIPE_LEN || pipe < 0)
		pipe = RCUT_PIPE_LEN;
	counter_inc_owned(&t->pipe[pipe]);
	counter_inc_owned(&t->batch[rcut_hist_slot(batch, RCUT_HIST_LEN)]);
	counter_inc_owned(&t->reads);
	if (pipe > 1 || batch > 1)
		seg_record(t, s, n, pipe > 1);
	if (pipe > 1)
		torture_failure(
			t->run, "too-short grace period",
			"%s %d saw element %p at pipe stage %d in a section of %d segments (the reader segments are printed at the end)",
			t->kind, t->id, (void *)p, pipe, n);
}

int torture_read_extend(struct torture_thread *t, struct torture_seg *segs)
{
	struct seg_reader r = { .t = t, .state = SEG_RCU_1 };
	int max = seg_max(t->run);
	int n = 0,
	    loops = 2 + (int)(torture_random(&t->rand) % (EXTEND_MAX - 1));

	segs[n++] = (struct torture_seg){ .state = SEG_RCU_1 };
	for (int j = 0; j < loops; j++) {
		uint64_t rnd = torture_random(&t->rand);
		/*
		 * The nested section comes and goes at every segment (a
		 * grace period in a two-flip design must see two nested
		 * locks to end under a lock that re-reads the phase); a
		 * delay or a preemption point between gives the grace
		 * period time to move; a signal-masked stretch now and
		 * then if --extendables asks for them.
		 */
		int state = SEG_RCU_1 | (j % 2 ? 0 : SEG_RCU_2) |
			    ((rnd >> 8) & 7 ? 0 : SEG_DELAY) |
			    (rnd & 2 ? 0 : SEG_PREEMPT) |
			    ((rnd >> 3) & 3 ? 0 : SEG_SIGMASK);

		seg_change(&r, state & (max | SEG_DELAY | SEG_PREEMPT),
			   &segs[n++]);
	}
	seg_change(&r, SEG_RCU_1, NULL); /* the outer section stays */
	return n;
}

void torture_read_extend_failed(struct torture_thread *t,
				const struct torture_seg *segs, int n)
{
	seg_record(t, segs, n, true);
}

bool torture_one_read_segments(struct torture_thread *t)
{
	const struct rcut_flavor *f = t->run->flavor;
	struct seg_reader r = { .t = t };
	struct torture_seg segs[TORTURE_MAX_SEGS];
	struct torture_elem *p;
	unsigned long started, completed;
	int n = 0, loops, pipe = 0;
	uint64_t rnd;

	seg_change(&r, seg_next(&r), &segs[n++]);
	counter_inc_owned(&t->section);
	started = f->get_gp_seq ? f->get_gp_seq() : 0;
	p = atomic_load_explicit(&t->run->pool.current, memory_order_consume);
	if (p) {
		torture_read_check_in_use(t, p, "on entry");
		torture_mbchk_read(t, p);
		/* The kernel's bias towards more segments. */
		rnd = torture_random(&t->rand);
		loops = (int)(((rnd | (rnd >> 3)) & MAX_LOOPS) + 1);
		for (int j = 0; j < loops; j++)
			seg_change(&r, seg_next(&r), &segs[n++]);
		torture_read_check_in_use(t, p, "after its segments");
		pipe = atomic_load_explicit(&p->pipe_count,
					    memory_order_relaxed);
	}
	completed = f->get_gp_seq ? f->get_gp_seq() : 0;
	counter_inc_owned(&t->section);
	seg_change(&r, 0, NULL);
	if (!p)
		return false;
	seg_account(t, p, pipe,
		    f->gp_diff ? f->gp_diff(completed, started) :
				 completed - started,
		    segs, n);
	return true;
}

/* One segment as the kernel prints it: index, state, delay, kinds. */
static void seg_print(FILE *out, const char *name, int i,
		      const struct torture_seg *s)
{
	fprintf(out, "%s-torture: \t%d: %#4x", name, i, s->state);
	if (s->delay_ns)
		fprintf(out, " %lluus",
			(unsigned long long)(s->delay_ns / 1000));
	fprintf(out, "%s%s%s%s%s%s\n", s->preempted ? " preempted" : "",
		s->state & SEG_SIGMASK ? " SIGMASK" : "",
		s->state & SEG_PREEMPT ? " PREEMPT" : "",
		s->state & SEG_DELAY ? " DELAY" : "",
		s->state & SEG_RCU_1 ? " RCU_1" : "",
		s->state & SEG_RCU_2 ? " RCU_2" : "");
}

void torture_segments_print(struct torture_run *run, FILE *out)
{
	const struct torture_segs *e = &run->err_segs;
	const char *name = run->flavor->name;

	if (!atomic_load_explicit(&e->ready, memory_order_acquire))
		return;
	fprintf(out,
		"%s-torture: Failure/close-call rcutorture reader segments: (reader %d, %s)\n",
		name, e->reader, e->failure ? "failure" : "close call");
	if (!e->n)
		fprintf(out, "%s-torture: \t: No segments recorded!!!\n", name);
	for (int i = 0; i < e->n; i++)
		seg_print(out, name, i, &e->seg[i]);
}
