/* SPDX-License-Identifier: MIT */
/*
 * Swarm runs (--swarm; Groce et al., "Swarm Testing", ISSTA 2012):
 * instead of every feature at once, each run draws from its seed which
 * features run and at what rates.  Features suppress each other (a flood
 * starves readers, the stutter hides overlap), so different subsets find
 * different bugs at the same cost.  The draw is printed after the Start
 * line, put in the JSON document and named in a failing run's report, so
 * the same --seed replays it.
 */
#ifndef TORTURE_SWARM_H
#define TORTURE_SWARM_H

#include "../core/run.h"

#define SWARM_MAX_ITEMS 20
#define SWARM_VALUE_LEN 32
#define SWARM_TEXT_LEN 320

/* One feature of the draw: its key and what was drawn ("off", "given"). */
struct swarm_item {
	const char *key;
	char value[SWARM_VALUE_LEN];
};

struct torture_swarm {
	int index; /* 0: the run's first draw; k: the k-th redraw */
	int n;
	struct swarm_item item[SWARM_MAX_ITEMS];
	char text[SWARM_TEXT_LEN]; /* "preempt=2ms/1ms race=off ..." */
	char live[SWARM_TEXT_LEN]; /* only what a redraw changes */
};

/*
 * Draw the features from cfg->seed into cfg (the run's own copy) and the
 * run's reader switches, respecting the flavor's capabilities (no barrier
 * test without a barrier, ...) and every option given explicitly (its
 * feature is kept and shown as "given").  Under --hunt preemption and
 * race delays are always on, at rates up to the preset's.
 */
void torture_swarm_draw(struct torture_swarm *sw, struct rcut_config *cfg,
			struct torture_run *run);

/*
 * --swarm-interval: draw number index (1, 2, ...) of a running test, from
 * its own stream of the seed.  Only what threads read as they go is drawn
 * again (preemption, race delays, nesting, in-section delays, the GP rate
 * and primitives, tight reads); the threads' features (onoff, floods,
 * barrier, stutter) keep first's values.  The reader switches are stored
 * into run atomically; cfg must be a scratch copy: the caller applies its
 * preemption, race-delay and primitive fields (torture_test.c).
 */
void torture_swarm_redraw(struct torture_swarm *sw,
			  const struct torture_swarm *first,
			  struct rcut_config *cfg, struct torture_run *run,
			  int index);

#endif /* TORTURE_SWARM_H */
