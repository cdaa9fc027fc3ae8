// SPDX-License-Identifier: MIT
/*
 * The stall watchdog: run from the main thread, which never calls into
 * the flavor, so it notices when the flavor under test hangs.  A thread
 * whose progress counter has not moved for --stall-timeout (outside a
 * flavor call, not counting the time it waited for a CPU), or a posted
 * callback not invoked for that long, is a stall.  One hang leaves
 * victims behind it (a barrier waits for the grace period a hung
 * synchronize holds up), so the cause named is the operation stuck the
 * longest, not the first thread of the table found stuck; but a thread
 * stuck inside a read-side section holds up every grace period that has
 * to wait for it, so it comes first once it has been stuck long enough.
 */
#define _GNU_SOURCE
#include "watchdog.h"
#include "lifecycle.h"
#include "run.h"
#include "../util/task_stat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One thread (or the test's callback) stuck, for the ranking. */
struct stuck {
	uint64_t age_ns;
	bool in_section; /* without progress inside a read-side section */
	char what[160];
};

/*
 * Charge t, stopped outside a flavor call, for the time since the last
 * look: all of it while it is not runnable (asleep: stuck, or held up
 * by a lock), only the CPU time it used while it is runnable, which is
 * when the machine may have kept it waiting for a CPU.  The kernel's
 * own account of that wait (schedstat's run_delay) is added only once
 * the thread runs again, so a thread still waiting would be charged it.
 * The first look, or one after a look that could not read the thread,
 * charges the time since the last in full.
 */
static void charge(struct torture_thread *t, uint64_t now)
{
	struct task_stat st;
	bool known = task_stat_read(atomic_load(&t->os_tid), &st);

	if (!t->wd_looked) {
		t->wd_looked = true;
		t->wd_charged_ns = now - t->wd_since_ns;
	} else if (known && t->wd_cpu_known && st.state == 'R') {
		uint64_t used =
			st.cpu_ns > t->wd_cpu_ns ? st.cpu_ns - t->wd_cpu_ns : 0;
		uint64_t span = now - t->wd_look_ns;

		t->wd_charged_ns += used;
		t->wd_waited_ns = span > used ? span - used : 0;
	} else {
		t->wd_charged_ns += now - t->wd_look_ns;
	}
	t->wd_look_ns = now;
	t->wd_cpu_known = known;
	if (known)
		t->wd_cpu_ns = st.cpu_ns;
}

/*
 * How long of the last look t, in a flavor call since 'since', waited
 * behind a reader that the machine kept from its CPU: the longest wait
 * of a reader inside a read-side section whose progress counter has not
 * moved since before t's call began, so that the grace period t waits
 * for may have to wait for it (issue 45: at load 19 a writer whose
 * synchronize waited for starved readers was charged their wait).  A
 * reader that got on since is no longer in the way; one stuck in its
 * section on its CPU is charged itself, and ranks first (rank()).
 */
static uint64_t behind_starved_reader(struct torture_run *run,
				      const struct torture_thread *t,
				      uint64_t since)
{
	uint64_t most = 0;

	for (int i = 0; i < run->threads.n; i++) {
		const struct torture_thread *r = &run->threads.t[i];

		if (r == t || r->wd_op || !r->wd_waited_ns ||
		    r->wd_since_ns > since ||
		    !(atomic_load_explicit(&r->section, memory_order_relaxed) &
		      1))
			continue;
		if (r->wd_waited_ns > most)
			most = r->wd_waited_ns;
	}
	return most;
}

/*
 * How long t has been stuck: since it entered the flavor call it is in,
 * wall time (it may be the victim of another thread's hang, and a hang
 * that spins makes every thread wait for a CPU) less the time it waited
 * behind a reader kept from its CPU (behind_starved_reader()); else the time charged
 * since the watchdog first saw its progress counter at this value, which
 * leaves out its waits for a CPU (charge()): no flavor can give back the
 * time a busy machine takes (at load 8.5 a reader that waited 0.9 s for
 * a CPU was named a stall's cause, ahead of the barrier that hung).
 * 0 if it got on with its work within 'least' (or exited); *seen_ns is
 * the time counted since the watchdog saw it stop.
 */
static uint64_t stuck_for(struct torture_thread *t, uint64_t now,
			  uint64_t least, char *what, size_t len,
			  uint64_t *seen_ns)
{
	uint64_t p = atomic_load_explicit(&t->progress, memory_order_relaxed);
	uint64_t since, excused = 0;
	const char *op = t->wd_op;

	if (!t->created || atomic_load(&t->exited))
		return 0;
	if (p != t->wd_seen || !t->wd_since_ns) {
		t->wd_seen = p;
		t->wd_since_ns = now;
		t->wd_looked = false;
		return 0;
	}
	if (op) {
		t->wd_looked = false;
		since = atomic_load(&t->op_since_ns);
		if (since > now)
			since = now;
		if (t->wd_excused_op_since_ns != since) {
			t->wd_excused_op_since_ns = since;
			t->wd_excused_ns = 0;
		}
		t->wd_excused_ns += behind_starved_reader(t->run, t, since);
		excused = t->wd_excused_ns;
		*seen_ns = now - t->wd_since_ns;
		*seen_ns = *seen_ns > excused ? *seen_ns - excused : 0;
		since = now - since > excused ? since + excused : now;
	} else {
		charge(t, now);
		*seen_ns = t->wd_charged_ns;
		since = now - t->wd_charged_ns;
	}
	if (*seen_ns < least)
		return 0;
	if (op && excused >= 100000000)
		snprintf(
			what, len,
			"%s %d stuck in %s for %.1f s (and %.1f s behind readers waiting for a CPU)",
			t->kind, t->id, op, (double)(now - since) / 1e9,
			(double)excused / 1e9);
	else if (op)
		snprintf(what, len, "%s %d stuck in %s for %.1f s", t->kind,
			 t->id, op, (double)(now - since) / 1e9);
	else
		snprintf(what, len, "%s %d made no progress for %.1f s",
			 t->kind, t->id, (double)(now - since) / 1e9);
	/* Never 0 for a stuck thread: 0 means "not stuck". */
	return now - since ? now - since : 1;
}

/* Oldest first. */
static int by_age(const void *a, const void *b)
{
	const struct stuck *x = a, *y = b;

	return x->age_ns < y->age_ns ? 1 : x->age_ns > y->age_ns ? -1 : 0;
}

/*
 * The oldest of list[0..n) is the cause, the rest go to s->also; except
 * that a thread stuck inside a read-side section for half the timeout
 * comes first: the grace periods stuck behind it may have begun before
 * the watchdog saw it stop (its age counts from then, within a period),
 * and no correct reader sits in its section that long.
 */
static void rank(struct stuck *list, int n, uint64_t timeout,
		 struct torture_stall *s)
{
	size_t used = 0;

	qsort(list, (size_t)n, sizeof(*list), by_age);
	for (int i = 1; i < n; i++) {
		struct stuck reader = list[i];

		if (!reader.in_section || reader.age_ns < timeout / 2)
			continue;
		memmove(&list[1], &list[0], (size_t)i * sizeof(*list));
		list[0] = reader;
		break;
	}
	s->age_ns = list[0].age_ns;
	snprintf(s->what, sizeof(s->what), "%s", list[0].what);
	s->n_also = n - 1;
	for (int i = 1; i < n && i <= TORTURE_STALL_ALSO_MAX; i++) {
		int w = snprintf(s->also + used, sizeof(s->also) - used, "%s%s",
				 i > 1 ? "; " : "", list[i].what);

		if (w < 0 || (size_t)w >= sizeof(s->also) - used)
			break;
		used += (size_t)w;
	}
}

/*
 * --hunt: whether t, stuck in a grace-period wait for half the timeout
 * (the caller checks), has been overtaken by TORTURE_OVERTAKEN_MIN
 * grace-period waits or callbacks that began after it and completed
 * (overtaken.h): a lost wakeup, a stall now rather than at the timeout.  Says so at the
 * end of what.  Not after a quarter of the timeout: a correct flavor's
 * expedited waiter starved on its unfair mutex (the catalogue's qsbr
 * base) was overtaken by 15 waits in 2.7 s at a load average of 37.
 */
static bool overtaken(struct torture_run *run, struct torture_thread *t,
		      char *what, size_t len)
{
	const char *op;
	uint64_t since;
	size_t used;
	int later;

	if (!run->cfg->hunt)
		return false;
	op = t->wd_op;
	since = atomic_load(&t->op_since_ns);
	later = torture_overtaken_count(run, op, since);
	if (later < TORTURE_OVERTAKEN_MIN)
		return false;
	used = strlen(what);
	snprintf(
		what + used, len - used,
		", while %d%s grace-period waits or callbacks that began after it completed",
		later, later == TORTURE_OVERTAKEN_RING ? " or more" : "");
	return true;
}

/* Every thread stuck for least or more; *tripped if one for timeout. */
static int collect(struct torture_run *run, uint64_t now, struct stuck *list,
		   bool *tripped)
{
	uint64_t timeout = run->cfg->stall_timeout_ns;
	uint64_t least = timeout / 4;
	int n = 0;

	for (int i = 0; i < run->threads.n; i++) {
		struct torture_thread *t = &run->threads.t[i];

		t->wd_op = atomic_load_explicit(&t->op, memory_order_acquire);
		t->wd_waited_ns = 0;
	}
	/* Threads outside flavor calls first: their waits excuse the rest. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < run->threads.n; i++) {
			struct torture_thread *t = &run->threads.t[i];
			uint64_t seen = 0, age;

			if (!t->wd_op != !pass)
				continue;
			age = stuck_for(t, now, least, list[n].what,
					sizeof(list[n].what), &seen);
			if (!age)
				continue;
			list[n].in_section =
				!t->wd_op && (atomic_load(&t->section) & 1);
			if (seen >= timeout ||
			    (seen >= timeout / 2 &&
			     overtaken(run, t, list[n].what,
				       sizeof(list[n].what))))
				*tripped = true;
			list[n++].age_ns = age;
		}
	}
	return n;
}

/* Room for n + 1 entries, kept between checks (main thread only). */
static struct stuck *list_for(int n)
{
	static struct stuck *list;
	static int cap;

	if (n + 1 > cap) {
		struct stuck *l = realloc(list, (size_t)(n + 1) * sizeof(*l));

		if (!l)
			return NULL;
		list = l;
		cap = n + 1;
	}
	return list;
}

bool torture_watchdog_check(struct torture_run *run, struct torture_stall *s)
{
	const struct torture_test *test = run->test;
	uint64_t now = torture_now_ns();
	struct stuck *list = list_for(run->threads.n);
	bool tripped = false;
	int n;

	memset(s, 0, sizeof(*s));
	if (!list)
		return false;
	n = collect(run, now, list, &tripped);
	/* First seen now: stuck for the timeout (within a watchdog period). */
	if (test && test->stalled &&
	    test->stalled(run, now, list[n].what, sizeof(list[n].what))) {
		list[n].in_section = false;
		list[n++].age_ns = run->cfg->stall_timeout_ns;
		tripped = true;
	}
	if (tripped)
		rank(list, n, run->cfg->stall_timeout_ns, s);
	return tripped;
}
