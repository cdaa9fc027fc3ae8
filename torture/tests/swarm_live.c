// SPDX-License-Identifier: MIT
/*
 * New swarm draws while the run goes on (swarm_live.h).  The draw writes
 * a scratch copy of the options; only the fields threads read as they go
 * are copied into the running test's options, with atomic stores, and
 * the preemption and race-delay engines are configured anew.
 */
#include "swarm_live.h"

#include "../core/failure.h"
#include "../core/inject.h"
#include "../core/preempt.h"
#include "auto_race.h"

#include <stdio.h>
#include <string.h>

/* Keep draw l->cur (begun at from_ns) in the history. */
static void remember(struct swarm_live *l, uint64_t from_ns)
{
	struct swarm_past *p = &l->past[l->cur.index % SWARM_HISTORY];

	p->index = l->cur.index;
	p->from_ns = from_ns;
	snprintf(p->text, sizeof(p->text), "%s", l->cur.text);
}

/* Count the primitives a draw allowed. */
static void note_gp(struct swarm_live *l, unsigned int mask)
{
	if (!mask)
		l->gp_all = true;
	l->gp_union |= mask;
}

void swarm_live_start(struct swarm_live *l, const struct torture_swarm *first,
		      const struct rcut_config *parsed,
		      const struct rcut_config *drawn)
{
	memset(l, 0, sizeof(*l));
	l->first = first;
	l->parsed = parsed;
	l->cur = *first;
	l->interval_ns = drawn->swarm_interval_ns;
	l->next_ns = l->interval_ns;
	l->ndraws = 1;
	note_gp(l, drawn->gp_mask);
	remember(l, 0);
}

/* Put the new draw's run-time fields into the running test. */
static void apply(struct rcut_config *c, const struct rcut_config *n,
		  uint64_t seed)
{
	__atomic_store_n(&c->preempt_interval_ns, n->preempt_interval_ns,
			 __ATOMIC_RELAXED);
	if (n->preempt_duration_ns)
		preempt_configure(n->preempt_duration_ns, seed);
	__atomic_store_n(&c->preempt_duration_ns, n->preempt_duration_ns,
			 __ATOMIC_RELAXED);
	c->race_delay = n->race_delay;
	c->race_delay_max_ns = n->race_delay_max_ns;
	if (n->race_delay)
		inject_configure(1.0 / (double)n->race_delay,
				 n->race_delay_max_ns, seed);
	else
		inject_stop();
	__atomic_store_n(&c->gp_mask, n->gp_mask, __ATOMIC_RELAXED);
	/* the mode, and the delays' ceiling, as drawn */
	c->auto_race_mode = n->auto_race_mode;
	torture_auto_race_configure(c, seed);
}

bool swarm_live_note_failure(struct swarm_live *l, struct torture_run *run)
{
	uint64_t at;
	const char *check, *text;
	const struct swarm_past *best = NULL;

	if (l->noted)
		return true;
	if (!torture_first_failure(run, &at, &check) &&
	    !torture_first_problem(run, &at, &check, &text))
		return false;
	/* The latest draw that began at or before the failure. */
	for (int i = 0; i < SWARM_HISTORY; i++) {
		const struct swarm_past *p = &l->past[i];

		if (p->text[0] && p->from_ns <= at &&
		    (!best || p->index > best->index))
			best = p;
	}
	if (!best)
		return false;
	l->at_failure = *best;
	l->noted = true;
	return true;
}

void swarm_live_tick(struct swarm_live *l, struct torture_run *run,
		     struct rcut_config *drawn)
{
	uint64_t now = torture_elapsed_ns(run);
	struct rcut_config scratch;

	swarm_live_note_failure(l, run);
	if (!l->interval_ns || now < l->next_ns)
		return;
	while (l->next_ns <= now)
		l->next_ns += l->interval_ns;
	/*
	 * From the options as given (--hunt's rates are the ceilings), with
	 * the threads' features as first drawn.
	 */
	scratch = *l->parsed;
	scratch.onoff_interval_ns = drawn->onoff_interval_ns;
	torture_swarm_redraw(&l->cur, l->first, &scratch, run, l->ndraws);
	apply(drawn, &scratch,
	      drawn->seed ^ ((uint64_t)l->ndraws * 0xbf58476d1ce4e5b9ULL));
	note_gp(l, scratch.gp_mask);
	remember(l, now);
	l->ndraws++;
	printf("%s-torture: swarm draw %d at %.3f s: %s\n", run->flavor->name,
	       l->cur.index, (double)now / 1e9, l->cur.live);
	fflush(stdout);
}

unsigned int swarm_live_gp_mask(const struct swarm_live *l)
{
	return l->gp_all ? 0 : l->gp_union;
}
