// SPDX-License-Identifier: MIT
/*
 * Unit tests: the grace-period mix (torture/gp.c).  torture_gp_pick only
 * returns kinds the flavor has and --gp-* allow, the asynchronous one only
 * when the caller allows it, synchronize when nothing else is left, and
 * over many draws every allowed kind about equally often.  torture_gp_wait
 * calls the chosen primitive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../torture/core/gp.h"
#include "fake_flavor.h"

#define DRAWS 10000
#define BIT(k) (1u << (k))
#define ALL_KINDS (BIT(RCUT_GP_NKINDS) - 1)

/* Which primitive was called last, by torture_gp_wait. */
static const char *called;

static void f_sync(void)
{
	called = "sync";
}

static void f_exp(void)
{
	called = "exp";
}

static unsigned long f_cookie(void)
{
	return 7;
}

static void f_cond_sync(unsigned long cookie)
{
	called = cookie == 7 ? "cond" : "cond with a wrong cookie";
}

static bool f_poll(unsigned long cookie)
{
	called = cookie == 7 ? "poll" : "poll with a wrong cookie";
	return true;
}

static void f_full_state(struct rcut_gp_full *c)
{
	c->word[0] = 7;
	c->word[1] = 8;
	c->word[2] = 9;
}

static bool full_ok(const struct rcut_gp_full *c)
{
	return c->word[0] == 7 && c->word[1] == 8 && c->word[2] == 9;
}

static void f_cond_sync_full(const struct rcut_gp_full *c)
{
	called = full_ok(c) ? "cond-full" : "cond-full with a wrong cookie";
}

static bool f_poll_full(const struct rcut_gp_full *c)
{
	called = full_ok(c) ? "poll-full" : "poll-full with a wrong cookie";
	return true;
}

static int f_read_lock(void)
{
	return 0;
}

static void f_read_unlock(int idx)
{
	(void)idx;
}

/* Every primitive, the full cookies of ABI version 3 too. */
static const struct rcut_flavor full = {
	.abi_version = 3,
	.name = "full",
	.read_lock = f_read_lock,
	.read_unlock = f_read_unlock,
	.get_gp_state_full = f_full_state,
	.start_gp_poll_full = f_full_state,
	.poll_gp_state_full = f_poll_full,
	.cond_sync_full = f_cond_sync_full,
	.synchronize = f_sync,
	.synchronize_expedited = f_exp,
	.call = fake_call,
	.get_gp_state = f_cookie,
	.cond_sync = f_cond_sync,
	.start_gp_poll = f_cookie,
	.poll_gp_state = f_poll,
};

/* No expedited GPs, a cookie but no cond_sync: sync, normal, poll. */
static const struct rcut_flavor partial = {
	.name = "partial",
	.read_lock = f_read_lock,
	.read_unlock = f_read_unlock,
	.synchronize = f_sync,
	.call = fake_call,
	.get_gp_state = f_cookie,
	.start_gp_poll = f_cookie,
	.poll_gp_state = f_poll,
};

static struct torture_run run;
static struct rcut_config cfg;

static void use(const struct rcut_flavor *f, unsigned int mask)
{
	rcut_config_defaults(&cfg);
	cfg.gp_mask = mask;
	torture_run_init(&run, &cfg, f, "torture");
}

/* The set of kinds DRAWS picks return, as a mask; counts in n if given. */
static unsigned int picks(bool allow_async, int n[RCUT_GP_NKINDS])
{
	struct torture_rand r;
	unsigned int seen = 0;

	torture_rand_seed(&r, 12345, 1);
	for (int i = 0; i < DRAWS; i++) {
		enum rcut_gp_kind k = torture_gp_pick(&run, &r, allow_async);

		assert_in_range(k, 0, RCUT_GP_NKINDS - 1);
		seen |= BIT(k);
		if (n)
			n[k]++;
	}
	return seen;
}

static void only_what_the_flavor_has(void **state)
{
	(void)state;
	use(&partial, 0);
	assert_int_equal(picks(true, NULL), BIT(RCUT_GP_SYNC) |
						    BIT(RCUT_GP_NORMAL) |
						    BIT(RCUT_GP_POLL));
	use(&full, 0);
	assert_int_equal(picks(true, NULL), ALL_KINDS);
}

static void only_what_gp_options_allow(void **state)
{
	unsigned int mask =
		BIT(RCUT_GP_EXP) | BIT(RCUT_GP_COND) | BIT(RCUT_GP_NORMAL);

	(void)state;
	use(&full, mask);
	assert_int_equal(picks(true, NULL), mask);
	/* The mask and the flavor both restrict: poll only, exp absent. */
	use(&partial, BIT(RCUT_GP_POLL));
	assert_int_equal(picks(true, NULL), BIT(RCUT_GP_POLL));
}

static void async_only_when_allowed(void **state)
{
	(void)state;
	use(&full, 0);
	assert_int_equal(picks(false, NULL), ALL_KINDS & ~BIT(RCUT_GP_NORMAL));
	use(&full, BIT(RCUT_GP_NORMAL) | BIT(RCUT_GP_EXP));
	assert_int_equal(picks(false, NULL), BIT(RCUT_GP_EXP));
	assert_int_equal(picks(true, NULL),
			 BIT(RCUT_GP_NORMAL) | BIT(RCUT_GP_EXP));
}

/* Only --gp-normal, and the caller cannot wait on it: synchronize. */
static void falls_back_to_sync(void **state)
{
	(void)state;
	use(&full, BIT(RCUT_GP_NORMAL));
	assert_int_equal(picks(false, NULL), BIT(RCUT_GP_SYNC));
	assert_int_equal(picks(true, NULL), BIT(RCUT_GP_NORMAL));
}

/* Uniform over the allowed kinds: each within 20% of its share. */
static void every_allowed_kind_about_equally(void **state)
{
	int n[RCUT_GP_NKINDS] = { 0 };
	int share = DRAWS / RCUT_GP_NKINDS;

	(void)state;
	use(&full, 0);
	picks(true, n);
	for (int k = 0; k < RCUT_GP_NKINDS; k++)
		assert_in_range(n[k], share * 8 / 10, share * 12 / 10);
}

static void availability_and_option_check(void **state)
{
	char err[256] = "";

	(void)state;
	assert_true(torture_gp_available(&full, RCUT_GP_COND));
	assert_false(torture_gp_available(&partial, RCUT_GP_COND));
	assert_false(torture_gp_available(&partial, RCUT_GP_EXP));
	assert_true(torture_gp_available(&partial, RCUT_GP_POLL));
	assert_int_equal(torture_gp_check(&partial,
					  BIT(RCUT_GP_SYNC) | BIT(RCUT_GP_POLL),
					  err, sizeof(err)),
			 0);
	assert_int_equal(
		torture_gp_check(&partial, BIT(RCUT_GP_EXP), err, sizeof(err)),
		-1);
	assert_string_equal(
		err, "--gp-exp: flavor partial has no expedited synchronize");
	assert_int_equal(torture_gp_check(&full, ALL_KINDS, err, sizeof(err)),
			 0);
}

/* torture_gp_wait calls the kind's primitive and counts the GP. */
static void wait_calls_the_primitive(void **state)
{
	static const struct {
		enum rcut_gp_kind kind;
		const char *want;
	} cases[] = {
		{ RCUT_GP_SYNC, "sync" },
		{ RCUT_GP_EXP, "exp" },
		{ RCUT_GP_COND, "cond" },
		{ RCUT_GP_POLL, "poll" },
		{ RCUT_GP_COND_FULL, "cond-full" },
		{ RCUT_GP_POLL_FULL, "poll-full" },
	};
	struct torture_rand r;

	(void)state;
	use(&full, 0);
	torture_rand_seed(&r, 1, 2);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		called = NULL;
		torture_gp_wait(&run, &r, cases[i].kind);
		assert_non_null(called);
		assert_string_equal(called, cases[i].want);
		assert_int_equal(atomic_load(&run.counters.sync_gps), i + 1);
	}
}

/* A version-2 table ends before the full hooks: no full kinds. */
static void full_kinds_need_abi_version_3(void **state)
{
	struct rcut_flavor v2 = full;

	(void)state;
	v2.abi_version = 2;
	assert_true(torture_gp_available(&full, RCUT_GP_POLL_FULL));
	assert_false(torture_gp_available(&v2, RCUT_GP_POLL_FULL));
	assert_false(torture_gp_available(&v2, RCUT_GP_COND_FULL));
}

/*
 * The cookie check fails the run when a cookie taken inside a section
 * polls done there (f_poll and f_poll_full always say done), and not
 * when the flavor has no cookies.
 */
static void cookie_check_catches_a_cookie_done_too_soon(void **state)
{
	struct torture_rand r;
	uint64_t at;
	const char *check;

	(void)state;
	torture_rand_seed(&r, 12345, 1);
	use(&full, 0);
	torture_gp_cookie_check(&run, &r);
	assert_true(torture_first_failure(&run, &at, &check));
	assert_string_equal(check, "cookie check");
	/* A plain cookie alone (version-1 tables have only those). */
	use(&partial, 0);
	assert_false(torture_first_failure(&run, &at, &check));
	torture_gp_cookie_check(&run, &r);
	assert_true(torture_first_failure(&run, &at, &check));
}

/* Polls in the current section: the second says done (a poll-qs bug). */
static int polls_in_section;

static int f_read_lock_counting(void)
{
	polls_in_section = 0;
	return 0;
}

static bool f_poll_second_done(unsigned long cookie)
{
	(void)cookie;
	return ++polls_in_section >= 2;
}

static const struct rcut_flavor done_at_second_poll = {
	.name = "done-at-second-poll",
	.read_lock = f_read_lock_counting,
	.read_unlock = f_read_unlock,
	.synchronize = f_sync,
	.get_gp_state = f_cookie,
	.start_gp_poll = f_cookie,
	.poll_gp_state = f_poll_second_done,
};

/*
 * Some checks poll again later in the same section: a cookie that polls
 * done only at its second poll fails the run within a few checks, and
 * every check's first poll said not done.
 */
static void cookie_check_polls_again_in_the_section(void **state)
{
	struct torture_rand r;
	uint64_t at;
	const char *check;
	int checks = 0;

	(void)state;
	torture_rand_seed(&r, 12345, 1);
	use(&done_at_second_poll, 0);
	cfg.gp_poll_wi_ns = 1000;
	while (!torture_first_failure(&run, &at, &check) && checks < 100) {
		torture_gp_cookie_check(&run, &r);
		checks++;
	}
	assert_true(torture_first_failure(&run, &at, &check));
	assert_string_equal(check, "cookie check");
	assert_int_equal(polls_in_section, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(only_what_the_flavor_has),
		cmocka_unit_test(cookie_check_polls_again_in_the_section),
		cmocka_unit_test(only_what_gp_options_allow),
		cmocka_unit_test(async_only_when_allowed),
		cmocka_unit_test(falls_back_to_sync),
		cmocka_unit_test(every_allowed_kind_about_equally),
		cmocka_unit_test(availability_and_option_check),
		cmocka_unit_test(wait_calls_the_primitive),
		cmocka_unit_test(full_kinds_need_abi_version_3),
		cmocka_unit_test(cookie_check_catches_a_cookie_done_too_soon),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
