// SPDX-License-Identifier: MIT
/*
 * Option parsing with glibc argp, driven by the option table
 * (torture/options_table.c): argp's options, the parsing and range check
 * of each value by its type, the scope of each option and the
 * "rcutorture.PARAM=VALUE" arguments (the kernel's boot syntax) all come
 * from its rows; the few options that need more (flavor, seed, verbosity,
 * scenario, plugin directories) have a custom handler here.  Every value
 * is checked before any thread starts; a bad one yields a single line
 * that names the option and what it accepts.
 */
#define _GNU_SOURCE
#include "options.h"

#include "bundled.h"
#include "hunt.h"
#include "../torture/util/parse.h"
#include "scenario.h"
#include "replay.h"
#include "../flavors/plugin.h"
#include "../flavors/registry.h"
#include "../torture/core/gp.h"
#include "../torture/config/kernel_na.h"
#include "../torture/config/options_table.h"
#include "../torture/tests/ref.h"
#include "../torture/util/delay.h"

#include <argp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* argp prints "Report bugs to %s." at the end of --help. */
const char *argp_program_bug_address =
	"the project's issue tracker: see \"Reporting bugs\" in README.md\n"
	"(PREFIX/share/doc/rcutorture/README.md when installed) for where and\n"
	"what to include";

static const char doc[] =
	"Torture-test and benchmark a userspace RCU implementation.\n\n"
	"Arguments of the form NAME.KEY=VALUE set a flavor parameter (for "
	"example prcu.migrate_cbs=0); rcutorture.PARAM=VALUE sets the option "
	"--PARAM (underscores may stand for dashes, as in the kernel's boot "
	"parameters: rcutorture.stat_interval=5, rcutorture.torture_type=memb; "
	"also torture., rcuscale. and refscale.); a bare number there is in "
	"the kernel's unit (rcutorture.onoff_interval=3 is 3 jiffies)."
	"\vExit status: 0 SUCCESS, 1 FAILURE, 2 usage error, 3 RCU_HOTPLUG, "
	"4 stall, 5 internal error.  See rcutorture(1).";

/* argp keys: a row's short option, or this plus the row's index. */
#define KEY_BASE 0x100

/* Parsing context: the config being filled and the first error. */
struct parse_ctx {
	struct rcut_config *cfg;
	char *err;
	size_t errlen;
	bool failed;
	bool in_scenario;	  /* parsing a line of a scenario file */
	bool in_replay;		  /* parsing a --replay report's args */
	bool given[RCUT_OPT_MAX]; /* options that appeared, by row */
};

static int apply_scenario(struct parse_ctx *ctx, const char *arg);
static int apply_replay(struct parse_ctx *ctx, const char *arg);

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

/* Whether the option named name (a row's long name) was given. */
static bool given(const struct parse_ctx *ctx, const char *name)
{
	const struct rcut_opt *o = rcut_opt_find(name);

	return o && ctx->given[o - rcut_opts];
}

/*
 * An integer in the row's [min, max]; the error states the row's range
 * text if it has one (a range that depends on --test), else min to max.
 */
static int parse_count(struct parse_ctx *ctx, const struct rcut_opt *o,
		       const char *arg, long *out)
{
	if (!rcut_parse_long(arg, (long)o->min, (long)o->max, out))
		return 0;
	if (o->range)
		return fail(ctx, "--%s: '%s' is not valid; expected %s",
			    o->name, arg, o->range);
	return fail(
		ctx,
		"--%s: '%s' is not valid; expected an integer from %lld to %lld",
		o->name, arg, o->min, o->max);
}

/* A duration, within the row's range if it has one. */
static int parse_dur(struct parse_ctx *ctx, const struct rcut_opt *o,
		     const char *arg, uint64_t *out)
{
	if (rcut_parse_duration(arg, out))
		return fail(
			ctx,
			"--%s: '%s' is not a duration; expected a number with optional suffix ns, us, ms, s, m, h or d (up to 365d)",
			o->name, arg);
	if (o->range &&
	    (*out < (uint64_t)o->min || (o->max && *out > (uint64_t)o->max)))
		return fail(ctx, "--%s: '%s' is out of range; expected %s",
			    o->name, arg, o->range);
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

/* A comma-separated list of integers in the row's range. */
static int parse_list(struct parse_ctx *ctx, const struct rcut_opt *o,
		      const char *arg)
{
	char *base = (char *)ctx->cfg;

	if (rcut_parse_long_list(arg, o->min, o->max, (long *)(base + o->off),
				 o->max_n, (int *)(base + o->count_off)))
		return fail(
			ctx,
			"--%s: '%s' is not valid; expected 1 to %d comma-separated integers from %lld to %lld, e.g. 1,2,4",
			o->name, arg, o->max_n, o->min, o->max);
	return 0;
}

/* Apply a row's value by its type alone; arg is NULL for flags. */
static int apply_typed(struct parse_ctx *ctx, const struct rcut_opt *o,
		       const char *arg)
{
	void *v = (char *)ctx->cfg + o->off;

	switch (o->type) {
	case RCUT_OPT_FLAG:
		*(bool *)v = true;
		return 0;
	case RCUT_OPT_COUNT:
		return parse_count(ctx, o, arg, v);
	case RCUT_OPT_DURATION:
		return parse_dur(ctx, o, arg, v);
	case RCUT_OPT_U64:
		if (rcut_parse_u64(arg, v))
			return fail(
				ctx,
				"--%s: '%s' is not valid; expected an unsigned 64-bit number (decimal or 0x-hex)",
				o->name, arg);
		return 0;
	case RCUT_OPT_CHOICE:
		return parse_choice(ctx, o->name, arg, o->names, v);
	case RCUT_OPT_STRING:
		if (!arg[0])
			return fail(ctx, "--%s: %s", o->name, o->empty);
		*(const char **)v = arg;
		return 0;
	case RCUT_OPT_LIST:
		return parse_list(ctx, o, arg);
	case RCUT_OPT_GP:
		ctx->cfg->gp_mask |= 1u << o->min;
		return 0;
	case RCUT_OPT_ACTION:
		ctx->cfg->action = (enum rcut_action)o->min;
		return 0;
	default:
		return 0;
	}
}

/* --plugin-dir: repeatable, each DIR list kept as given. */
static int apply_plugin_dir(struct parse_ctx *ctx, const char *arg)
{
	struct rcut_config *cfg = ctx->cfg;

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
}

/* The options whose row names a custom handler. */
static int apply_custom(struct parse_ctx *ctx, const struct rcut_opt *o,
			const char *arg)
{
	switch (o->custom) {
	case RCUT_CUSTOM_FLAVOR:
		if (!arg[0])
			return fail(ctx,
				    "--flavor: empty name; expected one of %s",
				    rcut_flavor_names());
		return apply_typed(ctx, o, arg);
	case RCUT_CUSTOM_SEED:
		if (apply_typed(ctx, o, arg))
			return EINVAL;
		ctx->cfg->seed_given = true;
		return 0;
	case RCUT_CUSTOM_VERBOSE:
		ctx->cfg->verbose = 2;
		return 0;
	case RCUT_CUSTOM_QUIET:
		ctx->cfg->verbose = 0;
		return 0;
	case RCUT_CUSTOM_SCENARIO:
		return apply_scenario(ctx, arg);
	case RCUT_CUSTOM_PLUGIN_DIR:
		return apply_plugin_dir(ctx, arg);
	case RCUT_CUSTOM_REPLAY:
		return apply_replay(ctx, arg);
	default:
		return apply_typed(ctx, o, arg);
	}
}

/* Apply one option; arg is NULL for flags. */
static int apply_option(struct parse_ctx *ctx, const struct rcut_opt *o,
			const char *arg)
{
	ctx->given[o - rcut_opts] = true;
	ctx->cfg->given[o - rcut_opts] = true;
	return o->custom ? apply_custom(ctx, o, arg) : apply_typed(ctx, o, arg);
}

/*
 * A flag in kernel spelling: its value is a boolean that may switch it off
 * (a grace-period primitive stays unset), or the kernel's verbosity level.
 * name is the parameter as given (prefix included), for messages.
 */
static int apply_kernel_flag(struct parse_ctx *ctx, const struct rcut_opt *o,
			     const char *name, const char *value)
{
	bool on;
	long level;

	ctx->given[o - rcut_opts] = true;
	ctx->cfg->given[o - rcut_opts] = true;
	if (o->custom == RCUT_CUSTOM_VERBOSE) {
		if (rcut_parse_long(value, 0, 2, &level))
			return fail(ctx,
				    "%s: '%s' is not valid; expected 0, 1 or 2",
				    name, value);
		ctx->cfg->verbose = (int)level;
		return 0;
	}
	if (rcut_parse_bool(value, &on))
		return fail(
			ctx,
			"%s: '%s' is not valid; expected a boolean (0/1, y/n, true/false, on/off)",
			name, value);
	if (o->custom == RCUT_CUSTOM_QUIET)
		ctx->cfg->verbose = on ? 0 : 1;
	else if (o->type == RCUT_OPT_FLAG)
		*(bool *)((char *)ctx->cfg + o->off) = on;
	else if (on)
		return apply_option(ctx, o, NULL);
	return 0;
}

/* The kernel's module prefixes: PREFIX.PARAM=VALUE sets an option. */
static const char *const kernel_prefixes[] = { "rcutorture.", "torture.",
					       "rcuscale.", "refscale.", NULL };

/* The length of arg's kernel prefix, or 0 if it has none. */
static size_t kernel_prefix(const char *arg)
{
	for (int i = 0; kernel_prefixes[i]; i++)
		if (!strncmp(arg, kernel_prefixes[i],
			     strlen(kernel_prefixes[i])))
			return strlen(kernel_prefixes[i]);
	return 0;
}

/*
 * Kernel boot parameters of other RCU subsystems, which a kernel
 * scenario's boot line may hold: named as such, not as a flavor's.
 */
static const char *kernel_subsystem(const char *arg)
{
	static const struct {
		const char *prefix, *what;
	} subsystems[] = {
		{ "rcutree.", "rcutree (Tree RCU)" },
		{ "rcupdate.", "rcupdate (RCU's core)" },
		{ "srcutree.", "srcutree (Tree SRCU)" },
		{ "rcuperf.", "rcuperf (rcuscale's old name)" },
		{ "locktorture.", "locktorture (the lock torture test)" },
	};

	for (size_t i = 0; i < sizeof(subsystems) / sizeof(subsystems[0]); i++)
		if (!strncmp(arg, subsystems[i].prefix,
			     strlen(subsystems[i].prefix)))
			return subsystems[i].what;
	return NULL;
}

/*
 * A bare number in kernel spelling is in the kernel's unit for the row
 * (its kernel_unit): into value as a duration our parser reads.  The
 * kernel's stutter: a negative value disables it (the kernel clamps it
 * to 0) and the test starts with the pause.  Returns false if the value
 * is no bare number, to be parsed as given.
 */
static bool kernel_value(struct parse_ctx *ctx, const struct rcut_opt *o,
			 const char *v, char *value, size_t len)
{
	bool neg = v[0] == '-';
	const char *digits = v + neg;
	unsigned long long n;

	if (!o->kernel_unit || !digits[0] ||
	    digits[strspn(digits, "0123456789")] || strlen(digits) > 15)
		return false;
	n = strtoull(digits, NULL, 10);
	if (!strcmp(o->name, "stutter")) {
		ctx->cfg->stutter_pause_first = true;
		if (neg)
			n = 0;
	} else if (neg) {
		return false; /* the error names the option */
	}
	if (!strcmp(o->kernel_unit, "jiffies"))
		snprintf(value, len, "%lluns", n * (1000000000ULL / RCUT_HZ));
	else
		snprintf(value, len, "%llu%s", n, o->kernel_unit);
	return true;
}

/* The kernel's extendables bits (RCUTORTURE_RDR_*) and their mask. */
#define KERNEL_RDR_ALL 0x1f /* bh 1, irq 2, preempt 4, rbh 8, sched 0x10 */

/*
 * rcutorture.extendables=MASK in the kernel's bits, 0 to 0x1f (decimal
 * or 0x hex): each bit holds off what interrupts or preempts a reader
 * (bh: softirqs, where the kernel's timer readers run; irq; preempt; and
 * the rbh and sched reader kinds, which disable bh and preemption), and
 * our analogue of all five is the signal-masked stretch, which holds off
 * the irqreader and preemption signals.  The kernel also delays and
 * (where preemptible) reschedules inside every segment, whatever the
 * mask: our in-section delays and preemption points.  So any nonzero
 * kernel mask is our 7 (RCUT_EXTEND_ALL).
 */
static int apply_kernel_extendables(struct parse_ctx *ctx,
				    const struct rcut_opt *o, const char *v)
{
	char *end;
	long m;

	errno = 0;
	m = strtol(v, &end, 0);
	if (!v[0] || *end || errno || m < 0 || m > KERNEL_RDR_ALL)
		return fail(
			ctx,
			"rcutorture.extendables: '%s' is not valid; expected the kernel's mask, 0 to 0x1f (bh 0x1, irq 0x2, preempt 0x4, rbh 0x8, sched 0x10; bits above are the kernel's internal reader kinds)",
			v);
	return apply_option(ctx, o, m ? "7" : "0");
}

/*
 * "rcutorture.PARAM=VALUE" (or torture., rcuscale., refscale.): the
 * option the table maps PARAM to, with a bare number in the kernel's
 * unit; torture_type=rcu names the default flavor.
 */
static int apply_kernel_param(struct parse_ctx *ctx, const char *text,
			      size_t plen)
{
	const char *name = text + plen, *eq = strchr(name, '='), *why;
	const struct rcut_opt *o;
	char opt[64], value[64], given[80];

	if (!eq || eq == name || (size_t)(eq - name) >= sizeof(opt))
		return fail(ctx, "'%s': expected %.*sPARAM=VALUE", text,
			    (int)plen, text);
	o = rcut_opt_find_kernel(name, (size_t)(eq - name), opt, sizeof(opt));
	why = o ? NULL : rcut_kernel_na_reason(text, (size_t)(eq - text));
	if (why) {
		fprintf(stderr,
			"rcutorture: %.*s does not apply here (%s); ignored\n",
			(int)(eq - text), text, why);
		return 0;
	}
	if (!o)
		return fail(
			ctx,
			"'%s': unknown parameter %.*s; see rcutorture --help for the options it maps to",
			text, (int)(eq - text), text);
	if (o->custom == RCUT_CUSTOM_FLAVOR && !strcmp(eq + 1, "rcu"))
		return apply_option(ctx, o, o->def_str);
	if (!strcmp(o->name, "extendables"))
		return apply_kernel_extendables(ctx, o, eq + 1);
	if (kernel_value(ctx, o, eq + 1, value, sizeof(value)))
		return apply_option(ctx, o, value);
	if (o->arg)
		return apply_option(ctx, o, eq + 1);
	snprintf(given, sizeof(given), "%.*s%s", (int)plen, text, opt);
	return apply_kernel_flag(ctx, o, given, eq + 1);
}

/* The row of an argp key, or NULL for argp's own keys. */
static const struct rcut_opt *row_of_key(int key)
{
	if (key >= KEY_BASE && key < KEY_BASE + rcut_nopts)
		return &rcut_opts[key - KEY_BASE];
	for (int i = 0; i < rcut_nopts && key > 0 && key < KEY_BASE; i++)
		if (rcut_opts[i].short_name == key)
			return &rcut_opts[i];
	return NULL;
}

/* A NAME.KEY=VALUE argument, kept for the flavor. */
static int add_flavor_param(struct parse_ctx *ctx, char *arg)
{
	if (!strchr(arg, '=') || !strchr(arg, '.'))
		return fail(
			ctx,
			"unexpected argument '%s'; expected NAME.KEY=VALUE or an option (see --help)",
			arg);
	if (ctx->cfg->nparams >= RCUT_MAX_PARAMS)
		return fail(ctx, "'%s': more than %d flavor parameters", arg,
			    RCUT_MAX_PARAMS);
	ctx->cfg->params[ctx->cfg->nparams++] = arg;
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct parse_ctx *ctx = state->input;
	const struct rcut_opt *o;

	switch (key) {
	case ARGP_KEY_ARG:
		if (kernel_prefix(arg))
			return apply_kernel_param(ctx, arg, kernel_prefix(arg));
		if (kernel_subsystem(arg))
			return fail(
				ctx,
				"'%s': a parameter of the kernel's %s, which has no counterpart here (rcutorture takes the kernel's rcutorture., torture., rcuscale. and refscale. parameters)",
				arg, kernel_subsystem(arg));
		return add_flavor_param(ctx, arg);
	case ARGP_KEY_ERROR:
		if (state->next > 0 && state->next <= state->argc)
			fail(ctx,
			     "unknown option or missing value: '%s'; see rcutorture --help",
			     state->argv[state->next - 1]);
		else
			fail(ctx, "bad command line; see rcutorture --help");
		return 0;
	}
	o = row_of_key(key);
	return o ? apply_option(ctx, o, arg) : ARGP_ERR_UNKNOWN;
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

	for (int i = 0; i < rcut_nopts; i++) {
		const struct rcut_opt *o = &rcut_opts[i];

		if (!ctx->given[i] || !o->tests || (o->tests & (1u << test)))
			continue;
		describe_tests(o->tests, tests, sizeof(tests));
		return fail(ctx, "--%s: only for %s, not --test %s", o->name,
			    tests, rcut_test_names[test]);
	}
	return 0;
}

/* The scale test times one primitive; pd options need the holdout. */
static int check_scale(struct parse_ctx *ctx)
{
	static const char *const pd_options[] = { "pd-busy-wait", "pd-resched",
						  "pd-sleep" };
	const struct rcut_config *cfg = ctx->cfg;
	const struct rcut_scale_config *sc = &cfg->scale;
	unsigned int gp = cfg->gp_mask;

	if (gp & (gp - 1))
		return fail(
			ctx,
			"--test scale times one primitive; expected at most one of --gp-sync, --gp-exp and --gp-async");
	if (given(ctx, "gp-async-max") && gp != 1u << RCUT_GP_NORMAL)
		return fail(ctx, "--gp-async-max: needs --gp-async");
	for (size_t i = 0;
	     !sc->pd_test && i < sizeof(pd_options) / sizeof(pd_options[0]);
	     i++)
		if (given(ctx, pd_options[i]))
			return fail(ctx, "--%s: needs --pd-test",
				    pd_options[i]);
	if (sc->pd_test && !sc->pd_resched &&
	    sc->pd_busy_wait_ns >= cfg->stall_timeout_ns)
		return fail(
			ctx,
			"--pd-busy-wait: must be below --stall-timeout (or use --pd-resched): a longer holdout is a stall by definition");
	return 0;
}

/*
 * Negative counts are the kernel's relative ones, each test's as its
 * kernel module reads them (resolved in core/counts.c and tests/ref.c);
 * rcuscale's nwriters=0 would time nothing.
 */
static int check_counts(struct parse_ctx *ctx)
{
	const struct rcut_config *cfg = ctx->cfg;

	if (given(ctx, "nwriters") && cfg->scale.nwriters == 0)
		return fail(
			ctx,
			"--nwriters: '0' is not valid; expected an integer from 1 to %d, or the kernel's relative -%d to -1 (the PUs allowed + 1 + N, at least 1)",
			RCUT_MAX_THREADS, RCUT_MAX_THREADS);
	return 0;
}

/*
 * An injected delay must stay below the stall rule's bound (delay.h), so
 * a thread stuck for a whole --stall-timeout is a real hang.
 */
static int check_injection(struct parse_ctx *ctx)
{
	const struct rcut_config *cfg = ctx->cfg;
	uint64_t bound = delay_stall_bound_ns(cfg->stall_timeout_ns);
	char b[32];

	rcut_format_duration(bound, b, sizeof(b));
	if (cfg->preempt_duration_ns > bound)
		return fail(
			ctx,
			"--preempt-duration: must be at most --stall-timeout / 4 (%s): a longer injected delay could pass for a stall",
			b);
	if (cfg->race_delay_max_ns > bound)
		return fail(
			ctx,
			"--race-delay-max: must be at most --stall-timeout / 4 (%s): a longer injected delay could pass for a stall",
			b);
	return 0;
}

/* Checks that need every option: scope, ranges per test, combinations. */
static int check_options(struct parse_ctx *ctx)
{
	const struct rcut_config *cfg = ctx->cfg;

	if (check_scope(ctx))
		return EINVAL;
	if (check_counts(ctx) || check_injection(ctx))
		return EINVAL;
	if (cfg->swarm_interval_ns && !cfg->swarm)
		return fail(ctx, "--swarm-interval: needs --swarm or --hunt");
	if (cfg->test == RCUT_TEST_TORTURE && cfg->nreaders == 0)
		return fail(
			ctx,
			"--nreaders: '0' is not valid for --test torture; expected an integer from 1 to %d, or from -%d to -1 (relative to the simulated CPUs)",
			RCUT_MAX_THREADS, RCUT_MAX_THREADS);
	if (cfg->test == RCUT_TEST_REF && cfg->nreaders == 0)
		return fail(
			ctx,
			"--nreaders: '0' is not valid for --test ref; expected an integer from 1 to %d",
			RCUT_MAX_THREADS);
	if (cfg->test != RCUT_TEST_REF && strchr(cfg->flavor_name, ','))
		return fail(
			ctx,
			"--flavor: '%s': a list of flavors is only for --test ref",
			cfg->flavor_name);
	if (cfg->test == RCUT_TEST_REF && cfg->ref.nthreads &&
	    given(ctx, "nreaders"))
		return fail(
			ctx,
			"--threads: --nreaders also sets the reader count; give one of them");
	if (cfg->test == RCUT_TEST_SCALE)
		return check_scale(ctx);
	return 0;
}

/* argp's options: per --help group its heading, then its rows. */
static struct argp_option argp_options[2 * RCUT_OPT_MAX];

static void build_argp_options(void)
{
	int n = 0;

	if (argp_options[0].doc) /* built already */
		return;
	for (const struct rcut_opt_group_title *g = rcut_opt_groups; g->title;
	     g++) {
		argp_options[n++] = (struct argp_option){ .doc = g->title,
							  .group = g->group };
		for (int i = 0; i < rcut_nopts; i++) {
			const struct rcut_opt *o = &rcut_opts[i];
			int key = o->short_name ? o->short_name : KEY_BASE + i;

			if (o->group != g->group)
				continue;
			argp_options[n++] = (struct argp_option){
				o->name, key, o->arg, 0, o->help, o->group
			};
			if (o->alias)
				argp_options[n++] = (struct argp_option){
					o->alias,     key,  NULL,
					OPTION_ALIAS, NULL, o->group
				};
		}
	}
}

static struct argp argp = { argp_options, parse_opt, "[NAME.KEY=VALUE...]",
			    doc,	  NULL,	     NULL,
			    NULL };
/* Parse one argument vector into ctx (the command line or a scenario line). */
static int parse_args(struct parse_ctx *ctx, int argc, char **argv)
{
	error_t e;

	ctx->err[0] = '\0';
	build_argp_options();
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

	/* --hunt: its settings for every option not given explicitly. */
	if (!ret && cfg->hunt)
		rcut_hunt_apply(cfg);
	/* Options that only make sense together, once all are known. */
	if (!ret &&
	    (cfg->action == RCUT_ACTION_RUN ||
	     cfg->action == RCUT_ACTION_MINIMIZE) &&
	    check_options(&ctx)) {
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
	if (ctx->in_replay || cfg->replay)
		return fail(
			ctx,
			"--scenario: not with --replay, which sets every option already");
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
	cfg->scenario_name = cfg->scenario->name;
	cfg->scenario_path = cfg->scenario->path;
	cfg->scenario_expect = cfg->scenario->expect;
	return 0;
}

/*
 * --replay: read the report's config.args and apply them here, as the
 * command line would; options after it override them.
 */
static int apply_replay(struct parse_ctx *ctx, const char *arg)
{
	struct rcut_config *cfg = ctx->cfg;
	struct parse_ctx sub = { .cfg = cfg, .in_replay = true };
	char msg[512];

	if (ctx->in_scenario || ctx->in_replay)
		return fail(ctx, "--replay: not inside a %s",
			    ctx->in_scenario ? "scenario file" :
					       "replayed report");
	if (cfg->replay)
		return fail(ctx, "--replay: given twice; expected one per run");
	if (cfg->scenario)
		return fail(
			ctx,
			"--replay: not with --scenario; the report has every option already");
	cfg->replay = calloc(1, sizeof(*cfg->replay));
	if (!cfg->replay)
		return fail(ctx, "--replay: out of memory");
	if (rcut_replay_load(cfg->replay, arg, msg, sizeof(msg)))
		return fail(ctx, "%s", msg);
	sub.err = msg;
	sub.errlen = sizeof(msg);
	if (parse_args(&sub, cfg->replay->argc, cfg->replay->argv))
		return fail(ctx, "--replay: '%s': config.args: %s", arg, msg);
	for (int i = 0; i < RCUT_OPT_MAX; i++)
		ctx->given[i] |= sub.given[i];
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
	if (!rcut_plugin_is_file(name) && rcut_flavor_absent_why(name)) {
		snprintf(err, errlen,
			 "--flavor: flavor '%s' is not in this build: %s", name,
			 rcut_flavor_absent_why(name));
		return 2;
	}
	ret = rcut_plugin_load(name, cfg->plugin_dirs, cfg->nplugin_dirs,
			       flavor, err, errlen);
	if (ret > 0 && !rcut_plugin_is_file(name))
		ret = rcut_bundled_load(name, flavor, err, errlen);
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

/*
 * The deliberate stalls need what they hold (blocking readers, a hook),
 * call-queue toggling the flavor's switch_call_mode.
 */
static int check_stalls(const struct rcut_config *cfg,
			const struct rcut_flavor *f, char *err, size_t errlen)
{
	if (cfg->stall_cpu_block && !(f->caps & RCUT_CAP_READER_MAY_BLOCK)) {
		snprintf(
			err, errlen,
			"--stall-cpu-block: flavor %s's readers may not block; expected a flavor with blocking-readers (see --list-flavors)",
			f->name);
		return -1;
	}
	if (cfg->stall_gp_kthread_ns && !RCUT_FLAVOR_V3(f, gp_stall)) {
		snprintf(
			err, errlen,
			"--stall-gp-kthread: flavor %s has no grace-period worker to hold (no gp_stall hook); expected prcu, srcu or a plugin with one",
			f->name);
		return -1;
	}
	if (cfg->nocbs_nthreads && !RCUT_FLAVOR_V3(f, switch_call_mode)) {
		snprintf(
			err, errlen,
			"--nocbs-nthreads: flavor %s cannot switch its callback queues at run time (no switch_call_mode hook); expected a liburcu flavor or a plugin with one",
			f->name);
		return -1;
	}
	return 0;
}

/*
 * --gpwrap-lag: the flavor's standard parameter gpwrap_lag, set before
 * the explicit NAME.KEY=VALUE arguments (NAME.gpwrap_lag wins).
 */
static int apply_gpwrap_lag(const struct rcut_config *cfg,
			    const struct rcut_flavor *f, char *err,
			    size_t errlen)
{
	const struct rcut_param *p;
	long *v = rcut_flavor_param(f, "gpwrap_lag", &p);

	if (!v) {
		snprintf(
			err, errlen,
			"--gpwrap-lag: flavor %s has no gpwrap_lag parameter (its grace-period counters cannot start near the wrap); expected prcu, srcu or a flavor with that parameter",
			f->name);
		return -1;
	}
	if (cfg->gpwrap_lag < p->min || cfg->gpwrap_lag > p->max) {
		snprintf(
			err, errlen,
			"--gpwrap-lag: '%ld' is out of range for flavor %s; expected %ld to %ld",
			cfg->gpwrap_lag, f->name, p->min, p->max);
		return -1;
	}
	*v = cfg->gpwrap_lag;
	return 0;
}

bool rcut_gpwrap_lag_applies(const struct rcut_config *cfg,
			     const struct rcut_flavor *f)
{
	if (rcut_opt_given(cfg, "gpwrap-lag"))
		return true;
	return cfg->test == RCUT_TEST_TORTURE &&
	       rcut_flavor_param(f, "gpwrap_lag", NULL) &&
	       !rcut_flavor_param_given(cfg->params, cfg->nparams,
					"gpwrap_lag");
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
	if (torture_gp_check(f, cfg->gp_mask, err, errlen) ||
	    check_stalls(cfg, f, err, errlen))
		return 2;
	if (cfg->test == RCUT_TEST_SCALE && cfg->scale.pd_sleep &&
	    !(f->caps & RCUT_CAP_READER_MAY_BLOCK)) {
		snprintf(
			err, errlen,
			"--pd-sleep: flavor %s's readers may not block; expected a flavor with blocking-readers (see --list-flavors)",
			f->name);
		return 2;
	}
	if (cfg->n_barrier_cbs > 0 && !f->barrier &&
	    rcut_opt_given(cfg, "n-barrier-cbs")) {
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
	if (cfg->gpwrap_lag && rcut_gpwrap_lag_applies(cfg, f) &&
	    apply_gpwrap_lag(cfg, f, err, errlen))
		return 2;
	if (cfg->store_buffer_delay_ns && !rcut_plugin_storebuf() &&
	    rcut_opt_given(cfg, "store-buffer-delay")) {
		snprintf(
			err, errlen,
			"--store-buffer-delay: flavor %s is not instrumented for the store-buffer emulation; expected a plugin built with pkg-config rcutorture-storebuf (see rcutorture(1))",
			f->name);
		return 2;
	}
	if (rcut_opt_given(cfg, "store-buffer-model") &&
	    !rcut_plugin_storebuf()) {
		snprintf(
			err, errlen,
			"--store-buffer-model: flavor %s is not instrumented for the store-buffer emulation; expected a plugin built with pkg-config rcutorture-storebuf (see rcutorture(1))",
			f->name);
		return 2;
	}
	if (rcut_opt_given(cfg, "store-buffer-model") &&
	    !cfg->store_buffer_delay_ns) {
		snprintf(
			err, errlen,
			"--store-buffer-model: needs the store-buffer emulation on, which --store-buffer-delay 0 turns off");
		return 2;
	}
	if (cfg->store_buffer_model == RCUT_STOREBUF_ARM &&
	    cfg->store_buffer_delay_ns && rcut_plugin_storebuf() &&
	    !rcut_plugin_storebuf()->model) {
		snprintf(
			err, errlen,
			"--store-buffer-model: flavor %s's emulation library has only the tso model; rebuild it with this version's librcutorture-storebuf",
			f->name);
		return 2;
	}
	if (cfg->auto_race && rcut_opt_given(cfg, "auto-race") &&
	    (!rcut_plugin_storebuf() ||
	     !rcut_plugin_storebuf()->sched_configure)) {
		snprintf(
			err, errlen,
			"--auto-race: flavor %s is not instrumented for automatic race points; expected a plugin built with pkg-config rcutorture-storebuf (see rcutorture(1))",
			f->name);
		return 2;
	}
	if (rcut_opt_given(cfg, "auto-race-mode") && !cfg->auto_race) {
		snprintf(
			err, errlen,
			"--auto-race-mode: needs automatic race points on: give --auto-race N or --hunt");
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
	build_argp_options();
	argp_help(&argp, out, usage_only ? ARGP_HELP_USAGE : ARGP_HELP_STD_HELP,
		  (char *)"rcutorture");
}
