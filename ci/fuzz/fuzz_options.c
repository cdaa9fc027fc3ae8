// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the command-line front end: the input is split at
 * NUL bytes into an argument vector, which goes through the
 * option parser, flavor resolution (NAME.KEY=VALUE parameters included)
 * and, word by word, the value parsers.  An input that starts with '#'
 * is a scenario file instead: it is parsed and its lines applied as
 * --scenario does.  Any crash, sanitizer report or message that is not
 * one line is a finding.  Inputs that could make resolution dlopen() a
 * plugin (a '/', ".so" or a plugin directory) are not resolved.
 */
#define _GNU_SOURCE
#include "../../cmd/options.h"
#include "../../torture/util/parse.h"
#include "../../cmd/scenario.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every error must be a non-empty message printable as one line. */
static void check_message(const char *err)
{
	if (!err[0])
		abort();
	for (const char *p = err; *p; p++)
		if (iscntrl((unsigned char)*p))
			abort();
}

/* Whether resolving these options could load a shared object. */
static bool may_load_plugin(const uint8_t *data, size_t size)
{
	return memchr(data, '/', size) || memmem(data, size, ".so", 3) ||
	       memmem(data, size, "plugin", 6);
}

/* Resolve cfg unless that could load a plugin; check any message. */
static void resolve(struct rcut_config *cfg, const uint8_t *data, size_t size)
{
	const struct rcut_flavor *flavor, *list[RCUT_MAX_SWEEP];
	char err[512];
	int n;

	if (cfg->action != RCUT_ACTION_RUN || may_load_plugin(data, size))
		return;
	if (cfg->test == RCUT_TEST_REF) {
		if (rcut_options_resolve_ref(cfg, list, &n, err, sizeof(err)))
			check_message(err);
	} else if (rcut_options_resolve(cfg, &flavor, err, sizeof(err))) {
		check_message(err);
	}
}

/* The input as a scenario file's text. */
static void fuzz_scenario(const uint8_t *data, size_t size)
{
	struct rcut_config cfg;
	char err[512];

	rcut_config_defaults(&cfg);
	cfg.scenario = calloc(1, sizeof(*cfg.scenario));
	if (!cfg.scenario)
		return;
	if (rcut_scenario_parse(cfg.scenario, "fuzz", (const char *)data, size,
				err, sizeof(err)) ||
	    rcut_options_apply_scenario(&cfg, err, sizeof(err)))
		check_message(err);
	else
		resolve(&cfg, data, size);
	rcut_config_release(&cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *argv[MAX_ARGS + 2], err[512];
	const char *end = (const char *)data + size;
	long values[RCUT_MAX_SWEEP];
	struct rcut_config cfg;
	int argc = 1, n;
	uint64_t u;
	long l;
	bool b;

	if (size && data[0] == '#') {
		fuzz_scenario(data, size);
		return 0;
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	argv[0] = (char *)"rcutorture";
	for (char *p = text; argc <= MAX_ARGS;) {
		argv[argc++] = p;
		p += strlen(p) + 1;
		if (p > text + (end - (const char *)data))
			break;
	}
	argv[argc] = NULL;

	rcut_config_defaults(&cfg);
	if (rcut_options_parse(argc, argv, &cfg, err, sizeof(err)) == 0)
		resolve(&cfg, data, size);
	else
		check_message(err);
	for (int i = 1; i < argc; i++) {
		if (rcut_parse_duration(argv[i], &u) == 0) {
			char buf[32];
			uint64_t back;

			/* What the Start line prints must read back as itself. */
			rcut_format_duration(u, buf, sizeof(buf));
			if (rcut_parse_duration(buf, &back) || back != u)
				abort();
		}
		(void)rcut_parse_long(argv[i], -5, 5, &l);
		(void)rcut_parse_u64(argv[i], &u);
		(void)rcut_parse_bool(argv[i], &b);
		(void)rcut_parse_long_list(argv[i], 1, 9, values,
					   RCUT_MAX_SWEEP, &n);
	}
	rcut_config_release(&cfg);
	free(text);
	return 0;
}
