// SPDX-License-Identifier: MIT
/*
 * Unit tests: the machine's load and CPU count (torture/util/machine.c),
 * read from the kernel, and the "busy" rule that adds a hint to a stall.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <unistd.h>

#include "../../torture/util/machine.h"

static void reads_the_machine(void **state)
{
	struct torture_machine m = torture_machine_now();
	double avg[1];

	(void)state;
	assert_int_equal(m.cpus, sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(getloadavg(avg, 1), 1);
	assert_true(m.load1 >= 0);
	/* The kernel updates it every 5 s: a second read is near. */
	assert_true(m.load1 < avg[0] + 64 && avg[0] < m.load1 + 64);
}

static void busy_above_twice_the_cpus(void **state)
{
	struct torture_machine m = { .load1 = 4.0, .cpus = 2 };

	(void)state;
	assert_false(torture_machine_busy(&m));
	m.load1 = 4.01;
	assert_true(torture_machine_busy(&m));
	m.cpus = 4;
	assert_false(torture_machine_busy(&m));
	m.load1 = 37.0;
	assert_true(torture_machine_busy(&m));
}

static void unknown_is_never_busy(void **state)
{
	struct torture_machine m = { .load1 = -1.0, .cpus = 2 };

	(void)state;
	assert_false(torture_machine_busy(&m));
	m.load1 = 100.0;
	m.cpus = 0;
	assert_false(torture_machine_busy(&m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_the_machine),
		cmocka_unit_test(busy_above_twice_the_cpus),
		cmocka_unit_test(unknown_is_never_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
