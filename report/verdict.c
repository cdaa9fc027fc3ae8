// SPDX-License-Identifier: MIT
/* The failure rules of the kernel's rcu_torture_stats_print(), plus ours. */
#include "verdict.h"

#include "histogram.h"

#include <stdio.h>
#include <string.h>

/* Append a cause to the comma-separated list in why. */
static void add_cause(char *why, size_t len, const char *cause)
{
	size_t used;

	if (!why || !len)
		return;
	used = strlen(why);
	snprintf(why + used, len - used, "%s%s", used ? ", " : "", cause);
}

bool rcut_snapshot_failed(const struct rcut_snapshot *s, char *why, size_t len)
{
	bool failed = false;

	if (why && len)
		why[0] = '\0';
	if (rcut_hist_highest(s->pipe, RCUT_HIST_LEN) > 1) {
		add_cause(why, len,
			  "too-short grace period (Reader Pipe stage >= 2)");
		failed = true;
	}
	if (s->rtmbe) {
		add_cause(why, len, "rtmbe (reader saw a freed element)");
		failed = true;
	}
	if (s->mbchk_fail) {
		add_cause(why, len, "rtmbkf (memory-ordering check)");
		failed = true;
	}
	if (s->rtbe) {
		add_cause(why, len,
			  "rtbe (barrier returned before its callbacks ran)");
		failed = true;
	}
	if (s->rtbke || s->rtbf) {
		add_cause(why, len, "boost failure");
		failed = true;
	}
	if (s->cbs_early) {
		add_cause(why, len, "early callbacks");
		failed = true;
	}
	if (s->cbs_dup) {
		add_cause(why, len, "duplicate callbacks");
		failed = true;
	}
	if (s->cbs_lost) {
		add_cause(why, len, "lost callbacks");
		failed = true;
	}
	/* Checks without a counter of their own (early grace period, ...). */
	if (s->failed_checks && !failed) {
		add_cause(why, len, "failed checks");
		failed = true;
	}
	return failed;
}

bool rcut_snapshot_hotplug_failed(const struct rcut_snapshot *s)
{
	return s->online_attempts != s->online_successes ||
	       s->offline_attempts != s->offline_successes;
}

const char *rcut_exit_name(enum rcut_exit status)
{
	switch (status) {
	case RCUT_EXIT_SUCCESS:
		return "SUCCESS";
	case RCUT_EXIT_FAILURE:
		return "FAILURE";
	case RCUT_EXIT_USAGE:
		return "USAGE";
	case RCUT_EXIT_HOTPLUG:
		return "RCU_HOTPLUG";
	case RCUT_EXIT_STALL:
		return "STALL";
	case RCUT_EXIT_INTERNAL:
		return "INTERNAL_ERROR";
	}
	return "UNKNOWN";
}
