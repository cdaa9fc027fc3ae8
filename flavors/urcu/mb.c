// SPDX-License-Identifier: MIT
/* liburcu's urcu-mb flavor, read side inlined (see urcu_adapter.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-mb.h>

#define URCU_FLAVOR mb
#include "../registry.h"
#include "urcu_adapter.h"

const struct rcut_flavor rcut_flavor_mb = {
	URCU_ADAPTER_OPS.name = "mb",
	.description =
		"liburcu urcu-mb: a full memory barrier in read lock and unlock",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC,
};
