// SPDX-License-Identifier: MIT
/* The machine's load average and CPU count (machine.h). */
#define _GNU_SOURCE
#include "machine.h"

#include <stdlib.h>
#include <unistd.h>

struct torture_machine torture_machine_now(void)
{
	struct torture_machine m = { .load1 = -1.0, .cpus = 0 };
	double avg[1];

	if (getloadavg(avg, 1) == 1)
		m.load1 = avg[0];
	m.cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (m.cpus < 1)
		m.cpus = 0;
	return m;
}

bool torture_machine_busy(const struct torture_machine *m)
{
	return m->load1 >= 0 && m->cpus > 0 &&
	       m->load1 > (double)(TORTURE_MACHINE_BUSY_FACTOR * m->cpus);
}
