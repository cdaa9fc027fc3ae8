// SPDX-License-Identifier: MIT
/*
 * Unit tests: the scale test's percentiles and histogram against samples
 * whose kvm-recheck-rcuscale.sh results were worked out by hand (and with
 * a transcription of the script's awk arithmetic).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../report/percentile.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void ranks_like_the_script(void **state)
{
	(void)state;
	/* int(N * p / 100), at least 1 */
	assert_int_equal(rcut_percentile_rank(0, 50), 1);
	assert_int_equal(rcut_percentile_rank(1, 50), 1);
	assert_int_equal(rcut_percentile_rank(1, 99), 1);
	assert_int_equal(rcut_percentile_rank(5, 50), 2);
	assert_int_equal(rcut_percentile_rank(5, 90), 4);
	assert_int_equal(rcut_percentile_rank(10, 99), 9);
	assert_int_equal(rcut_percentile_rank(12, 90), 10);
	assert_int_equal(rcut_percentile_rank(100, 99), 99);
	assert_int_equal(rcut_percentile_rank(1000, 50), 500);
	assert_int_equal(rcut_percentile_rank(1001, 90), 900);
}

static void bucket_sizes(void **state)
{
	(void)state;
	/* 10 ** int(log(p90) / log(10) + .5) / 100; int() truncates */
	assert_true(rcut_bucket_size(4) == 0.1);
	assert_true(rcut_bucket_size(180) == 1);
	assert_true(rcut_bucket_size(240) == 1);
	assert_true(rcut_bucket_size(2429) == 10);
	assert_true(rcut_bucket_size(3200) == 100);  /* 3.505 rounds up */
	assert_true(rcut_bucket_size(0.5) == 0.01);  /* 0.199 -> 0 */
	assert_true(rcut_bucket_size(0.05) == 0.01); /* -0.80 -> 0, not -1 */
	assert_true(rcut_bucket_size(0.001) == 1.0 / 100 / 100); /* -2.5 */
	assert_true(rcut_bucket_size(0) == 1); /* guarded, see the header */
}

static void medians(void **state)
{
	static const double odd[] = { 1, 2, 7 }, even[] = { 1, 2, 4, 10 };

	(void)state;
	assert_true(rcut_median(odd, 3) == 2);
	assert_true(rcut_median(even, 4) == 3);
	assert_true(rcut_median(odd, 1) == 1);
}

static void awk_numbers(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(rcut_awk_number(3, b, sizeof(b)), "3");
	assert_string_equal(rcut_awk_number(1234567, b, sizeof(b)), "1234567");
	assert_string_equal(rcut_awk_number(1234567.8, b, sizeof(b)),
			    "1.23457e+06");
	assert_string_equal(rcut_awk_number(0.1, b, sizeof(b)), "0.1");
	assert_string_equal(rcut_awk_number(12.3456789, b, sizeof(b)),
			    "12.3457");
	/* 0.1 * 30 is 3.0000000000000004: awk shows "3" all the same */
	assert_string_equal(rcut_awk_number(0.1 * 30, b, sizeof(b)), "3");
}

/* Print s as the report does, into a string the caller frees. */
static char *printed(const struct rcut_gp_summary *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rcut_gp_summary_print(f, s);
	fclose(f);
	return buf;
}

static void six_samples_with_float_buckets(void **state)
{
	/* 0.3 / 0.1 is 2.9999999999999996: the 0.3 us sample goes to 0.2 */
	static const uint64_t ns[] = { 5000, 300, 1000, 3000, 2000, 4000 };
	struct rcut_gp_summary s;
	char *text;

	(void)state;
	assert_int_equal(rcut_gp_summarize(ns, N(ns), &s), 0);
	text = printed(&s);
	assert_string_equal(text,
			    "Histogram bucket size: 0.1\n"
			    "0.2 1\n"
			    "1 1\n"
			    "2 1\n"
			    "3 1\n"
			    "4 1\n"
			    "5 1\n"
			    "Average grace-period duration: 2.55 microseconds\n"
			    "Minimum grace-period duration: 0.3\n"
			    "50th percentile grace-period duration: 2\n"
			    "90th percentile grace-period duration: 4\n"
			    "99th percentile grace-period duration: 4\n"
			    "Maximum grace-period duration: 5\n");
	free(text);
	rcut_gp_summary_free(&s);
}

static void millisecond_samples_share_buckets(void **state)
{
	static const uint64_t ns[] = { 2310000, 2315000, 2340000, 2420000,
				       2425000, 2429000, 5070000 };
	struct rcut_gp_summary s;
	char *text;

	(void)state;
	assert_int_equal(rcut_gp_summarize(ns, N(ns), &s), 0);
	assert_int_equal(s.nbuckets, 4);
	text = printed(&s);
	assert_string_equal(
		text, "Histogram bucket size: 10\n"
		      "2310 2\n"
		      "2340 1\n"
		      "2420 3\n"
		      "5070 1\n"
		      "Average grace-period duration: 2758.43 microseconds\n"
		      "Minimum grace-period duration: 2310\n"
		      "50th percentile grace-period duration: 2340\n"
		      "90th percentile grace-period duration: 2429\n"
		      "99th percentile grace-period duration: 2429\n"
		      "Maximum grace-period duration: 5070\n");
	free(text);
	rcut_gp_summary_free(&s);
}

static void twelve_unsorted_samples(void **state)
{
	static const uint64_t ns[] = { 52000,	61000,	150000, 155000,
				       159999,	240000, 210000, 99000,
				       1800000, 333000, 120500, 57000 };
	struct rcut_gp_summary s;

	(void)state;
	assert_int_equal(rcut_gp_summarize(ns, N(ns), &s), 0);
	assert_int_equal(s.n, 12);
	assert_true(s.min == 52 && s.max == 1800);
	assert_true(s.p50 == 150); /* rank 6 */
	assert_true(s.p90 == 240); /* rank int(10.8) = 10 */
	assert_true(s.p99 == 333); /* rank int(11.88) = 11 */
	assert_true(s.bucket_size == 1);
	assert_int_equal(s.nbuckets, 12);
	assert_true(s.buckets[7].bucket == 159); /* 159.999 truncates */
	rcut_gp_summary_free(&s);
}

static void one_through_two_hundred(void **state)
{
	uint64_t ns[200];
	struct rcut_gp_summary s;

	(void)state;
	for (int i = 0; i < 200; i++)
		ns[i] = (uint64_t)(200 - i) * 1000;
	assert_int_equal(rcut_gp_summarize(ns, N(ns), &s), 0);
	assert_true(s.p50 == 100 && s.p90 == 180 && s.p99 == 198);
	assert_true(s.avg == 100.5);
	assert_true(s.bucket_size == 1);
	assert_int_equal(s.nbuckets, 200);
	rcut_gp_summary_free(&s);
}

static void single_and_no_sample(void **state)
{
	static const uint64_t one[] = { 1234567 };
	struct rcut_gp_summary s;

	(void)state;
	assert_int_equal(rcut_gp_summarize(one, 1, &s), 0);
	assert_true(s.p50 == s.p99 && s.p99 == s.max && s.max == 1234.567);
	assert_true(s.bucket_size == 10);
	assert_int_equal(s.nbuckets, 1);
	assert_true(s.buckets[0].bucket == 1230);
	rcut_gp_summary_free(&s);
	assert_int_equal(rcut_gp_summarize(one, 0, &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranks_like_the_script),
		cmocka_unit_test(bucket_sizes),
		cmocka_unit_test(medians),
		cmocka_unit_test(awk_numbers),
		cmocka_unit_test(six_samples_with_float_buckets),
		cmocka_unit_test(millisecond_samples_share_buckets),
		cmocka_unit_test(twelve_unsorted_samples),
		cmocka_unit_test(one_through_two_hundred),
		cmocka_unit_test(single_and_no_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
