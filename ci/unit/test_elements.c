// SPDX-License-Identifier: MIT
/*
 * Unit tests: the element pool and pipe aging (torture/elements.c).  The
 * pool hands out every element once, then fails (counted rtaf); an element
 * ages one stage per call and goes back to the free list, marked not in
 * use, at RCUT_PIPE_LEN; asynchronous aging re-posts one callback per
 * grace period (the fake flavor's) until the element is freed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../torture/core/run.h"
#include "fake_flavor.h"

static struct torture_run run; /* a context, no run started */
static struct rcut_config cfg;
static const struct rcut_flavor fake_flavor = {
	.name = "fake",
	.synchronize = fake_synchronize,
	.call = fake_call,
};

static int setup(void **state)
{
	(void)state;
	rcut_config_defaults(&cfg);
	torture_run_init(&run, &cfg, &fake_flavor, "torture");
	fake_reset();
	return 0;
}

static uint64_t counter(_Atomic uint64_t *c)
{
	return atomic_load(c);
}

static void alloc_until_empty(void **state)
{
	static bool seen[TORTURE_POOL_SIZE];

	(void)state;
	memset(seen, 0, sizeof(seen));
	assert_false(torture_pool_empty(&run.pool));
	for (int i = 0; i < TORTURE_POOL_SIZE; i++) {
		struct torture_elem *e = torture_elem_alloc(&run);
		long k;

		assert_non_null(e);
		k = e - run.pool.elem;
		assert_in_range(k, 0, TORTURE_POOL_SIZE - 1);
		assert_false(seen[k]); /* never handed out twice */
		seen[k] = true;
		assert_int_equal(atomic_load(&e->mbtest), 1);
		assert_int_equal(atomic_load(&e->pipe_count), 0);
	}
	assert_true(torture_pool_empty(&run.pool));
	assert_null(torture_elem_alloc(&run));
	assert_int_equal(counter(&run.counters.rta), TORTURE_POOL_SIZE);
	assert_int_equal(counter(&run.counters.rtaf), 1);
}

/* One stage per call; freed (mbtest 0, back on the list) at PIPE_LEN. */
static void ages_one_stage_per_call(void **state)
{
	struct torture_elem *e = torture_elem_alloc(&run);

	(void)state;
	assert_non_null(e);
	for (int i = 0; i < RCUT_PIPE_LEN - 1; i++) {
		assert_false(torture_elem_age(&run, e));
		assert_int_equal(atomic_load(&e->pipe_count), i + 1);
		assert_int_equal(atomic_load(&e->mbtest), 1);
		assert_int_equal(counter(&run.counters.wcount[i]), 1);
		assert_int_equal(counter(&run.counters.rtf), 0);
	}
	assert_true(torture_elem_age(&run, e));
	assert_int_equal(atomic_load(&e->pipe_count), RCUT_PIPE_LEN);
	assert_int_equal(atomic_load(&e->mbtest), 0);
	assert_int_equal(counter(&run.counters.wcount[RCUT_PIPE_LEN - 1]), 1);
	assert_int_equal(counter(&run.counters.rtf), 1);
	/* Back on the free list: the next allocation gets it, in use again. */
	assert_ptr_equal(torture_elem_alloc(&run), e);
	assert_int_equal(atomic_load(&e->mbtest), 1);
	assert_int_equal(atomic_load(&e->pipe_count), 0);
}

/* A freed element makes an empty pool usable again. */
static void freed_element_refills_an_empty_pool(void **state)
{
	struct torture_elem *e = NULL;

	(void)state;
	for (int i = 0; i < TORTURE_POOL_SIZE; i++)
		e = torture_elem_alloc(&run);
	assert_true(torture_pool_empty(&run.pool));
	for (int i = 0; i < RCUT_PIPE_LEN; i++)
		torture_elem_age(&run, e);
	assert_false(torture_pool_empty(&run.pool));
	assert_ptr_equal(torture_elem_alloc(&run), e);
	assert_true(torture_pool_empty(&run.pool));
}

/* Aging via call(): one stage per invoked callback, until freed. */
static void ages_asynchronously(void **state)
{
	struct torture_elem *e = torture_elem_alloc(&run);
	struct rcut_head *prev = NULL;

	(void)state;
	torture_elem_age_async(&run, e);
	for (int i = 0; i < RCUT_PIPE_LEN; i++) {
		struct rcut_head *h;

		/* Exactly one aging callback pending; nothing aged early. */
		assert_int_equal(fake_queued(), 1);
		assert_int_equal(torture_cbs_in_flight(&run), 1);
		assert_int_equal(atomic_load(&e->pipe_count), i);
		assert_int_equal(atomic_load(&e->mbtest), 1);
		h = fake_invoke_next();
		/* The two heads alternate (a duplicate finds its head idle). */
		assert_ptr_equal(h, &e->cb[i & 1].rh);
		assert_ptr_not_equal(h, prev);
		prev = h;
	}
	assert_int_equal(fake_queued(), 0);
	assert_int_equal(atomic_load(&e->pipe_count), RCUT_PIPE_LEN);
	assert_int_equal(atomic_load(&e->mbtest), 0);
	assert_int_equal(counter(&run.counters.rtf), 1);
	assert_int_equal(counter(&run.counters.cbs_posted), RCUT_PIPE_LEN);
	assert_int_equal(counter(&run.counters.cbs_invoked), RCUT_PIPE_LEN);
	assert_int_equal(torture_cbs_in_flight(&run), 0);
	assert_int_equal(counter(&run.counters.cbs_dup), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(alloc_until_empty, setup),
		cmocka_unit_test_setup(ages_one_stage_per_call, setup),
		cmocka_unit_test_setup(freed_element_refills_an_empty_pool,
				       setup),
		cmocka_unit_test_setup(ages_asynchronously, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
