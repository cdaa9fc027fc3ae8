// SPDX-License-Identifier: MIT
/* A candidate run for --minimize (minimize_run.h). */
#define _GNU_SOURCE
#include "minimize_run.h"
#include "replay.h"

#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MZ_MAX_ARGV 300
#define MZ_POLL_NS 10000000L /* how often the deadline is checked */

uint64_t mz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The child: output to /dev/null, then this binary with the arguments. */
static void child(char **argv)
{
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	execv("/proc/self/exe", argv);
	_exit(127);
}

/* Wait for pid until deadline; kill it then.  Its exit status, or -1. */
static int wait_until(pid_t pid, uint64_t deadline_ns)
{
	const struct timespec nap = { 0, MZ_POLL_NS };
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 5;
		if (r < 0)
			return -1;
		if (mz_now_ns() >= deadline_ns) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
}

/* The first failure and the swarm draw from the run's report. */
static void read_report(const char *json, struct mz_outcome *out)
{
	json_object *doc = json_object_from_file(json), *ff, *v;
	size_t used = 0;

	if (!doc)
		return;
	ff = rcut_json_member(doc, "first_failure");
	if ((v = rcut_json_member(ff, "time_s")))
		out->fail_s = json_object_get_double(v);
	if ((v = rcut_json_member(ff, "check")))
		snprintf(out->check, sizeof(out->check), "%s",
			 json_object_get_string(v));
	v = rcut_json_member(rcut_json_member(doc, "swarm"), "features");
	if (v && json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, key, val)
		{
			used += (size_t)snprintf(
				out->features + used,
				used < sizeof(out->features) ?
					sizeof(out->features) - used :
					0,
				"%s%s=%s", used ? " " : "", key,
				json_object_get_string(val));
			if (used >= sizeof(out->features))
				break;
		}
	}
	json_object_put(doc);
}

int mz_run(const char *const *args, int nargs, const char *json,
	   uint64_t deadline_ns, struct mz_outcome *out)
{
	char *argv[MZ_MAX_ARGV + 3];
	char json_arg[4200];
	pid_t pid;
	int status;

	memset(out, 0, sizeof(*out));
	out->fail_s = -1;
	if (nargs > MZ_MAX_ARGV)
		return -1;
	argv[0] = (char *)"rcutorture";
	for (int i = 0; i < nargs; i++)
		argv[i + 1] = (char *)args[i];
	snprintf(json_arg, sizeof(json_arg), "--json=%s", json);
	argv[nargs + 1] = json_arg;
	argv[nargs + 2] = NULL;
	unlink(json);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(argv);
	status = wait_until(pid, deadline_ns);
	if (status < 0)
		return 0;
	out->counted = true;
	out->status = status;
	read_report(json, out);
	return 0;
}
