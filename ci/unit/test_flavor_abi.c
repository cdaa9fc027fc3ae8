// SPDX-License-Identifier: MIT
/*
 * Unit tests: the flavor ABI versions the loader takes.  Version 2 added
 * race points (exported calls) and no table field, so a version-1 table
 * validates; versions outside 1..RCUT_FLAVOR_ABI_VERSION do not.
 * Version 3 added capability flags and fields at the end of the table,
 * which the harness reads only from version 3 tables; version 4 added
 * gp_wait_word, read only from version 4 tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../flavors/registry.h"

static void versions_one_to_current_load(void **state)
{
	struct rcut_flavor f = rcut_flavor_busted;
	char err[256];

	(void)state;
	assert_int_equal(RCUT_FLAVOR_ABI_VERSION, 4);
	assert_int_equal(RCUT_FLAVOR_ABI_MIN_VERSION, 1);
	for (unsigned int v = RCUT_FLAVOR_ABI_MIN_VERSION;
	     v <= RCUT_FLAVOR_ABI_VERSION; v++) {
		f.abi_version = v;
		assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)), 0);
	}
	f.abi_version = 0;
	assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)), -1);
	assert_string_equal(
		err, "flavor ABI version 0, this rcutorture takes 1 to 4");
	f.abi_version = RCUT_FLAVOR_ABI_VERSION + 1;
	assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)), -1);
	assert_string_equal(
		err, "flavor ABI version 5, this rcutorture takes 1 to 4");
}

static void stall_hook(unsigned long long ns)
{
	(void)ns;
}

/*
 * Version 3's hooks sit after the end of an older table: the harness
 * reads them only through RCUT_FLAVOR_V3(), which gives NULL for a table
 * of version 1 or 2 whatever lies behind it.
 */
static void v3_hooks_only_from_v3_tables(void **state)
{
	struct rcut_flavor f = rcut_flavor_busted;

	(void)state;
	f.gp_stall = stall_hook;
	f.abi_version = 3;
	assert_ptr_equal(RCUT_FLAVOR_V3(&f, gp_stall), stall_hook);
	for (unsigned int v = 1; v < 3; v++) {
		f.abi_version = v;
		assert_null(RCUT_FLAVOR_V3(&f, gp_stall));
		assert_null(RCUT_FLAVOR_V3(&f, poll_gp_state_full));
	}
}

static int wait_word;

static int *wait_word_hook(void)
{
	return &wait_word;
}

/* gp_wait_word lies past the end of a version 1-3 table. */
static void v4_hook_only_from_v4_tables(void **state)
{
	struct rcut_flavor f = rcut_flavor_busted;

	(void)state;
	f.gp_wait_word = wait_word_hook;
	f.abi_version = 4;
	assert_ptr_equal(RCUT_FLAVOR_V4(&f, gp_wait_word), wait_word_hook);
	for (unsigned int v = 1; v < 4; v++) {
		f.abi_version = v;
		assert_null(RCUT_FLAVOR_V4(&f, gp_wait_word));
	}
}

/* A v1 or v2 table's v3 capability bits are not taken for real. */
static void v3_caps_only_from_v3_tables(void **state)
{
	struct rcut_flavor f = rcut_flavor_busted;

	(void)state;
	f.caps = RCUT_CAP_NESTING | RCUT_CAP_READ_SIGNAL_SAFE |
		 RCUT_CAP_DOUBLE_CALL;
	f.abi_version = 3;
	assert_true(RCUT_FLAVOR_HAS(&f, 3));
	assert_int_equal(rcut_flavor_caps_of(&f), f.caps);
	for (unsigned int v = 1; v <= 2; v++) {
		f.abi_version = v;
		assert_false(RCUT_FLAVOR_HAS(&f, 3));
		assert_int_equal(rcut_flavor_caps_of(&f), RCUT_CAP_NESTING);
	}
}

/*
 * Every race-point kind has a slot below RCUT_RACE_NWHERE; the automatic
 * kind comes after the ones older plugins pass, so their values stay.
 */
static void race_kinds_are_dense(void **state)
{
	(void)state;
	assert_int_equal(RCUT_RACE_READ_LOCK, 0);
	assert_int_equal(RCUT_RACE_OTHER + 1, RCUT_RACE_AUTO);
	assert_int_equal(RCUT_RACE_AUTO + 1, RCUT_RACE_NWHERE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(versions_one_to_current_load),
		cmocka_unit_test(v3_hooks_only_from_v3_tables),
		cmocka_unit_test(v4_hook_only_from_v4_tables),
		cmocka_unit_test(race_kinds_are_dense),
		cmocka_unit_test(v3_caps_only_from_v3_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
