// SPDX-License-Identifier: MIT
/* liburcu's urcu-qsbr flavor, read side inlined (see urcu_adapter.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-qsbr.h>

#define URCU_FLAVOR qsbr
#define URCU_ADAPTER_GP_FUTEX /* bp polls instead */
#define URCU_ADAPTER_QSBR
#include "../registry.h"
#include "urcu_adapter.h"

const struct rcut_flavor UA_TABLE(qsbr) = {
	URCU_ADAPTER_OPS.name = UA_NAME(qsbr),
	.description = UA_DESCRIPTION(
		"liburcu urcu-qsbr: free reads, readers report quiescent states"),
	/*
	 * Not RCUT_CAP_READ_SIGNAL_SAFE: liburcu 0.13's README forbids
	 * read-side sections in signal handlers with liburcu-qsbr.
	 */
	.caps = RCUT_CAP_CB_FIFO | RCUT_CAP_READER_MAY_BLOCK |
		RCUT_CAP_NESTING | RCUT_CAP_QSBR | RCUT_CAP_EXP_IS_SYNC,
};
