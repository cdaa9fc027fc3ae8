// SPDX-License-Identifier: MIT
/*
 * Unit tests: the reproduction command (torture/config/repro.c).  Its
 * arguments, parsed again, give the same configuration, row by row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../cmd/options.h"
#include "../../torture/config/options_table.h"
#include "../../torture/config/repro.h"

static char err[512];

/* Parse argv[0..argc) (after "rcutorture") into cfg. */
static int parse_v(struct rcut_config *cfg, int argc, const char *const *args)
{
	char *argv[RCUT_REPRO_MAX_ARGS + 2] = { (char *)"rcutorture" };

	for (int i = 0; i < argc; i++)
		argv[i + 1] = (char *)args[i];
	rcut_config_defaults(cfg);
	return rcut_options_parse(argc + 1, argv, cfg, err, sizeof(err));
}

/* Every row the command may hold has the same value in a and b. */
static void assert_same_rows(const struct rcut_config *a,
			     const struct rcut_config *b)
{
	for (int i = 0; i < rcut_nopts; i++) {
		const struct rcut_opt *o = &rcut_opts[i];
		size_t size = o->type == RCUT_OPT_FLAG	   ? sizeof(bool) :
			      o->type == RCUT_OPT_COUNT	   ? sizeof(long) :
			      o->type == RCUT_OPT_DURATION ? sizeof(uint64_t) :
			      o->type == RCUT_OPT_U64	   ? sizeof(uint64_t) :
			      o->type == RCUT_OPT_CHOICE   ? sizeof(int) :
			      o->type == RCUT_OPT_INT	   ? sizeof(int) :
							     0;

		if (!rcut_repro_row(i) || !size)
			continue;
		if (memcmp((const char *)a + o->off, (const char *)b + o->off,
			   size))
			fail_msg("--%s differs after the round trip", o->name);
	}
	assert_int_equal(a->gp_mask, b->gp_mask);
	assert_string_equal(a->flavor_name, b->flavor_name);
	assert_int_equal(a->nparams, b->nparams);
	for (int i = 0; i < a->nparams; i++)
		assert_string_equal(a->params[i], b->params[i]);
}

/* Parse args, build the command, parse it: the same configuration. */
static void round_trip(int argc, const char *const *args, int expect_n)
{
	static struct rcut_repro r;
	struct rcut_config a, b;

	assert_int_equal(parse_v(&a, argc, args), 0);
	assert_int_equal(rcut_repro_build(&r, &a, 0), 0);
	if (expect_n >= 0)
		assert_int_equal(r.n, expect_n);
	if (parse_v(&b, r.n, r.arg))
		fail_msg("the command does not parse: %s", err);
	assert_same_rows(&a, &b);
}

static void every_kind_of_value_round_trips(void **state)
{
	static const char *const args[] = {
		"--flavor",
		"srcu",
		"srcu.hz=250",
		"--seed",
		"0x10",
		"--cpus",
		"3",
		"--nreaders",
		"-1",
		"--duration",
		"0.0001",
		"--stutter",
		"1.5us",
		"--stat-interval",
		"0.25",
		"--onoff-interval",
		"1.000001",
		"--call-rcu",
		"percpu",
		"--pin",
		"none",
		"--stop-on-failure",
		"--gp-sync",
		"--gp-poll",
		"--n-barrier-cbs",
		"2",
		"--stall-timeout",
		"1.5h",
		"--fwd-progress",
		"0",
		"-q",
		"--reader-nesting",
		"1",
	};

	(void)state;
	round_trip(sizeof(args) / sizeof(args[0]), args, -1);
}

static void only_what_differs_from_the_defaults(void **state)
{
	static const char *const args[] = { "--seed",	      "7",
					    "--nfakewriters", "4",
					    "--json",	      "x.json" };
	static struct rcut_repro r;
	struct rcut_config a;
	char line[256];

	(void)state;
	assert_int_equal(parse_v(&a, 6, args), 0);
	assert_int_equal(rcut_repro_build(&r, &a, 0), 0);
	rcut_repro_line(&r, line, sizeof(line));
	/* --nfakewriters 4 is the default; --json is a destination. */
	assert_string_equal(line, "rcutorture --flavor=memb --seed=7");
	assert_int_equal(rcut_repro_build(&r, &a, 6), 0);
	rcut_repro_line(&r, line, sizeof(line));
	assert_string_equal(line, "rcutorture --flavor=memb --seed=7 --cpus=6");
}

static void swarm_keeps_given_defaults_and_hunt_its_preset(void **state)
{
	static const char *const swarm[] = { "--swarm", "--seed", "1",
					     "--stutter", "0" };
	static const char *const hunt[] = { "--hunt", "--seed", "1",
					    "--race-delay", "5" };
	static struct rcut_repro r;
	struct rcut_config a;
	char line[256];

	(void)state;
	assert_int_equal(parse_v(&a, 5, swarm), 0);
	assert_int_equal(rcut_repro_build(&r, &a, 0), 0);
	rcut_repro_line(&r, line, sizeof(line));
	assert_string_equal(
		line, "rcutorture --flavor=memb --seed=1 --stutter=0s --swarm");
	assert_int_equal(parse_v(&a, 5, hunt), 0);
	assert_int_equal(rcut_repro_build(&r, &a, 0), 0);
	rcut_repro_line(&r, line, sizeof(line));
	assert_string_equal(
		line,
		"rcutorture --flavor=memb --seed=1 --race-delay=5 --hunt");
	round_trip(5, hunt, 4);
}

static void shell_quoting(void **state)
{
	static struct rcut_repro r;
	char line[256];

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rcut_repro_add(&r, "--flavor=/tmp/it's here.so"), 0);
	assert_int_equal(rcut_repro_add(&r, "x.k=a b"), 0);
	assert_int_equal(rcut_repro_add(&r, "--seed=1"), 0);
	rcut_repro_line(&r, line, sizeof(line));
	assert_string_equal(
		line,
		"rcutorture '--flavor=/tmp/it'\\''s here.so' 'x.k=a b' --seed=1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_kind_of_value_round_trips),
		cmocka_unit_test(only_what_differs_from_the_defaults),
		cmocka_unit_test(
			swarm_keeps_given_defaults_and_hunt_its_preset),
		cmocka_unit_test(shell_quoting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
