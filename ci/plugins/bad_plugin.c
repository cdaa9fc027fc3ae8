// SPDX-License-Identifier: MIT
/*
 * Plugins that must not load, for the loader's error tests; the Makefile
 * builds one per BAD_* macro:
 *   BAD_WRONG_ABI      a table with an ABI version this rcutorture lacks
 *   BAD_NO_SYMBOL      no RCUT_FLAVOR_SYMBOL at all
 *   BAD_MISSING_HOOKS  a table without synchronize
 */
#include <rcutorture/flavor.h>

static int bad_read_lock(void)
{
	return 0;
}

static void bad_read_unlock(int idx)
{
	(void)idx;
}

static __attribute__((unused)) void bad_synchronize(void)
{
}

#ifdef BAD_NO_SYMBOL
#define SYMBOL not_the_flavor_symbol
#else
#define SYMBOL rcutorture_flavor
#endif

const struct rcut_flavor SYMBOL = {
#ifdef BAD_WRONG_ABI
	.abi_version = 99,
#else
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
#endif
	.name = "bad",
	.description = "a plugin that must not load",
	.read_lock = bad_read_lock,
	.read_unlock = bad_read_unlock,
#ifndef BAD_MISSING_HOOKS
	.synchronize = bad_synchronize,
#endif
};
