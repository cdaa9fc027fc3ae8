// SPDX-License-Identifier: MIT
/*
 * busted-hang: liburcu's urcu-memb with one primitive that never returns,
 * a negative control for the stall watchdog (exit 4 with backtraces):
 * hang=sync (synchronize blocks), hang=barrier (barrier blocks),
 * hang=call (callbacks are never invoked) or hang=read (read_lock blocks,
 * from busted-hang.after milliseconds into the run).
 */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "../registry.h"
#include "../urcu/urcu_adapter.h"

#include <time.h>
#include <unistd.h>

enum { HANG_SYNC, HANG_BARRIER, HANG_CALL, HANG_READ };

static const char *const hang_names[] = { "sync", "barrier", "call", "read",
					  NULL };
static long hang = HANG_SYNC;
static long after_ms = 500;
static struct timespec start;

static const struct rcut_param busted_hang_params[] = {
	{ "hang", "what never returns: sync, barrier, call or read",
	  RCUT_PARAM_ENUM, 0, 0, hang_names, &hang },
	{ "after",
	  "ms into the run before read_lock starts to hang (hang=read)",
	  RCUT_PARAM_INT, 0, 3600000, NULL, &after_ms },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

/* Block this thread for good (signal handlers still run). */
static void __attribute__((noreturn)) hang_forever(void)
{
	for (;;)
		pause();
}

static int busted_hang_init(void)
{
	clock_gettime(CLOCK_MONOTONIC, &start);
	return ua_init();
}

static int busted_hang_read_lock(void)
{
	struct timespec now;

	if (hang == HANG_READ) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 +
			    (now.tv_nsec - start.tv_nsec) / 1000000 >=
		    after_ms)
			hang_forever();
	}
	return ua_read_lock();
}

static void busted_hang_synchronize(void)
{
	if (hang == HANG_SYNC)
		hang_forever();
	ua_synchronize();
}

static void busted_hang_call(struct rcut_head *head,
			     void (*func)(struct rcut_head *))
{
	if (hang == HANG_CALL)
		return; /* queued forever */
	ua_call(head, func);
}

static void busted_hang_barrier(void)
{
	if (hang == HANG_BARRIER)
		hang_forever();
	if (hang != HANG_CALL)
		ua_barrier();
}

/* The shared adapter hooks, with the hanging ones replacing them. */
#pragma GCC diagnostic ignored "-Woverride-init"
const struct rcut_flavor rcut_flavor_busted_hang = {
	URCU_ADAPTER_OPS.name = "busted-hang",
	.description =
		"negative control: urcu-memb with a primitive that never returns (must STALL)",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC,
	.params = busted_hang_params,
	.init = busted_hang_init,
	.read_lock = busted_hang_read_lock,
	.synchronize = busted_hang_synchronize,
	.synchronize_expedited = busted_hang_synchronize,
	.cond_sync = NULL,
	.poll_gp_state = NULL,
	.start_gp_poll = NULL,
	.get_gp_state = NULL,
	.call = busted_hang_call,
	.barrier = busted_hang_barrier,
};
