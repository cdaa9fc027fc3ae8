// SPDX-License-Identifier: MIT
/* The reference loop for liburcu's urcu-signal flavor (see urcu_loop.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-signal.h>

#define URCU_FLAVOR signal
#include "urcu_loop.h"
