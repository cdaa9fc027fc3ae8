// SPDX-License-Identifier: MIT
/* Unit tests: the --json document, read back with json-c. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "../../flavors/registry.h"
#include "../../report/json.h"
#include "../../torture/config/options_table.h"

static const char *const gp_names[RCUT_SNAP_GP_KINDS] = {
	"sync", "exp", "normal", "cond", "poll", "cond-full", "poll-full"
};
static char path[] = "/tmp/rcut-test-json-XXXXXX";
static char err[512];

/* The value at a '/'-separated path of keys and array indexes. */
static json_object *at(json_object *o, const char *keys)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", keys);
	for (char *k = strtok_r(buf, "/", &save); k && o;
	     k = strtok_r(NULL, "/", &save)) {
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)atoi(k));
		else if (!json_object_object_get_ex(o, k, &o))
			fail_msg("no key %s in %s", k, keys);
	}
	return o;
}

static int64_t int_at(json_object *o, const char *keys)
{
	return json_object_get_int64(at(o, keys));
}

static void fill_snapshot(struct rcut_snapshot *s, uint64_t ns)
{
	memset(s, 0, sizeof(*s));
	s->elapsed_ns = ns;
	s->ver = 400;
	s->reads = 2000000;
	s->gps = 100;
	s->cbs_invoked = 50;
	s->pipe[0] = 1999990;
	s->pipe[1] = 10;
	s->batch[10] = 3;
	s->wcount[9] = 390;
	s->writer_gps[4] = 77;
	s->min_online_ms = -1;
	s->barrier_attempts = 9;
	s->barrier_ok = 9;
}

/* Write a document for a run of 2 s with two intervals; parse it back. */
static json_object *round_trip(struct rcut_json_run *run)
{
	struct rcut_snapshot iv, final;
	json_object *doc;

	assert_int_equal(rcut_json_open(path, err, sizeof(err)), 0);
	assert_true(rcut_json_enabled());
	fill_snapshot(&iv, 500000000);
	rcut_json_add_interval(&iv);
	fill_snapshot(&iv, 1000000000);
	rcut_json_add_interval(&iv);
	fill_snapshot(&final, 2000000000);
	run->final = &final;
	assert_int_equal(rcut_json_write(run), 0);
	assert_false(rcut_json_enabled());
	doc = json_object_from_file(path);
	assert_non_null(doc);
	return doc;
}

static struct rcut_value params[RCUT_OPT_MAX];

/* The options of cfg as the torture test hands them to the document. */
static void add_config(struct rcut_json_run *run, const struct rcut_config *cfg,
		       long nreaders, long ncpus)
{
	const struct rcut_opt_run resolved = { .test = RCUT_TEST_TORTURE,
					       .nreaders = nreaders,
					       .ncpus = ncpus };

	run->params = params;
	run->nparams = rcut_opt_params(cfg, &resolved, RCUT_PARAMS_JSON, params,
				       RCUT_OPT_MAX);
	run->flavor_params = cfg->params;
	run->nflavor_params = cfg->nparams;
	run->seed = cfg->seed;
}

static void document_has_every_part(void **state)
{
	struct rcut_config cfg;
	struct rcut_json_run run = {
		.flavor = &rcut_flavor_memb,
		.gp_names = gp_names,
		.gp_kinds = 1u << 0 | 1u << 4,
		.exit_status = 0,
		.verdict = "SUCCESS",
	};
	json_object *doc;

	(void)state;
	rcut_config_defaults(&cfg);
	cfg.seed = UINT64_MAX; /* beyond a double's exact range */
	cfg.params[cfg.nparams++] = "memb.x=1";
	add_config(&run, &cfg, 3, 4);
	doc = round_trip(&run);
	assert_int_equal(int_at(doc, "format"), RCUT_JSON_FORMAT);
	assert_string_equal(json_object_get_string(at(doc, "tool/name")),
			    "rcutorture");
	assert_string_equal(json_object_get_string(at(doc, "flavor/name")),
			    "memb");
	assert_null(at(doc, "flavor/plugin"));
	assert_null(at(doc, "scenario"));
	assert_null(at(doc, "first_failure"));
	assert_null(at(doc, "stall"));
	assert_string_equal(json_object_get_string(at(doc, "seed")),
			    "18446744073709551615");
	assert_string_equal(json_object_get_string(at(doc, "verdict")),
			    "SUCCESS");
	assert_int_equal(int_at(doc, "exit_status"), 0);
	assert_int_equal(int_at(doc, "config/nreaders"), 3);
	assert_int_equal(int_at(doc, "config/cpus"), 4);
	assert_true(json_object_get_double(at(doc, "config/duration_s")) ==
		    30.0);
	assert_string_equal(json_object_get_string(at(doc, "config/gp/1")),
			    "poll");
	assert_int_equal(json_object_array_length(at(doc, "config/gp")), 2);
	assert_string_equal(json_object_get_string(at(doc, "config/params/0")),
			    "memb.x=1");
	assert_int_equal(int_at(doc, "final/ver"), 400);
	assert_int_equal(json_object_array_length(at(doc, "final/reader_pipe")),
			 RCUT_HIST_LEN);
	assert_int_equal(int_at(doc, "final/reader_pipe/1"), 10);
	assert_int_equal(int_at(doc, "final/reader_batch/10"), 3);
	assert_int_equal(int_at(doc, "final/free_block_circulation/9"), 390);
	assert_int_equal(int_at(doc, "final/writer_gps/poll"), 77);
	assert_int_equal(int_at(doc, "final/onoff/min_online_ms"), -1);
	assert_int_equal(int_at(doc, "final/barrier/successes"), 9);
	assert_int_equal(int_at(doc, "final/callbacks/invoked"), 50);
	assert_false(json_object_get_boolean(at(doc, "final/failed")));
	assert_null(at(doc, "final/rtc"));
	assert_true(json_object_get_double(at(doc, "rates/gps_per_s")) == 50.0);
	assert_true(json_object_get_double(at(doc, "rates/reads_per_s")) ==
		    1000000.0);
	assert_int_equal(json_object_array_length(at(doc, "intervals")), 2);
	assert_true(json_object_get_double(at(doc, "intervals/1/elapsed_s")) ==
		    1.0);
	json_object_put(doc);
}

static void failure_stall_and_origin(void **state)
{
	struct rcut_config cfg;
	struct rcut_json_run run = {
		.flavor = &rcut_flavor_busted,
		.plugin = "./libx.so",
		.scenario_name = "BUSTED",
		.scenario_path = "ci/scenarios/BUSTED",
		.scenario_expect = "FAILURE",
		.gp_names = gp_names,
		.exit_status = 4,
		.verdict = "STALL",
		.failed = true,
		.failure_s = 0.25,
		.failure_check = "too-short grace period",
		.stall = "writer 0 stuck in synchronize for 1.0 s",
	};
	json_object *doc;

	(void)state;
	rcut_config_defaults(&cfg);
	add_config(&run, &cfg, 1, 1);
	doc = round_trip(&run);
	assert_string_equal(json_object_get_string(at(doc, "flavor/plugin")),
			    "./libx.so");
	assert_string_equal(json_object_get_string(at(doc, "scenario/expect")),
			    "FAILURE");
	assert_true(json_object_get_double(at(doc, "first_failure/time_s")) ==
		    0.25);
	assert_string_equal(
		json_object_get_string(at(doc, "first_failure/check")),
		"too-short grace period");
	assert_string_equal(json_object_get_string(at(doc, "stall")),
			    run.stall);
	assert_int_equal(int_at(doc, "exit_status"), 4);
	json_object_put(doc);
}

static void bad_destination_and_no_open(void **state)
{
	struct rcut_json_run run = { 0 };

	(void)state;
	assert_int_equal(
		rcut_json_open("/nonexistent/dir/x.json", err, sizeof(err)),
		-1);
	assert_non_null(strstr(err, "--json: cannot write '/nonexistent/"));
	assert_false(rcut_json_enabled());
	/* Without a destination, writing does nothing. */
	assert_int_equal(rcut_json_write(&run), 0);
}

static int setup(void **state)
{
	int fd = mkstemp(path);

	(void)state;
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(document_has_every_part),
		cmocka_unit_test(failure_stall_and_origin),
		cmocka_unit_test(bad_destination_and_no_open),
	};

	return cmocka_run_group_tests_name("json", tests, setup, teardown);
}
