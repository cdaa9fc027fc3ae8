// SPDX-License-Identifier: MIT
/*
 * The option table (see options_table.h) and what comes from it without
 * argp: the defaults, the lookup of kernel spellings, and the parameters
 * as the Start/End lines and the JSON document show them.  Keep --help's
 * text and man/rcutorture.1 in step with the rows (a unit test checks the
 * man page names every option with its value and default).
 */
#include "options_table.h"

#include "../util/parse.h"

#include <rcutorture/flavor.h>
#include <rcutorture/storebuf.h>
#include <stdlib.h>
#include <string.h>

const char *const rcut_pin_names[] = { "compact", "scatter", "none", NULL };
const char *const rcut_call_mode_names[] = { "global", "percpu", "perthread",
					     NULL };
const char *const rcut_test_names[] = { "torture", "scale", "ref", NULL };
const char *const rcut_storebuf_model_names[] = { "tso", "arm", NULL };
const char *const rcut_auto_race_mode_names[] = { "uniform", "pct", NULL };

const struct rcut_opt_group_title rcut_opt_groups[] = {
	{ RCUT_GROUP_TEST, "Test selection:" },
	{ RCUT_GROUP_THREADS, "Threads:" },
	{ RCUT_GROUP_CPUS, "Simulated CPUs:" },
	{ RCUT_GROUP_GP,
	  "Grace-period primitives (default: all the flavor has):" },
	{ RCUT_GROUP_OUTPUT, "Output:" },
	{ RCUT_GROUP_HUNT,
	  "Bug hunting (--test torture; see \"Hunting a bug in your RCU\" in rcutorture(1)):" },
	{ RCUT_GROUP_SCALE,
	  "Scale test (--test scale; --gp-sync, --gp-exp or --gp-async picks the primitive):" },
	{ RCUT_GROUP_REF, "Ref test (--test ref):" },
	{ RCUT_GROUP_MINIMIZE,
	  "Reproducing and minimizing a failure (see \"REPRODUCING AND MINIMIZING\" in rcutorture(1)):" },
	{ RCUT_GROUP_INFO, "Information:" },
	{ 0, NULL },
};

/* Row shorthands: the value's field, and its place in the three lines. */
#define F(field) .off = offsetof(struct rcut_config, field)
#define AT(torture, scale, ref) .at = { torture, scale, ref }

/*
 * One row per option.  A Start/End line lists the rows with a position
 * for its test (AT) in that order; the JSON "config" object those with a
 * json_at.  Rows of type RCUT_OPT_NONE, STRING, LIST and ACTION are not
 * printed.
 */
const struct rcut_opt rcut_opts[] = {
	/* Test selection */
	{ .name = "test",
	  .type = RCUT_OPT_CHOICE,
	  .arg = "TEST",
	  F(test),
	  .names = rcut_test_names,
	  .def = RCUT_TEST_TORTURE,
	  .group = RCUT_GROUP_TEST,
	  .help = "torture (find RCU bugs), scale (grace-period latency and updater cost, the kernel's rcuscale) or ref (read-side cost, refscale) (default: torture)" },
	{ .name = "flavor",
	  .short_name = 'f',
	  .kernel = "torture_type",
	  .type = RCUT_OPT_STRING,
	  .custom = RCUT_CUSTOM_FLAVOR,
	  .arg = "NAME",
	  F(flavor_name),
	  .def_str = "memb",
	  .group = RCUT_GROUP_TEST,
	  .help = "RCU flavor to test (default: memb); see --list-flavors.  A NAME with a '/' or ending in .so is a plugin file; a NAME that is no built-in flavor is looked up as NAME.so or librcutorture-NAME.so in --plugin-dir.  --test ref takes a comma-separated list, which may name the baselines none, refcnt, rwlock and mutex" },
	{ .name = "plugin-dir",
	  .custom = RCUT_CUSTOM_PLUGIN_DIR,
	  .arg = "DIR",
	  .group = RCUT_GROUP_TEST,
	  .help = "Where --flavor NAME looks for plugins; repeatable, or several DIRs separated by colons (default: none)" },
	{ .name = "scenario",
	  .custom = RCUT_CUSTOM_SCENARIO,
	  .arg = "NAME|FILE",
	  .group = RCUT_GROUP_TEST,
	  .help = "Apply the options of a scenario file here; options after it override it.  A NAME without '/' is looked up in $RCUTORTURE_SCENARIO_DIR, the installed scenarios and the source tree's ci/scenarios (default: none)" },
	{ .name = "dry-run",
	  .type = RCUT_OPT_FLAG,
	  F(dry_run),
	  .group = RCUT_GROUP_TEST,
	  .help = "Check the options, scenario, flavor and parameters, print the Start of test line, and exit 0 without running" },
	{ .name = "list-flavors",
	  .type = RCUT_OPT_ACTION,
	  .min = RCUT_ACTION_LIST_FLAVORS,
	  .group = RCUT_GROUP_TEST,
	  .help = "List the flavors, a line each, and exit; with -v (or for the one --flavor names) their primitives, aliases and parameters too" },
	{ .name = "duration",
	  .short_name = 'd',
	  .kernel = "shutdown_secs",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(duration_ns),
	  .def = 30 * NSEC_PER_SEC,
	  .tests = RCUT_T_TORTURE | RCUT_T_SCALE,
	  .group = RCUT_GROUP_TEST,
	  .help = "How long to run: a number with suffix ns, us, ms, s, m, h or d; a bare number is seconds; 0 runs until SIGINT (default: 30s).  --test scale: measure at least this long after --holdoff; 0 ends at --min-samples",
	  AT(4, 5, 0),
	  .line_key = { [RCUT_TEST_SCALE] = "minruntime" },
	  .json_at = 4 },
	{ .name = "seed",
	  .type = RCUT_OPT_U64,
	  .custom = RCUT_CUSTOM_SEED,
	  .arg = "N",
	  F(seed),
	  .group = RCUT_GROUP_TEST,
	  .help = "Seed for every random choice, decimal or 0x-hex (default: from the clock; always printed)",
	  AT(5, 19, 0),
	  .json_at = 5 },
	{ .name = "stall-timeout",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(stall_timeout_ns),
	  .min = 100 * NSEC_PER_MSEC,
	  .max = 86400 * NSEC_PER_SEC,
	  .range = "100ms to 1d",
	  .def = 10 * NSEC_PER_SEC,
	  .group = RCUT_GROUP_TEST,
	  .help = "A thread without progress, or a callback not invoked, for this long is a stall: backtraces, exit 4; with --hunt, a grace-period wait that 16 waits or callbacks begun after it have overtaken is one after half of it (100ms to 1d; default: 10s)",
	  AT(10, 18, 7),
	  .json_at = 10 },
	{ .name = "stop-on-failure",
	  .type = RCUT_OPT_FLAG,
	  F(stop_on_failure),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_TEST,
	  .help = "End the run at the first failure instead of at --duration",
	  AT(6, 0, 0),
	  .json_at = 6 },

	/* Threads */
	{ .name = "nreaders",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(nreaders),
	  .min = -RCUT_MAX_THREADS,
	  .max = RCUT_MAX_THREADS,
	  .range =
		  "an integer from 1 to 4096, or the kernel's relative -4096 to -1 (--test scale: 0 to 4096)",
	  .def = RCUT_COUNT_AUTO,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Reader threads, 1 to 4096, or the kernel's relative -4096 to -1: the simulated CPUs - 2 - N, at least 1 (-1: one fewer than the CPUs, -2: as many); --test scale: load readers, 0 to 4096, relative as rcuscale's: the PUs allowed + 1 + N (-1: one per PU); --test ref: a negative N is refscale's default, 3/4 of the PUs (default: one per simulated CPU, with --hunt two per CPU and at least 4; --test ref: three quarters of the PUs, at least 1)",
	  AT(1, 7, 2),
	  .json_at = 1,
	  .from = RCUT_FROM_NREADERS },
	{ .name = "nfakewriters",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(nfakewriters),
	  .min = -RCUT_MAX_THREADS,
	  .max = RCUT_MAX_THREADS,
	  .def = 4,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Fake writer threads, 0 to 4096, or the kernel's relative -4096 to -1: the simulated CPUs - 2 - N, at least 1 (default: 4, as the kernel's)",
	  AT(2, 0, 0),
	  .json_at = 2,
	  .from = RCUT_FROM_NFAKEWRITERS },
	{ .name = "reader-nesting",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(reader_nesting),
	  .min = 1,
	  .max = 64,
	  .def = 4,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "The deepest a reader nests read-side sections, for flavors whose sections nest: one section in 8 is 2 to N deep; 1 to 64, 1: never nested (default: 4)",
	  AT(33, 0, 0),
	  .json_at = 29 },
	{ .name = "irqreader", .type = RCUT_OPT_FLAG, F(irqreader), .tests = RCUT_T_TORTURE, .group = RCUT_GROUP_THREADS, .help = "Interrupt readers: a 1 ms timer signal per reader runs a short read-side section inside the signal handler of that reader, wherever it was (inside its own section too), counted as nt:; only for flavors whose read side is async-signal-safe (default: off; the kernel's is 1)", AT(60, 0, 0), .if_set = RCUT_T_TORTURE, .json_at = 60 },
	{ .name = "extendables",
	  .type = RCUT_OPT_COUNT,
	  .arg = "MASK",
	  F(extendables),
	  .min = 0,
	  .max = 7,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Reader segments: readers build each section from a random list of 2 to 9 segments inside one outer read-side section: a nested section coming and going (where sections nest) and the kinds in MASK: 1 signal-masked stretches, 2 preemption points, 4 in-section delays; a failing reader's segment list is printed; 0 to 7, 0: classic readers; rcutorture.extendables=MASK takes the kernel's bits, 0 to 0x1f, any nonzero mask being 7 here (default: 0; the kernel's 0x1f)",
	  AT(61, 0, 0),
	  .if_set = RCUT_T_TORTURE,
	  .json_at = 61 },
	{ .name = "object-debug",
	  .type = RCUT_OPT_FLAG,
	  F(object_debug),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Duplicate call() test at the start: call() twice on one head inside a read-side section; a flavor that declares duplicate detection must report it, any other flavor's duplicate is flagged by the harness (default: off)",
	  AT(62, 0, 0),
	  .if_set = RCUT_T_TORTURE,
	  .json_at = 62 },
	{ .name = "n-up-down",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(n_up_down),
	  .min = 0,
	  .max = 1024,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Up/down readers (srcu_down_read/srcu_up_read): keep up to N read-side sections in flight that one thread begins and another ends, for flavors with down_read/up_read; 0 to 1024, 0 disables (default: 0; the kernel's is 32)",
	  AT(63, 0, 0),
	  .if_set = RCUT_T_TORTURE,
	  .json_at = 63 },
	{ .name = "reader-cbs",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(reader_cbs),
	  .def = 1000,
	  .min = 0,
	  .max = 1000000000,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Callbacks posted from inside read-side sections (legal, as call_rcu() is in the kernel): one section in N of each reader posts a callback before it ends (when its last one has run), for flavors whose call() never blocks; a callback never invoked is lost within a few grace periods after a barrier; --swarm draws it (readercbs); 0 to 1000000000, 0 disables (default: 1000)",
	  AT(70, 0, 0),
	  .if_set = RCUT_T_TORTURE,
	  .json_at = 70 },
	{ .name = "onoff-call",
	  .type = RCUT_OPT_FLAG,
	  F(onoff_call),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "With --onoff-interval: after each CPU offline, post a callback from that offline CPU (as a hotplug step late in the offline does), then call the barrier before the CPU comes back: the callback must have run by then (default: off)",
	  AT(71, 0, 0),
	  .if_set = RCUT_T_TORTURE,
	  .json_at = 71 },
	{ .name = "illegal-barrier",
	  .type = RCUT_OPT_FLAG,
	  F(illegal_barrier),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Call the barrier where the kernel forbids it, inside a read-side section and from a callback, every 100 ms, for flavors that declare they detect it (RCUT_CAP_BARRIER_CHECK): each such barrier must return at once and be reported by the flavor (default: off)",
	  AT(72, 0, 0),
	  .if_set = RCUT_T_TORTURE,
	  .json_at = 72 },
	{ .name = "read-exit-delay",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(read_exit_delay_ns),
	  .def = 2 * NSEC_PER_SEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Pause between bursts of short-lived reader threads (default: 2s)",
	  AT(8, 0, 0),
	  .json_at = 8 },
	{ .name = "read-exit-burst",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(read_exit_burst),
	  .min = 0,
	  .max = RCUT_MAX_THREADS,
	  .def = 16,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Short-lived reader threads per burst, 0 to 4096; 0 disables read-exit churn (default: 16)",
	  AT(9, 0, 0),
	  .json_at = 9 },
	{ .name = "n-barrier-cbs",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(n_barrier_cbs),
	  .min = 0,
	  .max = RCUT_MAX_CPUS,
	  .def = 1,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Barrier test: N poster threads each post a callback per phase (about ten phases a second), then the flavor's barrier must have run them all; 0 to 1024, 0 disables (default: 1 for a flavor with a barrier, 0 for one without; the kernel's is 0)",
	  AT(15, 0, 0),
	  .json_at = 15 },
	{ .name = "fwd-progress",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(fwd_progress),
	  .min = 0,
	  .max = 64,
	  .def = 1,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Callback-flood (forward-progress) threads, 0 to 64; 0 disables (default: 1)",
	  AT(16, 0, 0),
	  .json_at = 16 },
	{ .name = "fwd-progress-holdoff",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(fwd_progress_holdoff_ns),
	  .def = 10 * NSEC_PER_SEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Pause before and between callback floods (default: 10s)",
	  AT(17, 0, 0),
	  .json_at = 17 },
	{ .name = "fwd-progress-div",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(fwd_progress_div),
	  .min = 1,
	  .max = 100,
	  .def = 4,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "A flood lasts at most --stall-timeout / N, 1 to 100 (default: 4)",
	  AT(18, 0, 0),
	  .json_at = 18 },
	{ .name = "cbflood-max",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(cbflood_max),
	  .min = 1,
	  .max = 10000000,
	  .def = 50000,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Most callbacks one flood keeps outstanding (its memory cap), 1 to 10000000 (default: 50000)",
	  AT(19, 0, 0),
	  .json_at = 19 },
	{ .name = "fwd-progress-need-resched",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(fwd_progress_need_resched),
	  .min = -1,
	  .max = 1,
	  .def = -1,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Run the second forward-progress test after each flood (a loop of short read-side sections that never sleeps), yielding the CPU only when the OS would preempt it anyway (1, the kernel's default) or on every pass (0); -1 runs no second test; -1 to 1 (default: -1)" },
	{ .name = "stall-cpu",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(stall_cpu_ns),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Deliberate stall: after --stall-cpu-holdoff, a thread holds one read-side section (spinning) this long; longer than --stall-timeout, the run must end in a stall report naming it (exit 4); disables the callback floods, as in the kernel; 0 disables (default: 0)",
	  AT(34, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "stall-cpu-holdoff",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(stall_cpu_holdoff_ns),
	  .def = 10 * NSEC_PER_SEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Wait this long after the start before the deliberate stall (default: 10s)" },
	{ .name = "stall-cpu-block",
	  .type = RCUT_OPT_FLAG,
	  F(stall_cpu_block),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "The --stall-cpu thread sleeps inside its section instead of spinning (flavors whose readers may block)",
	  AT(35, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "stall-gp-kthread",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(stall_gp_kthread_ns),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Deliberate stall: after --stall-cpu-holdoff, hold the flavor's grace-period worker this long (flavors with the gp_stall hook: prcu, srcu); 0 disables (default: 0)",
	  AT(36, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "stutter",
	  .kernel_unit = "s", /* seconds, and the kernel's order */
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(stutter_ns),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_THREADS,
	  .help = "Let all torture threads run for this long, then pause them as long, repeatedly; 0 disables; rcutorture.stutter=N is the kernel's: N s, pause first, a negative N disables (default: 0; the kernel's is 5s)",
	  AT(20, 0, 0),
	  .json_at = 20 },

	/* Simulated CPUs */
	{ .name = "cpus",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(ncpus),
	  .min = 1,
	  .max = RCUT_MAX_CPUS,
	  .def = -1,
	  .group = RCUT_GROUP_CPUS,
	  .help = "Simulated CPUs, 1 to 1024; may exceed the PUs (default: the PUs this process may use)",
	  AT(11, 16, 5),
	  .json_at = 11,
	  .from = RCUT_FROM_CPUS },
	{ .name = "pin",
	  .type = RCUT_OPT_CHOICE,
	  .arg = "MODE",
	  F(pin),
	  .names = rcut_pin_names,
	  .def = RCUT_PIN_COMPACT,
	  .group = RCUT_GROUP_CPUS,
	  .help = "Map simulated CPUs to PUs compact (topology order), scatter (spread over cores) or none (no binding) (default: compact)",
	  AT(12, 17, 6),
	  .json_at = 12 },
	{ .name = "onoff-interval",
	  .kernel_unit = "jiffies",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(onoff_interval_ns),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_CPUS,
	  .help = "Take a random simulated CPU offline or online this often; 0 disables; rcutorture.onoff_interval=N is N jiffies (HZ=1000), as in the kernel (default: 0)",
	  AT(13, 0, 0),
	  .json_at = 13 },
	{ .name = "onoff-holdoff",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(onoff_holdoff_ns),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_CPUS,
	  .help = "Wait this long before the first CPU offline (default: 0)",
	  AT(14, 0, 0),
	  .json_at = 14 },
	{ .name = "shuffle-interval", .type = RCUT_OPT_DURATION, .arg = "DURATION", F(shuffle_interval_ns), .tests = RCUT_T_TORTURE, .group = RCUT_GROUP_CPUS, .help = "Every interval, make the next simulated CPU idle (threads avoid it); 0 disables (default: 0; the kernel's is 3s)", AT(21, 0, 0), .json_at = 21 },

	/* Grace-period primitives: the JSON document lists them as "gp". */
	{ .name = "gp-sync",
	  .type = RCUT_OPT_GP,
	  .min = RCUT_GP_SYNC,
	  .tests = RCUT_T_TORTURE | RCUT_T_SCALE,
	  .group = RCUT_GROUP_GP,
	  .help = "Use synchronize()",
	  AT(22, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "gp-exp",
	  .type = RCUT_OPT_GP,
	  .min = RCUT_GP_EXP,
	  .tests = RCUT_T_TORTURE | RCUT_T_SCALE,
	  .group = RCUT_GROUP_GP,
	  .help = "Use expedited synchronize()",
	  AT(23, 3, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "gp-normal",
	  .alias = "gp-async",
	  .type = RCUT_OPT_GP,
	  .min = RCUT_GP_NORMAL,
	  .tests = RCUT_T_TORTURE | RCUT_T_SCALE,
	  .group = RCUT_GROUP_GP,
	  .help = "Use asynchronous callbacks (call()) in the writer",
	  AT(24, 1, 0),
	  .line_key = { [RCUT_TEST_SCALE] = "gp_async" },
	  .if_set = RCUT_T_TORTURE },
	{ .name = "gp-cond",
	  .type = RCUT_OPT_GP,
	  .min = RCUT_GP_COND,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "Use a grace-period cookie and cond_sync()",
	  AT(25, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "gp-poll",
	  .type = RCUT_OPT_GP,
	  .min = RCUT_GP_POLL,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "Use start_gp_poll() and poll_gp_state()",
	  AT(26, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "nocbs-nthreads",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(nocbs_nthreads),
	  .min = 0,
	  .max = 64,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "Call-queue toggling (the kernel's nocb toggling): N threads each switch the flavor's callback queues between global, percpu and perthread every --nocbs-toggle while callbacks are in flight (flavors with the switch_call_mode hook: the liburcu ones), 0 to 64; 0 disables (default: 0)",
	  AT(39, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "nocbs-toggle",
	  .kernel_unit = "ms",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(nocbs_toggle_ns),
	  .min = 1000000, /* 1 ms */
	  .max = 3600 * NSEC_PER_SEC,
	  .range = "1ms to 1h",
	  .def = 1 * NSEC_PER_SEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "Time between two toggles of one --nocbs-nthreads thread, plus up to an eighth more at random (1ms to 1h; rcutorture.nocbs_toggle=N is N ms, as in the kernel; default: 1s)" },
	{ .name = "gp-cond-full",
	  .type = RCUT_OPT_GP,
	  .min = RCUT_GP_COND_FULL,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "Use a full grace-period cookie and cond_sync_full() (the kernel's get_state_synchronize_rcu_full() family)",
	  AT(37, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "gp-poll-full",
	  .type = RCUT_OPT_GP,
	  .min = RCUT_GP_POLL_FULL,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "Use start_gp_poll_full() and poll_gp_state_full()",
	  AT(38, 0, 0),
	  .if_set = RCUT_T_TORTURE },
	{ .name = "exp-gp-bound",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(exp_gp_bound_ns),
	  .min = 0,
	  .max = 86400 * NSEC_PER_SEC,
	  .range = "0 to 1d",
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "Expedited grace-period latency check: nine in ten or more of the expedited grace periods timed taking longer than this is a failure, as soon as it holds of 1000 or more, or at the end of the run of 100 or more (a latency floor, which waiting for a CPU on a loaded machine does not make); 0 to 1d, 0 disables (default: 0)",
	  AT(73, 0, 0),
	  .if_set = RCUT_T_TORTURE,
	  .json_at = 73 },
	{ .name = "gp-cond-wi",
	  .kernel_unit = "us",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(gp_cond_wi_ns),
	  .min = 1000, /* 1 us */
	  .max = 1 * NSEC_PER_SEC,
	  .range = "1us to 1s",
	  .def = 1 * NSEC_PER_MSEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "The writer and fake writers wait a random time below this between taking a cookie and cond_sync() (1us to 1s; rcutorture.gp_cond_wi=N is N us, as in the kernel, whose default is 16 jiffies; default: 1ms)" },
	{ .name = "gp-poll-wi",
	  .kernel_unit = "us",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(gp_poll_wi_ns),
	  .min = 1000, /* 1 us */
	  .max = 1 * NSEC_PER_SEC,
	  .range = "1us to 1s",
	  .def = 550 * NSEC_PER_USEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_GP,
	  .help = "The writer and fake writers sleep a random time below this between two polls of a cookie (1us to 1s; rcutorture.gp_poll_wi=N is N us, as in the kernel, whose default is 16 jiffies; default: 550us)" },
	{ .name = "call-rcu",
	  .type = RCUT_OPT_CHOICE,
	  .arg = "MODE",
	  F(call_mode),
	  .names = rcut_call_mode_names,
	  .def = RCUT_CALL_GLOBAL,
	  .tests = RCUT_T_TORTURE | RCUT_T_SCALE,
	  .group = RCUT_GROUP_GP,
	  .help = "Callback queues: global, percpu (one per CPU) or perthread (default: global)",
	  AT(7, 15, 0),
	  .json_at = 7 },

	/* Output */
	{ .name = "stat-interval",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(stat_interval_ns),
	  .def = 15 * NSEC_PER_SEC,
	  .group = RCUT_GROUP_OUTPUT,
	  .help = "Print the stats block this often; 0 prints it only at the end.  A terminal shows a live progress line (elapsed / total) from the start, erased before other output; on a TERM=dumb terminal, with --quiet and for --test scale and ref, a progress line on standard error this often instead (default: 15s)",
	  AT(3, 0, 0),
	  .json_at = 3 },
	{ .name = "verbose",
	  .short_name = 'v',
	  .type = RCUT_OPT_INT,
	  .custom = RCUT_CUSTOM_VERBOSE,
	  F(verbose),
	  .def = 1,
	  .group = RCUT_GROUP_OUTPUT,
	  .help = "Print more: the flavor's primitives and the threads at start; --test scale: every kept sample as a writer-duration line (by default at most 10000 of them)",
	  .json_at = 22 },
	{ .name = "quiet",
	  .short_name = 'q',
	  .custom = RCUT_CUSTOM_QUIET,
	  .group = RCUT_GROUP_OUTPUT,
	  .help = "No periodic stats blocks: only the final block, failures and the verdict" },
	{ .name = "json",
	  .type = RCUT_OPT_STRING,
	  .arg = "FILE",
	  F(json_path),
	  .empty = "empty file name; expected a FILE or - for standard output",
	  .group = RCUT_GROUP_OUTPUT,
	  .help = "Also write the whole report as one JSON document to FILE; - is standard output, and the text report then goes to standard error (default: none)" },

	/* Bug hunting */
	{ .name = "preempt-duration",
	  .kernel_unit = "ms",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(preempt_duration_ns),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "Preemption injection: a preempted thread is kept away (spinning or sleeping in a signal handler, wherever it was) for a random time from 1 us up to this, mostly microseconds; at most --stall-timeout / 4; 0 disables; rcutorture.preempt_duration=N is N ms, as in the kernel (default: 0)",
	  AT(27, 0, 0),
	  .json_at = 23 },
	{ .name = "preempt-interval",
	  .kernel_unit = "ms",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(preempt_interval_ns),
	  .min = 10000, /* 10 us */
	  .max = 86400 *
		 NSEC_PER_SEC,
	  .range = "0.01ms to 1d",
	  .def = 1 * NSEC_PER_SEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "Mean time between two injected preemptions, each of a random torture thread, a reader three times in four (0.01ms to 1d; rcutorture.preempt_interval=N is N ms, as in the kernel; default: 1s)",
	  AT(28, 0, 0),
	  .json_at = 24 },
	{ .name = "race-delay",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(race_delay),
	  .min = 0,
	  .max = 1000000000,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "Race delays: one pass in N through a flavor's race points (rcut_race_point) yields, spins or sleeps there; 0 to 1000000000, 0 disables (default: 0)",
	  AT(29, 0, 0),
	  .json_at = 25 },
	{ .name = "race-delay-max",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(race_delay_max_ns),
	  .min = 1000, /* 1 us */
	  .max = 86400 *
		 NSEC_PER_SEC,
	  .range = "0.001ms to 1d",
	  .def = 1 * NSEC_PER_MSEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "The longest race-point delay (most are 1 to 50 us); at most --stall-timeout / 4 (0.001ms to 1d; default: 1ms)",
	  AT(30, 0, 0),
	  .json_at = 26 },
	{ .name = "swarm",
	  .type = RCUT_OPT_FLAG,
	  F(swarm),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "Swarm run: from the seed, draw which features run and at what rates (preemption, race delays, CPU offlining, floods, barrier test, stutter, reader nesting, in-section delays, grace-period primitives, tight reads, counter wrap, automatic race points' mode, callback queue layout) and print the draw; options given explicitly are kept",
	  AT(31, 0, 0),
	  .json_at = 27 },
	{ .name = "swarm-interval",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(swarm_interval_ns),
	  .min = 0,
	  .max = 86400 *
		 NSEC_PER_SEC,
	  .range = "0 to 1d",
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "With --swarm: draw again this often while the run goes on (preemption, race delays, reader nesting, in-section delays, tight reads, the grace-period rate and primitives; the threads' features, CPU offlining, floods, barrier test and stutter, the counter wrap and the callback queues stay as first drawn), printing each draw; a failure names the draw it came under; looked at every 10 ms; 0: one draw per run (0 to 1d; default: 0, with --hunt 1s)",
	  AT(40, 0, 0),
	  .json_at = 30,
	  .if_set = RCUT_T_TORTURE },
	{ .name = "gpwrap-lag",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(gpwrap_lag),
	  .min = 0,
	  .max = 1000000000,
	  .def = 300,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "Start the flavor's grace-period counters N grace periods before they wrap around, so that the run crosses the wrap (the kernel starts its counters 300 grace periods short of it); passed as the flavor's standard parameter NAME.gpwrap_lag (prcu, srcu and the mutant catalogue's bases have it; given for a flavor without it, an error); 0 to 1000000000, 0: counters start at 0 (default: 300, as the kernel's, for a flavor with the parameter unless NAME.gpwrap_lag is given; 0 for others)",
	  AT(41, 0, 0),
	  .json_at = 31,
	  .if_set = RCUT_T_TORTURE },
	{ .name = "store-buffer-delay",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(store_buffer_delay_ns),
	  .min = 0,
	  .max = 1 * NSEC_PER_SEC,
	  .def = 200000,
	  .range = "0 to 1s",
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "Store-buffer emulation, for a plugin built with pkg-config rcutorture-storebuf: each of its atomic stores weaker than seq_cst stays in a per-thread FIFO for a random time up to this before other threads see it, unless a fence, locked operation or membarrier drains it; given for a flavor not so built, an error; 0 disables (0 to 1s; default: 200us for an instrumented plugin, as with --hunt; 0 for others)",
	  AT(64, 0, 0),
	  .json_at = 64,
	  .if_set = RCUT_T_TORTURE },
	{ .name = "store-buffer-model",
	  .type = RCUT_OPT_CHOICE,
	  .arg = "MODEL",
	  F(store_buffer_model),
	  .names = rcut_storebuf_model_names,
	  .def = RCUT_STOREBUF_TSO,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "Which reorderings the store-buffer emulation shows: tso (x86: seq_cst stores and every locked operation drain the buffer) or arm (Armv8: seq_cst stores wait in the buffer too, and only a seq_cst load, a fence or a read-modify-write drains it, so a seq_cst store may pass a later weaker load, and a reader's section loads may pass an unlock store that nothing orders after them); needs --store-buffer-delay or --hunt (default: tso)",
	  AT(65, 0, 0),
	  .json_at = 65,
	  .if_set = RCUT_T_TORTURE },
	{ .name = "auto-race",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(auto_race),
	  .min = 0,
	  .max = 1000000000,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "Automatic race points, for a plugin built with pkg-config rcutorture-storebuf: the library stops a thread at about one of its instrumented accesses (loads, stores, read-modify-writes, fences, plain accesses too) in N, with a race delay (yield, spin or sleep up to --race-delay-max), so that a flavor needs no rcut_race_point() of its own; an error for a flavor not so built; 0 disables (0 to 1000000000; default: 0, with --hunt 500 for an instrumented plugin)",
	  AT(74, 0, 0),
	  .json_at = 74,
	  .if_set = RCUT_T_TORTURE },
	{ .name = "auto-race-mode",
	  .type = RCUT_OPT_CHOICE,
	  .arg = "MODE",
	  F(auto_race_mode),
	  .names = rcut_auto_race_mode_names,
	  .def = 0,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "How --auto-race chooses where threads stop: uniform (each access alike, one in N) or pct (PCT's random thread priorities, redrawn every N microseconds: a thread that sees a higher one running waits at its accesses, and two change points per epoch demote the thread that reaches one); needs --auto-race or --hunt; --swarm and --hunt draw one or the other in each draw unless it is given (default: uniform)",
	  AT(75, 0, 0),
	  .json_at = 75,
	  .if_set = RCUT_T_TORTURE },
	{ .name = "hunt",
	  .type = RCUT_OPT_FLAG,
	  F(hunt),
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_HUNT,
	  .help = "The bug-hunting preset: --swarm with preemption and race delays always on (their rates drawn), --preempt-duration 5ms --preempt-interval 0.5ms --race-delay 20 --race-delay-max 2ms as the draw's ceilings, --swarm-interval 1s, two readers per simulated CPU (at least 4), the barrier test and the counter wrap in every run, tight reads also in runs with CPU offlining (no CPU goes offline while they are on), for a flavor whose grace periods sleep on a wakeup word (liburcu's) quiet spells in half the draws (every reader parks 20 ms in 40, as --stutter 20ms; none with --stutter), and a grace-period wait overtaken by 16 later waits or callbacks a stall after half of --stall-timeout; explicit options are kept",
	  AT(32, 0, 0),
	  .json_at = 28 },

	/* --test scale */
	{ .name = "nwriters",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(scale.nwriters),
	  .min = -RCUT_MAX_THREADS,
	  .max = RCUT_MAX_THREADS,
	  .range =
		  "an integer from 1 to 4096, or the kernel's relative -4096 to -1",
	  .def = 1,
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "Writer threads timing grace periods, 1 to 4096, or rcuscale's relative -4096 to -1: the PUs allowed + 1 + N, at least 1 (-1: one per PU, the kernel's default) (default: 1)",
	  AT(0, 8, 0),
	  .from = RCUT_FROM_NWRITERS },
	{ .name = "holdoff",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(scale.holdoff_ns),
	  .def = 1 * NSEC_PER_SEC,
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "Wait this long after the start before measuring (default: 1s)",
	  AT(0, 4, 0) },
	{ .name = "gp-async-max",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(scale.gp_async_max),
	  .min = 1,
	  .max = 1000000,
	  .def = 1000,
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "With --gp-async: most callbacks in flight per writer, 1 to 1000000 (default: 1000)",
	  AT(0, 2, 0) },
	{ .name = "writer-holdoff",
	  .kernel_unit = "us",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(scale.writer_holdoff_ns),
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "Pause between one writer's grace periods; rcuscale.writer_holdoff=N is N us, as in the kernel (default: 0)",
	  AT(0, 9, 0) },
	{ .name = "min-samples",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(scale.min_samples),
	  .min = 1,
	  .max = 1000000,
	  .def = 100,
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "Grace periods each writer must time before the test ends, 1 to 1000000 (default: 100)",
	  AT(0, 6, 0) },
	{ .name = "pd-test",
	  .type = RCUT_OPT_FLAG,
	  F(scale.pd_test),
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "Add a holdout reader that stays in a read-side section (QSBR: reports no quiescent state) for --pd-busy-wait per loop",
	  AT(0, 11, 0) },
	{ .name = "pd-busy-wait",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(scale.pd_busy_wait_ns),
	  .min = 1,
	  .range = "a duration above 0",
	  .def = 5 * NSEC_PER_MSEC,
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "The holdout reader's time in a section per loop, above 0 and below --stall-timeout unless --pd-resched (default: 5ms)",
	  AT(0, 12, 0) },
	{ .name = "pd-resched",
	  .type = RCUT_OPT_FLAG,
	  F(scale.pd_resched),
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "Break the holdout reader's wait every 1 ms: leave and re-enter the section (QSBR: report a quiescent state)",
	  AT(0, 13, 0) },
	{ .name = "pd-sleep",
	  .type = RCUT_OPT_FLAG,
	  F(scale.pd_sleep),
	  .tests = RCUT_T_SCALE,
	  .group = RCUT_GROUP_SCALE,
	  .help = "The holdout reader sleeps through its --pd-busy-wait instead of spinning: a reader blocked in its section (flavors whose readers may block)",
	  AT(0, 14, 0) },

	/* --test ref */
	{ .name = "loops",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(ref.loops),
	  .min = 1,
	  .max = 1000000000,
	  .def = 10000,
	  .tests = RCUT_T_REF,
	  .group = RCUT_GROUP_REF,
	  .help = "Read-side sections each reader times per run, 1 to 1000000000 (default: 10000)",
	  AT(0, 0, 1) },
	{ .name = "nruns",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(ref.nruns),
	  .min = 1,
	  .max = 10000,
	  .def = 30,
	  .tests = RCUT_T_REF,
	  .group = RCUT_GROUP_REF,
	  .help = "Runs per flavor and reader count, 1 to 10000 (default: 30)",
	  AT(0, 0, 3) },
	{ .name = "readdelay",
	  .type = RCUT_OPT_COUNT,
	  .arg = "NS",
	  F(ref.readdelay_ns),
	  .min = 0,
	  .max = 10000000,
	  .tests = RCUT_T_REF | RCUT_T_SCALE,
	  .group = RCUT_GROUP_REF,
	  .help = "Busy-wait this many nanoseconds inside each section, 0 to 10000000 (default: 0); nonzero goes through read_lock/read_unlock, not the inlined ref_loop.  --test scale: the load readers' sections",
	  AT(0, 10, 4) },
	{ .name = "ref-baselines",
	  .type = RCUT_OPT_FLAG,
	  F(ref.baselines),
	  .tests = RCUT_T_REF,
	  .group = RCUT_GROUP_REF,
	  .help = "Also measure every baseline: none (no protection), refcnt (atomic refcount), rwlock (pthread rwlock read side), mutex (pthread mutex)" },
	{ .name = "threads",
	  .type = RCUT_OPT_LIST,
	  .arg = "LIST",
	  F(ref.threads),
	  .count_off = offsetof(struct rcut_config, ref.nthreads),
	  .max_n = RCUT_MAX_SWEEP,
	  .min = 1,
	  .max = RCUT_MAX_THREADS,
	  .tests = RCUT_T_REF,
	  .group = RCUT_GROUP_REF,
	  .help = "Reader counts to sweep, comma-separated, each 1 to 4096, e.g. 1,2,4: a lookups/s table, one column per flavor (default: --nreaders)" },

	/* Reproducing and minimizing */
	{ .name = "replay",
	  .custom = RCUT_CUSTOM_REPLAY,
	  .arg = "FILE.json",
	  .group = RCUT_GROUP_MINIMIZE,
	  .help = "Run again what a --json report describes: the arguments of its config.args (the repro line's), applied here; options after it override them (default: none)" },
	{ .name = "minimize",
	  .type = RCUT_OPT_ACTION,
	  .min = RCUT_ACTION_MINIMIZE,
	  .group = RCUT_GROUP_MINIMIZE,
	  .help = "Shrink this failing command: rerun it with options removed and counts and intervals reduced, keep a change only while the failure (the same exit status) shows in --minimize-fails of --minimize-runs runs, print the smallest command found, how often and how fast it fails" },
	{ .name = "minimize-budget",
	  .type = RCUT_OPT_DURATION,
	  .arg = "DURATION",
	  F(minimize_budget_ns),
	  .min = 1 * NSEC_PER_SEC,
	  .max = 86400 * NSEC_PER_SEC,
	  .range = "1s to 1d",
	  .def = 600 * NSEC_PER_SEC,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_MINIMIZE,
	  .help = "--minimize: wall time for the whole search; a run the budget cuts short counts for nothing (1s to 1d; default: 600s, ten minutes)" },
	{ .name = "minimize-runs",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(minimize_runs),
	  .min = 1,
	  .max = 100,
	  .def = 5,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_MINIMIZE,
	  .help = "--minimize: runs of a candidate command at most (n), 1 to 100 (default: 5)" },
	{ .name = "minimize-fails",
	  .type = RCUT_OPT_COUNT,
	  .arg = "N",
	  F(minimize_fails),
	  .min = 1,
	  .max = 100,
	  .def = 4,
	  .tests = RCUT_T_TORTURE,
	  .group = RCUT_GROUP_MINIMIZE,
	  .help = "--minimize: failures a candidate must show in its --minimize-runs runs to be kept (k), 1 to 100; more than --minimize-runs means all of them (default: 4)" },

	/* Information */
	{ .name = "help",
	  .short_name = 'h',
	  .type = RCUT_OPT_ACTION,
	  .min = RCUT_ACTION_HELP,
	  .group = RCUT_GROUP_INFO,
	  .help = "Print this help and exit" },
	{ .name = "usage",
	  .type = RCUT_OPT_ACTION,
	  .min = RCUT_ACTION_USAGE,
	  .group = RCUT_GROUP_INFO,
	  .help = "Print a short usage message and exit" },
	{ .name = "version",
	  .short_name = 'V',
	  .type = RCUT_OPT_ACTION,
	  .min = RCUT_ACTION_VERSION,
	  .group = RCUT_GROUP_INFO,
	  .help = "Print the version and exit" },
};

const int rcut_nopts = (int)(sizeof(rcut_opts) / sizeof(rcut_opts[0]));

_Static_assert(sizeof(rcut_opts) / sizeof(rcut_opts[0]) <= RCUT_OPT_MAX,
	       "raise RCUT_OPT_MAX");

/* Where a row's value lives in cfg. */
static const void *field(const struct rcut_config *cfg,
			 const struct rcut_opt *o)
{
	return (const char *)cfg + o->off;
}

void rcut_config_defaults(struct rcut_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->action = RCUT_ACTION_RUN;
	for (int i = 0; i < rcut_nopts; i++) {
		const struct rcut_opt *o = &rcut_opts[i];
		void *v = (char *)cfg + o->off;

		switch (o->type) {
		case RCUT_OPT_FLAG:
			*(bool *)v = o->def != 0;
			break;
		case RCUT_OPT_COUNT:
			*(long *)v = (long)o->def;
			break;
		case RCUT_OPT_DURATION:
		case RCUT_OPT_U64:
			*(uint64_t *)v = (uint64_t)o->def;
			break;
		case RCUT_OPT_INT:
		case RCUT_OPT_CHOICE:
			*(int *)v = (int)o->def;
			break;
		case RCUT_OPT_STRING:
			*(const char **)v = o->def_str;
			break;
		default: /* no field, or zero by definition */
			break;
		}
	}
}

const struct rcut_opt *rcut_opt_find(const char *name)
{
	for (int i = 0; i < rcut_nopts; i++)
		if (!strcmp(rcut_opts[i].name, name) ||
		    (rcut_opts[i].alias && !strcmp(rcut_opts[i].alias, name)))
			return &rcut_opts[i];
	return NULL;
}

bool rcut_opt_given(const struct rcut_config *cfg, const char *name)
{
	const struct rcut_opt *o = rcut_opt_find(name);

	return o && cfg->given[o - rcut_opts];
}

const struct rcut_opt *rcut_opt_find_kernel(const char *name, size_t len,
					    char *dashed, size_t dashed_len)
{
	const struct rcut_opt *o = NULL;

	if (len >= dashed_len)
		return NULL;
	memcpy(dashed, name, len);
	dashed[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (dashed[i] == '_')
			dashed[i] = '-';
	for (int i = 0; i < rcut_nopts && !o; i++)
		if (rcut_opts[i].kernel &&
		    strncmp(rcut_opts[i].kernel, name, len) == 0 &&
		    rcut_opts[i].kernel[len] == '\0')
			o = &rcut_opts[i];
	/* rcuscale's and refscale's name for rcutorture's torture_type. */
	if (!o && len == strlen("scale_type") &&
	    !strncmp(name, "scale_type", len))
		o = rcut_opt_find("flavor");
	if (!o)
		o = rcut_opt_find(dashed);
	/* A key a Start line prints (minruntime) reads back as itself. */
	for (int i = 0; i < rcut_nopts && !o; i++)
		for (int t = 0; t < RCUT_NTESTS && !o; t++)
			if (rcut_opts[i].line_key[t] &&
			    strncmp(rcut_opts[i].line_key[t], name, len) == 0 &&
			    rcut_opts[i].line_key[t][len] == '\0')
				o = &rcut_opts[i];
	return o && o->type != RCUT_OPT_ACTION ? o : NULL;
}

/* The key of row o in list `which`: given, or its name with '_'. */
static void param_key(const struct rcut_opt *o, int which, char *key)
{
	const char *given = which < RCUT_NTESTS ?
				    o->line_key[which] :
				    o->line_key[RCUT_TEST_TORTURE];
	size_t i;

	snprintf(key, RCUT_OPT_KEY_LEN, "%s", given ? given : o->name);
	for (i = 0; key[i]; i++)
		if (key[i] == '-')
			key[i] = '_';
	if (which == RCUT_PARAMS_JSON && o->type == RCUT_OPT_DURATION)
		snprintf(key + i, RCUT_OPT_KEY_LEN - i, "_s");
}

/* A value the run resolved (nreaders, ...), or -1 if o has none. */
static long resolved(const struct rcut_opt *o, const struct rcut_opt_run *run)
{
	switch (o->from) {
	case RCUT_FROM_NREADERS:
		return run->nreaders;
	case RCUT_FROM_NWRITERS:
		return run->nwriters;
	case RCUT_FROM_CPUS:
		return run->ncpus;
	case RCUT_FROM_NFAKEWRITERS:
		return run->nfakewriters;
	default:
		return -1;
	}
}

/* Row o's value in cfg (or run) as a typed parameter. */
static void param_value(const struct rcut_config *cfg,
			const struct rcut_opt_run *run,
			const struct rcut_opt *o, struct rcut_value *p)
{
	const void *v = field(cfg, o);

	p->kind = RCUT_VAL_INT;
	switch (o->type) {
	case RCUT_OPT_FLAG:
		p->kind = RCUT_VAL_BOOL;
		p->i = *(const bool *)v;
		break;
	case RCUT_OPT_GP:
		p->kind = RCUT_VAL_BOOL;
		p->i = (cfg->gp_mask >> o->min) & 1;
		break;
	case RCUT_OPT_COUNT:
		p->i = o->from ? resolved(o, run) : *(const long *)v;
		break;
	case RCUT_OPT_INT:
		p->i = *(const int *)v;
		break;
	case RCUT_OPT_DURATION:
		p->kind = RCUT_VAL_SECS;
		p->ns = *(const uint64_t *)v;
		break;
	case RCUT_OPT_U64:
		p->kind = RCUT_VAL_TEXT;
		snprintf(p->text, sizeof(p->text), "%llu",
			 (unsigned long long)*(const uint64_t *)v);
		break;
	case RCUT_OPT_CHOICE:
		p->kind = RCUT_VAL_TEXT;
		p->i = *(const int *)v; /* if_set: the first choice is unset */
		snprintf(p->text, sizeof(p->text), "%s",
			 o->names[*(const int *)v]);
		break;
	default: /* not printable: a unit test keeps them out of the lists */
		p->i = 0;
		break;
	}
}

/* The row at position pos of list `which`, or NULL. */
static const struct rcut_opt *row_at(int which, int pos)
{
	for (int i = 0; i < rcut_nopts; i++) {
		const struct rcut_opt *o = &rcut_opts[i];

		if ((which < RCUT_NTESTS ? o->at[which] : o->json_at) == pos)
			return o;
	}
	return NULL;
}

int rcut_opt_params(const struct rcut_config *cfg,
		    const struct rcut_opt_run *run, int which,
		    struct rcut_value *out, int max)
{
	int n = 0;

	for (int pos = 1; pos <= UINT8_MAX && n < max; pos++) {
		const struct rcut_opt *o = row_at(which, pos);

		if (!o)
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		param_key(o, which, out[n].key);
		param_value(cfg, run, o, &out[n]);
		if (which < RCUT_NTESTS && (o->if_set & (1u << which)) &&
		    !out[n].i && !out[n].ns)
			continue;
		n++;
	}
	return n;
}

/* What a Start/End line prints after "key=". */
static void param_text(const struct rcut_value *p, char *buf, size_t len)
{
	switch (p->kind) {
	case RCUT_VAL_SECS:
		rcut_format_duration(p->ns, buf, len);
		break;
	case RCUT_VAL_TEXT:
		snprintf(buf, len, "%s", p->text);
		break;
	default:
		snprintf(buf, len, "%lld", p->i);
		break;
	}
}

void rcut_opt_print_params(FILE *out, const struct rcut_config *cfg,
			   const struct rcut_opt_run *run, const char *flavor,
			   const char *what)
{
	static const char *const suffix[RCUT_NTESTS] = {
		[RCUT_TEST_TORTURE] = "torture",
		[RCUT_TEST_SCALE] = "scale",
		[RCUT_TEST_REF] = "ref-scale",
	};
	struct rcut_value p[RCUT_OPT_MAX];
	int n = rcut_opt_params(cfg, run, run->test, p, RCUT_OPT_MAX);
	char text[32];

	fprintf(out, "%s-%s:--- %s:", flavor, suffix[run->test], what);
	for (int i = 0; i < n; i++) {
		param_text(&p[i], text, sizeof(text));
		fprintf(out, " %s=%s", p[i].key, text);
	}
	for (int i = 0; i < cfg->nparams; i++)
		fprintf(out, " %s", cfg->params[i]);
	fputc('\n', out);
	fflush(out);
}

bool rcut_opt_default_text(const struct rcut_opt *o, char *buf, size_t len)
{
	switch (o->type) {
	case RCUT_OPT_COUNT:
		if (o->def < o->min) /* decided at run time */
			return false;
		snprintf(buf, len, "%lld", o->def);
		return true;
	case RCUT_OPT_DURATION: /* the documents write a zero as "0" */
		if (o->def)
			rcut_format_duration((uint64_t)o->def, buf, len);
		else
			snprintf(buf, len, "0");
		return true;
	case RCUT_OPT_CHOICE:
		snprintf(buf, len, "%s", o->names[o->def]);
		return true;
	case RCUT_OPT_STRING:
		snprintf(buf, len, "%s", o->def_str ? o->def_str : "none");
		return true;
	default:
		return false;
	}
}
