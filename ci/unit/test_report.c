// SPDX-License-Identifier: MIT
/* Unit tests: histograms, the verdict rules and the kernel-format text. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../report/histogram.h"
#include "../../report/text.h"
#include "../../report/verdict.h"

static void slots_clamp_to_last(void **state)
{
	(void)state;
	assert_int_equal(rcut_hist_slot(0, RCUT_HIST_LEN), 0);
	assert_int_equal(rcut_hist_slot(9, RCUT_HIST_LEN), 9);
	assert_int_equal(rcut_hist_slot(10, RCUT_HIST_LEN), 10);
	assert_int_equal(rcut_hist_slot(11, RCUT_HIST_LEN), 10);
	assert_int_equal(rcut_hist_slot(UINT64_MAX, RCUT_HIST_LEN), 10);
}

static void highest_and_sums(void **state)
{
	uint64_t h[RCUT_HIST_LEN] = { 0 };

	(void)state;
	assert_int_equal(rcut_hist_highest(h, RCUT_HIST_LEN), -1);
	h[0] = 5;
	assert_int_equal(rcut_hist_highest(h, RCUT_HIST_LEN), 0);
	h[3] = 1;
	h[10] = 2;
	assert_int_equal(rcut_hist_highest(h, RCUT_HIST_LEN), 10);
	assert_true(rcut_hist_sum_from(h, RCUT_HIST_LEN, 0) == 8);
	assert_true(rcut_hist_sum_from(h, RCUT_HIST_LEN, 2) == 3);
	assert_true(rcut_hist_sum_from(h, RCUT_HIST_LEN, 11) == 0);
}

static void format_like_the_kernel(void **state)
{
	uint64_t h[RCUT_HIST_LEN] = { 727860534, 34213 };
	char buf[256];

	(void)state;
	rcut_hist_format(h, RCUT_HIST_LEN, buf, sizeof(buf));
	assert_string_equal(buf, " 727860534 34213 0 0 0 0 0 0 0 0 0");
	/* A short buffer truncates but stays a string. */
	rcut_hist_format(h, RCUT_HIST_LEN, buf, 8);
	assert_int_equal(strlen(buf), 7);
}

static void verdict_rules(void **state)
{
	struct rcut_snapshot s = { 0 };
	char why[256];

	(void)state;
	s.pipe[0] = 100;
	s.pipe[1] = 5;
	s.batch[5] = 3; /* close calls are warnings, not failures */
	assert_false(rcut_snapshot_failed(&s, why, sizeof(why)));
	assert_string_equal(why, "");

	s.pipe[2] = 1;
	assert_true(rcut_snapshot_failed(&s, why, sizeof(why)));
	assert_non_null(strstr(why, "too-short grace period"));
	s.pipe[2] = 0;

	s.rtmbe = 1;
	assert_true(rcut_snapshot_failed(&s, why, sizeof(why)));
	assert_non_null(strstr(why, "rtmbe"));
	s.rtmbe = 0;

	s.rtbe = 2;
	s.cbs_lost = 1;
	assert_true(rcut_snapshot_failed(&s, why, sizeof(why)));
	assert_non_null(strstr(why, "rtbe"));
	assert_non_null(strstr(why, "lost callbacks"));
	s.rtbe = 0;
	s.cbs_lost = 0;

	s.mbchk_fail = 1;
	assert_true(rcut_snapshot_failed(&s, NULL, 0));
	s.mbchk_fail = 0;

	/* A check without a counter of its own (early grace period). */
	s.failed_checks = 1;
	assert_true(rcut_snapshot_failed(&s, why, sizeof(why)));
	assert_string_equal(why, "failed checks");
}

static void exit_names(void **state)
{
	(void)state;
	assert_string_equal(rcut_exit_name(RCUT_EXIT_SUCCESS), "SUCCESS");
	assert_string_equal(rcut_exit_name(RCUT_EXIT_FAILURE), "FAILURE");
	assert_string_equal(rcut_exit_name(RCUT_EXIT_HOTPLUG), "RCU_HOTPLUG");
}

/* Render the stats block of s into a string the test frees. */
static char *render(const struct rcut_snapshot *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	rcut_report_stats(out, "memb", s);
	fclose(out);
	return text;
}

static void stats_block_text(void **state)
{
	struct rcut_snapshot s = { 0 };
	char *text;

	(void)state;
	s.ver = 3139;
	s.rta = 3139;
	s.rtf = 3130;
	s.pipe[0] = 10734066;
	s.pipe[1] = 3045;
	s.wcount[0] = 3138;
	text = render(&s);
	assert_non_null(strstr(text, "memb-torture: rtc: "));
	assert_non_null(strstr(
		text,
		" ver: 3139 tfle: 0 rta: 3139 rtaf: 0 rtf: 3130 rtmbe: 0 rtmbkf: 0/0 rtbe: 0 rtbke: 0 rtbf: 0 rtb: 0 nt: 0 onoff: "));
	assert_non_null(strstr(
		text,
		"\nmemb-torture: Reader Pipe:  10734066 3045 0 0 0 0 0 0 0 0 0\n"));
	assert_non_null(strstr(
		text,
		"\nmemb-torture: Reader Batch:  0 0 0 0 0 0 0 0 0 0 0\n"));
	assert_non_null(strstr(
		text,
		"\nmemb-torture: Free-Block Circulation:  3138 0 0 0 0 0 0 0 0 0 0\n"));
	assert_null(strstr(text, "!!!"));
	free(text);

	s.pipe[4] = 1;
	text = render(&s);
	assert_non_null(strstr(
		text, "memb-torture: !!! Reader Pipe:  10734066 3045 0 0 1 0"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slots_clamp_to_last),
		cmocka_unit_test(highest_and_sums),
		cmocka_unit_test(format_like_the_kernel),
		cmocka_unit_test(verdict_rules),
		cmocka_unit_test(exit_names),
		cmocka_unit_test(stats_block_text),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
