// SPDX-License-Identifier: MIT
/*
 * Read-exit churn (the kernel's rcu_torture_read_exit): every
 * --read-exit-delay, spawn --read-exit-burst short-lived threads, one
 * after another, each of which registers with the flavor, does one
 * checked read, unregisters and exits.  Flavors with per-thread state
 * (registration lists, bp's thread-exit cleanup, per-thread call_rcu
 * queues) must cope with threads coming and going under load.
 */
#include "../core/run.h"
#include "threads.h"

#include <stdio.h>
#include <string.h>

#define READ_TRIES 100 /* reads before giving up while nothing is published */

static void *read_exit_child(void *arg)
{
	struct torture_thread *parent = arg;
	const struct rcut_flavor *f = parent->run->flavor;

	hold_register_thread(f);
	for (int i = 0; i < READ_TRIES && !torture_one_read(parent); i++)
		torture_nap_ns(100000);
	hold_unregister_thread(f);
	return NULL;
}

void torture_read_exit(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_config *c = run->cfg;

	for (;;) {
		torture_sleep_ns(run, c->read_exit_delay_ns);
		for (long i = 0; i < c->read_exit_burst; i++) {
			pthread_t child;
			int err;

			if (torture_must_stop(run))
				return;
			/*
			 * Blocked, not running: off the simulated CPU while
			 * the child is created and works, or a slow child (a
			 * library that registers slowly, a loaded machine)
			 * would hold the CPU up and fail its offline.  The
			 * creation too: it can sleep on a lock (the stack
			 * cache, mmap, ASan's thread registry) that a thread
			 * kept from its CPU holds; at load 11.7 under ASan
			 * that ended RCU_HOTPLUG, "read-exit 0 (waiting) did
			 * not leave it within 1.0 s".
			 */
			torture_op_begin(
				"creating and joining a read-exit child");
			err = pthread_create(&child, NULL, read_exit_child, t);
			if (!err)
				pthread_join(child, NULL);
			torture_op_end();
			if (err) {
				printf("%s-torture: read-exit: cannot create a thread: %s\n",
				       run->flavor->name, strerror(err));
				continue;
			}
			counter_inc(&run->counters.read_exits);
		}
	}
}
