// SPDX-License-Identifier: MIT
/*
 * Up/down readers (--n-up-down, the kernel's rcu_torture_updown with
 * srcu_down_read/srcu_up_read): read-side sections begun on one thread
 * and ended on another.  The "updown-down" thread keeps up to N slots
 * busy: down_read(), dereference the current element, check it is in
 * use, and hand the slot over with a random deadline (up to
 * UPDOWN_HOLD_MAX_NS).  The "updown-up" thread, in place of the kernel's
 * hrtimer handler, ends each slot once its deadline passed: it reads the
 * element's pipe stage, checks it like any reader, and calls up_read()
 * on whatever simulated CPU it is on.  A grace period that ended while a
 * slot was held shows as pipe stage >= 2.  At the stop, the up thread
 * ends every held slot once the down thread is done.
 */
#include "threads.h"

#include "../../report/histogram.h"

#include <stdio.h>
#include <stdlib.h>

#define UPDOWN_HOLD_MAX_NS 10000000ULL /* 10 ms */
#define UPDOWN_DOWN_PAUSE_NS 200000ULL
#define UPDOWN_UP_PAUSE_NS 100000ULL

enum { SLOT_FREE, SLOT_HELD };

struct updown_slot {
	_Atomic int state; /* SLOT_FREE or SLOT_HELD (release/acquire) */
	struct torture_elem *p;
	int idx, down_cpu;
	uint64_t since_ns, until_ns;
	unsigned long started; /* the flavor's GP sequence at down_read */
};

struct torture_updown {
	int n;
	atomic_bool down_done;	   /* the down thread begins no more */
	_Atomic uint64_t migrated; /* ended on another simulated CPU */
	struct updown_slot slot[];
};

bool torture_updown_possible(const struct rcut_flavor *f)
{
	return RCUT_FLAVOR_HAS(f, 3) && f->down_read && f->up_read;
}

int torture_updown_init(struct torture_run *run, int n)
{
	struct torture_updown *u =
		calloc(1, sizeof(*u) + (size_t)n * sizeof(u->slot[0]));

	if (!u)
		return -1;
	u->n = n;
	run->updown = u;
	return 0;
}

void torture_updown_cleanup(struct torture_run *run)
{
	free(run->updown);
	run->updown = NULL;
}

static unsigned long gp_seq(const struct rcut_flavor *f)
{
	return f->get_gp_seq ? f->get_gp_seq() : 0;
}

/* Begin one up/down section in slot s; false if nothing to read yet. */
static bool begin_one(struct torture_thread *t, struct updown_slot *s)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	int idx = f->down_read();
	struct torture_elem *p =
		atomic_load_explicit(&run->pool.current, memory_order_consume);

	if (!p) {
		f->up_read(idx);
		return false;
	}
	if (!atomic_load_explicit(&p->mbtest, memory_order_relaxed)) {
		counter_inc(&run->counters.rtmbe);
		torture_failure(
			run, "rtmbe",
			"up/down reader saw element %p freed at down_read",
			(void *)p);
	}
	s->p = p;
	s->idx = idx;
	s->down_cpu = rcut_current_cpu();
	s->started = gp_seq(f);
	s->since_ns = torture_now_ns();
	s->until_ns =
		s->since_ns + torture_random(&t->rand) % UPDOWN_HOLD_MAX_NS;
	torture_updown_section_post(t);
	counter_inc(&run->counters.updown_downs);
	atomic_store_explicit(&s->state, SLOT_HELD, memory_order_release);
	return true;
}

void torture_updown_down(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct torture_updown *u = run->updown;

	while (!torture_must_stop(run)) {
		for (int i = 0; i < u->n && !torture_must_stop(run); i++)
			if (atomic_load_explicit(&u->slot[i].state,
						 memory_order_acquire) ==
				    SLOT_FREE &&
			    !begin_one(t, &u->slot[i]))
				break;
		torture_progress();
		torture_cpu_checkpoint();
		torture_stutter_wait(t);
		torture_sleep_ns(run, UPDOWN_DOWN_PAUSE_NS);
	}
	atomic_store(&u->down_done, true);
}

/* End the section in slot s from this (another) thread, and check it. */
static void end_one(struct torture_thread *t, struct torture_updown *u,
		    struct updown_slot *s)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	int pipe =
		atomic_load_explicit(&s->p->pipe_count, memory_order_relaxed);
	unsigned long completed = gp_seq(f);
	int cpu = rcut_current_cpu();
	uint64_t held = torture_now_ns() - s->since_ns;

	f->up_read(s->idx);
	if (cpu != s->down_cpu)
		counter_inc(&u->migrated);
	if (pipe > RCUT_PIPE_LEN || pipe < 0)
		pipe = RCUT_PIPE_LEN;
	counter_inc_owned(&t->pipe[pipe]);
	counter_inc_owned(&t->batch[rcut_hist_slot(
		f->gp_diff ? f->gp_diff(completed, s->started) :
			     completed - s->started,
		RCUT_HIST_LEN)]);
	counter_inc_owned(&t->reads);
	counter_inc(&run->counters.updown_ups);
	if (pipe > 1)
		torture_failure(
			run, "too-short grace period",
			"up/down reader saw element %p at pipe stage %d: begun by down_read on CPU %d, ended by up_read on CPU %d %.3f ms later (GP sequence %lu..%lu)",
			(void *)s->p, pipe, s->down_cpu, cpu,
			(double)held / 1e6, s->started, completed);
	atomic_store_explicit(&s->state, SLOT_FREE, memory_order_release);
}

/* End the held slots whose deadline passed (all of them if all). */
static void end_due(struct torture_thread *t, struct torture_updown *u,
		    bool all)
{
	uint64_t now = torture_now_ns();

	for (int i = 0; i < u->n; i++) {
		struct updown_slot *s = &u->slot[i];

		if (atomic_load_explicit(&s->state, memory_order_acquire) ==
			    SLOT_HELD &&
		    (all || now >= s->until_ns))
			end_one(t, u, s);
	}
}

void torture_updown_up(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct torture_updown *u = run->updown;

	while (!torture_must_stop(run)) {
		end_due(t, u, false);
		torture_progress();
		torture_cpu_checkpoint();
		torture_sleep_ns(run, UPDOWN_UP_PAUSE_NS);
	}
	while (!atomic_load(&u->down_done))
		torture_nap_ns(UPDOWN_UP_PAUSE_NS);
	end_due(t, u, true);
	printf("%s-torture: up/down readers: %llu sections begun by down_read, %llu ended by up_read on another thread, %llu of them on another simulated CPU\n",
	       run->flavor->name,
	       (unsigned long long)atomic_load(&run->counters.updown_downs),
	       (unsigned long long)atomic_load(&run->counters.updown_ups),
	       (unsigned long long)atomic_load(&u->migrated));
	fflush(stdout);
}
