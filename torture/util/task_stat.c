// SPDX-License-Identifier: MIT
#include "task_stat.h"

#include <dirent.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Read /proc/self/task/TID/NAME into buf, a string; false if it cannot. */
static bool read_task_file(pid_t tid, const char *name, char *buf, size_t size)
{
	char path[64];
	size_t n;
	FILE *f;

	if (tid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", (int)tid, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = 0;
	return true;
}

bool task_stat_read(pid_t tid, struct task_stat *st)
{
	unsigned long long utime, stime;
	char buf[512], *close;
	long hz = sysconf(_SC_CLK_TCK);

	if (!read_task_file(tid, "stat", buf, sizeof(buf)))
		return false;
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

bool task_futex_waiting(pid_t tid, uintptr_t *addr)
{
	unsigned long long uaddr, op;
	char buf[256];
	long nr;

	if (!read_task_file(tid, "syscall", buf, sizeof(buf)))
		return false;
	/* "NR ARG1 ARG2 ...", or "running", or "-1 SP PC" outside a call. */
	if (sscanf(buf, "%ld 0x%llx 0x%llx", &nr, &uaddr, &op) != 3 ||
	    nr != SYS_futex)
		return false;
	op &= FUTEX_CMD_MASK;
	if (op != FUTEX_WAIT && op != FUTEX_WAIT_BITSET)
		return false;
	*addr = (uintptr_t)uaddr;
	return true;
}

static bool voluntary_switches(pid_t tid, uint64_t *n)
{
	static const char key[] = "\nvoluntary_ctxt_switches:";
	char buf[4096], *p;
	unsigned long long v;

	if (!read_task_file(tid, "status", buf, sizeof(buf)))
		return false;
	p = strstr(buf, key);
	if (!p || sscanf(p + strlen(key), " %llu", &v) != 1)
		return false;
	*n = v;
	return true;
}

bool task_futex_look(pid_t tid, struct task_futex_look *look)
{
	look->sleep.asleep = true;
	return voluntary_switches(tid, &look->sleep.nvcsw_before) &&
	       task_futex_waiting(tid, &look->word) &&
	       voluntary_switches(tid, &look->sleep.nvcsw_after);
}

bool task_sleep_look(pid_t tid, struct task_sleep_look *look)
{
	struct task_stat st;

	if (!voluntary_switches(tid, &look->nvcsw_before) ||
	    !task_stat_read(tid, &st) ||
	    !voluntary_switches(tid, &look->nvcsw_after))
		return false;
	look->asleep = st.state != 'R';
	return true;
}

bool task_slept_through(const struct task_sleep_look *a,
			const struct task_sleep_look *b)
{
	return a->asleep && b->asleep && a->nvcsw_before == b->nvcsw_after;
}

static int list_once(pid_t *tids, int n, int max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	if (!d)
		return n;
	while ((e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);
		bool seen = false;

		for (int i = 0; i < n && !seen; i++)
			seen = tids[i] == tid;
		if (tid > 0 && !seen && n < max)
			tids[n++] = tid;
	}
	closedir(d);
	return n;
}

int task_list(pid_t *tids, int max)
{
	return list_once(tids, list_once(tids, 0, max), max);
}

bool task_futex_slept_through(const struct task_futex_look *a,
			      const struct task_futex_look *b)
{
	return a->word == b->word && task_slept_through(&a->sleep, &b->sleep);
}
