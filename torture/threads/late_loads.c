// SPDX-License-Identifier: MIT
/*
 * Section loads made late (threads.h), for an instrumented plugin under
 * --store-buffer-model arm: Armv8 lets a load be satisfied after a later
 * store has become visible unless something orders the two, so a
 * read_unlock() that takes the reader out with a relaxed store and no
 * barrier before it lets the section's loads run after a grace period
 * saw the reader leave.  The reader's loads are the harness's, which the
 * emulation cannot hold back: the emulation instead calls back inside
 * such a store, once it is visible, and the reader loads its element's
 * pipe stage there again after a random wait (sdk/storebuf/late.c).  A
 * stage of 2 or more there is a too-short grace period, as in the
 * section.  A load counts only while nothing ordered it meanwhile (the
 * thread's own fence, a signal handler's included, or any membarrier).
 */
#include "threads.h"
#include "../core/counters.h"
#include "../../flavors/plugin.h"

#include <rcutorture/storebuf.h>

#define LATE_ODDS 4	       /* one outermost unlock in this many */
#define LATE_MAX_NS 2000000ULL /* the longest wait, without race delays */

struct late_read {
	struct torture_thread *t;
	struct torture_elem *p;
	uint64_t orders; /* ordering events before the unlock began */
	int pipe;	 /* the late load's pipe stage, -1 for none */
};

/* A wait drawn roughly log-uniform from 1 us up to max. */
static uint64_t late_wait_ns(struct torture_thread *t, uint64_t max)
{
	uint64_t r = torture_random(&t->rand);
	uint64_t top = 1000ULL << (r % 12); /* 1 us .. 2 ms */

	if (top > max)
		top = max;
	return top / 2 + (r >> 8) % (top / 2 + 1);
}

/* Inside the unlock's store, now visible: load the element again. */
static void load_late(void *arg)
{
	struct late_read *l = arg;
	struct torture_run *run = l->t->run;
	const struct rcut_storebuf_ops *sb = rcut_plugin_storebuf();
	uint64_t max = run->cfg->race_delay_max_ns ?
			       run->cfg->race_delay_max_ns :
			       LATE_MAX_NS;
	int pipe;

	torture_spin_ns(run, late_wait_ns(l->t, max));
	pipe = atomic_load(&l->p->pipe_count);
	if (sb->order_count() != l->orders)
		return; /* ordered meanwhile: the load could not be this late */
	l->pipe = pipe;
	counter_inc(&run->counters.late_loads);
}

int torture_late_unlock(struct torture_thread *t, struct torture_elem *p,
			int idx)
{
	struct torture_run *run = t->run;
	const struct rcut_storebuf_ops *sb;
	struct late_read l = { .t = t, .p = p, .pipe = -1 };
	bool armed = false;

	if (p && run->cfg->store_buffer_model == RCUT_STOREBUF_ARM &&
	    run->cfg->store_buffer_delay_ns && (sb = rcut_plugin_storebuf()) &&
	    sb->late_loads && torture_random(&t->rand) % LATE_ODDS == 0) {
		/*
		 * The count is taken before the store can become visible: a
		 * grace period may see the reader leave and end (its
		 * membarrier counted) before the callback runs, and a load
		 * after that is not late but ordered, whatever it finds.
		 */
		l.orders = sb->order_count();
		armed = sb->late_loads(load_late, &l) == 0;
	}
	hold_read_unlock(run->flavor, idx);
	if (armed)
		sb->late_loads(NULL, NULL);
	return l.pipe;
}
