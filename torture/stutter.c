// SPDX-License-Identifier: MIT
/*
 * Stutter and shuffle (kernel/torture.c).  Stutter: the whole test pauses
 * for --stutter, then runs for as long, repeatedly, so grace periods see
 * load come and go.  Shuffle: every --shuffle-interval the next simulated
 * CPU becomes idle (threads move off it; after the last CPU, none is), so
 * each CPU periodically goes quiet.
 */
#include "torture.h"

#include <string.h>

static atomic_bool paused;

void torture_stutter_wait(void)
{
	const struct rcut_flavor *f = torture_flavor;
	struct torture_thread *t;
	bool qsbr_offline;

	if (!atomic_load_explicit(&paused, relaxed))
		return;
	/* A paused QSBR reader must not hold grace periods up. */
	t = torture_self();
	qsbr_offline = f->thread_offline && t && !strcmp(t->kind, "reader");
	if (qsbr_offline)
		f->thread_offline();
	while (atomic_load_explicit(&paused, relaxed) && !torture_must_stop())
		torture_sleep_ns(1000000);
	if (qsbr_offline)
		f->thread_online();
}

void torture_stutter(struct torture_thread *t)
{
	uint64_t period = torture_cfg->stutter_ns;

	(void)t;
	while (!torture_must_stop()) {
		torture_sleep_ns(period);
		atomic_store(&paused, true);
		torture_sleep_ns(period);
		atomic_store(&paused, false);
	}
	atomic_store(&paused, false);
}

void torture_shuffle(struct torture_thread *t)
{
	int idle = -1, ncpus = rcut_nr_cpus();

	(void)t;
	while (!torture_must_stop()) {
		torture_sleep_ns(torture_cfg->shuffle_interval_ns);
		idle = idle + 1 < ncpus ? idle + 1 : -1;
		torture_cpu_set_idle(idle);
	}
	torture_cpu_set_idle(-1);
}
