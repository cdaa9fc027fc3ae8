// SPDX-License-Identifier: MIT
/*
 * Unit tests: callback accounting (torture/callbacks.c).  With a fake
 * flavor whose grace periods the test ends by hand: a callback invoked
 * after its witness readers left their sections passes; one invoked while
 * a witness is still in the same section is early; one invoked twice is a
 * duplicate (and its function runs once); one never invoked stays in
 * flight, which the final report calls lost.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../report/verdict.h"
#include "../../torture/core/run.h"
#include "fake_flavor.h"

#define NREADERS 3

static struct torture_run run; /* a context, no run started */
static struct torture_thread rdr[NREADERS];
static struct torture_thread *rdrs[NREADERS];
static struct rcut_config cfg;
static const struct rcut_flavor fake_flavor = {
	.name = "fake",
	.synchronize = fake_synchronize,
	.call = fake_call,
};
static int fn_calls; /* how often the harness-level function ran */

static int setup(void **state)
{
	(void)state;
	rcut_config_defaults(&cfg);
	torture_run_init(&run, &cfg, &fake_flavor, "torture");
	memset(rdr, 0, sizeof(rdr));
	for (int i = 0; i < NREADERS; i++) {
		rdr[i].run = &run;
		rdr[i].kind = "reader";
		rdr[i].id = i;
		rdrs[i] = &rdr[i];
	}
	run.threads.readers = rdrs;
	run.threads.nreaders = NREADERS;
	fake_reset();
	fn_calls = 0;
	return 0;
}

static void count_fn(struct torture_cb *cb)
{
	(void)cb;
	fn_calls++;
}

static uint64_t counter(_Atomic uint64_t *c)
{
	return atomic_load(c);
}

/* Reader r enters (odd) or leaves (even) a read-side section. */
static void section_step(int r)
{
	atomic_fetch_add(&rdr[r].section, 1);
}

static bool failed_with(const char *want)
{
	const char *check = NULL;
	uint64_t at;

	return torture_first_failure(&run, &at, &check) &&
	       strcmp(check, want) == 0;
}

static void invoked_after_a_grace_period(void **state)
{
	struct torture_cb cb = { 0 };

	(void)state;
	section_step(0); /* reader 0 in section 1: a witness */
	torture_cb_post(&run, &cb, "unit", count_fn);
	assert_int_equal(cb.nwitness, 1);
	assert_int_equal(torture_cbs_in_flight(&run), 1);
	assert_int_equal(fn_calls, 0); /* call() only queued it */
	section_step(0);	       /* the grace period: reader 0 left */
	assert_non_null(fake_invoke_next());
	assert_int_equal(fn_calls, 1);
	assert_int_equal(counter(&run.counters.cbs_posted), 1);
	assert_int_equal(counter(&run.counters.cbs_invoked), 1);
	assert_int_equal(counter(&run.counters.cbs_early), 0);
	assert_int_equal(counter(&run.counters.cbs_dup), 0);
	assert_int_equal(torture_cbs_in_flight(&run), 0);
	assert_false(torture_had_internal_error(&run));
	assert_false(failed_with("early callback"));
}

static void invoked_inside_a_witness_section_is_early(void **state)
{
	struct torture_cb cb = { 0 };

	(void)state;
	section_step(2); /* reader 2 in a section when call() is made */
	torture_cb_post(&run, &cb, "unit", count_fn);
	section_step(0); /* another reader's activity does not matter */
	assert_non_null(fake_invoke_next());
	assert_int_equal(counter(&run.counters.cbs_early), 1);
	assert_true(failed_with("early callback"));
	/* Still invoked and counted: early, not lost. */
	assert_int_equal(fn_calls, 1);
	assert_int_equal(torture_cbs_in_flight(&run), 0);
}

/* A reader's section that began after call() is no witness. */
static void later_section_is_no_witness(void **state)
{
	struct torture_cb cb = { 0 };

	(void)state;
	torture_cb_post(&run, &cb, "unit", count_fn);
	assert_int_equal(cb.nwitness, 0);
	section_step(1); /* reader 1 enters after call() */
	assert_non_null(fake_invoke_next());
	assert_int_equal(counter(&run.counters.cbs_early), 0);
	assert_false(failed_with("early callback"));
}

static void invoked_twice_is_a_duplicate(void **state)
{
	struct torture_cb cb = { 0 };
	struct rcut_head *h;

	(void)state;
	torture_cb_post(&run, &cb, "unit", count_fn);
	h = fake_invoke_next();
	assert_ptr_equal(h, &cb.rh);
	h->func(h); /* the flavor invokes it again */
	assert_int_equal(counter(&run.counters.cbs_dup), 1);
	assert_true(failed_with("duplicate callback"));
	assert_int_equal(fn_calls, 1); /* the second one is refused */
	assert_int_equal(counter(&run.counters.cbs_invoked), 1);
	assert_int_equal(torture_cbs_in_flight(&run), 0);
}

/* Never invoked: in flight, which the final report counts as lost. */
static void never_invoked_is_in_flight(void **state)
{
	struct torture_cb cb[3] = { 0 };
	struct rcut_snapshot s = { 0 };
	char why[256];

	(void)state;
	for (int i = 0; i < 3; i++)
		torture_cb_post(&run, &cb[i], "unit", count_fn);
	assert_int_equal(fake_queued(), 3);
	assert_non_null(fake_invoke_next());
	assert_int_equal(torture_cbs_in_flight(&run), 2);
	assert_int_equal(atomic_load(&cb[1].state), TORTURE_CB_POSTED);
	assert_int_equal(atomic_load(&cb[0].state), TORTURE_CB_IDLE);
	s.cbs_lost = (uint64_t)torture_cbs_in_flight(&run);
	assert_true(rcut_snapshot_failed(&s, why, sizeof(why)));
	assert_string_equal(why, "lost callbacks");
	assert_int_equal(fake_invoke_all(), 2);
	assert_int_equal(torture_cbs_in_flight(&run), 0);
	assert_int_equal(fn_calls, 3);
}

/* A flavor that declares duplicate detection; reports unless told not. */
static bool detector_reports;
static void detecting_call(struct rcut_head *head,
			   void (*func)(struct rcut_head *head))
{
	for (int i = 0; i < fake.n; i++)
		if (fake.head[i] == head) {
			if (detector_reports)
				rcut_double_call(head);
			return;
		}
	fake_call(head, func);
}

static const struct rcut_flavor detecting_flavor = {
	.abi_version = 3,
	.name = "detecting",
	.caps = RCUT_CAP_DOUBLE_CALL,
	.synchronize = fake_synchronize,
	.call = detecting_call,
};

/* call() on a queued head: the harness flags it, the flavor never sees it. */
static void double_post_is_flagged_by_the_harness(void **state)
{
	struct torture_cb cb = { 0 };

	(void)state;
	torture_cb_post(&run, &cb, "unit", count_fn);
	assert_true(
		torture_cb_post_again(&run, &cb)); /* expected: no failure */
	assert_int_equal(counter(&run.counters.cbs_double_harness), 1);
	assert_false(failed_with("duplicate call"));
	torture_cb_post(&run, &cb, "unit", count_fn); /* unexpected: failure */
	assert_int_equal(counter(&run.counters.cbs_double), 2);
	assert_true(failed_with("duplicate call"));
	assert_int_equal(fake_queued(), 1);
	assert_int_equal(counter(&run.counters.cbs_posted), 1);
	assert_int_equal(fake_invoke_all(), 1);
	assert_int_equal(fn_calls, 1);
	assert_false(torture_cb_post_again(&run, &cb)); /* idle again */
}

/* A declaring flavor must report the duplicate; silence is a failure. */
static void declaring_flavor_must_report(void **state)
{
	struct torture_cb cb = { 0 };

	(void)state;
	run.flavor = &detecting_flavor;
	torture_signal_run = &run;
	detector_reports = true;
	torture_cb_post(&run, &cb, "unit", count_fn);
	assert_true(torture_cb_post_again(&run, &cb));
	assert_int_equal(counter(&run.counters.cbs_double_flavor), 1);
	assert_int_equal(counter(&run.counters.cbs_double_harness), 0);
	assert_false(failed_with("undetected duplicate call"));
	detector_reports = false;
	assert_true(torture_cb_post_again(&run, &cb));
	assert_true(failed_with("undetected duplicate call"));
	assert_int_equal(fake_invoke_all(), 1);
	assert_int_equal(fn_calls, 1);
	run.flavor = &fake_flavor;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(invoked_after_a_grace_period, setup),
		cmocka_unit_test_setup(
			invoked_inside_a_witness_section_is_early, setup),
		cmocka_unit_test_setup(later_section_is_no_witness, setup),
		cmocka_unit_test_setup(invoked_twice_is_a_duplicate, setup),
		cmocka_unit_test_setup(never_invoked_is_in_flight, setup),
		cmocka_unit_test_setup(double_post_is_flagged_by_the_harness,
				       setup),
		cmocka_unit_test_setup(declaring_flavor_must_report, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
