// SPDX-License-Identifier: MIT
/* liburcu's urcu-mb flavor, read side inlined (see urcu_adapter.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-mb.h>

#define URCU_FLAVOR mb
#define URCU_ADAPTER_GP_FUTEX /* bp polls instead */
#include "../registry.h"
#include "urcu_adapter.h"

const struct rcut_flavor UA_TABLE(mb) = {
	URCU_ADAPTER_OPS.name = UA_NAME(mb),
	.description = UA_DESCRIPTION(
		"liburcu urcu-mb: a full memory barrier in read lock and unlock"),
	/*
	 * liburcu 0.13's README ("Being careful with signals"): read-side
	 * sections are allowed in a signal handler (not one on a
	 * sigaltstack) with liburcu-memb and liburcu-mb.
	 */
	.caps = RCUT_CAP_CB_FIFO | RCUT_CAP_READER_MAY_BLOCK |
		RCUT_CAP_NESTING | RCUT_CAP_EXP_IS_SYNC |
		RCUT_CAP_READ_SIGNAL_SAFE,
};
