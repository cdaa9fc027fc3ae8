/* SPDX-License-Identifier: MIT */
/*
 * --json FILE: the run's figures as one JSON document (json-c), for CI.
 * The destination is opened before any thread starts, the stats blocks
 * are collected as the run goes, and the document is written once at the
 * end: after the final report, a stall or a crash.
 */
#ifndef REPORT_JSON_H
#define REPORT_JSON_H

#include "snapshot.h"
#include "../torture/util/value.h"

#include <rcutorture/flavor.h>
#include <stdbool.h>
#include <stddef.h>

/* Bump when a key changes meaning or goes away (adding keys is fine). */
#define RCUT_JSON_FORMAT 1
/* Interval snapshots kept at most (a day at a 1 s interval); then dropped. */
#define RCUT_JSON_MAX_INTERVALS 86400

/* A key and its text value (the swarm draw's features). */
struct rcut_json_pair {
	const char *key;
	const char *value;
};

/* What the document says besides the counters. */
/* One check that failed: how often, when and how first (checks_failed). */
struct rcut_json_check {
	const char *check;
	uint64_t count;
	double first_s;
	const char *first; /* the first failure's message */
};

struct rcut_json_run {
	const struct rcut_value *params; /* the options, from the table */
	int nparams;
	const char *const *flavor_params; /* NAME.KEY=VALUE, as given */
	int nflavor_params;
	uint64_t seed;
	const struct rcut_flavor *flavor; /* the flavor run */
	const char *plugin;		  /* its file, NULL if built in */
	const char *scenario_name, *scenario_path; /* NULL if none */
	const char *scenario_expect;		   /* "SUCCESS", ... */
	const char *const *gp_names; /* "sync", ... by enum rcut_gp_kind */
	unsigned int gp_kinds;	     /* 1 << kind: what the writer may use */
	const char *swarm; /* --swarm: the draw as printed; NULL without */
	const struct rcut_json_pair *swarm_items;
	int nswarm;
	/* --swarm-interval: draws made; the one a first failure came under */
	int swarm_draws;		/* 0 without --swarm-interval */
	int swarm_failure_index;	/* -1: no failure, or not known */
	double swarm_failure_from_s;	/* when that draw began */
	const char *swarm_failure_draw; /* its text, or NULL */
	int exit_status;
	const char *verdict; /* "SUCCESS", "FAILURE", ..., "CRASH" */
	bool failed;	     /* a first failure was recorded: */
	double failure_s;    /* its time since the start */
	const char *failure_check;
	const char *failure_detail; /* a stall's or hotplug's text, or NULL */
	const struct rcut_json_check *checks; /* every check that failed */
	int nchecks;
	const char *stall;	    /* what stalled, or NULL */
	const struct rcut_snapshot *final;
	/* The arguments that reproduce the run ("config.args"), and the
	 * line to paste ("repro") unless it ended SUCCESS (NULL then). */
	const char *const *repro_args;
	int nrepro_args;
	const char *repro;
};

/*
 * Open the destination: a file (created or truncated) or, for "-",
 * standard output, after which the process's standard output is moved to
 * standard error so that stdout carries only the document.  Returns 0, or
 * -1 with a one-line reason naming --json in err.
 */
int rcut_json_open(const char *path, char *err, size_t errlen);

/*
 * --dry-run: whether the destination could be opened for writing, without
 * truncating it or leaving a file that was not there.  Returns 0, or -1
 * with the same one-line reason as rcut_json_open().
 */
int rcut_json_check(const char *path, char *err, size_t errlen);

/* Whether rcut_json_write() could not write the whole document. */
bool rcut_json_write_failed(void);

/* Whether rcut_json_open() succeeded and the document is not written. */
bool rcut_json_enabled(void);

/* Keep one stats-block snapshot for the "intervals" array. */
void rcut_json_add_interval(const struct rcut_snapshot *s);

/*
 * Write the document and close the destination; later calls do nothing.
 * Returns 0, or -1 after a message on stderr.
 */
int rcut_json_write(const struct rcut_json_run *run);

#endif /* REPORT_JSON_H */
