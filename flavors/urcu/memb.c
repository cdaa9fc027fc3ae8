// SPDX-License-Identifier: MIT
/* liburcu's urcu-memb flavor, read side inlined (see urcu_adapter.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#define URCU_ADAPTER_GP_FUTEX /* bp polls instead */
#include "../registry.h"
#include "urcu_adapter.h"

const struct rcut_flavor UA_TABLE(memb) = {
	URCU_ADAPTER_OPS.name = UA_NAME(memb),
	.description = UA_DESCRIPTION(
		"liburcu urcu-memb: sys_membarrier readers, no read-side barrier"),
	/*
	 * liburcu 0.13's README ("Being careful with signals"): read-side
	 * sections are allowed in a signal handler (not one on a
	 * sigaltstack) with liburcu-memb and liburcu-mb.
	 */
	.caps = RCUT_CAP_CB_FIFO | RCUT_CAP_READER_MAY_BLOCK |
		RCUT_CAP_NESTING | RCUT_CAP_EXP_IS_SYNC |
		RCUT_CAP_READ_SIGNAL_SAFE,
};
