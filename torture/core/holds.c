// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "holds.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

struct hold_slot {
	_Atomic pid_t owner; /* 0: free */
	_Atomic uint64_t seq;
};

static struct hold_slot slots[HOLDS_MAX];
static atomic_int slots_used;  /* high-water mark: looks scan this many */
static atomic_bool overflowed; /* some thread found no free slot */

static __thread struct hold_slot *mine;
static __thread int depth; /* read_lock nesting (a signal handler's too) */

static bool is_qsbr(const struct rcut_flavor *f)
{
	return f->thread_offline && f->thread_online;
}

/* Claim a slot for the calling thread (hold_register_thread() only). */
static struct hold_slot *claim_slot(void)
{
	pid_t me = gettid();

	for (int i = 0; i < HOLDS_MAX; i++) {
		pid_t free_slot = 0;

		if (atomic_compare_exchange_strong(&slots[i].owner, &free_slot,
						   me)) {
			int used = atomic_load(&slots_used);

			while (used < i + 1 &&
			       !atomic_compare_exchange_weak(&slots_used, &used,
							     i + 1))
				;
			return &slots[i];
		}
	}
	atomic_store(&overflowed, true);
	return NULL;
}

/* Odd: may hold from here on; the store comes before the flavor's. */
static void hold_begin(void)
{
	struct hold_slot *s = mine;
	uint64_t v;

	if (!s)
		return;
	v = atomic_load_explicit(&s->seq, memory_order_relaxed);
	if (!(v & 1))
		atomic_store_explicit(&s->seq, v + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release); /* compiler-only on x86 */
}

/* After the flavor's call returned: odd + 2 (still holding) or even. */
static void hold_moved(bool still)
{
	struct hold_slot *s = mine;
	uint64_t v;

	if (!s)
		return;
	v = atomic_load_explicit(&s->seq, memory_order_relaxed);
	if (v & 1) /* not holding (even) stays so */
		atomic_store_explicit(&s->seq, v + (still ? 2 : 1),
				      memory_order_release);
}

void hold_call(const struct rcut_flavor *f, struct rcut_head *head,
	       void (*func)(struct rcut_head *head))
{
	struct hold_slot *s = mine;
	bool was =
		!s || (atomic_load_explicit(&s->seq, memory_order_relaxed) & 1);

	if (!was)
		hold_begin();
	f->call(head, func);
	if (!was)
		hold_moved(false);
}

int hold_read_lock(const struct rcut_flavor *f)
{
	if (!is_qsbr(f) && depth++ == 0)
		hold_begin();
	return f->read_lock();
}

void hold_read_unlock(const struct rcut_flavor *f, int idx)
{
	f->read_unlock(idx);
	if (!is_qsbr(f) && --depth == 0)
		hold_moved(false);
}

void hold_quiescent_state(const struct rcut_flavor *f)
{
	f->quiescent_state();
	hold_moved(true);
}

void hold_thread_offline(const struct rcut_flavor *f)
{
	f->thread_offline();
	hold_moved(false);
}

void hold_thread_online(const struct rcut_flavor *f)
{
	hold_begin();
	f->thread_online();
}

void hold_register_thread(const struct rcut_flavor *f)
{
	depth = 0;
	if (!mine)
		mine = claim_slot();
	if (is_qsbr(f))
		hold_begin(); /* registered QSBR threads start online */
	if (f->register_thread)
		f->register_thread();
}

void hold_unregister_thread(const struct rcut_flavor *f)
{
	struct hold_slot *s = mine;

	if (f->unregister_thread)
		f->unregister_thread();
	if (!s)
		return;
	hold_moved(false);
	mine = NULL;
	atomic_store_explicit(&s->owner, 0, memory_order_release);
}

#define QUIET_MAX 64
static _Atomic pid_t quiet[QUIET_MAX];
static atomic_int nquiet;

void rcut_thread_holds_nothing(void)
{
	int i = atomic_fetch_add(&nquiet, 1);

	if (i < QUIET_MAX)
		atomic_store(&quiet[i], gettid());
}

bool holds_nothing(pid_t tid)
{
	int n = atomic_load(&nquiet);

	for (int i = 0; i < n && i < QUIET_MAX; i++)
		if (atomic_load(&quiet[i]) == tid)
			return true;
	return false;
}

void holds_look(struct hold_look *look)
{
	int n = atomic_load(&slots_used);

	look->n = n;
	look->overflow = atomic_load(&overflowed);
	for (int i = 0; i < n; i++) {
		look->tid[i] = atomic_load_explicit(&slots[i].owner,
						    memory_order_acquire);
		look->seq[i] = atomic_load_explicit(&slots[i].seq,
						    memory_order_acquire);
	}
}

bool holds_one_held_throughout(const struct hold_look *a,
			       const struct hold_look *b, pid_t *who)
{
	*who = 0;
	if (b->overflow)
		return true;
	for (int i = 0; i < a->n && i < b->n; i++) {
		if (!a->tid[i] || a->tid[i] != b->tid[i] || !(a->seq[i] & 1) ||
		    a->seq[i] != b->seq[i])
			continue;
		*who = a->tid[i];
		return true;
	}
	return false;
}

bool holds_tracks(const struct hold_look *look, pid_t tid)
{
	for (int i = 0; i < look->n; i++)
		if (look->tid[i] == tid)
			return true;
	return false;
}
