// SPDX-License-Identifier: MIT
/* Unit tests: command-line options, kernel-style and flavor parameters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../cmd/options.h"
#include "../../torture/util/parse.h"
#include "../../torture/util/value.h"
#include "../../flavors/registry.h"

static char err[512];

/* Parse a NULL-ended argument list after "rcutorture" into cfg. */
static int parse(struct rcut_config *cfg, const char *first, ...)
{
	char *argv[64] = { (char *)"rcutorture" };
	int argc = 1;
	va_list ap;

	rcut_config_defaults(cfg);
	va_start(ap, first);
	for (const char *a = first; a && argc < 63;
	     a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return rcut_options_parse(argc, argv, cfg, err, sizeof(err));
}

/* Expect a parse error whose message mentions 'needle'. */
#define assert_parse_error(needle, ...)                                 \
	do {                                                            \
		struct rcut_config c_;                                  \
		assert_int_equal(parse(&c_, __VA_ARGS__, NULL), 2);     \
		if (!strstr(err, needle))                               \
			fail_msg("error '%s' lacks '%s'", err, needle); \
		assert_null(strchr(err, '\n'));                         \
	} while (0)

static void defaults(void **state)
{
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, NULL), 0);
	assert_string_equal(c.flavor_name, "memb");
	assert_true(c.duration_ns == 30 * NSEC_PER_SEC);
	assert_true(c.stat_interval_ns == 15 * NSEC_PER_SEC);
	assert_int_equal(c.nreaders, RCUT_COUNT_AUTO);
	assert_int_equal(c.nfakewriters, 4);
	assert_false(c.seed_given);
	assert_false(c.stop_on_failure);
	assert_int_equal(c.verbose, 1);
	assert_int_equal(c.action, RCUT_ACTION_RUN);
}

static void long_options(void **state)
{
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, "--flavor", "busted", "--duration", "2m",
			       "--nreaders", "3", "--nfakewriters=0", "--seed",
			       "0x10", "--stat-interval", "500ms",
			       "--stop-on-failure", "-q", NULL),
			 0);
	assert_string_equal(c.flavor_name, "busted");
	assert_true(c.duration_ns == 120 * NSEC_PER_SEC);
	assert_int_equal(c.nreaders, 3);
	assert_int_equal(c.nfakewriters, 0);
	assert_true(c.seed == 16 && c.seed_given);
	assert_true(c.stat_interval_ns == 500 * NSEC_PER_MSEC);
	assert_true(c.stop_on_failure);
	assert_int_equal(c.verbose, 0);
}

/*
 * Issue 13 item 10: the kernel's spelling means the kernel's units (a
 * bare onoff_interval is jiffies at HZ=1000, writer_holdoff is us), its
 * stutter, every module prefix, and torture_type=rcu; long options keep
 * their own units.
 */
static void kernel_units_and_prefixes(void **state)
{
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, "rcutorture.onoff_interval=3",
			       "rcutorture.preempt_duration=4",
			       "rcutorture.stutter=2", NULL),
			 0);
	assert_true(c.onoff_interval_ns == 3 * NSEC_PER_SEC / RCUT_HZ);
	assert_true(c.preempt_duration_ns == 4 * NSEC_PER_MSEC);
	assert_true(c.stutter_ns == 2 * NSEC_PER_SEC);
	assert_true(c.stutter_pause_first);
	assert_int_equal(parse(&c, "rcutorture.stutter=-1", NULL), 0);
	assert_true(c.stutter_ns == 0);
	/* A suffix means what it says; long options: a bare N is seconds. */
	assert_int_equal(parse(&c, "rcutorture.onoff_interval=1.5s",
			       "--stutter", "2", NULL),
			 0);
	assert_true(c.onoff_interval_ns == 1500 * NSEC_PER_MSEC);
	assert_false(c.stutter_pause_first);
	assert_int_equal(parse(&c, "--onoff-interval", "3", NULL), 0);
	assert_true(c.onoff_interval_ns == 3 * NSEC_PER_SEC);
	assert_int_equal(
		parse(&c, "--test", "scale", "rcuscale.writer_holdoff=250",
		      "rcuscale.holdoff=2", "rcuscale.nwriters=3", NULL),
		0);
	assert_true(c.scale.writer_holdoff_ns == 250 * 1000);
	assert_true(c.scale.holdoff_ns == 2 * NSEC_PER_SEC);
	assert_int_equal(c.scale.nwriters, 3);
	assert_int_equal(
		parse(&c, "--test", "scale", "--writer-holdoff", "2", NULL), 0);
	assert_true(c.scale.writer_holdoff_ns == 2 * NSEC_PER_SEC);
	assert_int_equal(parse(&c, "--test", "ref", "refscale.loops=5",
			       "refscale.nruns=2", "refscale.readdelay=7",
			       NULL),
			 0);
	assert_int_equal(c.ref.loops, 5);
	assert_int_equal(c.ref.nruns, 2);
	assert_int_equal(c.ref.readdelay_ns, 7);
	assert_int_equal(parse(&c, "torture.stat_interval=7",
			       "torture.torture_type=qsbr", NULL),
			 0);
	assert_true(c.stat_interval_ns == 7 * NSEC_PER_SEC);
	assert_string_equal(c.flavor_name, "qsbr");
	/* Not flavor parameters of flavors named torture, rcuscale, ... */
	assert_int_equal(c.nparams, 0);
	assert_int_equal(parse(&c, "--flavor", "qsbr",
			       "rcutorture.torture_type=rcu", NULL),
			 0);
	assert_string_equal(c.flavor_name, "memb");
	assert_parse_error("rcuscale.nosuch", "rcuscale.nosuch=1");
	assert_parse_error("refscale.ref-baselines", "--test", "ref",
			   "refscale.ref_baselines=maybe");
}

static void kernel_style_parameters(void **state)
{
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, "rcutorture.nreaders=5",
			       "rcutorture.torture_type=busted",
			       "rcutorture.stat_interval=7",
			       "rcutorture.shutdown_secs=9",
			       "rcutorture.nfakewriters=2",
			       "rcutorture.stop_on_failure=1",
			       "rcutorture.verbose=2", NULL),
			 0);
	assert_int_equal(c.nreaders, 5);
	assert_string_equal(c.flavor_name, "busted");
	assert_true(c.stat_interval_ns == 7 * NSEC_PER_SEC);
	assert_true(c.duration_ns == 9 * NSEC_PER_SEC);
	assert_int_equal(c.nfakewriters, 2);
	assert_true(c.stop_on_failure);
	assert_int_equal(c.verbose, 2);
	assert_int_equal(parse(&c, "--stop-on-failure",
			       "rcutorture.stop-on-failure=off", NULL),
			 0);
	assert_false(c.stop_on_failure);
}

static void gp_and_callback_options(void **state)
{
	const struct rcut_flavor *f = NULL;
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, NULL), 0);
	assert_int_equal(c.gp_mask, 0);
	assert_int_equal(c.call_mode, RCUT_CALL_GLOBAL);
	assert_true(c.read_exit_delay_ns == 2 * NSEC_PER_SEC);
	assert_int_equal(c.read_exit_burst, 16);

	assert_int_equal(parse(&c, "--gp-cond", "--gp-poll", "--call-rcu",
			       "perthread", "--read-exit-delay", "100ms",
			       "--read-exit-burst", "0", NULL),
			 0);
	assert_int_equal(c.gp_mask,
			 (1u << RCUT_GP_COND) | (1u << RCUT_GP_POLL));
	assert_int_equal(c.call_mode, RCUT_CALL_PERTHREAD);
	assert_true(c.read_exit_delay_ns == 100 * NSEC_PER_MSEC);
	assert_int_equal(c.read_exit_burst, 0);
	if (rcut_options_resolve(&c, &f, err, sizeof(err)))
		fail_msg("resolve: %s", err);

	assert_int_equal(parse(&c, "rcutorture.gp_sync=1",
			       "rcutorture.gp_exp=y", "rcutorture.gp_normal=0",
			       "rcutorture.call_rcu=percpu", NULL),
			 0);
	assert_int_equal(c.gp_mask, (1u << RCUT_GP_SYNC) | (1u << RCUT_GP_EXP));
	assert_int_equal(c.call_mode, RCUT_CALL_PERCPU);

	assert_int_equal(parse(&c, "--flavor", "busted", "--gp-exp", NULL), 0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 0);
	assert_int_equal(parse(&c, "--flavor", "busted", "--gp-poll", NULL), 0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--gp-poll: flavor busted has no polled"));
	assert_int_equal(
		parse(&c, "--flavor", "busted", "--call-rcu", "percpu", NULL),
		0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--call-rcu"));
	assert_parse_error("--call-rcu: 'cpu' is not valid", "--call-rcu",
			   "cpu");
	assert_parse_error("--read-exit-burst", "--read-exit-burst", "5000");
	assert_parse_error("--read-exit-delay", "--read-exit-delay", "later");
}

static void scale_and_ref_options(void **state)
{
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, NULL), 0);
	assert_int_equal(c.test, RCUT_TEST_TORTURE);
	assert_int_equal(c.scale.nwriters, 1);
	assert_true(c.scale.holdoff_ns == NSEC_PER_SEC);
	assert_int_equal(c.scale.gp_async_max, 1000);
	assert_int_equal(c.scale.min_samples, 100);
	assert_true(c.scale.pd_busy_wait_ns == 5 * NSEC_PER_MSEC);
	assert_int_equal(c.ref.loops, 10000);
	assert_int_equal(c.ref.nruns, 30);
	assert_int_equal(c.ref.nthreads, 0);

	assert_int_equal(parse(&c, "--test", "scale", "--nwriters", "3",
			       "--holdoff", "0", "--gp-async", "--gp-async-max",
			       "10", "--writer-holdoff", "1ms", "--min-samples",
			       "7", "--pd-test", "--pd-busy-wait", "2ms",
			       "--pd-resched", "--pd-sleep", "--readdelay",
			       "50000", "--nreaders", "0", NULL),
			 0);
	assert_int_equal(c.test, RCUT_TEST_SCALE);
	assert_int_equal(c.scale.nwriters, 3);
	assert_true(c.scale.holdoff_ns == 0);
	assert_int_equal(c.gp_mask, 1u << RCUT_GP_NORMAL);
	assert_int_equal(c.scale.gp_async_max, 10);
	assert_true(c.scale.writer_holdoff_ns == NSEC_PER_MSEC);
	assert_int_equal(c.scale.min_samples, 7);
	assert_true(c.scale.pd_test && c.scale.pd_resched && c.scale.pd_sleep);
	assert_int_equal(c.ref.readdelay_ns, 50000);
	assert_true(c.scale.pd_busy_wait_ns == 2 * NSEC_PER_MSEC);
	assert_int_equal(c.nreaders, 0);

	assert_int_equal(parse(&c, "rcutorture.test=ref", "--flavor",
			       "memb,rwlock", "--loops", "5", "--nruns", "2",
			       "--readdelay", "100", "--ref-baselines",
			       "--threads", "1,2,4", NULL),
			 0);
	assert_int_equal(c.test, RCUT_TEST_REF);
	assert_int_equal(c.ref.loops, 5);
	assert_int_equal(c.ref.nruns, 2);
	assert_int_equal(c.ref.readdelay_ns, 100);
	assert_true(c.ref.baselines);
	assert_int_equal(c.ref.nthreads, 3);
	assert_int_equal(c.ref.threads[2], 4);
}

/* An option for another test is an error, whatever the order. */
static void options_of_another_test(void **state)
{
	(void)state;
	assert_parse_error("--loops: only for --test ref, not --test torture",
			   "--loops", "5");
	assert_parse_error("--nwriters: only for --test scale, not --test ref",
			   "--nwriters", "2", "--test", "ref");
	assert_parse_error(
		"--stutter: only for --test torture, not --test scale",
		"--test", "scale", "--stutter", "1s");
	assert_parse_error("--duration: only for --test torture or scale",
			   "--test", "ref", "rcutorture.shutdown_secs=3");
	assert_parse_error("--pd-resched: needs --pd-test", "--test", "scale",
			   "--pd-resched");
	assert_parse_error("--pd-sleep: needs --pd-test", "--test", "scale",
			   "--pd-sleep");
	assert_parse_error("--readdelay: only for --test scale or ref",
			   "--readdelay", "10");
	assert_parse_error("times one primitive", "--test", "scale",
			   "--gp-sync", "--gp-exp");
	assert_parse_error("a list of flavors is only for --test ref", "--test",
			   "scale", "--flavor", "memb,mb");
}

static void ref_flavor_lists(void **state)
{
	const struct rcut_flavor *f[RCUT_MAX_SWEEP];
	struct rcut_config c;
	int n;

	(void)state;
	assert_int_equal(parse(&c, "--test", "ref", "--flavor",
			       "qsbr,mutex,urcu", "--ref-baselines", NULL),
			 0);
	assert_int_equal(rcut_options_resolve_ref(&c, f, &n, err, sizeof(err)),
			 0);
	/* Listed first, aliases resolved, each baseline once. */
	assert_int_equal(n, 6);
	assert_string_equal(f[0]->name, "qsbr");
	assert_string_equal(f[1]->name, "mutex");
	assert_string_equal(f[2]->name, "memb");
	assert_string_equal(f[3]->name, "none");
	assert_string_equal(f[5]->name, "rwlock");
	assert_int_equal(parse(&c, "--test", "ref", "--flavor", "memb,", NULL),
			 0);
	assert_int_equal(rcut_options_resolve_ref(&c, f, &n, err, sizeof(err)),
			 2);
	assert_non_null(strstr(err, "empty or overlong entry"));
}

static void flavor_parameters_are_collected(void **state)
{
	struct rcut_config c;

	(void)state;
	assert_int_equal(
		parse(&c, "memb.a=1", "--nreaders", "2", "x.y=z", NULL), 0);
	assert_int_equal(c.nparams, 2);
	assert_string_equal(c.params[0], "memb.a=1");
	assert_string_equal(c.params[1], "x.y=z");
}

static void actions(void **state)
{
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, "--help", NULL), 0);
	assert_int_equal(c.action, RCUT_ACTION_HELP);
	assert_int_equal(parse(&c, "--version", NULL), 0);
	assert_int_equal(c.action, RCUT_ACTION_VERSION);
	assert_int_equal(parse(&c, "--list-flavors", NULL), 0);
	assert_int_equal(c.action, RCUT_ACTION_LIST_FLAVORS);
}

static void bad_counts(void **state)
{
	(void)state;
	assert_parse_error("--nreaders", "--nreaders", "-4097");
	assert_parse_error("--nwriters: '0' is not valid", "--test", "scale",
			   "--nwriters", "0");
	assert_parse_error("from 1 to 4096", "--nreaders", "0");
	assert_parse_error("--nreaders", "--nreaders", "4097");
	assert_parse_error("--nreaders", "--nreaders", "two");
	assert_parse_error("--nfakewriters", "--nfakewriters", "-4097");
	assert_parse_error("--seed", "--seed", "-5");
}

static void bad_durations(void **state)
{
	(void)state;
	assert_parse_error("--duration", "--duration", "10x");
	assert_parse_error("suffix ns, us, ms, s, m, h or d", "--duration",
			   "soon");
	assert_parse_error("--stat-interval", "--stat-interval", "-1s");
	assert_parse_error("--duration", "rcutorture.shutdown_secs=forever");
}

static void bad_words(void **state)
{
	(void)state;
	assert_parse_error("--bogus", "--bogus");
	assert_parse_error("unexpected argument 'hello'", "hello");
	assert_parse_error("rcutorture.nosuch", "rcutorture.nosuch=1");
	assert_parse_error("rcutorture.stop-on-failure",
			   "rcutorture.stop_on_failure=maybe");
	assert_parse_error("--nreaders", "rcutorture.nreaders=-9999");
	assert_parse_error("missing value", "--flavor");
}

static void resolve_flavors(void **state)
{
	const struct rcut_flavor *f = NULL;
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, "--flavor", "urcu-memb", NULL), 0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 0);
	assert_string_equal(f->name, "memb");

	assert_int_equal(parse(&c, "--flavor", "nosuch", NULL), 0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--flavor: unknown flavor 'nosuch'"));
	assert_non_null(strstr(err, "memb"));
	assert_non_null(strstr(err, "busted"));

	assert_int_equal(parse(&c, "memb.nosuch=1", NULL), 0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "unknown parameter 'nosuch'"));

	assert_int_equal(parse(&c, "prcu.migrate_cbs=0", NULL), 0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "parameter for flavor 'prcu'"));
}

/* A flavor with one parameter of each type, for the generic parser. */
static long int_val = 5, bool_val, enum_val;
static const char *const policies[] = { "old", "new", NULL };
static const struct rcut_param test_params[] = {
	{ "depth", "an int", RCUT_PARAM_INT, 1, 10, NULL, &int_val },
	{ "fast", "a bool", RCUT_PARAM_BOOL, 0, 1, NULL, &bool_val },
	{ "policy", "an enum", RCUT_PARAM_ENUM, 0, 0, policies, &enum_val },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};
static const struct rcut_flavor test_flavor = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "tf",
	.params = test_params,
};

static void flavor_parameter_values(void **state)
{
	(void)state;
	assert_int_equal(rcut_flavor_set_param(&test_flavor, "tf.depth=7", err,
					       sizeof(err)),
			 0);
	assert_int_equal(int_val, 7);
	assert_int_equal(rcut_flavor_set_param(&test_flavor, "tf.fast=yes", err,
					       sizeof(err)),
			 0);
	assert_int_equal(bool_val, 1);
	assert_int_equal(rcut_flavor_set_param(&test_flavor, "tf.policy=new",
					       err, sizeof(err)),
			 0);
	assert_int_equal(enum_val, 1);

	assert_int_equal(rcut_flavor_set_param(&test_flavor, "tf.depth=11", err,
					       sizeof(err)),
			 -1);
	assert_non_null(strstr(
		err,
		"tf.depth: bad value '11'; expected an integer from 1 to 10"));
	assert_int_equal(int_val, 7);
	assert_int_equal(rcut_flavor_set_param(&test_flavor, "tf.fast=2", err,
					       sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "boolean"));
	assert_int_equal(rcut_flavor_set_param(&test_flavor, "tf.policy=mid",
					       err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "one of old, new"));
	assert_int_equal(rcut_flavor_set_param(&test_flavor, "tf.color=red",
					       err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "tf accepts depth, fast, policy"));
	assert_int_equal(
		rcut_flavor_set_param(&test_flavor, "tf.=1", err, sizeof(err)),
		-1);
	assert_int_equal(rcut_flavor_set_param(&test_flavor, "tfdepth=1", err,
					       sizeof(err)),
			 -1);
}

static void flavor_validation(void **state)
{
	static long bad_value = 5;
	static const char *const one[] = { "only", NULL };
	static const struct rcut_param bad_enum[] = {
		{ "e", "an enum whose default is out of range", RCUT_PARAM_ENUM,
		  0, 0, one, &bad_value },
		{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
	};
	static const struct rcut_param no_value[] = {
		{ "n", "no place for the value", RCUT_PARAM_INT, 0, 9, NULL,
		  NULL },
		{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
	};
	struct rcut_flavor f = rcut_flavor_busted;

	(void)state;
	for (const struct rcut_flavor_entry *e = rcut_builtin_flavors;
	     e->flavor; e++)
		assert_int_equal(
			rcut_flavor_validate(e->flavor, err, sizeof(err)), 0);
	f.abi_version = RCUT_FLAVOR_ABI_VERSION + 1;
	assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ABI version"));
	f = rcut_flavor_busted;
	f.synchronize = NULL;
	assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "lacks the required synchronize"));
	f = rcut_flavor_busted;
	f.caps |= RCUT_CAP_QSBR;
	assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "quiescent_state"));
	/* Names end up in NAME.KEY=VALUE and in every output line. */
	for (const char *name = ""; name;
	     name = !name[0]	   ? "a.b" :
		    name[0] == 'a' ? "thirty-three-characters-long-name" :
				     NULL) {
		f = rcut_flavor_busted;
		f.name = name;
		assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)),
				 -1);
		assert_non_null(strstr(err, "name missing or malformed"));
	}
	f = rcut_flavor_busted;
	f.params = bad_enum;
	assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "parameter 'e' is malformed"));
	f.params = no_value;
	assert_int_equal(rcut_flavor_validate(&f, err, sizeof(err)), -1);
}

static void json_plugin_and_dry_run_options(void **state)
{
	const struct rcut_flavor *f;
	struct rcut_config c;

	(void)state;
	assert_int_equal(parse(&c, "--json", "-", "--dry-run", "--plugin-dir",
			       "/tmp:/usr", "--plugin-dir=/", NULL),
			 0);
	assert_string_equal(c.json_path, "-");
	assert_true(c.dry_run);
	assert_int_equal(c.nplugin_dirs, 2);
	assert_string_equal(c.plugin_dirs[0], "/tmp:/usr");
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 0);
	assert_parse_error("--json: empty file name", "--json", "");
	assert_parse_error("--plugin-dir: empty name", "--plugin-dir=");
	assert_parse_error(
		"--plugin-dir: given more than 16 times", "--plugin-dir", "/",
		"--plugin-dir", "/", "--plugin-dir", "/", "--plugin-dir", "/",
		"--plugin-dir", "/", "--plugin-dir", "/", "--plugin-dir", "/",
		"--plugin-dir", "/", "--plugin-dir", "/", "--plugin-dir", "/",
		"--plugin-dir", "/", "--plugin-dir", "/", "--plugin-dir", "/",
		"--plugin-dir", "/", "--plugin-dir", "/", "--plugin-dir", "/",
		"--plugin-dir", "/");
	assert_int_equal(parse(&c, "--plugin-dir", "/tmp::/nonexistent", NULL),
			 0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 2);
	assert_non_null(
		strstr(err, "--plugin-dir: '/nonexistent' is not a directory"));
	/* A plugin file that is not there: one line naming --flavor. */
	assert_int_equal(parse(&c, "--flavor", "./nosuch.so", NULL), 0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--flavor: plugin './nosuch.so': No such"));
	assert_int_equal(
		parse(&c, "--flavor", "nosuch", "--plugin-dir", "/tmp", NULL),
		0);
	assert_int_equal(rcut_options_resolve(&c, &f, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "a plugin NAME in --plugin-dir"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(long_options),
		cmocka_unit_test(kernel_style_parameters),
		cmocka_unit_test(flavor_parameters_are_collected),
		cmocka_unit_test(scale_and_ref_options),
		cmocka_unit_test(options_of_another_test),
		cmocka_unit_test(ref_flavor_lists),
		cmocka_unit_test(gp_and_callback_options),
		cmocka_unit_test(actions),
		cmocka_unit_test(bad_counts),
		cmocka_unit_test(bad_durations),
		cmocka_unit_test(bad_words),
		cmocka_unit_test(kernel_units_and_prefixes),
		cmocka_unit_test(resolve_flavors),
		cmocka_unit_test(flavor_parameter_values),
		cmocka_unit_test(flavor_validation),
		cmocka_unit_test(json_plugin_and_dry_run_options),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
