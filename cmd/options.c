// SPDX-License-Identifier: MIT
/*
 * Option parsing with glibc argp.  Every option's value is checked here,
 * before any thread starts; a bad one yields a single line that names the
 * option and what it accepts.  "rcutorture.PARAM=VALUE" arguments (the
 * kernel's boot syntax) map onto the long options of the same name.
 */
#define _GNU_SOURCE
#include "options.h"

#include "parse.h"
#include "scenario.h"
#include "../flavors/plugin.h"
#include "../flavors/registry.h"
#include "../torture/gp.h"
#include "../torture/ref.h"

#include <argp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *argp_program_bug_address = "the rcutorture issue tracker";

enum option_key {
	OPT_FLAVOR = 'f',
	OPT_DURATION = 'd',
	OPT_VERBOSE = 'v',
	OPT_QUIET = 'q',
	OPT_HELP = 'h',
	OPT_VERSION = 'V',
	OPT_SEED = 0x100,
	OPT_TEST,
	/* --test scale */
	OPT_NWRITERS,
	OPT_HOLDOFF,
	OPT_GP_ASYNC_MAX,
	OPT_WRITER_HOLDOFF,
	OPT_MIN_SAMPLES,
	OPT_PD_TEST,
	OPT_PD_BUSY_WAIT,
	OPT_PD_RESCHED,
	OPT_PD_SLEEP,
	/* --test ref */
	OPT_LOOPS,
	OPT_NRUNS,
	OPT_READDELAY,
	OPT_REF_BASELINES,
	OPT_THREADS,
	OPT_NREADERS,
	OPT_NFAKEWRITERS,
	OPT_STAT_INTERVAL,
	OPT_LIST_FLAVORS,
	OPT_STOP_ON_FAILURE,
	OPT_USAGE,
	OPT_GP_SYNC,
	OPT_GP_EXP,
	OPT_GP_NORMAL,
	OPT_GP_COND,
	OPT_GP_POLL,
	OPT_CALL_RCU,
	OPT_READ_EXIT_DELAY,
	OPT_READ_EXIT_BURST,
	OPT_STALL_TIMEOUT,
	OPT_CPUS,
	OPT_PIN,
	OPT_ONOFF_INTERVAL,
	OPT_ONOFF_HOLDOFF,
	OPT_N_BARRIER_CBS,
	OPT_FWD_PROGRESS,
	OPT_FWD_PROGRESS_HOLDOFF,
	OPT_FWD_PROGRESS_DIV,
	OPT_CBFLOOD_MAX,
	OPT_STUTTER,
	OPT_SHUFFLE_INTERVAL,
	OPT_SCENARIO,
	OPT_DRY_RUN,
	OPT_PLUGIN_DIR,
	OPT_JSON,
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Test selection:", 1 },
	{ "test", OPT_TEST, "TEST", 0,
	  "torture (find RCU bugs), scale (grace-period latency and updater cost, the kernel's rcuscale) or ref (read-side cost, refscale) (default: torture)",
	  0 },
	{ "flavor", OPT_FLAVOR, "NAME", 0,
	  "RCU flavor to test (default: memb); see --list-flavors.  A NAME with a '/' or ending in .so is a plugin file; a NAME that is no built-in flavor is looked up as NAME.so or librcutorture-NAME.so in --plugin-dir.  --test ref takes a comma-separated list, which may name the baselines none, refcnt, rwlock and mutex",
	  0 },
	{ "plugin-dir", OPT_PLUGIN_DIR, "DIR", 0,
	  "Where --flavor NAME looks for plugins; repeatable, or several DIRs separated by colons (default: none)",
	  0 },
	{ "scenario", OPT_SCENARIO, "NAME|FILE", 0,
	  "Apply the options of a scenario file here; options after it override it.  A NAME without '/' is looked up in $RCUTORTURE_SCENARIO_DIR, the installed scenarios and the source tree's ci/scenarios (default: none)",
	  0 },
	{ "dry-run", OPT_DRY_RUN, NULL, 0,
	  "Check the options, scenario, flavor and parameters, print the Start of test line, and exit 0 without running",
	  0 },
	{ "list-flavors", OPT_LIST_FLAVORS, NULL, 0,
	  "List the flavors, their primitives and parameters, and exit", 0 },
	{ "duration", OPT_DURATION, "DURATION", 0,
	  "How long to run: a number with suffix ms, s, m, h or d; a bare number is seconds; 0 runs until SIGINT (default: 30s).  --test scale: measure at least this long after --holdoff; 0 ends at --min-samples",
	  0 },
	{ "seed", OPT_SEED, "N", 0,
	  "Seed for every random choice, decimal or 0x-hex (default: from the clock; always printed)",
	  0 },
	{ "stall-timeout", OPT_STALL_TIMEOUT, "DURATION", 0,
	  "A thread without progress, or a callback not invoked, for this long is a stall: backtraces, exit 4 (100ms to 1d; default: 10s)",
	  0 },
	{ "stop-on-failure", OPT_STOP_ON_FAILURE, NULL, 0,
	  "End the run at the first failure instead of at --duration", 0 },

	{ NULL, 0, NULL, 0, "Threads:", 2 },
	{ "nreaders", OPT_NREADERS, "N", 0,
	  "Reader threads, 1 to 4096; --test scale: load readers, 0 to 4096 (default: one per online CPU; --test ref: three quarters of them, at least 1)",
	  0 },
	{ "nfakewriters", OPT_NFAKEWRITERS, "N", 0,
	  "Fake writer threads, 0 to 4096 (default: 4)", 0 },

	{ "read-exit-delay", OPT_READ_EXIT_DELAY, "DURATION", 0,
	  "Pause between bursts of short-lived reader threads (default: 2s)",
	  0 },
	{ "read-exit-burst", OPT_READ_EXIT_BURST, "N", 0,
	  "Short-lived reader threads per burst, 0 to 4096; 0 disables read-exit churn (default: 16)",
	  0 },

	{ "n-barrier-cbs", OPT_N_BARRIER_CBS, "N", 0,
	  "Barrier test: N poster threads each post a callback per phase, then the flavor's barrier must have run them all; 0 to 1024, 0 disables (default: 0)",
	  0 },
	{ "fwd-progress", OPT_FWD_PROGRESS, "N", 0,
	  "Callback-flood (forward-progress) threads, 0 to 64; 0 disables (default: 1)",
	  0 },
	{ "fwd-progress-holdoff", OPT_FWD_PROGRESS_HOLDOFF, "DURATION", 0,
	  "Pause before and between callback floods (default: 10s)", 0 },
	{ "fwd-progress-div", OPT_FWD_PROGRESS_DIV, "N", 0,
	  "A flood lasts at most --stall-timeout / N, 1 to 100 (default: 4)",
	  0 },
	{ "cbflood-max", OPT_CBFLOOD_MAX, "N", 0,
	  "Most callbacks one flood keeps outstanding (its memory cap), 1 to 10000000 (default: 50000)",
	  0 },
	{ "stutter", OPT_STUTTER, "DURATION", 0,
	  "Pause all torture threads for this long, then let them run as long, repeatedly; 0 disables (default: 0; the kernel's is 5s)",
	  0 },

	{ NULL, 0, NULL, 0, "Simulated CPUs:", 3 },
	{ "cpus", OPT_CPUS, "N", 0,
	  "Simulated CPUs, 1 to 1024; may exceed the PUs (default: the PUs this process may use)",
	  0 },
	{ "pin", OPT_PIN, "MODE", 0,
	  "Map simulated CPUs to PUs compact (topology order), scatter (spread over cores) or none (no binding) (default: compact)",
	  0 },
	{ "onoff-interval", OPT_ONOFF_INTERVAL, "DURATION", 0,
	  "Take a random simulated CPU offline or online this often; 0 disables (default: 0)",
	  0 },
	{ "onoff-holdoff", OPT_ONOFF_HOLDOFF, "DURATION", 0,
	  "Wait this long before the first CPU offline (default: 0)", 0 },
	{ "shuffle-interval", OPT_SHUFFLE_INTERVAL, "DURATION", 0,
	  "Every interval, make the next simulated CPU idle (threads avoid it); 0 disables (default: 0; the kernel's is 3s)",
	  0 },

	{ NULL, 0, NULL, 0,
	  "Grace-period primitives (default: all the flavor has):", 4 },
	{ "gp-sync", OPT_GP_SYNC, NULL, 0, "Use synchronize()", 0 },
	{ "gp-exp", OPT_GP_EXP, NULL, 0, "Use expedited synchronize()", 0 },
	{ "gp-normal", OPT_GP_NORMAL, NULL, 0,
	  "Use asynchronous callbacks (call()) in the writer", 0 },
	{ "gp-async", OPT_GP_NORMAL, NULL, OPTION_ALIAS, NULL, 0 },
	{ "gp-cond", OPT_GP_COND, NULL, 0,
	  "Use a grace-period cookie and cond_sync()", 0 },
	{ "gp-poll", OPT_GP_POLL, NULL, 0,
	  "Use start_gp_poll() and poll_gp_state()", 0 },
	{ "call-rcu", OPT_CALL_RCU, "MODE", 0,
	  "Callback queues: global, percpu (one per CPU) or perthread (default: global)",
	  0 },

	{ NULL, 0, NULL, 0, "Output:", 5 },
	{ "stat-interval", OPT_STAT_INTERVAL, "DURATION", 0,
	  "Print the stats block this often; 0 prints it only at the end (default: 15s)",
	  0 },
	{ "verbose", OPT_VERBOSE, NULL, 0,
	  "Print more: the flavor's primitives and the threads at start", 0 },
	{ "quiet", OPT_QUIET, NULL, 0,
	  "No periodic stats blocks: only the final block, failures and the verdict",
	  0 },
	{ "json", OPT_JSON, "FILE", 0,
	  "Also write the whole report as one JSON document to FILE; - is standard output, and the text report then goes to standard error (default: none)",
	  0 },

	{ NULL, 0, NULL, 0,
	  "Scale test (--test scale; --gp-sync, --gp-exp or --gp-async picks the primitive):",
	  6 },
	{ "nwriters", OPT_NWRITERS, "N", 0,
	  "Writer threads timing grace periods, 1 to 4096 (default: 1)", 0 },
	{ "holdoff", OPT_HOLDOFF, "DURATION", 0,
	  "Wait this long after the start before measuring (default: 1s)", 0 },
	{ "gp-async-max", OPT_GP_ASYNC_MAX, "N", 0,
	  "With --gp-async: most callbacks in flight per writer, 1 to 1000000 (default: 1000)",
	  0 },
	{ "writer-holdoff", OPT_WRITER_HOLDOFF, "DURATION", 0,
	  "Pause between one writer's grace periods (default: 0)", 0 },
	{ "min-samples", OPT_MIN_SAMPLES, "N", 0,
	  "Grace periods each writer must time before the test ends, 1 to 1000000 (default: 100)",
	  0 },
	{ "pd-test", OPT_PD_TEST, NULL, 0,
	  "Add a holdout reader that stays in a read-side section (QSBR: reports no quiescent state) for --pd-busy-wait per loop",
	  0 },
	{ "pd-busy-wait", OPT_PD_BUSY_WAIT, "DURATION", 0,
	  "The holdout reader's time in a section per loop, above 0 and below --stall-timeout unless --pd-resched (default: 5ms)",
	  0 },
	{ "pd-resched", OPT_PD_RESCHED, NULL, 0,
	  "Break the holdout reader's wait every 1 ms: leave and re-enter the section (QSBR: report a quiescent state)",
	  0 },
	{ "pd-sleep", OPT_PD_SLEEP, NULL, 0,
	  "The holdout reader sleeps through its --pd-busy-wait instead of spinning: a reader blocked in its section (flavors whose readers may block)",
	  0 },

	{ NULL, 0, NULL, 0, "Ref test (--test ref):", 7 },
	{ "loops", OPT_LOOPS, "N", 0,
	  "Read-side sections each reader times per run, 1 to 1000000000 (default: 10000)",
	  0 },
	{ "nruns", OPT_NRUNS, "N", 0,
	  "Runs per flavor and reader count, 1 to 10000 (default: 30)", 0 },
	{ "readdelay", OPT_READDELAY, "NS", 0,
	  "Busy-wait this many nanoseconds inside each section, 0 to 10000000 (default: 0); nonzero goes through read_lock/read_unlock, not the inlined ref_loop.  --test scale: the load readers' sections",
	  0 },
	{ "ref-baselines", OPT_REF_BASELINES, NULL, 0,
	  "Also measure every baseline: none (no protection), refcnt (atomic refcount), rwlock (pthread rwlock read side), mutex (pthread mutex)",
	  0 },
	{ "threads", OPT_THREADS, "LIST", 0,
	  "Reader counts to sweep, comma-separated, each 1 to 4096, e.g. 1,2,4: a lookups/s table, one column per flavor (default: --nreaders)",
	  0 },

	{ NULL, 0, NULL, 0, "Information:", -1 },
	{ "help", OPT_HELP, NULL, 0, "Print this help and exit", -1 },
	{ "usage", OPT_USAGE, NULL, 0, "Print a short usage message and exit",
	  -1 },
	{ "version", OPT_VERSION, NULL, 0, "Print the version and exit", -1 },
	{ 0 },
};

static const char doc[] =
	"Torture-test and benchmark a userspace RCU implementation.\n\n"
	"Arguments of the form NAME.KEY=VALUE set a flavor parameter (for "
	"example prcu.migrate_cbs=0); rcutorture.PARAM=VALUE sets the option "
	"--PARAM (underscores may stand for dashes, as in the kernel's boot "
	"parameters: rcutorture.stat_interval=5, rcutorture.torture_type=memb)."
	"\vExit status: 0 SUCCESS, 1 FAILURE, 2 usage error, 3 RCU_HOTPLUG, "
	"4 stall, 5 internal error.  See rcutorture(1).";

#define OPT_KEYS 0x200 /* every key above is below this */

/* Parsing context: the config being filled and the first error. */
struct parse_ctx {
	struct rcut_config *cfg;
	char *err;
	size_t errlen;
	bool failed;
	bool in_scenario;     /* parsing a line of a scenario file */
	bool given[OPT_KEYS]; /* options that appeared, by key */
};

static int apply_scenario(struct parse_ctx *ctx, const char *arg);

static int fail(struct parse_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parse_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (!ctx->failed) {
		va_start(ap, fmt);
		vsnprintf(ctx->err, ctx->errlen, fmt, ap);
		va_end(ap);
		ctx->failed = true;
	}
	return EINVAL;
}

static int parse_count(struct parse_ctx *ctx, const char *opt, const char *arg,
		       long min, long max, long *out)
{
	if (rcut_parse_long(arg, min, max, out))
		return fail(
			ctx,
			"--%s: '%s' is not valid; expected an integer from %ld to %ld",
			opt, arg, min, max);
	return 0;
}

static int parse_dur(struct parse_ctx *ctx, const char *opt, const char *arg,
		     uint64_t *out)
{
	if (rcut_parse_duration(arg, out))
		return fail(
			ctx,
			"--%s: '%s' is not a duration; expected a number with optional suffix ms, s, m, h or d (up to 365d)",
			opt, arg);
	return 0;
}

/* One of a NULL-ended list of words; its index goes to *out. */
static int parse_choice(struct parse_ctx *ctx, const char *opt, const char *arg,
			const char *const *choices, int *out)
{
	char accepted[128] = "";

	for (int i = 0; choices[i]; i++) {
		size_t used = strlen(accepted);

		if (!strcmp(arg, choices[i])) {
			*out = i;
			return 0;
		}
		snprintf(accepted + used, sizeof(accepted) - used, "%s%s",
			 i == 0		? "" :
			 choices[i + 1] ? ", " :
					  " or ",
			 choices[i]);
	}
	return fail(ctx, "--%s: '%s' is not valid; expected %s", opt, arg,
		    accepted);
}

/* The options of --test scale and --test ref. */
static int apply_test_option(struct parse_ctx *ctx, int key, const char *arg)
{
	struct rcut_scale_config *sc = &ctx->cfg->scale;
	struct rcut_ref_config *rc = &ctx->cfg->ref;

	switch (key) {
	case OPT_NWRITERS:
		return parse_count(ctx, "nwriters", arg, 1, RCUT_MAX_THREADS,
				   &sc->nwriters);
	case OPT_HOLDOFF:
		return parse_dur(ctx, "holdoff", arg, &sc->holdoff_ns);
	case OPT_GP_ASYNC_MAX:
		return parse_count(ctx, "gp-async-max", arg, 1, 1000000,
				   &sc->gp_async_max);
	case OPT_WRITER_HOLDOFF:
		return parse_dur(ctx, "writer-holdoff", arg,
				 &sc->writer_holdoff_ns);
	case OPT_MIN_SAMPLES:
		return parse_count(ctx, "min-samples", arg, 1, 1000000,
				   &sc->min_samples);
	case OPT_PD_TEST:
		sc->pd_test = true;
		return 0;
	case OPT_PD_BUSY_WAIT:
		if (parse_dur(ctx, "pd-busy-wait", arg, &sc->pd_busy_wait_ns))
			return EINVAL;
		if (!sc->pd_busy_wait_ns)
			return fail(
				ctx,
				"--pd-busy-wait: '%s' is out of range; expected a duration above 0",
				arg);
		return 0;
	case OPT_PD_RESCHED:
		sc->pd_resched = true;
		return 0;
	case OPT_PD_SLEEP:
		sc->pd_sleep = true;
		return 0;
	case OPT_LOOPS:
		return parse_count(ctx, "loops", arg, 1, 1000000000,
				   &rc->loops);
	case OPT_NRUNS:
		return parse_count(ctx, "nruns", arg, 1, 10000, &rc->nruns);
	case OPT_READDELAY:
		return parse_count(ctx, "readdelay", arg, 0, 10000000,
				   &rc->readdelay_ns);
	case OPT_REF_BASELINES:
		rc->baselines = true;
		return 0;
	case OPT_THREADS:
		if (rcut_parse_long_list(arg, 1, RCUT_MAX_THREADS, rc->threads,
					 RCUT_MAX_SWEEP, &rc->nthreads))
			return fail(
				ctx,
				"--threads: '%s' is not valid; expected 1 to %d comma-separated integers from 1 to %d, e.g. 1,2,4",
				arg, RCUT_MAX_SWEEP, RCUT_MAX_THREADS);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* Apply one option; arg is NULL for flags. */
static int apply_option(struct parse_ctx *ctx, int key, const char *arg)
{
	struct rcut_config *cfg = ctx->cfg;

	if (key >= 0 && key < OPT_KEYS)
		ctx->given[key] = true;
	switch (key) {
	case OPT_FLAVOR:
		if (!arg[0])
			return fail(ctx,
				    "--flavor: empty name; expected one of %s",
				    rcut_flavor_names());
		cfg->flavor_name = arg;
		return 0;
	case OPT_DURATION:
		return parse_dur(ctx, "duration", arg, &cfg->duration_ns);
	case OPT_SEED:
		if (rcut_parse_u64(arg, &cfg->seed))
			return fail(
				ctx,
				"--seed: '%s' is not valid; expected an unsigned 64-bit number (decimal or 0x-hex)",
				arg);
		cfg->seed_given = true;
		return 0;
	case OPT_NREADERS:
		return parse_count(ctx, "nreaders", arg, 0, RCUT_MAX_THREADS,
				   &cfg->nreaders);
	case OPT_NFAKEWRITERS:
		return parse_count(ctx, "nfakewriters", arg, 0,
				   RCUT_MAX_THREADS, &cfg->nfakewriters);
	case OPT_STAT_INTERVAL:
		return parse_dur(ctx, "stat-interval", arg,
				 &cfg->stat_interval_ns);
	case OPT_STOP_ON_FAILURE:
		cfg->stop_on_failure = true;
		return 0;
	case OPT_GP_SYNC:
	case OPT_GP_EXP:
	case OPT_GP_NORMAL:
	case OPT_GP_COND:
	case OPT_GP_POLL:
		cfg->gp_mask |= 1u << (RCUT_GP_SYNC + key - OPT_GP_SYNC);
		return 0;
	case OPT_CALL_RCU:
		return parse_choice(ctx, "call-rcu", arg, rcut_call_mode_names,
				    &cfg->call_mode);
	case OPT_STALL_TIMEOUT:
		if (parse_dur(ctx, "stall-timeout", arg,
			      &cfg->stall_timeout_ns))
			return EINVAL;
		if (cfg->stall_timeout_ns < 100 * NSEC_PER_MSEC ||
		    cfg->stall_timeout_ns > 86400 * NSEC_PER_SEC)
			return fail(
				ctx,
				"--stall-timeout: '%s' is out of range; expected 100ms to 1d",
				arg);
		return 0;
	case OPT_CPUS:
		return parse_count(ctx, "cpus", arg, 1, RCUT_MAX_CPUS,
				   &cfg->ncpus);
	case OPT_PIN:
		return parse_choice(ctx, "pin", arg, rcut_pin_names, &cfg->pin);
	case OPT_ONOFF_INTERVAL:
		return parse_dur(ctx, "onoff-interval", arg,
				 &cfg->onoff_interval_ns);
	case OPT_ONOFF_HOLDOFF:
		return parse_dur(ctx, "onoff-holdoff", arg,
				 &cfg->onoff_holdoff_ns);
	case OPT_N_BARRIER_CBS:
		return parse_count(ctx, "n-barrier-cbs", arg, 0, RCUT_MAX_CPUS,
				   &cfg->n_barrier_cbs);
	case OPT_FWD_PROGRESS:
		return parse_count(ctx, "fwd-progress", arg, 0, 64,
				   &cfg->fwd_progress);
	case OPT_FWD_PROGRESS_HOLDOFF:
		return parse_dur(ctx, "fwd-progress-holdoff", arg,
				 &cfg->fwd_progress_holdoff_ns);
	case OPT_FWD_PROGRESS_DIV:
		return parse_count(ctx, "fwd-progress-div", arg, 1, 100,
				   &cfg->fwd_progress_div);
	case OPT_CBFLOOD_MAX:
		return parse_count(ctx, "cbflood-max", arg, 1, 10000000,
				   &cfg->cbflood_max);
	case OPT_STUTTER:
		return parse_dur(ctx, "stutter", arg, &cfg->stutter_ns);
	case OPT_SHUFFLE_INTERVAL:
		return parse_dur(ctx, "shuffle-interval", arg,
				 &cfg->shuffle_interval_ns);
	case OPT_READ_EXIT_DELAY:
		return parse_dur(ctx, "read-exit-delay", arg,
				 &cfg->read_exit_delay_ns);
	case OPT_READ_EXIT_BURST:
		return parse_count(ctx, "read-exit-burst", arg, 0,
				   RCUT_MAX_THREADS, &cfg->read_exit_burst);
	case OPT_SCENARIO:
		return apply_scenario(ctx, arg);
	case OPT_DRY_RUN:
		cfg->dry_run = true;
		return 0;
	case OPT_PLUGIN_DIR:
		if (!arg[0])
			return fail(
				ctx,
				"--plugin-dir: empty name; expected a directory (or several separated by colons)");
		if (cfg->nplugin_dirs >= RCUT_MAX_PLUGIN_DIRS)
			return fail(
				ctx,
				"--plugin-dir: given more than %d times; expected at most %d (separate more DIRs by colons)",
				RCUT_MAX_PLUGIN_DIRS, RCUT_MAX_PLUGIN_DIRS);
		cfg->plugin_dirs[cfg->nplugin_dirs++] = arg;
		return 0;
	case OPT_JSON:
		if (!arg[0])
			return fail(
				ctx,
				"--json: empty file name; expected a FILE or - for standard output");
		cfg->json_path = arg;
		return 0;
	case OPT_TEST:
		return parse_choice(ctx, "test", arg, rcut_test_names,
				    &cfg->test);
	case OPT_NWRITERS ... OPT_THREADS:
		return apply_test_option(ctx, key, arg);
	case OPT_VERBOSE:
		cfg->verbose = 2;
		return 0;
	case OPT_QUIET:
		cfg->verbose = 0;
		return 0;
	case OPT_LIST_FLAVORS:
		cfg->action = RCUT_ACTION_LIST_FLAVORS;
		return 0;
	case OPT_HELP:
		cfg->action = RCUT_ACTION_HELP;
		return 0;
	case OPT_USAGE:
		cfg->action = RCUT_ACTION_USAGE;
		return 0;
	case OPT_VERSION:
		cfg->action = RCUT_ACTION_VERSION;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* Flags whose kernel-style value is a boolean that may switch them off. */
static int apply_kernel_flag(struct parse_ctx *ctx, int key, const char *name,
			     const char *value)
{
	bool on;
	long level;

	ctx->given[key] = true;
	if (key == OPT_VERBOSE) {
		/* The kernel's verbose is a level: 0 quiet, 1, 2 chatty. */
		if (rcut_parse_long(value, 0, 2, &level))
			return fail(
				ctx,
				"rcutorture.%s: '%s' is not valid; expected 0, 1 or 2",
				name, value);
		ctx->cfg->verbose = (int)level;
		return 0;
	}
	if (rcut_parse_bool(value, &on))
		return fail(
			ctx,
			"rcutorture.%s: '%s' is not valid; expected a boolean (0/1, y/n, true/false, on/off)",
			name, value);
	if (key == OPT_STOP_ON_FAILURE) {
		ctx->cfg->stop_on_failure = on;
		return 0;
	}
	if (key == OPT_QUIET) {
		ctx->cfg->verbose = on ? 0 : 1;
		return 0;
	}
	return on ? apply_option(ctx, key, NULL) : 0;
}

/* Kernel parameter names that differ from our option names. */
static const struct {
	const char *kernel, *ours;
} kernel_aliases[] = {
	{ "torture_type", "flavor" },
	{ "shutdown_secs", "duration" },
};

/* "rcutorture.PARAM=VALUE": the option --PARAM with VALUE. */
static int apply_kernel_param(struct parse_ctx *ctx, const char *text)
{
	const char *name = text + strlen("rcutorture."),
		   *eq = strchr(name, '=');
	char opt[64];
	size_t len;

	if (!eq || eq == name || (size_t)(eq - name) >= sizeof(opt))
		return fail(ctx, "'%s': expected rcutorture.PARAM=VALUE", text);
	len = (size_t)(eq - name);
	memcpy(opt, name, len);
	opt[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (opt[i] == '_')
			opt[i] = '-';
	for (size_t i = 0;
	     i < sizeof(kernel_aliases) / sizeof(kernel_aliases[0]); i++) {
		if (strncmp(name, kernel_aliases[i].kernel, len) == 0 &&
		    kernel_aliases[i].kernel[len] == '\0')
			snprintf(opt, sizeof(opt), "%s",
				 kernel_aliases[i].ours);
	}
	for (const struct argp_option *o = options; o->name || o->doc; o++) {
		if (!o->name || strcmp(o->name, opt) || o->key == OPT_HELP ||
		    o->key == OPT_USAGE || o->key == OPT_VERSION ||
		    o->key == OPT_LIST_FLAVORS)
			continue;
		if (o->arg)
			return apply_option(ctx, o->key, eq + 1);
		return apply_kernel_flag(ctx, o->key, opt, eq + 1);
	}
	return fail(
		ctx,
		"'%s': unknown parameter rcutorture.%.*s; see rcutorture --help for the options it maps to",
		text, (int)len, name);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct parse_ctx *ctx = state->input;

	switch (key) {
	case ARGP_KEY_ARG:
		if (!strncmp(arg, "rcutorture.", strlen("rcutorture.")))
			return apply_kernel_param(ctx, arg);
		if (!strchr(arg, '=') || !strchr(arg, '.'))
			return fail(
				ctx,
				"unexpected argument '%s'; expected NAME.KEY=VALUE or an option (see --help)",
				arg);
		if (ctx->cfg->nparams >= RCUT_MAX_PARAMS)
			return fail(ctx, "'%s': more than %d flavor parameters",
				    arg, RCUT_MAX_PARAMS);
		ctx->cfg->params[ctx->cfg->nparams++] = arg;
		return 0;
	case ARGP_KEY_ERROR:
		if (state->next > 0 && state->next <= state->argc)
			fail(ctx,
			     "unknown option or missing value: '%s'; see rcutorture --help",
			     state->argv[state->next - 1]);
		else
			fail(ctx, "bad command line; see rcutorture --help");
		return 0;
	case ARGP_KEY_INIT:
	case ARGP_KEY_END:
	case ARGP_KEY_NO_ARGS:
	case ARGP_KEY_ARGS:
	case ARGP_KEY_SUCCESS:
	case ARGP_KEY_FINI:
		return ARGP_ERR_UNKNOWN;
	}
	return apply_option(ctx, key, arg);
}

/* Which tests an option means something to; unlisted ones: every test. */
#define T_TORTURE (1u << RCUT_TEST_TORTURE)
#define T_SCALE (1u << RCUT_TEST_SCALE)
#define T_REF (1u << RCUT_TEST_REF)

static const struct {
	int key;
	unsigned int tests;
} option_scope[] = {
	{ OPT_DURATION, T_TORTURE | T_SCALE },
	{ OPT_STOP_ON_FAILURE, T_TORTURE },
	{ OPT_NFAKEWRITERS, T_TORTURE },
	{ OPT_STAT_INTERVAL, T_TORTURE },
	{ OPT_GP_SYNC, T_TORTURE | T_SCALE },
	{ OPT_GP_EXP, T_TORTURE | T_SCALE },
	{ OPT_GP_NORMAL, T_TORTURE | T_SCALE },
	{ OPT_GP_COND, T_TORTURE },
	{ OPT_GP_POLL, T_TORTURE },
	{ OPT_CALL_RCU, T_TORTURE | T_SCALE },
	{ OPT_READ_EXIT_DELAY, T_TORTURE },
	{ OPT_READ_EXIT_BURST, T_TORTURE },
	{ OPT_ONOFF_INTERVAL, T_TORTURE },
	{ OPT_ONOFF_HOLDOFF, T_TORTURE },
	{ OPT_N_BARRIER_CBS, T_TORTURE },
	{ OPT_FWD_PROGRESS, T_TORTURE },
	{ OPT_FWD_PROGRESS_HOLDOFF, T_TORTURE },
	{ OPT_FWD_PROGRESS_DIV, T_TORTURE },
	{ OPT_CBFLOOD_MAX, T_TORTURE },
	{ OPT_STUTTER, T_TORTURE },
	{ OPT_SHUFFLE_INTERVAL, T_TORTURE },
	{ OPT_NWRITERS, T_SCALE },
	{ OPT_HOLDOFF, T_SCALE },
	{ OPT_GP_ASYNC_MAX, T_SCALE },
	{ OPT_WRITER_HOLDOFF, T_SCALE },
	{ OPT_MIN_SAMPLES, T_SCALE },
	{ OPT_PD_TEST, T_SCALE },
	{ OPT_PD_BUSY_WAIT, T_SCALE },
	{ OPT_PD_RESCHED, T_SCALE },
	{ OPT_PD_SLEEP, T_SCALE },
	{ OPT_LOOPS, T_REF },
	{ OPT_NRUNS, T_REF },
	{ OPT_READDELAY, T_REF | T_SCALE },
	{ OPT_REF_BASELINES, T_REF },
	{ OPT_THREADS, T_REF },
};

static const char *option_name(int key)
{
	for (const struct argp_option *o = options; o->name || o->doc; o++)
		if (o->key == key && o->name)
			return o->name;
	return "?";
}

/* "--test torture or scale" for a set of tests. */
static void describe_tests(unsigned int tests, char *buf, size_t len)
{
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	for (int t = 0; rcut_test_names[t]; t++) {
		if (!(tests & (1u << t)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 n++ ? " or " : "--test ",
					 rcut_test_names[t]);
		if (used >= len)
			return;
	}
}

/* An option given for a test it means nothing to is an error. */
static int check_scope(struct parse_ctx *ctx)
{
	int test = ctx->cfg->test;
	char tests[64];

	for (size_t i = 0; i < sizeof(option_scope) / sizeof(option_scope[0]);
	     i++) {
		if (!ctx->given[option_scope[i].key] ||
		    (option_scope[i].tests & (1u << test)))
			continue;
		describe_tests(option_scope[i].tests, tests, sizeof(tests));
		return fail(ctx, "--%s: only for %s, not --test %s",
			    option_name(option_scope[i].key), tests,
			    rcut_test_names[test]);
	}
	return 0;
}

/* The scale test times one primitive; pd options need the holdout. */
static int check_scale(struct parse_ctx *ctx)
{
	const struct rcut_config *cfg = ctx->cfg;
	const struct rcut_scale_config *sc = &cfg->scale;
	unsigned int gp = cfg->gp_mask;

	if (gp & (gp - 1))
		return fail(
			ctx,
			"--test scale times one primitive; expected at most one of --gp-sync, --gp-exp and --gp-async");
	if (ctx->given[OPT_GP_ASYNC_MAX] && gp != 1u << RCUT_GP_NORMAL)
		return fail(ctx, "--gp-async-max: needs --gp-async");
	if (!sc->pd_test) /* the pd options after --pd-test are consecutive */
		for (int key = OPT_PD_BUSY_WAIT; key <= OPT_PD_SLEEP; key++)
			if (ctx->given[key])
				return fail(ctx, "--%s: needs --pd-test",
					    option_name(key));
	if (sc->pd_test && !sc->pd_resched &&
	    sc->pd_busy_wait_ns >= cfg->stall_timeout_ns)
		return fail(
			ctx,
			"--pd-busy-wait: must be below --stall-timeout (or use --pd-resched): a longer holdout is a stall by definition");
	return 0;
}

/* Checks that need every option: scope, ranges per test, combinations. */
static int check_options(struct parse_ctx *ctx)
{
	const struct rcut_config *cfg = ctx->cfg;

	if (check_scope(ctx))
		return EINVAL;
	if (cfg->test != RCUT_TEST_SCALE && cfg->nreaders == 0)
		return fail(
			ctx,
			"--nreaders: '0' is not valid for --test %s; expected an integer from 1 to %d",
			rcut_test_names[cfg->test], RCUT_MAX_THREADS);
	if (cfg->test != RCUT_TEST_REF && strchr(cfg->flavor_name, ','))
		return fail(
			ctx,
			"--flavor: '%s': a list of flavors is only for --test ref",
			cfg->flavor_name);
	if (cfg->test == RCUT_TEST_REF && cfg->ref.nthreads &&
	    ctx->given[OPT_NREADERS])
		return fail(
			ctx,
			"--threads: --nreaders also sets the reader count; give one of them");
	if (cfg->test == RCUT_TEST_SCALE)
		return check_scale(ctx);
	return 0;
}

static const struct argp argp = { options, parse_opt, "[NAME.KEY=VALUE...]",
				  doc,	   NULL,      NULL,
				  NULL };

/* Parse one argument vector into ctx (the command line or a scenario line). */
static int parse_args(struct parse_ctx *ctx, int argc, char **argv)
{
	error_t e;

	ctx->err[0] = '\0';
	e = argp_parse(&argp, argc, argv,
		       ARGP_NO_EXIT | ARGP_NO_ERRS | ARGP_NO_HELP |
			       ARGP_IN_ORDER,
		       NULL, ctx);
	if (ctx->failed) {
		rcut_one_line(ctx->err);
		return 2;
	}
	if (e) {
		snprintf(ctx->err, ctx->errlen,
			 "bad command line (%s); see rcutorture --help",
			 strerror(e));
		return 2;
	}
	return 0;
}

int rcut_options_parse(int argc, char **argv, struct rcut_config *cfg,
		       char *err, size_t errlen)
{
	struct parse_ctx ctx = { .cfg = cfg, .err = err, .errlen = errlen };
	int ret = parse_args(&ctx, argc, argv);

	/* Options that only make sense together, once all are known. */
	if (!ret && cfg->action == RCUT_ACTION_RUN && check_options(&ctx)) {
		rcut_one_line(err);
		return 2;
	}
	return ret;
}

int rcut_options_apply_scenario(struct rcut_config *cfg, char *err,
				size_t errlen)
{
	const struct rcut_scenario *s = cfg->scenario;
	char msg[512];

	for (int i = 0; i < s->nlines; i++) {
		struct parse_ctx ctx = { .cfg = cfg,
					 .err = msg,
					 .errlen = sizeof(msg),
					 .in_scenario = true };

		if (parse_args(&ctx, s->lines[i].argc, s->lines[i].argv)) {
			snprintf(err, errlen, "%s:%d: %s", s->path,
				 s->lines[i].lineno, msg);
			rcut_one_line(err);
			return 2;
		}
	}
	return 0;
}

/* --scenario: read the file and apply its lines here, in order. */
static int apply_scenario(struct parse_ctx *ctx, const char *arg)
{
	struct rcut_config *cfg = ctx->cfg;
	char msg[512];

	if (ctx->in_scenario)
		return fail(
			ctx,
			"--scenario: a scenario file cannot name another scenario");
	if (cfg->scenario)
		return fail(ctx,
			    "--scenario: given twice; expected one per run");
	/* cfg owns it from here, so rcut_config_release() frees it. */
	cfg->scenario = calloc(1, sizeof(*cfg->scenario));
	if (!cfg->scenario)
		return fail(ctx, "--scenario: out of memory");
	if (rcut_scenario_load(cfg->scenario, arg, msg, sizeof(msg)) ||
	    rcut_options_apply_scenario(cfg, msg, sizeof(msg)))
		return fail(ctx, "%s", msg);
	return 0;
}

static int resolve(const struct rcut_config *cfg,
		   const struct rcut_flavor **flavor, char *err, size_t errlen);

int rcut_options_resolve(const struct rcut_config *cfg,
			 const struct rcut_flavor **flavor, char *err,
			 size_t errlen)
{
	int ret = resolve(cfg, flavor, err, errlen);

	if (ret)
		rcut_one_line(err);
	return ret;
}

/* Every --plugin-dir component must be a directory. */
static int check_plugin_dirs(const struct rcut_config *cfg, char *err,
			     size_t errlen)
{
	struct stat st;
	char dir[4096];

	for (int i = 0; i < cfg->nplugin_dirs; i++) {
		for (const char *d = cfg->plugin_dirs[i], *colon; d;
		     d = colon ? colon + 1 : NULL) {
			colon = strchr(d, ':');
			snprintf(dir, sizeof(dir), "%.*s",
				 (int)(colon ? (size_t)(colon - d) : strlen(d)),
				 d);
			if (dir[0] &&
			    (stat(dir, &st) || !S_ISDIR(st.st_mode))) {
				snprintf(
					err, errlen,
					"--plugin-dir: '%s' is not a directory; expected existing directories separated by colons",
					dir);
				return 2;
			}
		}
	}
	return 0;
}

/* The built-in flavor or the plugin --flavor names. */
static int find_flavor(const struct rcut_config *cfg,
		       const struct rcut_flavor **flavor, char *err,
		       size_t errlen)
{
	const char *name = cfg->flavor_name;
	int ret;

	*flavor = rcut_plugin_is_file(name) ? NULL : rcut_flavor_find(name);
	if (*flavor)
		return 0;
	ret = rcut_plugin_load(name, cfg->plugin_dirs, cfg->nplugin_dirs,
			       flavor, err, errlen);
	if (ret > 0 && ref_baseline_find(name))
		snprintf(
			err, errlen,
			"--flavor: '%s' is a baseline of --test ref, not a flavor; expected one of %s",
			name, rcut_flavor_names());
	else if (ret > 0)
		snprintf(
			err, errlen,
			"--flavor: unknown flavor '%s'; expected one of %s, a plugin FILE (with a '/' or ending in .so) or a plugin NAME in --plugin-dir",
			name, rcut_flavor_names());
	return ret ? 2 : 0;
}

/* rcut_options_resolve's body; err may echo the user's text verbatim. */
static int resolve(const struct rcut_config *cfg,
		   const struct rcut_flavor **flavor, char *err, size_t errlen)
{
	const struct rcut_flavor *f;

	if (check_plugin_dirs(cfg, err, errlen) ||
	    find_flavor(cfg, &f, err, errlen))
		return 2;
	if (rcut_flavor_validate(f, err, errlen))
		return 2;
	if (torture_gp_check(f, cfg->gp_mask, err, errlen))
		return 2;
	if (cfg->test == RCUT_TEST_SCALE && cfg->scale.pd_sleep &&
	    !(f->caps & RCUT_CAP_READER_MAY_BLOCK)) {
		snprintf(
			err, errlen,
			"--pd-sleep: flavor %s's readers may not block; expected a flavor with blocking-readers (see --list-flavors)",
			f->name);
		return 2;
	}
	if (cfg->n_barrier_cbs > 0 && !f->barrier) {
		snprintf(err, errlen,
			 "--n-barrier-cbs: flavor %s has no barrier to test",
			 f->name);
		return 2;
	}
	if (cfg->call_mode != RCUT_CALL_GLOBAL && !f->set_call_mode) {
		snprintf(
			err, errlen,
			"--call-rcu: flavor %s has only one callback queue; expected global",
			f->name);
		return 2;
	}
	for (int i = 0; i < cfg->nparams; i++)
		if (rcut_flavor_set_param(f, cfg->params[i], err, errlen))
			return 2;
	*flavor = f;
	return 0;
}

void rcut_options_help(FILE *out, bool usage_only)
{
	argp_help(&argp, out, usage_only ? ARGP_HELP_USAGE : ARGP_HELP_STD_HELP,
		  (char *)"rcutorture");
}
