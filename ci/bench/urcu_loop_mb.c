// SPDX-License-Identifier: MIT
/* The reference loop for liburcu's urcu-mb flavor (see urcu_loop.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-mb.h>

#define URCU_FLAVOR mb
#include "urcu_loop.h"
