// SPDX-License-Identifier: MIT
/* The machine's load, CPUs and others' share of their time (machine.h). */
#define _GNU_SOURCE
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* The first line of /proc/stat: every CPU's time by state, in ticks. */
static bool read_proc_stat(uint64_t *busy, uint64_t *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return false;
	/* user nice system idle iowait irq softirq steal (guest is in user) */
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4)
		return false;
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*total = *busy + v[3] + v[4];
	return true;
}

static uint64_t timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ULL +
	       (uint64_t)tv.tv_usec * 1000ULL;
}

void torture_machine_mark(struct torture_machine_mark *m)
{
	struct rusage ru;

	m->ok = read_proc_stat(&m->busy_ticks, &m->total_ticks) &&
		!getrusage(RUSAGE_SELF, &ru);
	if (m->ok)
		m->self_ns = timeval_ns(ru.ru_utime) + timeval_ns(ru.ru_stime);
}

double torture_machine_share(const struct torture_machine_mark *a,
			     const struct torture_machine_mark *b,
			     long ticks_per_s)
{
	double busy_s, total_s, self_s, share;

	if (!a->ok || !b->ok || ticks_per_s <= 0 ||
	    b->total_ticks < a->total_ticks + TORTURE_MACHINE_MIN_TICKS ||
	    b->busy_ticks < a->busy_ticks || b->self_ns < a->self_ns)
		return -1.0;
	busy_s = (double)(b->busy_ticks - a->busy_ticks) / (double)ticks_per_s;
	total_s =
		(double)(b->total_ticks - a->total_ticks) / (double)ticks_per_s;
	self_s = (double)(b->self_ns - a->self_ns) / 1e9;
	share = (busy_s - self_s) / total_s;
	return share < 0 ? 0 : share > 1 ? 1 : share;
}

struct torture_machine
torture_machine_since(const struct torture_machine_mark *start)
{
	struct torture_machine m = { .load1 = -1.0, .cpus = 0, .others = -1.0 };
	struct torture_machine_mark now;
	double avg[1];

	if (getloadavg(avg, 1) == 1)
		m.load1 = avg[0];
	m.cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (m.cpus < 1)
		m.cpus = 0;
	torture_machine_mark(&now);
	m.others = torture_machine_share(start, &now, sysconf(_SC_CLK_TCK));
	return m;
}

bool torture_machine_busy(const struct torture_machine *m)
{
	return m->others >= TORTURE_MACHINE_BUSY_SHARE;
}

void torture_machine_describe(const struct torture_machine *m, char *buf,
			      size_t len)
{
	int w = snprintf(buf, len, "load average %.2f on %ld CPUs", m->load1,
			 m->cpus);

	if (m->others >= 0 && w >= 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w,
			 ", other processes %.0f%% of their time",
			 m->others * 100.0);
}

bool torture_machine_busy_since(const struct torture_machine_mark *start,
				char *buf, size_t len)
{
	struct torture_machine m = torture_machine_since(start);

	if (!torture_machine_busy(&m))
		return false;
	torture_machine_describe(&m, buf, len);
	return true;
}
