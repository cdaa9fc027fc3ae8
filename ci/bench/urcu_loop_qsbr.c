// SPDX-License-Identifier: MIT
/* The reference loop for liburcu's urcu-qsbr flavor (see urcu_loop.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-qsbr.h>

#define URCU_FLAVOR qsbr
#define URCU_LOOP_QSBR
#include "urcu_loop.h"
