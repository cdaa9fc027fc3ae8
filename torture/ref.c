// SPDX-License-Identifier: MIT
#include "ref.h"
#include <stdio.h>
int ref_run(const struct rcut_config *cfg,
	    const struct rcut_flavor *const *flavors, int n)
{
	(void)cfg;
	(void)flavors;
	(void)n;
	return 5;
}
