// SPDX-License-Identifier: MIT
/* The state of the deliberate legal and illegal calls (legality.h). */
#include "legality.h"
#include "run.h"

#include <stdlib.h>

int torture_legality_init(struct torture_run *run, int nreaders)
{
	if (!run->cfg->reader_cbs || nreaders <= 0)
		return 0;
	run->legality.reader_cbs =
		calloc((size_t)nreaders, sizeof(*run->legality.reader_cbs));
	return run->legality.reader_cbs ? 0 : -1;
}

/*
 * Freed only once no callback can still be queued: a flavor that hung
 * may hold one (the process exits then anyway).
 */
void torture_legality_cleanup(struct torture_run *run)
{
	if (!torture_cbs_settled(run))
		return;
	free(run->legality.reader_cbs);
	run->legality.reader_cbs = NULL;
}

void torture_legality_report(struct torture_run *run, FILE *out)
{
	const struct rcut_config *c = run->cfg;
	struct torture_legality *l = &run->legality;
	const char *name = run->flavor->name;

	if (c->reader_cbs && run->updown)
		fprintf(out,
			"%s-torture: reader-cbs: %llu callbacks posted inside read-side sections, %llu of them inside up/down sections\n",
			name,
			(unsigned long long)(atomic_load(&l->reader_posts) +
					     atomic_load(&l->updown_posts)),
			(unsigned long long)atomic_load(&l->updown_posts));
	else if (c->reader_cbs)
		fprintf(out,
			"%s-torture: reader-cbs: %llu callbacks posted inside read-side sections\n",
			name,
			(unsigned long long)atomic_load(&l->reader_posts));
	if (c->onoff_call)
		fprintf(out,
			"%s-torture: onoff-call: %llu callbacks posted on offline CPUs, %llu not run by the barrier after them\n",
			name,
			(unsigned long long)atomic_load(&l->offline_posts),
			(unsigned long long)atomic_load(&l->offline_leaks));
	if (c->illegal_barrier)
		fprintf(out,
			"%s-torture: illegal-barrier: %llu barrier calls inside read-side sections or callbacks, %llu refused and reported by the flavor\n",
			name,
			(unsigned long long)atomic_load(&l->illegal_tries),
			(unsigned long long)atomic_load(&l->illegal_reported));
}

void rcut_illegal_barrier(void)
{
	struct torture_run *run = torture_signal_run;

	if (run)
		atomic_fetch_add(&run->legality.illegal_reported, 1);
}
