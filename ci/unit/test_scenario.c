// SPDX-License-Identifier: MIT
/* Unit tests: scenario files, their lookup, and --scenario in the options. */
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

#include "../../cmd/options.h"
#include "../../torture/util/parse.h"
#include "../../cmd/scenario.h"
#include "../../report/verdict.h"

static char err[1024];
static char dir[] = "/tmp/rcut-test-scenario-XXXXXX";

/* Parse a string as the scenario file "f"; returns what parse returns. */
static int parse_text(struct rcut_scenario *s, const char *text)
{
	return rcut_scenario_parse(s, "f", text, strlen(text), err,
				   sizeof(err));
}

/* Write text to dir/name; returns the path (static buffer). */
static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

#define assert_err(needle)                                              \
	do {                                                            \
		if (!strstr(err, needle))                               \
			fail_msg("error '%s' lacks '%s'", err, needle); \
		assert_null(strchr(err, '\n'));                         \
	} while (0)

static void words_lines_and_comments(void **state)
{
	struct rcut_scenario s;

	(void)state;
	assert_int_equal(
		parse_text(
			&s,
			"# a comment\n--flavor qsbr\n\n\t --cpus 8  --onoff-interval 50ms # why\nqsbr.x=1 #\n   # indented comment\nlast-line-without-newline"),
		0);
	assert_int_equal(s.nlines, 4);
	assert_int_equal(s.lines[0].lineno, 2);
	assert_int_equal(s.lines[0].argc, 3);
	assert_string_equal(s.lines[0].argv[0], "rcutorture");
	assert_string_equal(s.lines[0].argv[1], "--flavor");
	assert_string_equal(s.lines[0].argv[2], "qsbr");
	assert_null(s.lines[0].argv[3]);
	assert_int_equal(s.lines[1].lineno, 4);
	assert_int_equal(s.lines[1].argc, 5);
	assert_string_equal(s.lines[1].argv[4], "50ms");
	assert_int_equal(s.lines[2].argc, 2);
	assert_string_equal(s.lines[2].argv[1], "qsbr.x=1");
	assert_int_equal(s.lines[3].lineno, 7);
	assert_string_equal(s.lines[3].argv[1], "last-line-without-newline");
	assert_int_equal(s.expect, RCUT_EXIT_SUCCESS);
	assert_false(s.expect_given);
	rcut_scenario_free(&s);

	assert_int_equal(parse_text(&s, ""), 0);
	assert_int_equal(s.nlines, 0);
	rcut_scenario_free(&s);
	/* CRLF line ends are blanks. */
	assert_int_equal(parse_text(&s, "--cpus 4\r\n"), 0);
	assert_string_equal(s.lines[0].argv[2], "4");
	rcut_scenario_free(&s);
}

static void expect_lines(void **state)
{
	struct rcut_scenario s;

	(void)state;
	assert_int_equal(parse_text(&s, "#EXPECT: FAILURE\n--flavor busted\n"),
			 0);
	assert_int_equal(s.expect, RCUT_EXIT_FAILURE);
	assert_true(s.expect_given);
	assert_int_equal(s.nlines, 1);
	rcut_scenario_free(&s);
	assert_int_equal(parse_text(&s, "  #expect:stall  \n"), 0);
	assert_int_equal(s.expect, RCUT_EXIT_STALL);
	rcut_scenario_free(&s);
	assert_int_equal(parse_text(&s, "#EXPECT: RCU_HOTPLUG"), 0);
	assert_int_equal(s.expect, RCUT_EXIT_HOTPLUG);
	rcut_scenario_free(&s);
	/* Not the tag: an ordinary comment. */
	assert_int_equal(parse_text(&s, "#EXPECTED: nothing\n"), 0);
	assert_false(s.expect_given);
	rcut_scenario_free(&s);

	assert_int_equal(parse_text(&s, "\n#EXPECT: MAYBE\n"), -1);
	assert_err("f:2: #EXPECT: 'MAYBE' is not valid; expected SUCCESS");
	rcut_scenario_free(&s);
	assert_int_equal(parse_text(&s, "#EXPECT: SUCCESS\n#EXPECT: FAILURE"),
			 -1);
	assert_err("f:2: a second #EXPECT: line");
	rcut_scenario_free(&s);
	assert_int_equal(parse_text(&s, "#EXPECT:\n"), -1);
	assert_err("f:1: #EXPECT: '' is not valid");
	rcut_scenario_free(&s);
}

static void bad_bytes(void **state)
{
	struct rcut_scenario s;
	char many[RCUT_SCENARIO_MAX_WORDS * 3 + 8] = "";

	(void)state;
	assert_int_equal(parse_text(&s, "--cpus 4\n--nreaders\x01 3\n"), -1);
	assert_err("f:2: control character 0x01");
	rcut_scenario_free(&s);
	assert_int_equal(
		rcut_scenario_parse(&s, "f", "a\nb\0c", 5, err, sizeof(err)),
		-1);
	assert_err("f:2: NUL byte");
	rcut_scenario_free(&s);
	for (int i = 0; i <= RCUT_SCENARIO_MAX_WORDS; i++)
		strcat(many, i % 8 ? "w " : "w\n");
	assert_int_equal(parse_text(&s, many), -1);
	assert_err("more than 1024 words");
	rcut_scenario_free(&s);
}

static void lookup_by_name_and_path(void **state)
{
	char path[512];

	(void)state;
	write_file("MINE", "--nreaders 2\n");
	setenv(RCUT_SCENARIO_ENV, dir, 1);
	assert_int_equal(rcut_scenario_find("MINE", path, sizeof(path), err,
					    sizeof(err)),
			 0);
	assert_true(strncmp(path, dir, strlen(dir)) == 0);
	/* A '/' makes it a path, used as given. */
	assert_int_equal(rcut_scenario_find("./MINE", path, sizeof(path), err,
					    sizeof(err)),
			 0);
	assert_string_equal(path, "./MINE");
	assert_int_equal(rcut_scenario_find("NOPE", path, sizeof(path), err,
					    sizeof(err)),
			 -1);
	assert_err("--scenario: no scenario 'NOPE' in ");
	assert_err(dir);
	assert_err("e.g. ./NOPE");
	for (const char *bad = ""; bad; bad = !bad[0] ? ".." : NULL) {
		assert_int_equal(rcut_scenario_find(bad, path, sizeof(path),
						    err, sizeof(err)),
				 -1);
		assert_err("expected a scenario NAME or a FILE path");
	}
	unsetenv(RCUT_SCENARIO_ENV);
}

static void load_checks_the_file(void **state)
{
	struct rcut_scenario s;
	char *big = malloc(RCUT_SCENARIO_MAX_BYTES + 2);

	(void)state;
	assert_int_equal(rcut_scenario_load(&s, "/dev/null", err, sizeof(err)),
			 -1);
	assert_err("--scenario: '/dev/null' is not a regular file");
	rcut_scenario_free(&s);
	assert_int_equal(
		rcut_scenario_load(&s, "/nonexistent/x", err, sizeof(err)), -1);
	assert_err("--scenario: cannot open '/nonexistent/x'");
	rcut_scenario_free(&s);
	memset(big, '#', RCUT_SCENARIO_MAX_BYTES + 1);
	big[RCUT_SCENARIO_MAX_BYTES + 1] = '\0';
	assert_int_equal(rcut_scenario_load(&s, write_file("BIG", big), err,
					    sizeof(err)),
			 -1);
	assert_err("is larger than 65536 bytes");
	rcut_scenario_free(&s);
	free(big);
	assert_int_equal(rcut_scenario_load(&s,
					    write_file("OK", "#EXPECT: STALL\n"
							     "--cpus 3\n"),
					    err, sizeof(err)),
			 0);
	assert_int_equal(s.expect, RCUT_EXIT_STALL);
	assert_string_equal(s.path, s.name);
	rcut_scenario_free(&s);
}

/* Parse "rcutorture" + args; the config is released by the caller. */
static int parse(struct rcut_config *cfg, const char *first, ...)
{
	char *argv[16] = { (char *)"rcutorture" };
	int argc = 1;
	va_list ap;

	rcut_config_defaults(cfg);
	va_start(ap, first);
	for (const char *a = first; a && argc < 15;
	     a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return rcut_options_parse(argc, argv, cfg, err, sizeof(err));
}

static void options_after_the_scenario_win(void **state)
{
	char path[512], kernel_style[600];
	struct rcut_config c;

	(void)state;
	snprintf(path, sizeof(path), "%s",
		 write_file("S", "--flavor qsbr\n--nreaders 3 --seed 7\n"
				 "qsbr.foo=1\n#EXPECT: FAILURE\n"));
	assert_int_equal(parse(&c, "--scenario", path, "--nreaders", "5", NULL),
			 0);
	assert_string_equal(c.flavor_name, "qsbr");
	assert_int_equal(c.nreaders, 5);
	assert_true(c.seed == 7 && c.seed_given);
	assert_int_equal(c.nparams, 1);
	assert_string_equal(c.params[0], "qsbr.foo=1");
	assert_non_null(c.scenario);
	assert_int_equal(c.scenario->expect, RCUT_EXIT_FAILURE);
	rcut_config_release(&c);
	assert_null(c.scenario);
	/* Before it, the scenario wins; the kernel-style form works too. */
	snprintf(kernel_style, sizeof(kernel_style), "rcutorture.scenario=%s",
		 path);
	assert_int_equal(parse(&c, "--nreaders", "5", kernel_style, NULL), 0);
	assert_int_equal(c.nreaders, 3);
	rcut_config_release(&c);
}

static void scenario_errors_name_file_and_line(void **state)
{
	char path[512];
	struct rcut_config c;

	(void)state;
	snprintf(path, sizeof(path), "%s",
		 write_file("BAD", "--flavor qsbr\n\n--cpus many\n"));
	assert_int_equal(parse(&c, "--scenario", path, NULL), 2);
	assert_err(":3: --cpus: 'many' is not valid; expected an integer");
	assert_err(path);
	rcut_config_release(&c);
	snprintf(path, sizeof(path), "%s",
		 write_file("NEST", "--scenario OTHER\n"));
	assert_int_equal(parse(&c, "--scenario", path, NULL), 2);
	assert_err(":1: --scenario: a scenario file cannot name another");
	rcut_config_release(&c);
	snprintf(path, sizeof(path), "%s", write_file("WORD", "qsbr\n"));
	assert_int_equal(parse(&c, "--scenario", path, NULL), 2);
	assert_err(":1: unexpected argument 'qsbr'");
	rcut_config_release(&c);
	assert_int_equal(
		parse(&c, "--scenario", path, "--scenario", path, NULL), 2);
	rcut_config_release(&c);
	snprintf(path, sizeof(path), "%s", write_file("OK", "--cpus 2\n"));
	assert_int_equal(
		parse(&c, "--scenario", path, "--scenario", path, NULL), 2);
	assert_err("--scenario: given twice");
	rcut_config_release(&c);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(words_lines_and_comments),
		cmocka_unit_test(expect_lines),
		cmocka_unit_test(bad_bytes),
		cmocka_unit_test(lookup_by_name_and_path),
		cmocka_unit_test(load_checks_the_file),
		cmocka_unit_test(options_after_the_scenario_win),
		cmocka_unit_test(scenario_errors_name_file_and_line),
	};

	return cmocka_run_group_tests_name("scenario", tests, setup, teardown);
}
