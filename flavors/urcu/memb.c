// SPDX-License-Identifier: MIT
/* liburcu's urcu-memb flavor, read side inlined (see urcu_adapter.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "../registry.h"
#include "urcu_adapter.h"

const struct rcut_flavor rcut_flavor_memb = {
	URCU_ADAPTER_OPS.name = "memb",
	.description =
		"liburcu urcu-memb: sys_membarrier readers (no barrier in the read side)",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC,
};
