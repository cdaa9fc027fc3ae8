// SPDX-License-Identifier: MIT
/*
 * Overtaken grace-period waits (overtaken.h).  In a correct RCU a wait
 * that began later cannot be done long before one that began earlier:
 * the earlier one needs no more readers to finish (a cookie taken
 * earlier is done no later), and implementations serve their waiters
 * about in order.  A callback posted after the wait began and invoked
 * says the same: a grace period that began after the wait has ended.
 * One still blocked half of --stall-timeout after it began, while
 * TORTURE_OVERTAKEN_MIN later waits or callbacks completed, was not woken
 * (the watchdog applies the time bound).
 */
#include "overtaken.h"
#include "run.h"

#include <stdbool.h>
#include <string.h>

#define MARGIN_NS 1000000ULL /* clock reads around the op's start */

/* The op names torture_gp_wait() gives its waits (gp.c). */
static const char *const kinds[] = {
	"synchronize",	  "synchronize_expedited",
	"cond_sync",	  "poll_gp_state loop",
	"cond_sync_full", "poll_gp_state_full loop",
};

/* Whether op is one of them. */
static bool is_gp_wait(const char *op)
{
	for (size_t k = 0; op && k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (op == kinds[k] || !strcmp(op, kinds[k]))
			return true;
	return false;
}

/* Something that began at since_ns waited out a grace period. */
static void completed(struct torture_run *run, uint64_t since_ns)
{
	struct torture_overtaken *o = &run->overtaken;
	unsigned int i;

	i = atomic_fetch_add(&o->next, 1) % TORTURE_OVERTAKEN_RING;
	atomic_store(&o->start_ns[i], since_ns);
}

void torture_overtaken_done(struct torture_run *run, const char *op,
			    uint64_t since_ns)
{
	if (is_gp_wait(op) && since_ns)
		completed(run, since_ns);
}

void torture_overtaken_cb(struct torture_run *run, uint64_t posted_ns)
{
	if (run->cfg->hunt)
		completed(run, posted_ns);
}

int torture_overtaken_count(struct torture_run *run, const char *op,
			    uint64_t since_ns)
{
	struct torture_overtaken *o = &run->overtaken;
	int n = 0;

	if (!is_gp_wait(op))
		return 0;
	for (int i = 0; i < TORTURE_OVERTAKEN_RING; i++)
		if (atomic_load(&o->start_ns[i]) > since_ns + MARGIN_NS)
			n++;
	return n;
}
