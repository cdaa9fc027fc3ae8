// SPDX-License-Identifier: MIT
/*
 * "example-v1": the example plugin built as a flavor ABI version 1 table,
 * as a plugin compiled before race points existed would be: its table
 * says version 1 and it calls nothing that version 2 added (the race
 * points compile to nothing).  rcutorture must keep loading it.
 */
#include <rcutorture/flavor.h>

#undef RCUT_FLAVOR_ABI_VERSION
#define RCUT_FLAVOR_ABI_VERSION 1
#define rcut_race_point(where) ((void)(where))

#define EXAMPLE_NAME "example-v1"
#define EXAMPLE_DESCRIPTION \
	"plugin: the example RCU as a flavor ABI version 1 table (no race points)"
#include "example_rcu.c"
