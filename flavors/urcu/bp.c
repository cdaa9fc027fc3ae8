// SPDX-License-Identifier: MIT
/* liburcu's urcu-bp flavor, read side inlined (see urcu_adapter.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-bp.h>

#define URCU_FLAVOR bp
#include "../registry.h"
#include "urcu_adapter.h"

const struct rcut_flavor UA_TABLE(bp) = {
	URCU_ADAPTER_OPS.name = UA_NAME(bp),
	.description = UA_DESCRIPTION(
		"liburcu urcu-bp: bulletproof, threads register on first read"),
	/*
	 * Not RCUT_CAP_READ_SIGNAL_SAFE: liburcu 0.13's README allows
	 * read-side sections in signal handlers only with memb and mb, and
	 * bp's first read_lock registers the thread (a mutex, a malloc).
	 */
	.caps = RCUT_CAP_CB_FIFO | RCUT_CAP_READER_MAY_BLOCK |
		RCUT_CAP_NESTING | RCUT_CAP_EXP_IS_SYNC,
};
