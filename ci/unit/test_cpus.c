// SPDX-License-Identifier: MIT
/*
 * Unit tests: the simulated-CPU offline/online hand-off (torture/cpus.c),
 * with real torture threads on three simulated CPUs.  A CPU going offline
 * waits until the threads on it leave at their checkpoint (a thread that
 * never reaches one keeps it online); the last online CPU is never taken;
 * online makes a CPU usable again; callbacks posted from a CPU are counted
 * against that CPU until invoked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../torture/core/run.h"
#include "fake_flavor.h"

#define NCPUS 3
#define NTHREADS 4
#define BOUND_NS 1000000000ULL /* waits that should take microseconds */

static atomic_int offline_calls, online_calls, last_hook_cpu;

static int hook_offline(int cpu)
{
	atomic_fetch_add(&offline_calls, 1);
	atomic_store(&last_hook_cpu, cpu);
	return 0;
}

static int hook_online(int cpu)
{
	atomic_fetch_add(&online_calls, 1);
	atomic_store(&last_hook_cpu, cpu);
	return 0;
}

static const struct rcut_flavor fake_flavor = {
	.name = "fake",
	.synchronize = fake_synchronize,
	.call = fake_call,
	.cpu_offline = hook_offline,
	.cpu_online = hook_online,
};

static struct torture_run run; /* CPUs set up once: there is no cleanup */
static struct rcut_config cfg;
static struct torture_thread thr[NTHREADS];

/* Per thread (by id): what the test asks of it and what it reports. */
static struct {
	_Atomic int where; /* its CPU at its last loop, -2 before */
	atomic_bool hold;  /* skip the checkpoint (a long section) */
	atomic_bool held;  /* it saw hold and skips it */
	/* Until then: hold, and spin instead of napping (runnable). */
	_Atomic uint64_t spin_until_ns;
	atomic_int posts;  /* callbacks to post from its CPU */
	atomic_int posted; /* callbacks it has posted */
	struct torture_cb cb[4];
} ctl[NTHREADS];

static void nop(struct torture_cb *cb)
{
	(void)cb;
}

/* A torture thread: checkpoint, post what it is asked to, report, nap. */
static void body(struct torture_thread *t)
{
	int id = t->id;

	while (!torture_must_stop(t->run)) {
		bool spin =
			torture_now_ns() < atomic_load(&ctl[id].spin_until_ns);

		if (atomic_load(&ctl[id].hold) || spin)
			atomic_store(&ctl[id].held, true);
		else
			torture_cpu_checkpoint();
		for (int n = atomic_exchange(&ctl[id].posts, 0); n > 0; n--) {
			int k = atomic_fetch_add(&ctl[id].posted, 1);

			torture_cb_post(t->run, &ctl[id].cb[k], "unit", nop);
		}
		atomic_store(&ctl[id].where, rcut_current_cpu());
		if (!spin)
			torture_nap_ns(20000);
	}
}

static int group_setup(void **state)
{
	char err[256];

	(void)state;
	rcut_config_defaults(&cfg);
	cfg.ncpus = NCPUS;
	cfg.pin = RCUT_PIN_NONE;
	torture_run_init(&run, &cfg, &fake_flavor, "torture");
	if (torture_cpus_init(&run, err, sizeof(err)))
		return -1;
	/* The table, for the offline's look at the threads left on a CPU. */
	run.threads.t = thr;
	run.threads.n = run.threads.cap = NTHREADS;
	torture_gate_open(&run); /* threads start their loop at once */
	return 0;
}

static int setup(void **state)
{
	struct rcut_config defaults;

	(void)state;
	rcut_config_defaults(&defaults);
	cfg.stall_timeout_ns = defaults.stall_timeout_ns;
	memset(thr, 0, sizeof(thr));
	memset(ctl, 0, sizeof(ctl));
	for (int i = 0; i < NTHREADS; i++)
		atomic_store(&ctl[i].where, -2);
	atomic_store(&run.stopping, false);
	atomic_store(&offline_calls, 0);
	atomic_store(&online_calls, 0);
	fake_reset();
	return 0;
}

/* Stop and join the threads; every CPU online again for the next test. */
static int teardown(void **state)
{
	uint64_t deadline = torture_now_ns() + BOUND_NS;

	(void)state;
	torture_stop(&run);
	for (int i = 0; i < NTHREADS; i++)
		if (!torture_thread_join(&thr[i], deadline))
			return -1;
	for (int cpu = 0; cpu < NCPUS; cpu++)
		torture_cpu_online(&run, cpu, NULL, 0);
	return torture_cpus_online(&run.cpus) == NCPUS ? 0 : -1;
}

/* Wait (bounded) until thread id reports a CPU other than avoid. */
static int wait_off(int id, int avoid)
{
	uint64_t deadline = torture_now_ns() + BOUND_NS;
	int cpu;

	while (((cpu = atomic_load(&ctl[id].where)) < 0 || cpu == avoid) &&
	       torture_now_ns() < deadline)
		torture_nap_ns(20000);
	return cpu;
}

/* Start thread id on simulated CPU cpu and wait until it runs there. */
static int start_on(int id, int cpu)
{
	atomic_store(&run.threads.next_cpu, cpu);
	assert_int_equal(
		torture_thread_start(&run, &thr[id], "reader", id, body), 0);
	return wait_off(id, -1);
}

static void offline_moves_threads_at_checkpoint(void **state)
{
	uint64_t moved = atomic_load(&run.counters.migrations);

	(void)state;
	assert_int_equal(start_on(0, 0), 0);
	assert_int_equal(start_on(1, 1), 1);
	assert_int_equal(torture_cpu_offline(&run, 0, BOUND_NS, NULL, 0), 0);
	assert_false(torture_cpu_is_online(&run.cpus, 0));
	assert_int_equal(torture_cpus_online(&run.cpus), NCPUS - 1);
	assert_int_equal(atomic_load(&offline_calls), 1);
	assert_int_equal(atomic_load(&last_hook_cpu), 0);
	/* Thread 0 moved off CPU 0; thread 1 had no reason to. */
	assert_int_not_equal(wait_off(0, 0), 0);
	assert_int_equal(atomic_load(&run.counters.migrations), moved + 1);
	assert_int_equal(atomic_load(&ctl[1].where), 1);
}

/* Without a checkpoint the thread keeps its CPU: the offline gives up. */
static void thread_without_checkpoint_holds_its_cpu(void **state)
{
	uint64_t deadline = torture_now_ns() + BOUND_NS;
	char why[320];

	(void)state;
	atomic_store(&ctl[0].hold, true);
	assert_int_equal(start_on(0, 0), 0);
	while (!atomic_load(&ctl[0].held) && torture_now_ns() < deadline)
		torture_nap_ns(20000);
	assert_true(atomic_load(&ctl[0].held));
	assert_int_equal(
		torture_cpu_offline(&run, 0, 5000000, why, sizeof(why)),
		TORTURE_OFFLINE_TIMEOUT);
	assert_non_null(strstr(why, "reader 0 ("));
	assert_non_null(strstr(why, ") did not leave it within"));
	assert_true(torture_cpu_is_online(&run.cpus, 0));
	assert_int_equal(torture_cpus_online(&run.cpus), NCPUS);
	assert_int_equal(atomic_load(&offline_calls), 0);
	assert_int_equal(atomic_load(&ctl[0].where), 0);
	/* At its next checkpoint it would have moved: now the offline works. */
	atomic_store(&ctl[0].hold, false);
	assert_int_equal(torture_cpu_offline(&run, 0, BOUND_NS, NULL, 0), 0);
	assert_int_not_equal(wait_off(0, 0), 0);
}

/* Start thread 0 on CPU 0 holding it, runnable (spinning) for spin_ns. */
static void start_spinning_holder(uint64_t spin_ns)
{
	uint64_t deadline = torture_now_ns() + BOUND_NS;

	assert_int_equal(start_on(0, 0), 0);
	atomic_store(&ctl[0].spin_until_ns, torture_now_ns() + spin_ns);
	while (!atomic_load(&ctl[0].held) && torture_now_ns() < deadline)
		torture_nap_ns(20000);
	assert_true(atomic_load(&ctl[0].held));
}

/*
 * A thread that is runnable (it waits for a real CPU: the machine's load)
 * is not the flavor's fault: past the bound, the offline waits for it to
 * leave, and succeeds when it does.
 */
static void runnable_thread_delays_the_offline(void **state)
{
	(void)state;
	cfg.stall_timeout_ns = 10 * BOUND_NS;
	start_spinning_holder(300000000);
	assert_int_equal(torture_cpu_offline(&run, 0, 5000000, NULL, 0), 0);
	assert_int_not_equal(wait_off(0, 0), 0);
}

/* ... but not past half the stall timeout, and the message says why. */
static void
runnable_thread_holds_its_cpu_up_to_half_the_stall_timeout(void **state)
{
	uint64_t start;
	char why[320];

	(void)state;
	cfg.stall_timeout_ns = 200000000;
	start_spinning_holder(60ULL * 1000000000ULL);
	start = torture_now_ns();
	assert_int_equal(
		torture_cpu_offline(&run, 0, 5000000, why, sizeof(why)),
		TORTURE_OFFLINE_TIMEOUT);
	assert_true(torture_now_ns() - start >= 100000000);
	assert_non_null(strstr(why, "reader 0 (runnable) did not leave it"));
	assert_true(torture_cpu_is_online(&run.cpus, 0));
	atomic_store(&ctl[0].spin_until_ns, 0);
	assert_int_equal(torture_cpu_offline(&run, 0, BOUND_NS, NULL, 0), 0);
}

static void last_cpu_is_never_offlined(void **state)
{
	(void)state;
	assert_int_equal(torture_cpu_offline(&run, 0, BOUND_NS, NULL, 0), 0);
	assert_int_equal(torture_cpu_offline(&run, 0, BOUND_NS, NULL, 0), -1);
	assert_int_equal(torture_cpu_offline(&run, 1, BOUND_NS, NULL, 0), 0);
	assert_int_equal(torture_cpus_online(&run.cpus), 1);
	assert_int_equal(torture_cpu_offline(&run, 2, BOUND_NS, NULL, 0), -1);
	assert_true(torture_cpu_is_online(&run.cpus, 2));
	assert_int_equal(torture_cpus_online(&run.cpus), 1);
	assert_int_equal(atomic_load(&offline_calls), 2);
	/* A thread placed on an offline CPU goes to the one left. */
	assert_int_equal(start_on(0, 0), 2);
}

static void online_brings_a_cpu_back(void **state)
{
	(void)state;
	assert_int_equal(torture_cpu_online(&run, 0, NULL, 0),
			 -1); /* not offline */
	assert_int_equal(atomic_load(&online_calls), 0);
	assert_int_equal(torture_cpu_offline(&run, 0, BOUND_NS, NULL, 0), 0);
	assert_int_not_equal(start_on(0, 0), 0);
	assert_int_equal(torture_cpu_online(&run, 0, NULL, 0), 0);
	assert_int_equal(atomic_load(&online_calls), 1);
	assert_int_equal(atomic_load(&last_hook_cpu), 0);
	assert_true(torture_cpu_is_online(&run.cpus, 0));
	assert_int_equal(torture_cpus_online(&run.cpus), NCPUS);
	assert_int_equal(start_on(1, 0), 0);
}

/* Thread id posts n callbacks from its CPU; wait until it has. */
static void post_from(int id, int n)
{
	uint64_t deadline = torture_now_ns() + BOUND_NS;
	int want = atomic_load(&ctl[id].posted) + n;

	atomic_store(&ctl[id].posts, n);
	while (atomic_load(&ctl[id].posted) < want &&
	       torture_now_ns() < deadline)
		torture_nap_ns(20000);
	assert_int_equal(atomic_load(&ctl[id].posted), want);
}

static void callbacks_counted_per_cpu(void **state)
{
	struct torture_rand r;

	(void)state;
	torture_rand_seed(&r, 1, 0);
	assert_int_equal(start_on(0, 1), 1);
	assert_int_equal(torture_cpu_with_pending_callbacks(&run.cpus, &r), -1);
	post_from(0, 2);
	assert_int_equal(ctl[0].cb[0].cpu, 1);
	assert_int_equal(torture_cpu_with_pending_callbacks(&run.cpus, &r), 1);
	fake_invoke_next();
	assert_int_equal(torture_cpu_with_pending_callbacks(&run.cpus, &r), 1);
	fake_invoke_next();
	assert_int_equal(torture_cpu_with_pending_callbacks(&run.cpus, &r), -1);
	/* Pending on an offline CPU: not offered until it is back. */
	post_from(0, 1);
	assert_int_equal(torture_cpu_offline(&run, 1, BOUND_NS, NULL, 0), 0);
	assert_int_equal(torture_cpu_with_pending_callbacks(&run.cpus, &r), -1);
	assert_int_equal(torture_cpu_online(&run, 1, NULL, 0), 0);
	assert_int_equal(torture_cpu_with_pending_callbacks(&run.cpus, &r), 1);
	fake_invoke_all();
	assert_int_equal(torture_cpu_with_pending_callbacks(&run.cpus, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			offline_moves_threads_at_checkpoint, setup, teardown),
		cmocka_unit_test_setup_teardown(
			thread_without_checkpoint_holds_its_cpu, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			runnable_thread_delays_the_offline, setup, teardown),
		cmocka_unit_test_setup_teardown(
			runnable_thread_holds_its_cpu_up_to_half_the_stall_timeout,
			setup, teardown),
		cmocka_unit_test_setup_teardown(last_cpu_is_never_offlined,
						setup, teardown),
		cmocka_unit_test_setup_teardown(online_brings_a_cpu_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(callbacks_counted_per_cpu,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
