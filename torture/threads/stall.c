// SPDX-License-Identifier: MIT
/*
 * Deliberate stalls (the kernel's rcu_torture_stall): after
 * --stall-cpu-holdoff, hold the flavor's grace-period worker for
 * --stall-gp-kthread (through the flavor's gp_stall hook), then hold one
 * read-side section for --stall-cpu, spinning or, with --stall-cpu-block,
 * sleeping.  Each hold is a stuck operation of this thread, named with
 * its cause and length, so that the stall watchdog, on a correct flavor,
 * reports exactly this stall (exit 4) once it outlasts --stall-timeout:
 * the test of the watchdog itself.
 */
#include "../core/run.h"
#include "threads.h"

#include <stdio.h>

#define STALL_NAP_NS 1000000ULL /* a blocked stall sleeps in 1 ms naps */

/*
 * Wait (at most limit_ns) until no other thread is still in an
 * operation it began before since: a waiter the flavor already let go
 * may not have run yet on a loaded machine.
 */
static void wait_older_ops(struct torture_thread *self, uint64_t since,
			   uint64_t limit_ns)
{
	struct torture_run *run = self->run;
	uint64_t deadline = torture_now_ns() + limit_ns;
	bool older = true;

	while (older && torture_now_ns() < deadline &&
	       !torture_must_stop(run)) {
		older = false;
		for (int i = 0; i < run->threads.n && !older; i++) {
			struct torture_thread *t = &run->threads.t[i];

			older = t != self && t->created &&
				!atomic_load(&t->exited) &&
				atomic_load(&t->op) &&
				atomic_load(&t->op_since_ns) < since;
		}
		if (older)
			torture_nap_ns(STALL_NAP_NS);
	}
}

/*
 * Begin the stuck operation op, then let every grace period, callback
 * and waiter already under way finish: whatever the hold then holds up
 * is younger than the hold, so a watchdog that names the operation stuck
 * longest names it, not a synchronize or a callback that merely waited.
 */
static void begin_hold(struct torture_thread *t, const char *op)
{
	const struct rcut_flavor *f = t->run->flavor;

	torture_op_begin(op);
	f->synchronize();
	if (f->barrier)
		f->barrier();
	wait_older_ops(t, atomic_load(&t->op_since_ns),
		       t->run->cfg->stall_timeout_ns / 2);
}

/* The kernel's VERBOSE_TOROUT_STRING: only with --verbose. */
static void say(struct torture_run *run, const char *what)
{
	if (run->cfg->verbose > 1) {
		printf("%s-torture: rcu_torture_stall %s\n", run->flavor->name,
		       what);
		fflush(stdout);
	}
}

/* Hold the grace-period worker (flavors with the gp_stall hook). */
static void stall_gp(struct torture_thread *t, char *op, size_t len)
{
	struct torture_run *run = t->run;
	uint64_t ns = run->cfg->stall_gp_kthread_ns;

	say(run, "begin GP stall");
	snprintf(op, len,
		 "holding the grace-period worker (stall_gp_kthread, %.1f s)",
		 (double)ns / 1e9);
	begin_hold(t, op);
	RCUT_FLAVOR_V3(run->flavor, gp_stall)(ns);
	torture_op_end();
}

/* Spin or sleep for ns, or until the run stops; no progress meanwhile. */
static void hold(struct torture_run *run, uint64_t ns, bool block)
{
	uint64_t end = torture_now_ns() + ns;

	while (torture_now_ns() < end && !torture_must_stop(run)) {
		if (block)
			torture_nap_ns(STALL_NAP_NS);
	}
}

/* Hold one read-side section for --stall-cpu. */
static void stall_cpu(struct torture_thread *t, char *op, size_t len)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	const struct rcut_config *c = run->cfg;
	int idx;

	say(run, "begin CPU stall");
	snprintf(op, len, "a read-side section held by stall_cpu (%s, %.1f s)",
		 c->stall_cpu_block ? "sleeping" : "spinning",
		 (double)c->stall_cpu_ns / 1e9);
	begin_hold(t, op);
	if (f->thread_online)
		hold_thread_online(f); /* QSBR: now this thread holds up GPs */
	idx = hold_read_lock(f);
	printf("%s-torture: rcu_torture_stall start stall episode 1 on CPU %d.\n",
	       f->name, t->cpu);
	fflush(stdout);
	hold(run, c->stall_cpu_ns, c->stall_cpu_block);
	hold_read_unlock(f, idx);
	if (f->thread_offline)
		hold_thread_offline(f);
	torture_op_end();
}

void torture_stall(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_config *c = run->cfg;
	char op[160]; /* t->op points here while a hold lasts */

	say(run, "task started");
	if (c->stall_cpu_holdoff_ns) {
		say(run, "begin holdoff");
		torture_sleep_ns(run, c->stall_cpu_holdoff_ns);
		say(run, "end holdoff");
	}
	if (!torture_must_stop(run) && c->stall_gp_kthread_ns)
		stall_gp(t, op, sizeof(op));
	if (!torture_must_stop(run) && c->stall_cpu_ns)
		stall_cpu(t, op, sizeof(op));
	printf("%s-torture: rcu_torture_stall end.\n", run->flavor->name);
	fflush(stdout);
	/* Idle until the end, as the kernel's stall kthread does. */
	while (!torture_must_stop(run))
		torture_sleep_ns(run, 100000000ULL);
}
