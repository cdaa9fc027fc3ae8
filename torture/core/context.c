// SPDX-License-Identifier: MIT
/* The run context: one struct for everything a run holds (torture.h). */
#include "run.h"

#include <string.h>

struct torture_run *torture_signal_run;

void torture_run_init(struct torture_run *run, const struct rcut_config *cfg,
		      const struct rcut_flavor *flavor, const char *tag)
{
	memset(run, 0, sizeof(*run));
	run->cfg = cfg;
	run->flavor = flavor;
	run->tag = tag;
	run->read_nesting = true;
	run->read_delays = true;
	pthread_mutex_init(&run->failure.lock, NULL);
	pthread_mutex_init(&run->threads.gate_lock, NULL);
	pthread_cond_init(&run->threads.gate_cond, NULL);
	atomic_init(&run->cpus.shuffle_idle, -1);
	torture_pool_init(&run->pool);
	torture_onoff_init(&run->onoff);
	torture_lostcb_init(&run->lostcb);
}
