/* SPDX-License-Identifier: MIT */
/* The run's configuration, filled by cmd/ and read by the harness. */
#ifndef TORTURE_CONFIG_H
#define TORTURE_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#define RCUT_MAX_THREADS 4096	/* upper bound for every thread count */
#define RCUT_MAX_PARAMS 64	/* NAME.KEY=VALUE arguments per run */
#define RCUT_MAX_CPUS 1024	/* simulated CPUs, barrier posters */
#define RCUT_MAX_PLUGIN_DIRS 16 /* --plugin-dir options per run */

struct rcut_scenario; /* cmd/scenario.h */

/* Grace-period primitives the writer and fake writers choose among. */
enum rcut_gp_kind {
	RCUT_GP_SYNC,	/* synchronize() */
	RCUT_GP_EXP,	/* synchronize_expedited() */
	RCUT_GP_NORMAL, /* call(): asynchronous, writer only */
	RCUT_GP_COND,	/* get_gp_state(), a random wait, cond_sync() */
	RCUT_GP_POLL,	/* start_gp_poll(), then poll_gp_state() until done */
	RCUT_GP_NKINDS,
};

/* --pin: how simulated CPUs map to PUs. */
enum rcut_pin {
	RCUT_PIN_COMPACT,
	RCUT_PIN_SCATTER,
	RCUT_PIN_NONE,
};

enum rcut_action {
	RCUT_ACTION_RUN,
	RCUT_ACTION_HELP,
	RCUT_ACTION_USAGE,
	RCUT_ACTION_VERSION,
	RCUT_ACTION_LIST_FLAVORS,
};

struct rcut_config {
	enum rcut_action action;
	const char *flavor_name; /* as given to --flavor */
	uint64_t duration_ns;	 /* 0: until SIGINT/SIGTERM */
	uint64_t seed;
	bool seed_given;
	long nreaders; /* -1: one per CPU the process may use */
	long nfakewriters;
	uint64_t stat_interval_ns; /* 0: only the final report */
	int verbose;		   /* 0 quiet, 1 normal, 2 verbose */
	bool stop_on_failure;
	unsigned int gp_mask; /* 1 << RCUT_GP_*; 0: every one the flavor has */
	int call_mode;	      /* enum rcut_call_mode */
	uint64_t stall_timeout_ns;   /* no progress this long is a stall */
	uint64_t read_exit_delay_ns; /* between read-exit bursts */
	long read_exit_burst; /* threads per burst; 0: no read-exit test */
	long ncpus;	      /* simulated CPUs; -1: the PUs we may use */
	int pin;	      /* enum rcut_pin */
	uint64_t onoff_interval_ns; /* 0: no CPU offline simulation */
	uint64_t onoff_holdoff_ns;
	long n_barrier_cbs; /* 0: no barrier test */
	long fwd_progress;  /* callback-flood threads; 0: none */
	uint64_t fwd_progress_holdoff_ns;
	long fwd_progress_div;
	long cbflood_max;    /* callbacks outstanding in a flood, at most */
	uint64_t stutter_ns; /* 0: no stutter */
	uint64_t shuffle_interval_ns; /* 0: no shuffle */
	int nparams;
	const char *params[RCUT_MAX_PARAMS]; /* NAME.KEY=VALUE, unparsed */
	bool dry_run;	       /* check everything, print the start, exit */
	const char *json_path; /* --json: NULL for none, "-" for stdout */
	int nplugin_dirs;      /* --plugin-dir values, each colon-separated */
	const char *plugin_dirs[RCUT_MAX_PLUGIN_DIRS];
	struct rcut_scenario *scenario; /* --scenario, owned; NULL if none */
};

/* "compact", "scatter", "none", indexed by enum rcut_pin. */
extern const char *const rcut_pin_names[];
/* "global", "percpu", "perthread", indexed by enum rcut_call_mode. */
extern const char *const rcut_call_mode_names[];

/* Fill cfg with the defaults documented in --help and the man page. */
void rcut_config_defaults(struct rcut_config *cfg);

/* Free what parsing allocated (the scenario); cfg's strings die with it. */
void rcut_config_release(struct rcut_config *cfg);

#endif /* TORTURE_CONFIG_H */
