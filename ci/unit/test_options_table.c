// SPDX-License-Identifier: MIT
/*
 * Unit tests of the option table: its rows are consistent, the man page
 * documents every row (name, value, default, alias, kernel spelling) and
 * --help's text states each plain default, and the parameter lists come
 * out as the rows say.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../cmd/options.h"
#include "../../torture/config/options_table.h"

#ifndef RCUT_SOURCE_DIR
#define RCUT_SOURCE_DIR "."
#endif

/* Whether an option name continues at c (so "--gp-async" != "-max"). */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/* Whether text has word at a place not inside a longer name. */
static bool has_word(const char *text, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = text; (p = strstr(p, word)); p++)
		if ((p == text || !name_char(p[-1]) || word[0] == '-') &&
		    !name_char(p[len]))
			return true;
	return false;
}

static void rows_are_consistent(void **state)
{
	(void)state;
	assert_true(rcut_nopts > 0 && rcut_nopts <= RCUT_OPT_MAX);
	for (int i = 0; i < rcut_nopts; i++) {
		const struct rcut_opt *o = &rcut_opts[i];
		bool takes_value =
			o->type != RCUT_OPT_FLAG && o->type != RCUT_OPT_GP &&
			o->type != RCUT_OPT_ACTION && o->type != RCUT_OPT_INT &&
			o->custom != RCUT_CUSTOM_QUIET;

		if (!o->help || !o->help[0] || !o->group)
			fail_msg("--%s: no help text or group", o->name);
		if (takes_value != (o->arg != NULL))
			fail_msg("--%s: value name and type disagree", o->name);
		if (rcut_opt_find(o->name) != o ||
		    (o->alias && rcut_opt_find(o->alias) != o))
			fail_msg("--%s: name or alias used twice", o->name);
		for (int j = 0; j < i; j++)
			if (o->short_name &&
			    o->short_name == rcut_opts[j].short_name)
				fail_msg("-%c used twice", o->short_name);
		if (o->type == RCUT_OPT_CHOICE && !o->names)
			fail_msg("--%s: a choice without names", o->name);
		if (o->type == RCUT_OPT_STRING && !o->custom && !o->empty)
			fail_msg("--%s: no message for an empty value",
				 o->name);
	}
}

/* Each list's positions are used once, by rows with a printable value. */
static void positions_are_unique_and_printable(void **state)
{
	(void)state;
	for (int which = 0; which <= RCUT_PARAMS_JSON; which++) {
		bool used[256] = { false };

		for (int i = 0; i < rcut_nopts; i++) {
			const struct rcut_opt *o = &rcut_opts[i];
			int pos =
				which < RCUT_NTESTS ? o->at[which] : o->json_at;

			if (!pos)
				continue;
			if (used[pos])
				fail_msg("list %d: position %d used twice",
					 which, pos);
			used[pos] = true;
			if (o->type == RCUT_OPT_NONE ||
			    o->type == RCUT_OPT_STRING ||
			    o->type == RCUT_OPT_LIST ||
			    o->type == RCUT_OPT_ACTION)
				fail_msg("--%s: its value cannot be printed",
					 o->name);
			if (which < RCUT_NTESTS && o->tests &&
			    !(o->tests & (1u << which)))
				fail_msg(
					"--%s: printed by a test it is not for",
					o->name);
		}
	}
}

/* man/rcutorture.1 as plain text lines: no fonts, no escapes. */
static char **man_lines(int *n)
{
	FILE *f = fopen(RCUT_SOURCE_DIR "/man/rcutorture.1", "r");
	char **lines = NULL, *line = NULL;
	size_t cap = 0;
	ssize_t len;

	assert_non_null(f);
	*n = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *out = malloc((size_t)len + 1), *q = out;

		for (const char *p = line; *p && *p != '\n'; p++) {
			if (p[0] == '\\' && p[1] == 'f' && p[2]) {
				p += 2; /* \fB, \fI, \fR, \fP */
			} else if (p[0] == '\\' &&
				   (p[1] == '-' || p[1] == ' ')) {
				*q++ = p[1];
				p++;
			} else {
				*q++ = *p;
			}
		}
		*q = '\0';
		lines = realloc(lines, (size_t)(*n + 1) * sizeof(*lines));
		lines[(*n)++] = out;
	}
	free(line);
	fclose(f);
	return lines;
}

/* A macro line's text: ".BR memb ." is "memb .". */
static const char *macro_text(const char *line)
{
	if (line[0] != '.')
		return line;
	while (*line && *line != ' ')
		line++;
	return *line ? line + 1 : line;
}

/* Whether the entry starting at man line `at` (a .TP term) says text. */
static bool entry_says(char **lines, int n, int at, const char *text)
{
	char body[8192] = "";
	size_t used = 0;

	for (int i = at + 1; i < n; i++) {
		if (!strncmp(lines[i], ".SS", 3) ||
		    !strncmp(lines[i], ".SH", 3))
			break;
		if (!strcmp(lines[i], ".TP") && i + 1 < n &&
		    strstr(lines[i + 1], "--"))
			break;
		used += (size_t)snprintf(body + used, sizeof(body) - used,
					 " %s", macro_text(lines[i]));
		if (used >= sizeof(body))
			break;
	}
	return has_word(body, text);
}

/*
 * Every row is a man page entry (a .TP whose term names --NAME, with
 * =ARG if it takes a value, and -S if it has a short name) that states
 * its default as --help does.
 */
static void man_page_documents_every_row(void **state)
{
	char term[128], def[64], said[96];
	int n;
	char **lines = man_lines(&n);

	(void)state;
	for (int r = 0; r < rcut_nopts; r++) {
		const struct rcut_opt *o = &rcut_opts[r];
		bool found = false, has_default = false, text_has = false;

		snprintf(term, sizeof(term), o->arg ? "--%s=%s" : "--%s",
			 o->name, o->arg);
		has_default = rcut_opt_default_text(o, def, sizeof(def));
		snprintf(said, sizeof(said), "Default: %s", def);
		for (int i = 0; i + 1 < n; i++) {
			if (strcmp(lines[i], ".TP") ||
			    !has_word(lines[i + 1], term))
				continue;
			if (o->short_name) {
				char s[4] = { '-', (char)o->short_name, ',' };

				if (!strstr(lines[i + 1], s))
					continue;
			}
			found = true;
			if (has_default && entry_says(lines, n, i + 1, said))
				text_has = true;
		}
		if (!found)
			fail_msg("man/rcutorture.1 has no entry for %s", term);
		if (has_default && !text_has)
			fail_msg("man/rcutorture.1: %s lacks '%s'", term, said);
	}
	for (int i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* Aliases and kernel spellings appear in the man page. */
static void man_page_names_aliases_and_kernel_spellings(void **state)
{
	char want[64];
	int n;
	char **lines = man_lines(&n);

	(void)state;
	for (int r = 0; r < rcut_nopts; r++) {
		const struct rcut_opt *o = &rcut_opts[r];

		for (int k = 0; k < 2; k++) {
			bool seen = false;

			if (k == 0 && !o->alias)
				continue;
			if (k == 1 && !o->kernel)
				continue;
			if (k == 0)
				snprintf(want, sizeof(want), "--%s", o->alias);
			else
				snprintf(want, sizeof(want),
					 "rcutorture.%s=", o->kernel);
			for (int i = 0; i < n && !seen; i++)
				seen = strstr(lines[i], want) &&
				       (k || has_word(lines[i], want));
			if (!seen)
				fail_msg("man/rcutorture.1 lacks %s", want);
		}
	}
	for (int i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* --help states each plain default as "default: X". */
static void help_states_the_defaults(void **state)
{
	char def[64], want[80];

	(void)state;
	for (int r = 0; r < rcut_nopts; r++) {
		const struct rcut_opt *o = &rcut_opts[r];

		if (!rcut_opt_default_text(o, def, sizeof(def)))
			continue;
		snprintf(want, sizeof(want), "default: %s", def);
		if (!has_word(o->help, want))
			fail_msg("--%s: help lacks '%s'", o->name, want);
	}
}

/* The defaults are the rows' defaults. */
static void defaults_come_from_the_rows(void **state)
{
	struct rcut_config c;

	(void)state;
	rcut_config_defaults(&c);
	assert_int_equal(c.action, RCUT_ACTION_RUN);
	assert_string_equal(c.flavor_name, "memb");
	assert_true(c.stall_timeout_ns == 10000000000ULL);
	assert_int_equal(c.cbflood_max, 50000);
	assert_int_equal(c.ncpus, -1);
	assert_int_equal(c.verbose, 1);
	assert_int_equal(c.pin, RCUT_PIN_COMPACT);
	assert_true(c.scale.pd_busy_wait_ns == 5000000);
	assert_int_equal(c.ref.nruns, 30);
	assert_null(c.json_path);
}

/* Print a test's line for cfg into buf. */
static void line(const struct rcut_config *cfg, const struct rcut_opt_run *run,
		 char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(f);
	rcut_opt_print_params(f, cfg, run, "fl", "Start of test");
	fclose(f);
}

static void lines_follow_the_rows(void **state)
{
	struct rcut_config c;
	struct rcut_opt_run run = { .test = RCUT_TEST_REF,
				    .nreaders = 3,
				    .ncpus = 5 };
	char buf[2048];

	(void)state;
	rcut_config_defaults(&c);
	c.params[c.nparams++] = "x.y=1";
	line(&c, &run, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"fl-ref-scale:--- Start of test: loops=10000 nreaders=3 nruns=30 readdelay=0 cpus=5 pin=compact stall_timeout=10s x.y=1\n");
	/* gp_* only when chosen in the torture line, always in scale's */
	run.test = RCUT_TEST_TORTURE;
	line(&c, &run, buf, sizeof(buf));
	assert_null(strstr(buf, "gp_"));
	c.gp_mask = 1u << RCUT_GP_NORMAL;
	line(&c, &run, buf, sizeof(buf));
	assert_non_null(strstr(
		buf, " shuffle_interval=0s gp_normal=1 preempt_duration=0s "));
	/* the rows in their order, then the flavor parameters, last */
	assert_non_null(strstr(buf, " swarm=0 hunt=0 "));
	assert_non_null(strstr(buf, " x.y=1\n"));
	run.test = RCUT_TEST_SCALE;
	line(&c, &run, buf, sizeof(buf));
	assert_non_null(
		strstr(buf, ": gp_async=1 gp_async_max=1000 gp_exp=0 "));
	assert_non_null(strstr(buf, " minruntime=30s "));
}

/* How many rows the JSON "config" object lists. */
static int json_rows(void)
{
	int n = 0;

	for (int i = 0; i < rcut_nopts; i++)
		n += rcut_opts[i].json_at > 0;
	return n;
}

static void json_list_types_its_values(void **state)
{
	struct rcut_config c;
	struct rcut_opt_run run = { .nreaders = 2, .ncpus = 4 };
	struct rcut_value p[RCUT_OPT_MAX];
	int n;

	(void)state;
	rcut_config_defaults(&c);
	c.seed = 7;
	n = rcut_opt_params(&c, &run, RCUT_PARAMS_JSON, p, RCUT_OPT_MAX);
	assert_int_equal(n, json_rows());
	assert_string_equal(p[0].key, "nreaders");
	assert_int_equal(p[0].i, 2);
	assert_string_equal(p[2].key, "stat_interval_s");
	assert_int_equal(p[2].kind, RCUT_VAL_SECS);
	assert_string_equal(p[4].key, "seed");
	assert_string_equal(p[4].text, "7");
	assert_int_equal(p[5].kind, RCUT_VAL_BOOL);
	assert_string_equal(p[21].key, "verbose");
}

/* Kernel spellings: underscores, the kernel's own names, no actions. */
static void kernel_spellings(void **state)
{
	char dashed[64];

	(void)state;
	assert_string_equal(
		rcut_opt_find_kernel("torture_type", 12, dashed, sizeof(dashed))
			->name,
		"flavor");
	assert_string_equal(
		rcut_opt_find_kernel("gp_async", 8, dashed, sizeof(dashed))
			->name,
		"gp-normal");
	assert_string_equal(dashed, "gp-async");
	assert_null(rcut_opt_find_kernel("help", 4, dashed, sizeof(dashed)));
	assert_null(rcut_opt_find_kernel("nosuch", 6, dashed, sizeof(dashed)));
}

/* A false boolean in kernel spelling switches a flag off again. */
static void kernel_false_switches_a_flag_off(void **state)
{
	char *argv[] = { (char *)"rcutorture",
			 (char *)"--test",
			 (char *)"scale",
			 (char *)"--pd-test",
			 (char *)"rcutorture.pd_test=0",
			 NULL };
	struct rcut_config c;
	char err[256];

	(void)state;
	rcut_config_defaults(&c);
	assert_int_equal(rcut_options_parse(5, argv, &c, err, sizeof(err)), 0);
	assert_false(c.scale.pd_test);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_consistent),
		cmocka_unit_test(positions_are_unique_and_printable),
		cmocka_unit_test(man_page_documents_every_row),
		cmocka_unit_test(man_page_names_aliases_and_kernel_spellings),
		cmocka_unit_test(help_states_the_defaults),
		cmocka_unit_test(defaults_come_from_the_rows),
		cmocka_unit_test(lines_follow_the_rows),
		cmocka_unit_test(json_list_types_its_values),
		cmocka_unit_test(kernel_spellings),
		cmocka_unit_test(kernel_false_switches_a_flag_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
