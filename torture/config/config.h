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
#define RCUT_MAX_SWEEP 64	/* --threads entries, --flavor list entries */
#define RCUT_MAX_OPT_ROWS 128	/* rows of the option table, at most */

struct rcut_scenario; /* cmd/scenario.h: opaque below cmd/ */
struct rcut_replay;   /* cmd/replay.h: opaque below cmd/ */

/* --test: which test the run does. */
enum rcut_test {
	RCUT_TEST_TORTURE, /* rcutorture: find RCU bugs */
	RCUT_TEST_SCALE,   /* rcuscale: grace-period latency and cost */
	RCUT_TEST_REF,	   /* refscale: read-side cost */
};

/* Grace-period primitives the writer and fake writers choose among. */
enum rcut_gp_kind {
	RCUT_GP_SYNC,	/* synchronize() */
	RCUT_GP_EXP,	/* synchronize_expedited() */
	RCUT_GP_NORMAL, /* call(): asynchronous, writer only */
	RCUT_GP_COND,	/* get_gp_state(), a random wait, cond_sync() */
	RCUT_GP_POLL,	/* start_gp_poll(), then poll_gp_state() until done */
	RCUT_GP_COND_FULL, /* the same with full cookies (ABI version 3) */
	RCUT_GP_POLL_FULL,
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
	RCUT_ACTION_MINIMIZE, /* shrink a failing command (cmd/minimize.c) */
};

/* --test scale (rcuscale) settings. */
struct rcut_scale_config {
	long nwriters;
	uint64_t holdoff_ns;	    /* before the writers start measuring */
	long gp_async_max;	    /* callbacks in flight per writer */
	uint64_t writer_holdoff_ns; /* between a writer's grace periods */
	long min_samples;	    /* per writer before the test may end */
	bool pd_test;		    /* run the holdout reader */
	uint64_t pd_busy_wait_ns;   /* its time inside a section per loop */
	bool pd_resched;	    /* break that up every 1 ms */
	bool pd_sleep;		    /* sleep in the section, not spin */
};

/* --test ref (refscale) settings. */
struct rcut_ref_config {
	long loops; /* read-side sections per reader per run */
	long nruns;
	long readdelay_ns; /* busy wait inside each section (scale too) */
	bool baselines;	   /* --ref-baselines: add every baseline column */
	int nthreads;	   /* --threads entries; 0: just --nreaders */
	long threads[RCUT_MAX_SWEEP];
};

/* --extendables: the segment kinds readers may use (threads/reader_segments.c). */
#define RCUT_EXTEND_SIGMASK 0x1 /* signal-masked stretches */
#define RCUT_EXTEND_PREEMPT 0x2 /* preemption points */
#define RCUT_EXTEND_DELAY 0x4	/* in-section delays */
#define RCUT_EXTEND_ALL 0x7

struct rcut_config {
	enum rcut_action action;
	int test;		 /* enum rcut_test */
	const char *flavor_name; /* as given to --flavor */
	uint64_t duration_ns;	 /* 0: until SIGINT/SIGTERM */
	uint64_t seed;
	bool seed_given;
	/*
	 * RCUT_COUNT_AUTO: the test's default (one per simulated CPU; ref:
	 * 3/4 of the PUs); below 0 (torture): the kernel's "CPUs - 2 - N".
	 */
	long nreaders;
	long nfakewriters;	   /* below 0: CPUs - 2 - N, at least 1 */
	long reader_nesting;	   /* deepest nested read-side section */
	bool irqreader;		   /* readers in signal handlers too */
	long extendables;	   /* RCUT_EXTEND_* segments; 0: classic */
	bool object_debug;	   /* the duplicate call() test */
	long n_up_down;		   /* up/down sections in flight; 0: none */
	long reader_cbs;	   /* one section in N posts a callback */
	bool onoff_call;	   /* call() on each CPU just offlined */
	bool illegal_barrier;	   /* barrier() in a section, in a callback */
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
	long cbflood_max; /* callbacks outstanding in a flood, at most */
	long fwd_progress_need_resched; /* 2nd fwd test: -1 off, 0/1 on */
	/* Deliberate stalls (the kernel's stall_cpu*, stall_gp_kthread). */
	uint64_t stall_cpu_ns;	       /* hold a read-side section; 0: off */
	uint64_t stall_cpu_holdoff_ns; /* before the stall */
	bool stall_cpu_block;	       /* sleep in the section, not spin */
	uint64_t stall_gp_kthread_ns;  /* hold the GP worker; 0: off */
	long nocbs_nthreads;	  /* call-queue toggling threads; 0: none */
	uint64_t nocbs_toggle_ns; /* between two toggles of one thread */
	/* Random waits before cond_sync() / between polls (the _wi). */
	uint64_t gp_cond_wi_ns, gp_poll_wi_ns;
	uint64_t exp_gp_bound_ns; /* 9 in 10 expedited GPs above: fail; 0 off */
	uint64_t stutter_ns;	  /* 0: no stutter */
	bool stutter_pause_first; /* the kernel's order (rcutorture.stutter) */
	uint64_t shuffle_interval_ns; /* 0: no shuffle */
	uint64_t preempt_duration_ns; /* longest injected preemption; 0: off */
	uint64_t preempt_interval_ns; /* mean time between preemptions */
	long race_delay;	      /* delay at one race point in N; 0: off */
	uint64_t race_delay_max_ns;   /* longest race-point delay */
	bool swarm;		      /* draw a random subset of features */
	uint64_t swarm_interval_ns;   /* --swarm: redraw this often; 0: once */
	long gpwrap_lag; /* flavor's GP counters start this far from a wrap */
	bool hunt;	 /* the bug-hunting preset (swarm too) */
	/* An instrumented plugin's store-buffer emulation: max store age. */
	uint64_t store_buffer_delay_ns;
	int store_buffer_model; /* enum rcut_storebuf_model: tso, arm */
	/* Its automatic race points: one access in N (0: off), the mode. */
	long auto_race;
	int auto_race_mode; /* 0 uniform, 1 pct (rcut_auto_race_mode_names) */
	int nparams;
	const char *params[RCUT_MAX_PARAMS]; /* NAME.KEY=VALUE, unparsed */
	bool dry_run;	       /* check everything, print the start, exit */
	const char *json_path; /* --json: NULL for none, "-" for stdout */
	int nplugin_dirs;      /* --plugin-dir values, each colon-separated */
	const char *plugin_dirs[RCUT_MAX_PLUGIN_DIRS];
	struct rcut_scenario *scenario; /* --scenario, owned by cmd/; or NULL */
	/* What the tests print of it: its name, file and expected verdict. */
	const char *scenario_name, *scenario_path;
	int scenario_expect;	    /* an exit status (report/verdict.h) */
	struct rcut_replay *replay; /* --replay, owned by cmd/; or NULL */
	/* --minimize: the search's bounds (cmd/minimize.c). */
	uint64_t minimize_budget_ns; /* wall time for the whole search */
	long minimize_runs;	     /* n: runs per candidate, at most */
	long minimize_fails;	     /* k: failures a candidate must show */
	struct rcut_scale_config scale;
	struct rcut_ref_config ref;
	/* Options given explicitly (command line or scenario), by row. */
	bool given[RCUT_MAX_OPT_ROWS];
};

/* --nreaders not given: the test decides (below any value it accepts). */
#define RCUT_COUNT_AUTO (-(long)RCUT_MAX_THREADS - 1)

/* "torture", "scale", "ref", indexed by enum rcut_test. */
extern const char *const rcut_test_names[];

/* "compact", "scatter", "none", indexed by enum rcut_pin. */
extern const char *const rcut_pin_names[];
/* "global", "percpu", "perthread", indexed by enum rcut_call_mode. */
extern const char *const rcut_call_mode_names[];
/* "tso", "arm", indexed by enum rcut_storebuf_model (storebuf.h). */
extern const char *const rcut_storebuf_model_names[];
/* "uniform", "pct": enum rcut_sched_mode (storebuf.h) less one. */
extern const char *const rcut_auto_race_mode_names[];

/* Fill cfg with the defaults documented in --help and the man page. */
void rcut_config_defaults(struct rcut_config *cfg);

#endif /* TORTURE_CONFIG_H */
