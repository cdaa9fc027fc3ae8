/* SPDX-License-Identifier: MIT */
/*
 * --swarm-interval: new swarm draws while the torture test runs.  Every
 * interval the features that threads read as they go are drawn again
 * (swarm.h, torture_swarm_redraw()), applied to the running test and
 * printed on one line; the last few draws are kept with their start
 * times, so that the report names the draw a first failure came under.
 */
#ifndef TORTURE_SWARM_LIVE_H
#define TORTURE_SWARM_LIVE_H

#include "swarm.h"

#define SWARM_HISTORY 8 /* draws kept: the 10 ms tick notes failures at once */

/* A past draw: its number, when it began (since the start), its text. */
struct swarm_past {
	int index;
	uint64_t from_ns;
	char text[SWARM_TEXT_LEN];
};

struct swarm_live {
	const struct torture_swarm *first; /* draw 0 (the test's state) */
	const struct rcut_config *parsed;  /* the options as given */
	struct torture_swarm cur;
	struct swarm_past past[SWARM_HISTORY]; /* draw k at k % HISTORY */
	int ndraws;			       /* draws so far, 0 included */
	uint64_t interval_ns, next_ns;
	unsigned int gp_union; /* every primitive some draw allowed */
	bool gp_all;	       /* a draw allowed all (mask 0) */
	bool noted;	       /* at_failure is set */
	struct swarm_past at_failure;
};

/* Start with draw 0 (already applied to drawn) at time 0. */
void swarm_live_start(struct swarm_live *l, const struct torture_swarm *first,
		      const struct rcut_config *parsed,
		      const struct rcut_config *drawn);

/*
 * The main loop's tick: note the draw of a first failure, and when the
 * interval is up, draw again into drawn (run->cfg, which threads read)
 * and print the draw.
 */
void swarm_live_tick(struct swarm_live *l, struct torture_run *run,
		     struct rcut_config *drawn);

/* If a first failure is recorded, find the draw it came under; true if so. */
bool swarm_live_note_failure(struct swarm_live *l, struct torture_run *run);

/* The primitives some draw allowed, as a --gp-* mask (0: all). */
unsigned int swarm_live_gp_mask(const struct swarm_live *l);

#endif /* TORTURE_SWARM_LIVE_H */
