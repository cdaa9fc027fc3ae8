// SPDX-License-Identifier: MIT
/*
 * Call-queue toggling (the kernel's rcu_nocb_toggle, --nocbs-nthreads):
 * every --nocbs-toggle plus up to an eighth more, switch the flavor's
 * callback queues to a random layout (global, percpu, perthread) through
 * its switch_call_mode hook while the writer, the floods and the barrier
 * test keep callbacks in flight.  The callback layer checks that each is
 * still invoked exactly once, after a grace period, and none is lost.
 * Switches to percpu or perthread count as the kernel's offloads, back
 * to global as de-offloads.
 */
#include "../core/run.h"
#include "threads.h"

#include <stdio.h>

void torture_call_toggle(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	int (*sw)(enum rcut_call_mode) =
		RCUT_FLAVOR_V3(run->flavor, switch_call_mode);
	uint64_t interval = run->cfg->nocbs_toggle_ns;
	uint64_t fuzz = interval / 8 ? interval / 8 : 1;

	while (!torture_must_stop(run)) {
		enum rcut_call_mode mode = (enum rcut_call_mode)(
			torture_random(&t->rand) % RCUT_CALL_NMODES);

		torture_op_begin("switch_call_mode");
		if (sw(mode))
			torture_failure(run, "call-queue toggle",
					"switch_call_mode(%s) failed",
					rcut_call_mode_names[mode]);
		torture_op_end();
		counter_inc(mode == RCUT_CALL_GLOBAL ?
				    &run->counters.nocb_deoffloads :
				    &run->counters.nocb_offloads);
		torture_sleep_ns(run,
				 interval + torture_random(&t->rand) % fuzz);
		torture_stutter_wait(t);
	}
}
