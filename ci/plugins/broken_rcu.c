// SPDX-License-Identifier: MIT
/*
 * "broken": the example plugin with a classic bug, a negative control that
 * rcutorture must FAIL.  Its synchronize flips the phase but does not wait
 * for the readers of the old phase, so a reader that began just before
 * the grace period still holds an element that the grace period freed.
 */
#define EXAMPLE_BROKEN
#define EXAMPLE_NAME "broken"
#define EXAMPLE_DESCRIPTION \
	"plugin: the example RCU without the wait after the flip (must FAIL)"
#include "example_rcu.c"
