// SPDX-License-Identifier: MIT
/*
 * Unit tests: race delays (torture/inject.c) and the delay distribution
 * they share with preemption (torture/delay.c).  Off, a race point does
 * nothing and counts nothing; on, it delays with the configured
 * probability, within the configured maximum, counting every hit and
 * every delay by kind.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <cmocka.h>

#include "../../torture/util/delay.h"
#include "../../torture/core/inject.h"

/* Sleeps overshoot by timer slack and scheduling (2 busy cores: tens of ms). */
#define SLACK_NS 250000000ULL

static int reset(void **state)
{
	(void)state;
	inject_stop();
	inject_reset_stats();
	return 0;
}

static void off_costs_nothing_and_counts_nothing(void **state)
{
	struct inject_stats st;
	uint64_t start, took;

	(void)state;
	assert_false(inject_enabled());
	start = delay_now_ns();
	for (int i = 0; i < 1000000; i++)
		rcut_race_point(RCUT_RACE_READ_LOCK);
	took = delay_now_ns() - start;
	/* A load and a branch each: far below 100 ns per call. */
	assert_true(took < 100000000ULL);
	/* The slow path, called directly while off, does nothing either. */
	rcut_race_delay(RCUT_RACE_GP_FLIP);
	inject_snapshot(&st);
	assert_int_equal(st.hits_total, 0);
	assert_int_equal(st.delays, 0);
	assert_int_equal(st.delay_ns_total, 0);
}

static void on_delays_within_bounds_and_counts(void **state)
{
	const uint64_t max = 200000; /* 200 us */
	const int n = 2000;
	struct inject_stats st;
	uint64_t worst = 0;

	(void)state;
	assert_int_equal(inject_configure(1.0, max, 42), 0);
	assert_true(inject_enabled());
	for (int i = 0; i < n; i++) {
		uint64_t start = delay_now_ns(), took;

		rcut_race_point(i % 2 ? RCUT_RACE_READ_LOCK :
					RCUT_RACE_CB_QUEUE);
		took = delay_now_ns() - start;
		if (took > worst)
			worst = took;
	}
	inject_snapshot(&st);
	assert_int_equal(st.hits_total, n);
	assert_int_equal(st.hits[RCUT_RACE_READ_LOCK], n / 2);
	assert_int_equal(st.hits[RCUT_RACE_CB_QUEUE], n / 2);
	assert_int_equal(st.hits[RCUT_RACE_GP_FLIP], 0);
	/* Probability 1: every hit delayed, in all three ways. */
	assert_int_equal(st.delays, n);
	assert_int_equal(st.yields + st.spins + st.sleeps, n);
	assert_true(st.yields > n / 8 && st.spins > n / 8 && st.sleeps > 0);
	assert_true(st.delay_ns_total > 0);
	assert_true(st.delay_ns_max <= max + SLACK_NS);
	assert_true(worst <= max + SLACK_NS);
	assert_true(st.delay_ns_max <= worst);
}

static void probability_is_respected(void **state)
{
	const int n = 20000;
	struct inject_stats st;

	(void)state;
	assert_int_equal(inject_configure(0.25, 1000, 7), 0);
	for (int i = 0; i < n; i++)
		rcut_race_point(RCUT_RACE_READ_UNLOCK);
	inject_snapshot(&st);
	assert_int_equal(st.hits[RCUT_RACE_READ_UNLOCK], n);
	assert_true(st.delays > n / 5 && st.delays < n * 3 / 10);
	/* Probability 0 turns race delays off again. */
	assert_int_equal(inject_configure(0.0, 0, 7), 0);
	assert_false(inject_enabled());
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	inject_snapshot(&st);
	assert_int_equal(st.hits_total, n);
}

static void unknown_kinds_count_as_other(void **state)
{
	struct inject_stats st;

	(void)state;
	assert_int_equal(inject_configure(1e-9, 1000, 1), 0);
	rcut_race_point((enum rcut_race_where)(RCUT_RACE_NWHERE + 5));
	inject_snapshot(&st);
	assert_int_equal(st.hits[RCUT_RACE_OTHER], 1);
	assert_string_equal(inject_where_name(RCUT_RACE_NWHERE + 5), "other");
	assert_string_equal(inject_where_name(RCUT_RACE_READ_LOCK),
			    "read_lock");
}

static void bad_settings_are_refused(void **state)
{
	(void)state;
	assert_int_equal(inject_configure(-0.1, 1000000, 1), -1);
	assert_int_equal(inject_configure(1.5, 1000000, 1), -1);
	assert_int_equal(inject_configure(NAN, 1000000, 1), -1);
	assert_int_equal(inject_configure(0.5, 999, 1), -1);
	assert_false(inject_enabled());
}

static void *hammer(void *arg)
{
	for (int i = 0; i < 50000; i++)
		rcut_race_point(RCUT_RACE_GP_WAIT);
	return arg;
}

/* Counters are sharded per thread: nothing is lost in the sum. */
static void threads_sum_up(void **state)
{
	pthread_t t[6];
	struct inject_stats st;

	(void)state;
	assert_int_equal(inject_configure(0.001, 1000, 3), 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(pthread_create(&t[i], NULL, hammer, NULL), 0);
	for (int i = 0; i < 6; i++)
		pthread_join(t[i], NULL);
	inject_snapshot(&st);
	assert_int_equal(st.hits[RCUT_RACE_GP_WAIT], 6 * 50000);
	assert_int_equal(st.hits_total, 6 * 50000);
}

/* Mostly short, one in eight long, never outside [1 us, max]. */
static void draws_are_wide_and_bounded(void **state)
{
	const uint64_t max = 10000000; /* 10 ms */
	const int n = 100000;
	uint64_t r = 99, lo = UINT64_MAX, hi = 0;
	int longs = 0, under_10us = 0;

	(void)state;
	for (int i = 0; i < n; i++) {
		uint64_t d = delay_draw_ns(&r, max);

		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		longs += d > DELAY_SHORT_MAX_NS;
		under_10us += d < 10000;
	}
	assert_true(lo >= DELAY_MIN_NS && hi <= max);
	assert_true(longs > n / 11 && longs < n / 6);
	assert_true(under_10us > n / 2);
	assert_true(hi > max / 2); /* the tail reaches the maximum */
	assert_int_equal(delay_draw_ns(&r, 0), 0);
	assert_int_equal(delay_draw_ns(&r, 500), 500);
	for (int i = 0; i < 1000; i++)
		assert_true(delay_draw_ns(&r, 30000) <= 30000);
	assert_int_equal(delay_stall_bound_ns(10000000000ULL), 2500000000ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(off_costs_nothing_and_counts_nothing,
				       reset),
		cmocka_unit_test_setup(on_delays_within_bounds_and_counts,
				       reset),
		cmocka_unit_test_setup(probability_is_respected, reset),
		cmocka_unit_test_setup(unknown_kinds_count_as_other, reset),
		cmocka_unit_test_setup(bad_settings_are_refused, reset),
		cmocka_unit_test_setup(threads_sum_up, reset),
		cmocka_unit_test(draws_are_wide_and_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
