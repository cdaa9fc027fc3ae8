// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "lostwake.h"
#include "holds.h"
#include "run.h"
#include "../util/task_stat.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define TASKS_MAX 1024

/* One thread at the first look: asleep on the word, or judged by sleep. */
struct look_task {
	pid_t tid;
	bool on_word; /* a candidate: asleep on the flavor's word */
	struct task_futex_look word;
	struct task_sleep_look sleep; /* not ours: must sleep through */
};

/* The first look of a pair (main thread only: static). */
static struct {
	bool taken;
	uint64_t at_ns;
	int n;
	struct look_task task[TASKS_MAX];
	struct hold_look holds;
} first;
static struct hold_look second_holds;

bool torture_lost_wakeup_possible(const struct torture_run *run)
{
	const struct rcut_flavor *f = run->flavor;

	/* Up/down sections belong to no thread: nothing tracks them. */
	return RCUT_FLAVOR_V4(f, gp_wait_word) &&
	       !(RCUT_FLAVOR_V3(f, down_read) && run->cfg->n_up_down);
}

/* "writer 0 (tid 123)", or "the flavor's thread 123" if not ours. */
static void name_thread(const struct torture_run *run, pid_t tid, char *buf,
			size_t len)
{
	for (int i = 0; i < run->threads.n; i++) {
		const struct torture_thread *t = &run->threads.t[i];

		if (atomic_load(&t->os_tid) == tid) {
			snprintf(buf, len, "%s %d (tid %d)", t->kind, t->id,
				 (int)tid);
			return;
		}
	}
	snprintf(buf, len, "the flavor's thread %d", (int)tid);
}

/*
 * The first look: every thread asleep on the word, then (only if there
 * is one) every other untracked thread's sleep, then the holds.
 */
static void take_first(struct torture_run *run, uintptr_t word, uint64_t now)
{
	static pid_t tids[TASKS_MAX];
	int n = task_list(tids, TASKS_MAX), candidates = 0;
	pid_t me = gettid();

	first.taken = false;
	first.n = 0;
	for (int i = 0; i < n; i++) {
		struct look_task *t = &first.task[first.n];

		if (tids[i] == me)
			continue;
		t->tid = tids[i];
		t->on_word = task_futex_look(tids[i], &t->word) &&
			     t->word.word == word;
		candidates += t->on_word;
		first.n++;
	}
	if (!candidates)
		return;
	holds_look(&first.holds);
	for (int i = 0; i < first.n; i++) {
		struct look_task *t = &first.task[i];

		if (t->on_word || holds_tracks(&first.holds, t->tid) ||
		    holds_nothing(t->tid))
			continue;
		if (!task_sleep_look(t->tid, &t->sleep))
			t->sleep.asleep = true; /* gone: it holds nothing */
	}
	(void)run;
	first.at_ns = now;
	first.taken = true;
}

/* Every untracked thread of the first look slept through (or is gone). */
static bool others_slept(void)
{
	for (int i = 0; i < first.n; i++) {
		const struct look_task *t = &first.task[i];
		struct task_sleep_look now;

		if (t->on_word || holds_tracks(&first.holds, t->tid) ||
		    holds_nothing(t->tid))
			continue;
		if (task_sleep_look(t->tid, &now) &&
		    !task_slept_through(&t->sleep, &now))
			return false;
	}
	return true;
}

bool torture_lost_wakeup_look(struct torture_run *run, uint64_t now, char *what,
			      size_t len)
{
	uintptr_t word = (uintptr_t)run->flavor->gp_wait_word();
	uint64_t every =
		run->cfg->hunt ? LOSTWAKE_HUNT_LOOK_NS : LOSTWAKE_LOOK_NS;
	static uint64_t looked_ns;
	static bool looked;
	pid_t held_by;
	char who[64];

	if (looked && now - looked_ns < every)
		return false;
	looked = true;
	looked_ns = now;
	if (!first.taken) {
		take_first(run, word, now);
		return false;
	}
	/* The holds first: their interval lies inside the sleep's. */
	holds_look(&second_holds);
	for (int i = 0; i < first.n; i++) {
		const struct look_task *t = &first.task[i];
		struct task_futex_look later;

		if (!t->on_word || !task_futex_look(t->tid, &later) ||
		    !task_futex_slept_through(&t->word, &later))
			continue;
		if (holds_one_held_throughout(&first.holds, &second_holds,
					      &held_by) ||
		    !others_slept())
			break;
		name_thread(run, t->tid, who, sizeof(who));
		snprintf(
			what, len,
			"%s asleep in FUTEX_WAIT on the flavor's grace-period wakeup word %p for %.3f s without a wakeup, while every reader it could wait for left its section or went offline",
			who, (void *)word, (double)(now - first.at_ns) / 1e9);
		return true;
	}
	take_first(run, word, now);
	return false;
}
