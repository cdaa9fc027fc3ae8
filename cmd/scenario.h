/* SPDX-License-Identifier: MIT */
/*
 * Scenario files (--scenario NAME|FILE), the counterpart of the kernel's
 * kvm.sh configs: lines of options and NAME.KEY=VALUE or
 * rcutorture.PARAM=VALUE arguments, '#' comments, and an optional
 * "#EXPECT: VERDICT" line saying how a run of it should end (for
 * ci/run-scenarios).  This file reads and splits them; cmd/options.c
 * applies the lines.
 */
#ifndef CMD_SCENARIO_H
#define CMD_SCENARIO_H

#include "../torture/config/config.h"

#include <stdbool.h>
#include <stddef.h>

#define RCUT_SCENARIO_MAX_BYTES (64 * 1024) /* a larger file is an error */
#define RCUT_SCENARIO_MAX_WORDS 1024	    /* words in one file */
#define RCUT_SCENARIO_ENV "RCUTORTURE_SCENARIO_DIR"

/* One line with words: an argument vector for the option parser. */
struct rcut_scenario_line {
	int lineno;
	int argc;    /* argv[0] is "rcutorture", then the line's words */
	char **argv; /* NULL-ended */
};

struct rcut_scenario {
	char *name;	   /* as given to --scenario */
	char *path;	   /* the file it was read from */
	int expect;	   /* enum rcut_exit of #EXPECT: SUCCESS if absent */
	bool expect_given; /* the file has an #EXPECT line */
	int nlines;
	struct rcut_scenario_line *lines;
	char *text;   /* the file's text, cut into words in place */
	char **words; /* every line's argv, back to back */
};

/*
 * Split text (len bytes, need not be NUL-terminated) into s, naming it
 * 'file' in messages.  Returns 0, or -1 with "FILE:LINE: reason" in err.
 * Either way s must be released with rcut_scenario_free().
 */
int rcut_scenario_parse(struct rcut_scenario *s, const char *file,
			const char *text, size_t len, char *err, size_t errlen);

/*
 * The file --scenario ARG means: ARG itself if it contains a '/', else
 * the first directory of rcut_scenario_dirs() holding a file named ARG.
 * Returns 0 with the path in path, or -1 with a reason naming --scenario.
 */
int rcut_scenario_find(const char *arg, char *path, size_t len, char *err,
		       size_t errlen);

/* Find, read and parse the scenario ARG; as rcut_scenario_parse. */
int rcut_scenario_load(struct rcut_scenario *s, const char *arg, char *err,
		       size_t errlen);

/*
 * The scenario directories searched for a NAME, colon-separated, in
 * order: $RCUTORTURE_SCENARIO_DIR (itself colon-separated), then the
 * source tree's ci/scenarios for the binary built in the tree, or
 * PREFIX/share/rcutorture/scenarios for the installed one.
 */
void rcut_scenario_dirs(char *buf, size_t len);

/* Free what s holds (not s itself). */
void rcut_scenario_free(struct rcut_scenario *s);

/* Free what parsing allocated (the scenario); cfg's strings die with it. */
void rcut_config_release(struct rcut_config *cfg);

#endif /* CMD_SCENARIO_H */
