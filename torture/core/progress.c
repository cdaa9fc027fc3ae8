// SPDX-License-Identifier: MIT
/*
 * The progress line (see progress.h).  A quiet run or a scale or ref
 * test says nothing for a long while; a person at a terminal still wants
 * to see how far it got.  Scripts (stderr not a terminal) see nothing.
 */
#include "progress.h"
#include "lifecycle.h"
#include "run.h"

#include <stdio.h>
#include <unistd.h>

bool torture_progress_wanted(const struct torture_run *run)
{
	const struct rcut_config *c = run->cfg;
	bool blocks = run->test->interval && c->verbose > 0;

	return c->stat_interval_ns && !blocks && isatty(STDERR_FILENO);
}

/* How long the run takes at least, or 0 if that is not known. */
static uint64_t total_ns(const struct rcut_config *c)
{
	switch (c->test) {
	case RCUT_TEST_TORTURE:
		return c->duration_ns;
	case RCUT_TEST_SCALE: /* measures --duration after --holdoff */
		return c->duration_ns ? c->scale.holdoff_ns + c->duration_ns :
					0;
	default:
		return 0;
	}
}

void torture_progress_print(struct torture_run *run)
{
	uint64_t total = total_ns(run->cfg);
	double elapsed = (double)torture_elapsed_ns(run) / 1e9;

	if (total)
		fprintf(stderr, "%s-%s: progress: %.1f s of %.1f s\n",
			run->flavor->name, run->tag, elapsed,
			(double)total / 1e9);
	else
		fprintf(stderr, "%s-%s: progress: %.1f s\n", run->flavor->name,
			run->tag, elapsed);
}
