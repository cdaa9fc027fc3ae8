/* SPDX-License-Identifier: MIT */
/*
 * One run of a candidate command for --minimize: this binary again, as a
 * child process with its own --json report, killed at its deadline.
 */
#ifndef CMD_MINIMIZE_RUN_H
#define CMD_MINIMIZE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#define MZ_CHECK_LEN 64
#define MZ_FEATURES_LEN 320

/* What one run showed. */
struct mz_outcome {
	bool counted;  /* ended by itself before its deadline */
	int status;    /* its exit status (5 if it died of a signal) */
	double fail_s; /* first failure time; -1 if none recorded */
	char check[MZ_CHECK_LEN];	/* first failure's check, or "" */
	char features[MZ_FEATURES_LEN]; /* --swarm: "key=value ...", or "" */
};

/*
 * Run "rcutorture ARGS... --json=TMP" with its output thrown away, until
 * it exits or deadline_ns (CLOCK_MONOTONIC) passes, when it is killed
 * and the outcome not counted.  json is the report's path.  Returns 0,
 * or -1 if the run could not be started.
 */
int mz_run(const char *const *args, int nargs, const char *json,
	   uint64_t deadline_ns, struct mz_outcome *out);

/* CLOCK_MONOTONIC in ns. */
uint64_t mz_now_ns(void);

#endif /* CMD_MINIMIZE_RUN_H */
