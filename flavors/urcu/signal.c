// SPDX-License-Identifier: MIT
/* liburcu's urcu-signal flavor, read side inlined (see urcu_adapter.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-signal.h>

#define URCU_FLAVOR signal
#define URCU_ADAPTER_GP_FUTEX /* bp polls instead */
#include "../registry.h"
#include "urcu_adapter.h"

const struct rcut_flavor UA_TABLE(signal) = {
	URCU_ADAPTER_OPS.name = UA_NAME(signal),
	.description = UA_DESCRIPTION(
		"liburcu urcu-signal: readers forced to order by SIGUSR1"),
	/*
	 * Not RCUT_CAP_READ_SIGNAL_SAFE: liburcu 0.13's README allows
	 * read-side sections in signal handlers only with memb and mb.
	 */
	.caps = RCUT_CAP_CB_FIFO | RCUT_CAP_READER_MAY_BLOCK |
		RCUT_CAP_NESTING | RCUT_CAP_EXP_IS_SYNC,
};
