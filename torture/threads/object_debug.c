// SPDX-License-Identifier: MIT
/*
 * The duplicate call() test (--object-debug, the kernel's
 * rcu_test_debug_objects()): once, at the start, inside a read-side
 * section so that no grace period can end in between, post one callback,
 * post a second, and pass that second head to call() again while it is
 * still queued.  A flavor that declares duplicate detection
 * (RCUT_CAP_DOUBLE_CALL) must report it through rcut_double_call() and
 * not queue the head twice; for any other flavor the harness's callback
 * accounting flags the duplicate and keeps it from the flavor
 * (core/callbacks.c).  Either way the duplicate must never be invoked.
 * The kernel's messages frame the test.
 */
#include "threads.h"

#include <stdio.h>

/* The test's callbacks; their invocation is all that matters. */
static struct torture_cb debug_cbs[2];

static void debug_cb(struct torture_cb *cb)
{
	(void)cb;
}

/* Post both callbacks and the duplicate inside one read-side section. */
static void post_pair_and_duplicate(struct torture_run *run)
{
	const struct rcut_flavor *f = run->flavor;
	int idx = hold_read_lock(f);

	torture_cb_post(run, &debug_cbs[0], "object-debug", debug_cb);
	torture_cb_post(run, &debug_cbs[1], "object-debug", debug_cb);
	if (!torture_cb_post_again(run, &debug_cbs[1]))
		printf("%s-torture: object_debug: the second callback ran before its duplicate could be posted\n",
		       f->name);
	hold_read_unlock(f, idx);
	if (f->quiescent_state)
		hold_quiescent_state(f);
}

void torture_object_debug(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	struct torture_counters *c = &run->counters;
	uint64_t dup_before = atomic_load(&c->cbs_dup);

	printf("%s-torture: rcutorture: WARN: Duplicate call_%s() test starting.\n",
	       f->name, f->name);
	post_pair_and_duplicate(run);
	torture_op_begin("object-debug barrier");
	f->barrier();
	torture_op_end();
	if (atomic_load(&c->cbs_dup) != dup_before)
		printf("%s-torture: rcutorture: duplicated callback was invoked.\n",
		       f->name);
	printf("%s-torture: rcutorture: WARN: Duplicate call_%s() test complete: %llu duplicate reported by the flavor, %llu flagged by the harness.\n",
	       f->name, f->name,
	       (unsigned long long)atomic_load(&c->cbs_double_flavor),
	       (unsigned long long)atomic_load(&c->cbs_double_harness));
	fflush(stdout);
	while (!torture_must_stop(run))
		torture_sleep_ns(run, 100000000);
}
