// SPDX-License-Identifier: MIT
/*
 * Overtaken grace-period waits (overtaken.h).  In a correct RCU a wait
 * that began later cannot be done long before one that began earlier:
 * the earlier one needs no more readers to finish (a cookie taken
 * earlier is done no later), and implementations serve their waiters
 * about in order.  One still blocked half of --stall-timeout after it
 * began, while TORTURE_OVERTAKEN_MIN later ones returned, was not
 * woken (the watchdog applies the time bound).
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

void torture_overtaken_done(struct torture_run *run, const char *op,
			    uint64_t since_ns)
{
	struct torture_overtaken *o = &run->overtaken;
	unsigned int i;

	if (!is_gp_wait(op) || !since_ns)
		return;
	i = atomic_fetch_add(&o->next, 1) % TORTURE_OVERTAKEN_RING;
	atomic_store(&o->start_ns[i], since_ns);
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
