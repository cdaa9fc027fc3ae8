// SPDX-License-Identifier: MIT
/*
 * Reader threads (the kernel's rcu_torture_reader/one_read): enter a
 * read-side section, possibly nested, dereference the current element,
 * check it is in use, dawdle a random while, and histogram the pipe stage
 * it has reached by then.  Stage >= 2 means a grace period completed while
 * this reader still held the element: a too-short grace period.
 */
#define _GNU_SOURCE
#include "../core/run.h"
#include "threads.h"
#include "../core/mbchk.h"
#include "../../report/histogram.h"
#include "../core/preempt.h"
#include "irqreader.h"
#include "../util/delay.h"

#include <sched.h>

#define MAX_NESTING 64		  /* --reader-nesting at most */
#define SHORT_DELAY_NS 200000ULL  /* 200 us, the kernel's shortdelay_us */
#define LONG_DELAY_NS 50000000ULL /* 50 ms: long, but keeps CI runs brisk */
#define BLOCK_NS 100000ULL /* a sleep inside the section, where allowed */
#define QSBR_OFFLINE_MAX_NS 1000000ULL
/* --swarm's long delays: one read in LONGER_ODDS spins up to LONGER_MAX_NS. */
#define LONGER_ODDS 16
#define LONGER_MAX_NS 300000ULL

/* One classic read in this many extends its section after its holds. */
#define EXTEND_ODDS 32

/* A tight read's in-section spin: this many pauses at most (~1-25 us). */
#define TIGHT_SPIN_MAX 512

/* What a read did, for the failure report. */
struct read_state {
	int nesting;
	uint64_t delay_ns;
	bool blocked;
	bool tight;
	int nsegs; /* segments of an extended read (in segs), else 0 */
};

/*
 * Whether this read is a tight one (--swarm's "tight"): on the first half
 * of the readers, which the round-robin placement spreads over the CPUs,
 * and not while a CPU is going offline (onoff.c).
 */
static bool read_is_tight(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	long half = run->nreaders / 2 > 0 ? run->nreaders / 2 : 1;

	return __atomic_load_n(&run->read_tight, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&run->offlining, __ATOMIC_RELAXED) &&
	       t->id < half && run->threads.readers &&
	       t->id < run->threads.nreaders &&
	       run->threads.readers[t->id] == t;
}

/*
 * Before a tight read: stores to lines the tight readers of the other
 * CPUs store to as well, so each store must fetch its line back first.
 * The flavor's read_lock store then waits in the store buffer behind them
 * for a while, and if read_lock lacks the fence it needs, the section's
 * loads pass it: the store-to-load reordering a missing fence allows,
 * microseconds instead of nanoseconds wide.  Relaxed stores only: no
 * fence, no locked instruction, no system call.  A QSBR reader also goes
 * offline before and online after them, so thread_online's store waits.
 */
static void tight_enter(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	bool cycle = f->thread_offline && f->thread_online;
	uint64_t v = (uint64_t)t->id;

	if (cycle)
		hold_thread_offline(f);
	for (int i = 0; i < TORTURE_STUFF_LINES; i++)
		atomic_store_explicit(&run->stuff[i].v, v,
				      memory_order_relaxed);
	if (cycle)
		hold_thread_online(f);
}

/*
 * A tight read's in-section delay: a spin on a local counter (no clock,
 * fence or system call that would drain the store buffer), long enough
 * for an expedited grace period to end under a reader it missed.
 */
static void tight_delay(struct torture_thread *t)
{
	/*
	 * Under the store-buffer emulation a store waits up to
	 * --store-buffer-delay, not nanoseconds: spin about as long (a pause
	 * is some 40 ns), so a grace period fits in the section.
	 */
	uint64_t max = t->run->cfg->store_buffer_delay_ns / 40;
	uint64_t n = 16 + torture_random(&t->rand) %
				  (max > TIGHT_SPIN_MAX ? max : TIGHT_SPIN_MAX);

	for (uint64_t i = 0; i < n; i++)
		delay_cpu_relax();
}

/*
 * The kernel's rcu_read_delay(): mostly nothing, sometimes 200 us, rarely
 * 50 ms, and (where the flavor allows it) sometimes give up the CPU.  The
 * odds scale with the reader count so the total delay rate stays the same.
 */
static void read_delay(struct torture_thread *t, struct read_state *rs)
{
	struct torture_run *run = t->run;
	uint64_t r = torture_random(&t->rand);
	uint64_t n = (uint64_t)run->nreaders;

	/* Hold the element while grace periods run (flip races need it). */
	if (__atomic_load_n(&run->read_delays_long, __ATOMIC_RELAXED) &&
	    (r >> 52) % LONGER_ODDS == 0) {
		uint64_t d = 1000 + (r >> 8) % LONGER_MAX_NS;

		rs->delay_ns += d;
		torture_spin_ns(run, d);
		return;
	}
	if (r % (n * 100000) == 0) {
		rs->delay_ns += LONG_DELAY_NS;
		torture_spin_ns(run, LONG_DELAY_NS);
	} else if ((r >> 24) % (n * 400) == 0) {
		rs->delay_ns += SHORT_DELAY_NS;
		torture_spin_ns(run, SHORT_DELAY_NS);
	} else if ((run->flavor->caps & RCUT_CAP_READER_MAY_BLOCK) &&
		   (r >> 44) % (n * 500) == 0) {
		rs->blocked = true;
		if (r & 1) {
			sched_yield();
		} else {
			/*
			 * Sleep inside the section, off the CPU: the reader may
			 * wake on another one (the RFC's preempted reader).
			 */
			rs->delay_ns += BLOCK_NS;
			bool detached = torture_cpu_detach();

			torture_nap_ns(BLOCK_NS);
			if (detached)
				torture_cpu_attach();
		}
	}
}

/*
 * The reader was preempted inside read_lock (preemption injection): it
 * may have counted itself late, in a phase the next grace period does not
 * wait for.  Stay in the section for a while, up to --preempt-duration,
 * so that grace period can end under it: a flavor with that bug then
 * shows a too-short grace period instead of getting away with it.
 */
static void hold_after_preemption(struct torture_thread *t,
				  struct read_state *rs)
{
	uint64_t max = __atomic_load_n(&t->run->cfg->preempt_duration_ns,
				       __ATOMIC_RELAXED);
	uint64_t d = max ? 1000 + torture_random(&t->rand) % max : 0;

	rs->delay_ns += d;
	torture_spin_ns(t->run, d);
}

static unsigned long gp_seq(const struct rcut_flavor *f)
{
	return f->get_gp_seq ? f->get_gp_seq() : 0;
}

static unsigned long gp_diff(const struct rcut_flavor *f, unsigned long end,
			     unsigned long start)
{
	if (f->gp_diff)
		return f->gp_diff(end, start);
	return end - start;
}

/*
 * rtmbe: the element must stay in use (mbtest 1) for as long as this
 * reader holds it.  Checked on entry, as the kernel does, and again after
 * the delay, which catches an element freed under a sleeping reader.
 */
void torture_read_check_in_use(struct torture_thread *t, struct torture_elem *p,
			       const char *when)
{
	if (atomic_load_explicit(&p->mbtest, memory_order_relaxed))
		return;
	counter_inc(&t->run->counters.rtmbe);
	torture_failure(
		t->run, "rtmbe",
		"%s %d saw element %p freed %s (mbtest 0, pipe stage %d)",
		t->kind, t->id, (void *)p, when,
		atomic_load_explicit(&p->pipe_count, memory_order_relaxed));
}

/* The witness counter: odd while this reader is inside a section. */
static void section_mark(struct torture_thread *t)
{
	counter_inc_owned(&t->section);
}

/*
 * What a read does while it holds p: the checks, and rtmbkf and a delay,
 * or for a tight read only a short spin (rtmbkf's locked instructions
 * would drain the store buffer that the tight read filled).
 */
static void hold_element(struct torture_thread *t, struct read_state *rs,
			 struct torture_elem *p, uint64_t preempted)
{
	torture_read_check_in_use(t, p, "on entry");
	if (rs->tight) {
		tight_delay(t);
	} else {
		torture_mbchk_read(t, p);
		if (preempted)
			hold_after_preemption(t, rs);
		else if (__atomic_load_n(&t->run->read_delays,
					 __ATOMIC_RELAXED))
			read_delay(t, rs);
	}
	torture_read_check_in_use(t, p, "after the in-section delay");
}

/*
 * Choose how a read goes: tight (tight_enter fills the store buffer), or
 * nested now and then.  A tight read samples the grace-period sequence
 * here, before its section: the flavor's get_gp_seq() is mostly a seq_cst
 * load, on Arm an ldar, which waits for every earlier store (stlr) to be
 * seen, so a sample inside the section is the very fence whose absence
 * the tight read hunts (under --store-buffer-model arm it drained
 * thread_online's counter store at once, and the catalogue's
 * online-relaxed was never caught).  That sample also counts the grace
 * periods of tight_enter, so a tight read stays out of the Reader Batch
 * histogram: the kernel's kvm-recheck-rcu.sh reads its stages >= 2 as
 * close calls, grace periods that ended within one section.  Returns
 * that early sample (0 for other reads: they sample inside).
 */
static unsigned long read_prepare(struct torture_thread *t,
				  struct read_state *rs)
{
	const struct rcut_flavor *f = t->run->flavor;
	unsigned long started = 0;

	rs->tight = read_is_tight(t);
	if (rs->tight) {
		started = gp_seq(f);
		tight_enter(t);
	} else if ((f->caps & RCUT_CAP_NESTING) &&
		   __atomic_load_n(&t->run->read_nesting, __ATOMIC_RELAXED) &&
		   t->run->cfg->reader_nesting > 1 &&
		   torture_random(&t->rand) % 8 == 0) {
		rs->nesting =
			2 + (int)(torture_random(&t->rand) %
				  (uint64_t)(t->run->cfg->reader_nesting - 1));
	}
	return started;
}

bool torture_one_read(struct torture_thread *t)
{
	const struct rcut_flavor *f = t->run->flavor;
	struct read_state rs = { .nesting = 1 };
	struct torture_seg segs[TORTURE_MAX_SEGS]; /* written only to extend */
	int idx[MAX_NESTING];
	struct torture_elem *p;
	unsigned long started, completed;
	uint64_t preempted;
	bool watch;
	int pipe = 0, late;

	if (t->run->cfg->extendables)
		return torture_one_read_segments(t);
	started = read_prepare(t, &rs);
	/* Only with preemption injection: no cost to other runs. */
	watch = __atomic_load_n(&t->run->cfg->preempt_duration_ns,
				__ATOMIC_RELAXED) != 0;
	preempted = watch ? preempt_self_delays() : 0;
	/*
	 * In the section from the outermost lock on: a reader stuck in a
	 * nested lock holds grace periods up (the watchdog names it then).
	 */
	idx[0] = hold_read_lock(f);
	section_mark(t);
	for (int i = 1; i < rs.nesting; i++)
		idx[i] = hold_read_lock(f);
	preempted = watch ? preempt_self_delays() - preempted : 0;
	if (!rs.tight)
		started = gp_seq(f);
	p = atomic_load_explicit(&t->run->pool.current, memory_order_consume);
	if (p) {
		hold_element(t, &rs, p, preempted);
		torture_reader_section_post(t);
		/*
		 * As the kernel's reads do, go on in the same section and
		 * check the element read first at the end: a nested lock
		 * that counts the section as new, or a nested unlock that
		 * ends it, lets a grace period end under that element.
		 */
		if (!rs.tight && torture_random(&t->rand) % EXTEND_ODDS == 0)
			rs.nsegs = torture_read_extend(t, segs);
		pipe = atomic_load_explicit(&p->pipe_count,
					    memory_order_relaxed);
	}
	completed = gp_seq(f);
	section_mark(t);
	for (int i = rs.nesting - 1; i > 0; i--)
		hold_read_unlock(f, idx[i]);
	late = torture_late_unlock(t, p, idx[0]);
	if (!p)
		return false;

	if (pipe > RCUT_PIPE_LEN || pipe < 0)
		pipe = RCUT_PIPE_LEN;
	counter_inc_owned(&t->pipe[pipe]);
	if (!rs.tight)
		counter_inc_owned(&t->batch[rcut_hist_slot(
			gp_diff(f, completed, started), RCUT_HIST_LEN)]);
	counter_inc_owned(&t->reads);
	if (pipe > 1 && rs.nsegs)
		torture_read_extend_failed(t, segs, rs.nsegs);
	if (pipe > 1)
		torture_failure(
			t->run, "too-short grace period",
			"%s %d saw element %p at pipe stage %d (nesting %d, in-section delay %llu us%s%s%s, GP sequence %lu..%lu)",
			t->kind, t->id, (void *)p, pipe, rs.nesting,
			(unsigned long long)(rs.delay_ns / 1000),
			rs.blocked ? ", blocked in the section" : "",
			rs.tight ? ", a tight read" : "",
			rs.nsegs ?
				", extended after its holds: the reader segments are printed at the end" :
				"",
			started, completed);
	else if (late > 1)
		torture_failure(
			t->run, "too-short grace period",
			"%s %d saw element %p at pipe stage %d in a load that passed its read_unlock()'s store (--store-buffer-model arm: nothing orders the section's loads before that store; nesting %d, GP sequence %lu..%lu)",
			t->kind, t->id, (void *)p, late, rs.nesting, started,
			completed);
	return true;
}

/*
 * QSBR readers report a quiescent state after every section (never inside
 * one) and now and then go offline for a while, as real QSBR users do
 * around blocking calls.
 */
static void qsbr_between_reads(struct torture_thread *t)
{
	const struct rcut_flavor *f = t->run->flavor;

	if (!f->quiescent_state)
		return;
	hold_quiescent_state(f);
	if (f->thread_offline && torture_random(&t->rand) % 1024 == 0) {
		hold_thread_offline(f);
		torture_sleep_ns(t->run, torture_random(&t->rand) %
						 QSBR_OFFLINE_MAX_NS);
		hold_thread_online(f);
	}
}

void torture_reader(struct torture_thread *t)
{
	bool irq = t->run->cfg->irqreader && irqreader_possible(t->run->flavor);

	if (irq && irqreader_arm(t))
		torture_internal_error(
			t->run, "reader %d: cannot start its irqreader timer",
			t->id);
	while (!torture_must_stop(t->run)) {
		if (!torture_one_read(t))
			torture_sleep_ns(t->run, 1000000);
		if (irq)
			irqreader_check(t);
		torture_progress();
		torture_cpu_checkpoint();
		torture_stutter_wait(t);
		qsbr_between_reads(t);
	}
	if (irq) {
		irqreader_disarm(t);
		irqreader_check(t);
	}
}
