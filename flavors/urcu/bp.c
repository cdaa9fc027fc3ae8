// SPDX-License-Identifier: MIT
/* liburcu's urcu-bp flavor, read side inlined (see urcu_adapter.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-bp.h>

#define URCU_FLAVOR bp
#include "../registry.h"
#include "urcu_adapter.h"

const struct rcut_flavor rcut_flavor_bp = {
	URCU_ADAPTER_OPS.name = "bp",
	.description =
		"liburcu urcu-bp: bulletproof, threads register on first read",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC,
};
