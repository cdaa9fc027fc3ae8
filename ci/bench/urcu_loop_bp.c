// SPDX-License-Identifier: MIT
/* The reference loop for liburcu's urcu-bp flavor (see urcu_loop.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-bp.h>

#define URCU_FLAVOR bp
#include "urcu_loop.h"
