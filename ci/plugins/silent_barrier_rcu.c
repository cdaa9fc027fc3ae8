// SPDX-License-Identifier: MIT
/*
 * "silent-barrier": the example plugin declaring barrier checks
 * (RCUT_CAP_BARRIER_CHECK) that it does not keep: its barrier() returns at
 * once when called inside the caller's read-side section or from a
 * callback, as liburcu's rcu_barrier() refuses with an error, but never
 * reports the call with rcut_illegal_barrier().  A negative control for
 * --illegal-barrier: the harness must report "undetected illegal barrier".
 */
#define EXAMPLE_SILENT_BARRIER
#define EXAMPLE_NAME "silent-barrier"
#define EXAMPLE_DESCRIPTION \
	"plugin: the example RCU whose barrier() refuses illegal calls without reporting them (--illegal-barrier must FAIL)"
#include "example_rcu.c"
