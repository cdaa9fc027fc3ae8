// SPDX-License-Identifier: MIT
/*
 * The kernel's informational lines of the torture test, so that scripts
 * and eyes trained on its console find them: rcu_torture_write_types'
 * "Testing ... GPs." list, the Start-test/End-test grace-period state,
 * and the stats thread's "??? Writer stall state" when the writer made
 * no update during a whole stat interval.
 */
#include "torture_lines.h"
#include "../core/gp.h"
#include "../core/run.h"

#include <stdio.h>
#include <string.h>

/* The kernel's words for each kind, in its order of printing. */
static const struct {
	enum rcut_gp_kind kind;
	const char *text;
} type_lines[] = {
	{ RCUT_GP_COND, "conditional GPs" },
	{ RCUT_GP_COND_FULL, "conditional full-state GPs" },
	{ RCUT_GP_EXP, "expedited GPs" },
	{ RCUT_GP_NORMAL, "asynchronous GPs" },
	{ RCUT_GP_POLL, "polling GPs" },
	{ RCUT_GP_POLL_FULL, "polling full-state GPs" },
	{ RCUT_GP_SYNC, "normal GPs" },
};

void torture_lines_update_types(struct torture_run *run)
{
	const char *name = run->flavor->name;
	unsigned int mask = run->cfg->gp_mask;
	int n = 0;

	if (run->cfg->verbose <= 0) /* --quiet: the closing block only */
		return;
	for (size_t i = 0; i < sizeof(type_lines) / sizeof(type_lines[0]);
	     i++) {
		enum rcut_gp_kind k = type_lines[i].kind;

		if (!torture_gp_available(run->flavor, k) ||
		    (mask && !(mask & (1u << k))))
			continue;
		printf("%s-torture: rcu_torture_write_types: Testing %s.\n",
		       name, type_lines[i].text);
		n++;
	}
	printf("%s-torture: rcu_torture_write_types: Testing %d update types.\n",
	       name, n);
	printf("%s-torture: rcu_torture_write_types: gp_cond_wi %llu gp_poll_wi %llu\n",
	       name, (unsigned long long)(run->cfg->gp_cond_wi_ns / 1000),
	       (unsigned long long)(run->cfg->gp_poll_wi_ns / 1000));
}

/* The kernel's RTWS_* name and number for what the writer waits in. */
static const char *writer_state(const struct torture_run *run, const char *op,
				int *num)
{
	static const struct {
		const char *op, *state;
		int num;
	} states[] = {
		{ "synchronize_expedited", "RTWS_EXP_SYNC", 4 },
		{ "cond_sync_full", "RTWS_COND_SYNC_FULL", 10 },
		{ "cond_sync", "RTWS_COND_SYNC", 9 },
		{ "poll_gp_state_full loop", "RTWS_POLL_WAIT_FULL", 18 },
		{ "poll_gp_state loop", "RTWS_POLL_WAIT", 17 },
		{ "synchronize", "RTWS_SYNC", 21 },
	};

	for (size_t i = 0; op && i < sizeof(states) / sizeof(states[0]); i++)
		if (!strcmp(op, states[i].op)) {
			*num = states[i].num;
			return states[i].state;
		}
	if (atomic_load(&run->stutter_paused)) {
		*num = 22;
		return "RTWS_STUTTER";
	}
	*num = op ? -1 : 1;
	return op ? op : "RTWS_DELAY";
}

void torture_lines_writer_stall(struct torture_run *run, uint64_t ver,
				uint64_t *last_ver)
{
	const struct rcut_flavor *f = run->flavor;

	for (int i = 0; i < run->threads.n && ver == *last_ver; i++) {
		const struct torture_thread *t = &run->threads.t[i];
		const char *op, *state;
		int num;

		if (strcmp(t->kind, "writer") || !t->created ||
		    atomic_load(&t->exited))
			continue;
		op = atomic_load(&t->op);
		state = writer_state(run, op, &num);
		printf("??? Writer stall state %s(%d) g%lu f%#x ->state %s cpu %d\n",
		       state, num, f->get_gp_seq ? f->get_gp_seq() : 0UL, 0u,
		       op ? "blocked" : "running", t->cpu);
	}
	*last_ver = ver;
}
