// SPDX-License-Identifier: MIT
/*
 * Unit tests: rtmbkf, the memory-ordering check (torture/mbchk.c).  A
 * check is carried out only after a grace period passed over the element
 * it hangs on, never by the reader whose counter it reads, and a counter
 * seen lower after the grace period than before it is a failure.  Reader
 * 0 assigns; with two readers it must check reader 1's counter itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../torture/core/run.h"
#include "../../torture/core/mbchk.h"

static struct torture_run run; /* a context, no run started */
static struct torture_thread rdr[2];
static struct torture_thread *rdrs[2] = { &rdr[0], &rdr[1] };
static struct rcut_config cfg;
static const struct rcut_flavor unit_flavor = { .name = "unit" };

static int setup(void **state)
{
	(void)state;
	torture_run_init(&run, &cfg, &unit_flavor, "torture");
	memset(rdr, 0, sizeof(rdr));
	for (int i = 0; i < 2; i++) {
		rdr[i].run = &run;
		rdr[i].kind = "reader";
		rdr[i].id = i;
		torture_rand_seed(&rdr[i].rand, 42, (uint64_t)i);
	}
	run.threads.readers = rdrs;
	run.threads.nreaders = 2;
	return torture_mbchk_init(&run, 2);
}

static int teardown(void **state)
{
	(void)state;
	torture_mbchk_cleanup(&run);
	return 0;
}

/* Reader 0 reads p until its check hangs on p, noting reader 1 at loops. */
static void hang_check(struct torture_elem *p, uint64_t loops)
{
	atomic_store(&rdr[1].section, loops);
	for (int i = 0; i < 1000 && !atomic_load(&p->chkp); i++)
		torture_mbchk_read(&rdr[0], p);
	assert_non_null(atomic_load(&p->chkp));
}

/* Reader r reads elem n times. */
static void reads(int r, struct torture_elem *elem, int n)
{
	for (int i = 0; i < n; i++)
		torture_mbchk_read(&rdr[r], elem);
}

static void waits_for_a_grace_period(void **state)
{
	struct torture_elem p = { 0 }, q = { 0 };

	(void)state;
	hang_check(&p, 5);
	reads(0, &q, 200);
	assert_int_equal(atomic_load(&run.counters.mbchk_tries), 0);
	torture_mbchk_gp_passed(&p);
	assert_null(atomic_load(&p.chkp));
	/* Reader 1 is the one checked: it never takes the check. */
	reads(1, &q, 200);
	assert_int_equal(atomic_load(&run.counters.mbchk_tries), 0);
}

static void passes_when_the_counter_moved_on(void **state)
{
	struct torture_elem p = { 0 }, q = { 0 };

	(void)state;
	hang_check(&p, 5);
	atomic_store(&rdr[1].section, 7);
	torture_mbchk_gp_passed(&p);
	reads(0, &q, 200);
	assert_int_equal(atomic_load(&run.counters.mbchk_tries), 1);
	assert_int_equal(atomic_load(&run.counters.mbchk_fail), 0);
	/* The assigner is free again: a new check hangs on the next element. */
	hang_check(&q, 9);
}

/* The failure is recorded in the run: the next setup starts afresh. */
static void fails_when_the_counter_went_back(void **state)
{
	struct torture_elem p = { 0 }, q = { 0 };
	const char *check = NULL;
	uint64_t at;

	(void)state;
	hang_check(&p, 5);
	atomic_store(&rdr[1].section, 3); /* a stale view after the GP */
	torture_mbchk_gp_passed(&p);
	reads(0, &q, 200);
	assert_int_equal(atomic_load(&run.counters.mbchk_tries), 1);
	assert_int_equal(atomic_load(&run.counters.mbchk_fail), 1);
	assert_true(torture_first_failure(&run, &at, &check));
	assert_string_equal(check, "rtmbkf");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(waits_for_a_grace_period, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			passes_when_the_counter_moved_on, setup, teardown),
		cmocka_unit_test_setup_teardown(
			fails_when_the_counter_went_back, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
