/* SPDX-License-Identifier: MIT */
/*
 * The kernel's informational report lines of the torture test
 * (tests/torture_lines.c): the update types tested and the writer
 * stall state (the grace-period state lines are torture_print_gp_state()).
 */
#ifndef TORTURE_TESTS_TORTURE_LINES_H
#define TORTURE_TESTS_TORTURE_LINES_H

#include <stdint.h>

struct torture_run;

/* "rcu_torture_write_types: Testing ... GPs." lines and the wait intervals. */
void torture_lines_update_types(struct torture_run *run);

/*
 * "??? Writer stall state ..." when the version ver (the stats block's)
 * has not moved since the last call (*last_ver holds it between calls;
 * UINT64_MAX at first).
 */
void torture_lines_writer_stall(struct torture_run *run, uint64_t ver,
				uint64_t *last_ver);

#endif /* TORTURE_TESTS_TORTURE_LINES_H */
