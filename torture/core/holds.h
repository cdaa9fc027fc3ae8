/* SPDX-License-Identifier: MIT */
/*
 * Read-side holds (core/holds.c): for every thread that takes read-side
 * sections or, under QSBR, stays online, a sequence that is odd while
 * the thread may hold up a grace period and moves once it has stopped:
 * made odd before read_lock (outermost) or thread_online is called, moved
 * by two after quiescent_state returns, made even after the outermost
 * read_unlock or thread_offline returns (and with them any wakeup the
 * flavor owes a waiting grace period).  Two looks at the sequences tell
 * whether some thread may have stayed in one section from the first to
 * the second: the lost-wakeup check's proof that a grace period asleep
 * all that while had nobody left to wait for.  Every section, quiescent
 * state, online/offline and registration call of the torture test's
 * threads goes through these (a thread that did not register through
 * hold_register_thread() is not tracked: the check judges it by its
 * sleep); plain stores, no fence: a fence around a
 * reader's section would hide the reorderings the run looks for.
 */
#ifndef TORTURE_CORE_HOLDS_H
#define TORTURE_CORE_HOLDS_H

#include <rcutorture/flavor.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define HOLDS_MAX 1024 /* threads tracked at once; more are not tracked */

int hold_read_lock(const struct rcut_flavor *f);
void hold_read_unlock(const struct rcut_flavor *f, int idx);
void hold_quiescent_state(const struct rcut_flavor *f);
/* call() may take a section of its own (liburcu's call_rcu() does). */
void hold_call(const struct rcut_flavor *f, struct rcut_head *head,
	       void (*func)(struct rcut_head *head));
void hold_thread_offline(const struct rcut_flavor *f);
void hold_thread_online(const struct rcut_flavor *f);
/* Track the calling thread from here on (and register it with f). */
void hold_register_thread(const struct rcut_flavor *f);
/* Unregister it if f can, then stop tracking it. */
void hold_unregister_thread(const struct rcut_flavor *f);

/* Whether thread tid said it holds nothing (rcut_thread_holds_nothing). */
bool holds_nothing(pid_t tid);

/* One look at every tracked thread's sequence. */
struct hold_look {
	int n;		      /* slots looked at */
	bool overflow;	      /* a thread went untracked: no slot was free */
	pid_t tid[HOLDS_MAX]; /* 0: a free slot */
	uint64_t seq[HOLDS_MAX];
};

void holds_look(struct hold_look *look);

/*
 * Whether some thread may have held up a grace period from look a to
 * look b: the same thread in a slot, its sequence odd and unchanged (or
 * a thread went untracked).  *who: that thread (0 if untracked).
 */
bool holds_one_held_throughout(const struct hold_look *a,
			       const struct hold_look *b, pid_t *who);

/* Whether thread tid is tracked in look (the check ignores no other). */
bool holds_tracks(const struct hold_look *look, pid_t tid);

#endif /* TORTURE_CORE_HOLDS_H */
