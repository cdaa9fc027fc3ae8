// SPDX-License-Identifier: MIT
/*
 * Unit tests: the machine's load, CPUs and others' share of their time
 * (torture/util/machine.c), and the "busy" rule that adds a hint to a
 * stall or a timed-out CPU offline.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <unistd.h>

#include "../../torture/util/machine.h"

#define HZ 100 /* USER_HZ on Linux */

static struct torture_machine_mark mark(uint64_t busy, uint64_t total,
					double self_s)
{
	return (struct torture_machine_mark){ .ok = true,
					      .busy_ticks = busy,
					      .total_ticks = total,
					      .self_ns = (uint64_t)(self_s *
								    1e9) };
}

/* Others' share: the machine's busy time less ours, over all its time. */
static void share_is_busy_less_ours_over_all(void **state)
{
	struct torture_machine_mark a = mark(100, 400, 0.5);
	struct torture_machine_mark b = mark(300, 800, 1.5);

	(void)state;
	/* 2 s busy, 1 s of it ours, over 4 s of CPU time */
	assert_float_equal(torture_machine_share(&a, &b, HZ), 0.25, 1e-9);
	/* all the busy time ours: nobody else */
	b.self_ns = a.self_ns + 2000000000ULL;
	assert_float_equal(torture_machine_share(&a, &b, HZ), 0.0, 1e-9);
	/* ours counted finer than the ticks: never below 0 */
	b.self_ns = a.self_ns + 2500000000ULL;
	assert_float_equal(torture_machine_share(&a, &b, HZ), 0.0, 1e-9);
	/* every CPU busy, none of it ours */
	b = mark(500, 800, 0.5);
	assert_float_equal(torture_machine_share(&a, &b, HZ), 1.0, 1e-9);
}

/* Too short a window, a failed read or a counter going back: unknown. */
static void share_unknown_without_enough_time(void **state)
{
	struct torture_machine_mark a = mark(100, 400, 0.5);
	struct torture_machine_mark b =
		mark(110, 400 + TORTURE_MACHINE_MIN_TICKS - 1, 0.5);

	(void)state;
	assert_true(torture_machine_share(&a, &b, HZ) < 0);
	b.total_ticks = 400 + TORTURE_MACHINE_MIN_TICKS;
	assert_true(torture_machine_share(&a, &b, HZ) >= 0);
	b.ok = false;
	assert_true(torture_machine_share(&a, &b, HZ) < 0);
	b.ok = true;
	b.busy_ticks = 50;
	assert_true(torture_machine_share(&a, &b, HZ) < 0);
}

/*
 * Read from the kernel: the CPUs online, a load average, and once enough
 * CPU time has passed (this test spins for it), a share in 0..1.
 */
static void reads_the_machine(void **state)
{
	struct torture_machine_mark start;
	struct torture_machine m;
	time_t give_up = time(NULL) + 10;

	(void)state;
	torture_machine_mark(&start);
	assert_true(start.ok);
	assert_true(start.total_ticks >= start.busy_ticks);
	do
		m = torture_machine_since(&start);
	while (m.others < 0 && time(NULL) < give_up);
	assert_int_equal(m.cpus, sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(m.load1 >= 0);
	assert_true(m.others >= 0 && m.others <= 1);
}

static void busy_from_half_the_time(void **state)
{
	struct torture_machine m = { .load1 = 40, .cpus = 2, .others = 0.49 };

	(void)state;
	/* the load average alone (the run's own readers raise it) is not */
	assert_false(torture_machine_busy(&m));
	m.others = TORTURE_MACHINE_BUSY_SHARE;
	assert_true(torture_machine_busy(&m));
	m.load1 = 0.1;
	assert_true(torture_machine_busy(&m));
	m.others = -1;
	assert_false(torture_machine_busy(&m));
}

static void describes_load_cpus_and_share(void **state)
{
	struct torture_machine m = { .load1 = 7.7, .cpus = 2, .others = 0.734 };
	char buf[128];

	(void)state;
	torture_machine_describe(&m, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"load average 7.70 on 2 CPUs, other processes 73% of their time");
	m.others = -1;
	torture_machine_describe(&m, buf, sizeof(buf));
	assert_string_equal(buf, "load average 7.70 on 2 CPUs");
	torture_machine_describe(&m, buf, 8);
	assert_string_equal(buf, "load av");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(share_is_busy_less_ours_over_all),
		cmocka_unit_test(share_unknown_without_enough_time),
		cmocka_unit_test(reads_the_machine),
		cmocka_unit_test(busy_from_half_the_time),
		cmocka_unit_test(describes_load_cpus_and_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
