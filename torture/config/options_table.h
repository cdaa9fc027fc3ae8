/* SPDX-License-Identifier: MIT */
/*
 * The option table: one row per command-line option, holding everything
 * about it that is data (names, kernel spelling, type, range, default,
 * the tests it is for, its --help text, where its value lives in struct
 * rcut_config and how the Start/End lines and the JSON document show it).
 * cmd/options.c builds argp's options and parses from it; the tests print
 * their parameter lines and report/json.c its "config" object from it.
 * Adding an option: docs/adding-an-option.md.
 */
#ifndef TORTURE_OPTIONS_TABLE_H
#define TORTURE_OPTIONS_TABLE_H

#include "config.h"
#include "../util/value.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RCUT_OPT_MAX 96 /* rows at most (sizes the parser's arrays) */
_Static_assert(RCUT_OPT_MAX <= RCUT_MAX_OPT_ROWS, "raise RCUT_MAX_OPT_ROWS");
#define RCUT_NTESTS 3 /* enum rcut_test's values */
#define RCUT_OPT_KEY_LEN RCUT_VALUE_KEY_LEN

/* What an option's value is, which says how it parses, prints, defaults. */
enum rcut_opt_type {
	RCUT_OPT_NONE,	   /* no value of its own: a custom handler acts */
	RCUT_OPT_FLAG,	   /* bool, set by the option */
	RCUT_OPT_COUNT,	   /* long, an integer in [min, max] */
	RCUT_OPT_DURATION, /* uint64_t ns; [min, max] if max, see range */
	RCUT_OPT_U64,	   /* uint64_t, decimal or 0x-hex */
	RCUT_OPT_INT,	   /* int set by a custom handler (the verbosity) */
	RCUT_OPT_CHOICE,   /* int, the index of the value in names */
	RCUT_OPT_STRING,   /* const char *, not empty (else error: empty) */
	RCUT_OPT_LIST,	   /* long[max_n] in [min, max], count at count_off */
	RCUT_OPT_GP,	   /* bit min of gp_mask (enum rcut_gp_kind) */
	RCUT_OPT_ACTION,   /* action = min; no kernel spelling */
};

/* Options that need code besides their type's: cmd/options.c has it. */
enum rcut_opt_custom {
	RCUT_CUSTOM_NONE,
	RCUT_CUSTOM_FLAVOR,	/* an empty name lists the flavors */
	RCUT_CUSTOM_SEED,	/* notes that the seed was given */
	RCUT_CUSTOM_VERBOSE,	/* level 2; kernel spelling: level 0..2 */
	RCUT_CUSTOM_QUIET,	/* level 0; kernel spelling: a boolean */
	RCUT_CUSTOM_SCENARIO,	/* reads a file and applies its lines */
	RCUT_CUSTOM_PLUGIN_DIR, /* repeatable, RCUT_MAX_PLUGIN_DIRS times */
	RCUT_CUSTOM_REPLAY,	/* reads a JSON report and applies its args */
};

/* Where a printed value comes from: the option, or what the run resolved. */
enum rcut_opt_source {
	RCUT_FROM_CONFIG,
	RCUT_FROM_NREADERS,
	RCUT_FROM_NWRITERS,
	RCUT_FROM_CPUS,
	RCUT_FROM_NFAKEWRITERS,
};

/* The --help groups. */
enum rcut_opt_group {
	RCUT_GROUP_TEST = 1,
	RCUT_GROUP_THREADS,
	RCUT_GROUP_CPUS,
	RCUT_GROUP_GP,
	RCUT_GROUP_OUTPUT,
	RCUT_GROUP_HUNT,
	RCUT_GROUP_SCALE,
	RCUT_GROUP_REF,
	RCUT_GROUP_MINIMIZE,
	RCUT_GROUP_INFO = -1,
};

/* 1 << RCUT_TEST_*: the tests an option is for (0 in a row: every test). */
#define RCUT_T_TORTURE (1u << RCUT_TEST_TORTURE)
#define RCUT_T_SCALE (1u << RCUT_TEST_SCALE)
#define RCUT_T_REF (1u << RCUT_TEST_REF)

struct rcut_opt {
	const char *name;   /* the long option: "stall-timeout" */
	int short_name;	    /* 'd', or 0 */
	const char *alias;  /* a second long name ("gp-async"), or NULL */
	const char *kernel; /* rcutorture.KERNEL=: NULL: name, '-' as '_' */
	/*
	 * DURATION: the unit of a bare number in kernel spelling, where the
	 * kernel's differs from the long option's (seconds): "jiffies" (at
	 * RCUT_HZ), "ms" or "us"; "s" where the kernel spelling means more
	 * than its unit (stutter).  NULL: the long option's.
	 */
	const char *kernel_unit;
	enum rcut_opt_type type;
	enum rcut_opt_custom custom;
	const char *arg;  /* --help's name for the value; NULL: a flag */
	size_t off;	  /* the value in struct rcut_config */
	size_t count_off; /* RCUT_OPT_LIST: its int count */
	int max_n;	  /* RCUT_OPT_LIST: most entries */
	long long min, max;
	/* DURATION with a range: "100ms to 1d"; COUNT: the errors' text
	 * when [min, max] is not the whole story (it depends on --test) */
	const char *range;
	const char *empty; /* STRING: the error for "", after "--NAME: " */
	const char *const *names; /* CHOICE: the values, NULL-ended */
	long long def;	     /* default: FLAG, COUNT, DURATION, INT, CHOICE */
	const char *def_str; /* default: STRING */
	unsigned int tests;  /* RCUT_T_*; 0: every test */
	int group;	     /* enum rcut_opt_group */
	const char *help;
	/*
	 * The Start/End line of each test (enum rcut_test): the position of
	 * the option in it (1-based; 0: not printed), its key there if not
	 * the kernel spelling, and whether it is left out while zero.
	 */
	unsigned char at[RCUT_NTESTS];
	const char *line_key[RCUT_NTESTS];
	unsigned int if_set; /* RCUT_T_*: tests that print it only if set */
	/* JSON "config": position (0: not there); key: the line's + "_s"
	 * for durations (in seconds). */
	unsigned char json_at;
	enum rcut_opt_source from;
};

/* The rows and how many there are. */
extern const struct rcut_opt rcut_opts[];
extern const int rcut_nopts;

/* A --help group heading. */
struct rcut_opt_group_title {
	int group;
	const char *title;
};

/* The headings, in the order --help lists the groups; ends with NULL. */
extern const struct rcut_opt_group_title rcut_opt_groups[];

/* The row of a long option name or alias, or NULL. */
const struct rcut_opt *rcut_opt_find(const char *name);

/* Whether the option named name was given explicitly (cfg->given). */
bool rcut_opt_given(const struct rcut_config *cfg, const char *name);

/*
 * The row rcutorture.NAME=VALUE sets (NAME is len bytes): a row's kernel
 * spelling (and scale_type, rcuscale's and refscale's torture_type), its
 * name or alias with underscores for dashes, or the key a
 * Start/End line prints it under (minruntime); never an action.  NULL if none; *dashed gets NAME with dashes (for messages).
 */
const struct rcut_opt *rcut_opt_find_kernel(const char *name, size_t len,
					    char *dashed, size_t dashed_len);

/* What the run resolved: the values that rows RCUT_FROM_* print. */
struct rcut_opt_run {
	int test; /* enum rcut_test: which Start/End line */
	long nreaders, nwriters, ncpus;
	long nfakewriters; /* the torture test's resolved count */
};

/* Which list: a test's Start/End line (enum rcut_test) or the JSON one. */
#define RCUT_PARAMS_JSON RCUT_NTESTS

/*
 * The parameters of list `which` in order into out[0..max); returns how
 * many.  Flavor parameters (NAME.KEY=VALUE) and the JSON "gp" list are
 * not rows: callers add them.
 */
int rcut_opt_params(const struct rcut_config *cfg,
		    const struct rcut_opt_run *run, int which,
		    struct rcut_value *out, int max);

/*
 * Print "<flavor>-<test>:--- <what>: key=value ... NAME.KEY=VALUE..." to
 * out, as the kernel's rcutorture, rcuscale and refscale print it.
 */
void rcut_opt_print_params(FILE *out, const struct rcut_config *cfg,
			   const struct rcut_opt_run *run, const char *flavor,
			   const char *what);

/*
 * The default of a row as --help and the man page write it ("10s",
 * "global"), into buf; false if the row has none to write (a flag, or a
 * default decided at run time such as one reader per CPU).
 */
bool rcut_opt_default_text(const struct rcut_opt *o, char *buf, size_t len);

#endif /* TORTURE_OPTIONS_TABLE_H */
