// SPDX-License-Identifier: MIT
/*
 * Unit tests: the scale test's sample store.  A grace period that ends
 * once the test is stopping is discarded, never counted; beyond its
 * capacity the store keeps a uniform sample of everything it was given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../torture/tests/scale.h"

static void counts_until_the_stop_then_discards(void **state)
{
	struct scale_samples s;

	(void)state;
	assert_int_equal(scale_samples_init(&s, 8), 0);
	scale_samples_add(&s, 1000, false);
	scale_samples_add(&s, 2000, false);
	scale_samples_add(&s, 999999999, true); /* the stop-time outlier */
	assert_int_equal(atomic_load(&s.seen), 2);
	assert_int_equal(atomic_load(&s.discarded), 1);
	assert_int_equal(scale_samples_kept(&s), 2);
	assert_int_equal(atomic_load(&s.ns[0]), 1000);
	assert_int_equal(atomic_load(&s.ns[1]), 2000);
	scale_samples_free(&s);
}

static void keeps_a_uniform_sample_beyond_capacity(void **state)
{
	enum { CAP = 1000, N = 100000 };
	struct scale_samples s;
	uint64_t low = 0;

	(void)state;
	assert_int_equal(scale_samples_init(&s, CAP), 0);
	for (uint64_t i = 0; i < N; i++)
		scale_samples_add(&s, i, false);
	assert_int_equal(atomic_load(&s.seen), N);
	assert_int_equal(scale_samples_kept(&s), CAP);
	/* About half the kept values come from the first half of the run. */
	for (int i = 0; i < CAP; i++)
		low += atomic_load(&s.ns[i]) < N / 2;
	assert_in_range(low, CAP / 2 - 100, CAP / 2 + 100);
	scale_samples_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_until_the_stop_then_discards),
		cmocka_unit_test(keeps_a_uniform_sample_beyond_capacity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
