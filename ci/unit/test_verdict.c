// SPDX-License-Identifier: MIT
/*
 * Unit tests: the verdict (report/verdict.c and the torture test's
 * torture_test_verdict in torture/torture_test.c).  Each failure rule of
 * the snapshot on its own, and the order of the exit statuses when several
 * things went wrong at once: stall > internal error > failure > hotplug >
 * success.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../report/verdict.h"
#include "../../torture/core/run.h"
#include "../../torture/tests/torture_test.h"

static struct torture_run run; /* a context, no run started */
static struct rcut_config cfg;
static const struct rcut_flavor unit_flavor = { .name = "unit" };
static struct rcut_snapshot s;

static int setup(void **state)
{
	(void)state;
	rcut_config_defaults(&cfg);
	torture_run_init(&run, &cfg, &unit_flavor, "torture");
	memset(&s, 0, sizeof(s));
	return 0;
}

static int verdict(bool stuck)
{
	return torture_test_verdict(&run, &s, stuck);
}

/* Each of the snapshot's failure rules alone, with its cause. */
static void each_failure_rule(void **state)
{
	static const struct {
		size_t off; /* a uint64_t field of the snapshot */
		const char *cause;
	} rules[] = {
		{ offsetof(struct rcut_snapshot, pipe[2]),
		  "too-short grace period (Reader Pipe stage >= 2)" },
		{ offsetof(struct rcut_snapshot, pipe[RCUT_PIPE_LEN]),
		  "too-short grace period (Reader Pipe stage >= 2)" },
		{ offsetof(struct rcut_snapshot, rtmbe),
		  "rtmbe (reader saw a freed element)" },
		{ offsetof(struct rcut_snapshot, mbchk_fail),
		  "rtmbkf (memory-ordering check)" },
		{ offsetof(struct rcut_snapshot, rtbe),
		  "rtbe (barrier returned before its callbacks ran)" },
		{ offsetof(struct rcut_snapshot, rtbke), "boost failure" },
		{ offsetof(struct rcut_snapshot, rtbf), "boost failure" },
		{ offsetof(struct rcut_snapshot, cbs_early),
		  "early callbacks" },
		{ offsetof(struct rcut_snapshot, cbs_dup),
		  "duplicate callbacks" },
		{ offsetof(struct rcut_snapshot, cbs_lost), "lost callbacks" },
	};
	char why[256];

	(void)state;
	/* Stages 0 and 1 are normal: a reader may span one GP boundary. */
	s.pipe[0] = 1000;
	s.pipe[1] = 10;
	assert_false(rcut_snapshot_failed(&s, why, sizeof(why)));
	assert_string_equal(why, "");
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct rcut_snapshot one = s;

		*(uint64_t *)((char *)&one + rules[i].off) = 1;
		assert_true(rcut_snapshot_failed(&one, why, sizeof(why)));
		assert_string_equal(why, rules[i].cause);
	}
}

static void hotplug_rule(void **state)
{
	(void)state;
	s.online_attempts = s.online_successes = 5;
	s.offline_attempts = s.offline_successes = 5;
	assert_false(rcut_snapshot_hotplug_failed(&s));
	s.offline_attempts = 6;
	assert_true(rcut_snapshot_hotplug_failed(&s));
	s.offline_attempts = 5;
	s.online_successes = 4;
	assert_true(rcut_snapshot_hotplug_failed(&s));
}

static void clean_run_succeeds(void **state)
{
	(void)state;
	s.pipe[0] = 1000;
	s.pipe[1] = 3;
	s.online_attempts = s.online_successes = 2;
	assert_int_equal(verdict(false), RCUT_EXIT_SUCCESS);
}

/* Each cause alone gives its own status. */
static void each_cause_alone(void **state)
{
	(void)state;
	s.offline_attempts = 1;
	assert_int_equal(verdict(false), RCUT_EXIT_HOTPLUG);
	s.offline_attempts = 0;
	s.cbs_lost = 1;
	assert_int_equal(verdict(false), RCUT_EXIT_FAILURE);
	s.cbs_lost = 0;
	assert_int_equal(verdict(true), RCUT_EXIT_STALL);
	/* A failure a check recorded counts even if the snapshot is clean. */
	torture_failure(&run, "unit check", "recorded by a check");
	assert_int_equal(verdict(false), RCUT_EXIT_FAILURE);
	setup(NULL);
	torture_internal_error(&run, "the harness failed");
	assert_int_equal(verdict(false), RCUT_EXIT_INTERNAL);
}

/* Everything at once, taken away one cause at a time from the top. */
static void stall_internal_failure_hotplug_success(void **state)
{
	(void)state;
	s.online_attempts = 3;
	s.online_successes = 2;
	s.pipe[3] = 1;
	torture_internal_error(&run, "the harness failed");
	assert_int_equal(verdict(true), RCUT_EXIT_STALL);
	assert_int_equal(verdict(false), RCUT_EXIT_INTERNAL);
	atomic_store(&run.failure.internal, false);
	assert_int_equal(verdict(false), RCUT_EXIT_FAILURE);
	s.pipe[3] = 0;
	assert_int_equal(verdict(false), RCUT_EXIT_HOTPLUG);
	s.online_successes = 3;
	assert_int_equal(verdict(false), RCUT_EXIT_SUCCESS);
}

/*
 * Every check that failed is tallied in the order it first failed, with
 * its count, not only the first: two checks often race to catch one bug.
 */
static void each_failed_check_is_tallied(void **state)
{
	struct torture_check_tally t[TORTURE_MAX_CHECKS];
	char name[TORTURE_MAX_CHECKS + 2][16];

	(void)state;
	assert_int_equal(torture_failed_checks(&run, t, TORTURE_MAX_CHECKS), 0);
	torture_failure(&run, "early grace period", "first");
	torture_failure(&run, "cookie check", "second");
	torture_failure(&run, "early grace period", "third");
	/* The same check named by another copy of its string. */
	strcpy(name[0], "cookie check");
	torture_failure(&run, name[0], "fourth");
	assert_int_equal(torture_failed_checks(&run, t, TORTURE_MAX_CHECKS), 2);
	assert_string_equal(t[0].check, "early grace period");
	assert_int_equal(t[0].count, 2);
	assert_string_equal(t[1].check, "cookie check");
	assert_int_equal(t[1].count, 2);
	assert_true(t[0].first_ns <= t[1].first_ns);
	/* Room for one row only: the count says how many there are. */
	assert_int_equal(torture_failed_checks(&run, t, 1), 2);
	/* Past the table's rows a check is counted in failed_checks alone. */
	for (int i = 2; i < TORTURE_MAX_CHECKS + 2; i++) {
		snprintf(name[i], sizeof(name[i]), "check %d", i);
		torture_failure(&run, name[i], "more");
	}
	assert_int_equal(torture_failed_checks(&run, t, TORTURE_MAX_CHECKS),
			 TORTURE_MAX_CHECKS);
	assert_int_equal(atomic_load(&run.counters.failed_checks),
			 TORTURE_MAX_CHECKS + 4);
}

static void exit_names(void **state)
{
	(void)state;
	assert_string_equal(rcut_exit_name(RCUT_EXIT_SUCCESS), "SUCCESS");
	assert_string_equal(rcut_exit_name(RCUT_EXIT_FAILURE), "FAILURE");
	assert_string_equal(rcut_exit_name(RCUT_EXIT_USAGE), "USAGE");
	assert_string_equal(rcut_exit_name(RCUT_EXIT_HOTPLUG), "RCU_HOTPLUG");
	assert_string_equal(rcut_exit_name(RCUT_EXIT_STALL), "STALL");
	assert_string_equal(rcut_exit_name(RCUT_EXIT_INTERNAL),
			    "INTERNAL_ERROR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(each_failure_rule, setup),
		cmocka_unit_test_setup(hotplug_rule, setup),
		cmocka_unit_test_setup(clean_run_succeeds, setup),
		cmocka_unit_test_setup(each_cause_alone, setup),
		cmocka_unit_test_setup(stall_internal_failure_hotplug_success,
				       setup),
		cmocka_unit_test_setup(each_failed_check_is_tallied, setup),
		cmocka_unit_test_setup(exit_names, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
