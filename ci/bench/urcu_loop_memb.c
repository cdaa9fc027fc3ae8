// SPDX-License-Identifier: MIT
/* The reference loop for liburcu's urcu-memb flavor (see urcu_loop.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "urcu_loop.h"
