// SPDX-License-Identifier: MIT
/* Unit tests: duration, integer, seed and boolean parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../torture/util/parse.h"

static void durations_with_suffixes(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(rcut_parse_duration("10", &ns), 0);
	assert_true(ns == 10 * NSEC_PER_SEC);
	assert_int_equal(rcut_parse_duration("250ms", &ns), 0);
	assert_true(ns == 250 * NSEC_PER_MSEC);
	assert_int_equal(rcut_parse_duration("3s", &ns), 0);
	assert_true(ns == 3 * NSEC_PER_SEC);
	assert_int_equal(rcut_parse_duration("2m", &ns), 0);
	assert_true(ns == 120 * NSEC_PER_SEC);
	assert_int_equal(rcut_parse_duration("1h", &ns), 0);
	assert_true(ns == 3600 * NSEC_PER_SEC);
	assert_int_equal(rcut_parse_duration("1d", &ns), 0);
	assert_true(ns == 86400 * NSEC_PER_SEC);
	assert_int_equal(rcut_parse_duration("0", &ns), 0);
	assert_true(ns == 0);
}

/* The units below a millisecond, which the Start/End lines print. */
static void durations_in_us_and_ns(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(rcut_parse_duration("100000ns", &ns), 0);
	assert_true(ns == 100000);
	assert_int_equal(rcut_parse_duration("250us", &ns), 0);
	assert_true(ns == 250000);
	assert_int_equal(rcut_parse_duration("1.5us", &ns), 0);
	assert_true(ns == 1500);
	assert_int_equal(rcut_parse_duration("0ns", &ns), 0);
	assert_true(ns == 0);
	assert_int_equal(rcut_parse_duration("31536000000000000ns", &ns), 0);
	assert_int_equal(rcut_parse_duration("31536000000000001ns", &ns), -1);
	assert_int_equal(rcut_parse_duration("31536000000001us", &ns), -1);
}

static void durations_with_fractions(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(rcut_parse_duration("0.1s", &ns), 0);
	assert_true(ns == 100 * NSEC_PER_MSEC);
	assert_int_equal(rcut_parse_duration("1.5m", &ns), 0);
	assert_true(ns == 90 * NSEC_PER_SEC);
	assert_int_equal(rcut_parse_duration(".5", &ns), 0);
	assert_true(ns == 500 * NSEC_PER_MSEC);
	assert_int_equal(rcut_parse_duration("2.", &ns), 0);
	assert_true(ns == 2 * NSEC_PER_SEC);
}

static void bad_durations(void **state)
{
	static const char *const bad[] = {
		"",	 "s",
		"ms",	 "-1",
		"1x",	 "1 s",
		" 1",	 "1sec",
		"1.2.3", "abc",
		"1e3",	 "0x10",
		"366d",	 "99999999999999999999",
		".",	 "1mss",
		"1n",	 "1u",
		"1nss",	 "1µs",
		"ns",	 "us",
	};
	uint64_t ns = 42;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (rcut_parse_duration(bad[i], &ns) != -1)
			fail_msg("duration '%s' was accepted", bad[i]);
	}
	assert_int_equal(rcut_parse_duration(NULL, &ns), -1);
	assert_true(ns == 42);
}

static void duration_limit(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(rcut_parse_duration("365d", &ns), 0);
	assert_int_equal(rcut_parse_duration("365.5d", &ns), -1);
	assert_int_equal(rcut_parse_duration("8761h", &ns), -1);
}

static void longs_in_range(void **state)
{
	long v;

	(void)state;
	assert_int_equal(rcut_parse_long("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(rcut_parse_long("10", 0, 10, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(rcut_parse_long("-3", -5, 5, &v), 0);
	assert_int_equal(v, -3);
	assert_int_equal(rcut_parse_long("11", 0, 10, &v), -1);
	assert_int_equal(rcut_parse_long("-1", 0, 10, &v), -1);
	assert_int_equal(rcut_parse_long("", 0, 10, &v), -1);
	assert_int_equal(rcut_parse_long(" 1", 0, 10, &v), -1);
	assert_int_equal(rcut_parse_long("1 ", 0, 10, &v), -1);
	assert_int_equal(rcut_parse_long("1.0", 0, 10, &v), -1);
	assert_int_equal(rcut_parse_long("99999999999999999999999", 0, 10, &v),
			 -1);
}

static void long_lists(void **state)
{
	long v[4];
	int n;

	(void)state;
	assert_int_equal(rcut_parse_long_list("1,2,4", 1, 4096, v, 4, &n), 0);
	assert_int_equal(n, 3);
	assert_true(v[0] == 1 && v[1] == 2 && v[2] == 4);
	assert_int_equal(rcut_parse_long_list("16", 1, 4096, v, 4, &n), 0);
	assert_true(n == 1 && v[0] == 16);
	assert_int_equal(rcut_parse_long_list("1,2,3,4", 1, 9, v, 4, &n), 0);
	assert_int_equal(rcut_parse_long_list("1,2,3,4,5", 1, 9, v, 4, &n), -1);
	assert_int_equal(rcut_parse_long_list("", 1, 9, v, 4, &n), -1);
	assert_int_equal(rcut_parse_long_list("1,,2", 1, 9, v, 4, &n), -1);
	assert_int_equal(rcut_parse_long_list("1,", 1, 9, v, 4, &n), -1);
	assert_int_equal(rcut_parse_long_list(",1", 1, 9, v, 4, &n), -1);
	assert_int_equal(rcut_parse_long_list("0,1", 1, 9, v, 4, &n), -1);
	assert_int_equal(rcut_parse_long_list("1, 2", 1, 9, v, 4, &n), -1);
	assert_int_equal(rcut_parse_long_list("1,x", 1, 9, v, 4, &n), -1);
}

static void seeds(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(rcut_parse_u64("12345", &v), 0);
	assert_true(v == 12345);
	assert_int_equal(rcut_parse_u64("0xdeadbeef", &v), 0);
	assert_true(v == 0xdeadbeef);
	assert_int_equal(rcut_parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(rcut_parse_u64("18446744073709551616", &v), -1);
	assert_int_equal(rcut_parse_u64("-1", &v), -1);
	assert_int_equal(rcut_parse_u64("12a", &v), -1);
	assert_int_equal(rcut_parse_u64("", &v), -1);
}

static void booleans(void **state)
{
	bool b;

	(void)state;
	assert_int_equal(rcut_parse_bool("yes", &b), 0);
	assert_true(b);
	assert_int_equal(rcut_parse_bool("Off", &b), 0);
	assert_false(b);
	assert_int_equal(rcut_parse_bool("1", &b), 0);
	assert_true(b);
	assert_int_equal(rcut_parse_bool("n", &b), 0);
	assert_false(b);
	assert_int_equal(rcut_parse_bool("2", &b), -1);
	assert_int_equal(rcut_parse_bool("", &b), -1);
}

static void duration_format_round_trips(void **state)
{
	static const char *const texts[] = {
		"3s",	  "250ms", "120s",   "0s",	 "100us",
		"1500ns", "7ns",   "1001ms", "999999us", "1000000001ns"
	};
	static const uint64_t values[] = { 1,
					   999,
					   1000,
					   100000,
					   1000001,
					   1500000000,
					   123456789012345,
					   365ULL * 86400 * NSEC_PER_SEC,
					   365ULL * 86400 * NSEC_PER_SEC - 1 };
	char buf[32];
	uint64_t ns;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_int_equal(rcut_parse_duration(texts[i], &ns), 0);
		rcut_format_duration(ns, buf, sizeof(buf));
		assert_string_equal(buf, texts[i]);
	}
	/* Every printed value parses back as itself. */
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		rcut_format_duration(values[i], buf, sizeof(buf));
		if (rcut_parse_duration(buf, &ns) || ns != values[i])
			fail_msg("%llu ns printed as '%s' does not parse back",
				 (unsigned long long)values[i], buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(durations_with_suffixes),
		cmocka_unit_test(durations_in_us_and_ns),
		cmocka_unit_test(durations_with_fractions),
		cmocka_unit_test(bad_durations),
		cmocka_unit_test(duration_limit),
		cmocka_unit_test(longs_in_range),
		cmocka_unit_test(long_lists),
		cmocka_unit_test(seeds),
		cmocka_unit_test(booleans),
		cmocka_unit_test(duration_format_round_trips),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
