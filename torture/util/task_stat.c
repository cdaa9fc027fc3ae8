// SPDX-License-Identifier: MIT
#include "task_stat.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool task_stat_read(pid_t tid, struct task_stat *st)
{
	unsigned long long utime, stime;
	char path[64], buf[512], *close;
	long hz = sysconf(_SC_CLK_TCK);
	size_t n;
	FILE *f;

	if (tid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* After "(comm)", which may hold spaces: the state, 10 fields, times. */
	close = strrchr(buf, ')');
	if (!close ||
	    sscanf(close + 1,
		   " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &st->state, &utime, &stime) != 3)
		return false;
	if (hz <= 0)
		return false;
	st->cpu_ns = (utime + stime) * (1000000000ULL / (uint64_t)hz);
	return true;
}
