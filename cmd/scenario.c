// SPDX-License-Identifier: MIT
/*
 * Scenario files: finding one by name, reading it (bounded: a regular file
 * of at most 64 KiB, so a FIFO or /dev/zero cannot hang or flood us) and
 * cutting it into per-line argument vectors.  The words of a line are
 * separated by blanks; a word starting with '#' ends the line.
 */
#define _GNU_SOURCE
#include "scenario.h"
#include "replay.h"

#include "../report/verdict.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXPECT_TAG "#EXPECT:"

/* The verdicts an #EXPECT line may name. */
static const struct {
	const char *name;
	int status;
} expectations[] = {
	{ "SUCCESS", RCUT_EXIT_SUCCESS },
	{ "FAILURE", RCUT_EXIT_FAILURE },
	{ "RCU_HOTPLUG", RCUT_EXIT_HOTPLUG },
	{ "STALL", RCUT_EXIT_STALL },
};

/* Words and lines gathered so far; argv arrays are fixed up at the end. */
struct splitter {
	struct rcut_scenario *s;
	const char *file;
	char *err;
	size_t errlen;
	int nwords, nlines; /* slots used in s->words, lines with words */
	int nreal;	    /* words from the file (not argv[0] or NULL) */
	int *first;	    /* each line's first slot in s->words */
};

static int parse_expect(struct splitter *sp, int lineno, char *value)
{
	char *end;

	while (*value == ' ' || *value == '\t')
		value++;
	end = value + strlen(value);
	while (end > value && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if (sp->s->expect_given) {
		snprintf(sp->err, sp->errlen, "%s:%d: a second %s line",
			 sp->file, lineno, EXPECT_TAG);
		return -1;
	}
	for (size_t i = 0; i < sizeof(expectations) / sizeof(expectations[0]);
	     i++) {
		if (!strcasecmp(value, expectations[i].name)) {
			sp->s->expect = expectations[i].status;
			sp->s->expect_given = true;
			return 0;
		}
	}
	snprintf(
		sp->err, sp->errlen,
		"%s:%d: %s '%s' is not valid; expected SUCCESS, FAILURE, RCU_HOTPLUG or STALL",
		sp->file, lineno, EXPECT_TAG, value);
	return -1;
}

static int out_of_memory(struct splitter *sp)
{
	snprintf(sp->err, sp->errlen, "%s: out of memory", sp->file);
	return -1;
}

/* Append one slot (a word, argv[0] or the NULL end) to s->words. */
static int add_word(struct splitter *sp, char *word)
{
	char **w = realloc(sp->s->words,
			   (size_t)(sp->nwords + 1) * sizeof(*sp->s->words));

	if (!w)
		return out_of_memory(sp);
	sp->s->words = w;
	sp->s->words[sp->nwords++] = word;
	return 0;
}

/* Record a line whose argv starts at slot 'start'. */
static int add_line(struct splitter *sp, int lineno, int start)
{
	struct rcut_scenario_line *lines;
	int *first;

	first = realloc(sp->first, (size_t)(sp->nlines + 1) * sizeof(int));
	if (!first)
		return out_of_memory(sp);
	sp->first = first;
	lines = realloc(sp->s->lines,
			(size_t)(sp->nlines + 1) * sizeof(*sp->s->lines));
	if (!lines)
		return out_of_memory(sp);
	sp->s->lines = lines;
	sp->first[sp->nlines] = start;
	lines[sp->nlines].lineno = lineno;
	lines[sp->nlines].argc = sp->nwords - start - 1;
	lines[sp->nlines].argv = NULL; /* set once s->words stops moving */
	sp->s->nlines = ++sp->nlines;
	return 0;
}

/* Cut one line (NUL-terminated, in s->text) into words. */
static int split_line(struct splitter *sp, int lineno, char *line)
{
	int start = sp->nwords;
	char *p = line;

	for (char *c = line; *c; c++) {
		if (*c == '\t' || *c == '\r')
			*c = ' ';
		else if (iscntrl((unsigned char)*c)) {
			snprintf(sp->err, sp->errlen,
				 "%s:%d: control character 0x%02x", sp->file,
				 lineno, (unsigned char)*c);
			return -1;
		}
	}
	while (*p == ' ')
		p++;
	if (!strncasecmp(p, EXPECT_TAG, strlen(EXPECT_TAG)))
		return parse_expect(sp, lineno, p + strlen(EXPECT_TAG));
	if (!*p || *p == '#') /* blank or comment */
		return 0;
	if (add_word(sp, (char *)"rcutorture"))
		return -1;
	while (*p && *p != '#') {
		if (++sp->nreal > RCUT_SCENARIO_MAX_WORDS) {
			snprintf(sp->err, sp->errlen,
				 "%s:%d: more than %d words", sp->file, lineno,
				 RCUT_SCENARIO_MAX_WORDS);
			return -1;
		}
		if (add_word(sp, p))
			return -1;
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			*p++ = '\0';
	}
	if (add_word(sp, NULL))
		return -1;
	return add_line(sp, lineno, start);
}

int rcut_scenario_parse(struct rcut_scenario *s, const char *file,
			const char *text, size_t len, char *err, size_t errlen)
{
	struct splitter sp = { s, file, err, errlen, 0, 0, 0, NULL };
	char *line, *next;
	int lineno = 0, ret = 0;

	memset(s, 0, sizeof(*s));
	s->expect = RCUT_EXIT_SUCCESS;
	s->text = malloc(len + 1);
	if (!s->text) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	memcpy(s->text, text, len);
	s->text[len] = '\0';
	if (strlen(s->text) != len) {
		lineno = 1;
		for (const char *c = s->text; *c; c++)
			lineno += *c == '\n';
		snprintf(err, errlen, "%s:%d: NUL byte", file, lineno);
		return -1;
	}
	for (line = s->text; line && ret == 0; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = split_line(&sp, ++lineno, line);
	}
	for (int i = 0; ret == 0 && i < sp.nlines; i++)
		s->lines[i].argv = s->words + sp.first[i];
	free(sp.first);
	return ret;
}

/*
 * The build decides where the scenarios are, not the binary's location:
 * the binary in the source tree is built with RCUT_SOURCE_DIR and reads
 * the tree's ci/scenarios; the one make install copies is built with
 * RCUT_PREFIX alone (the PREFIX of that make, never DESTDIR) and reads
 * PREFIX/share/rcutorture/scenarios.  See the Makefile.
 */
#if defined(RCUT_SOURCE_DIR)
#define BUILT_IN_SCENARIO_DIR RCUT_SOURCE_DIR "/ci/scenarios"
#elif defined(RCUT_PREFIX)
#define BUILT_IN_SCENARIO_DIR RCUT_PREFIX "/share/rcutorture/scenarios"
#else
#define BUILT_IN_SCENARIO_DIR "" /* a test build: the environment only */
#endif

void rcut_scenario_dirs(char *buf, size_t len)
{
	const char *env = getenv(RCUT_SCENARIO_ENV);
	bool both = env && env[0] && BUILT_IN_SCENARIO_DIR[0];

	snprintf(buf, len, "%s%s%s", env ? env : "", both ? ":" : "",
		 BUILT_IN_SCENARIO_DIR);
}

int rcut_scenario_find(const char *arg, char *path, size_t len, char *err,
		       size_t errlen)
{
	char dirs[4 * PATH_MAX], real[PATH_MAX];
	struct stat st;

	if (!arg[0] || !strcmp(arg, ".") || !strcmp(arg, "..")) {
		snprintf(
			err, errlen,
			"--scenario: '%s' is not valid; expected a scenario NAME or a FILE path",
			arg);
		return -1;
	}
	if (strchr(arg, '/')) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	rcut_scenario_dirs(dirs, sizeof(dirs));
	for (char *d = dirs, *colon; d; d = colon ? colon + 1 : NULL) {
		colon = strchr(d, ':');
		if (colon)
			*colon = '\0';
		if (!d[0])
			continue;
		snprintf(path, len, "%s/%s", d, arg);
		if (stat(path, &st) == 0) {
			/* "/usr/bin/../share/..." reads better resolved. */
			if (realpath(path, real) && strlen(real) < len)
				strcpy(path, real);
			return 0;
		}
	}
	rcut_scenario_dirs(dirs, sizeof(dirs));
	snprintf(
		err, errlen,
		"--scenario: no scenario '%s' in %s (a FILE path needs a '/', e.g. ./%s)",
		arg, dirs, arg);
	return -1;
}

/* Read the regular file path, at most RCUT_SCENARIO_MAX_BYTES, into buf. */
static ssize_t read_file(const char *path, char *buf, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t total = 0, n;
	struct stat st;

	if (fd < 0) {
		snprintf(err, errlen, "--scenario: cannot open '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--scenario: '%s' is not a regular file",
			 path);
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf + total,
			 RCUT_SCENARIO_MAX_BYTES + 1 - (size_t)total)) > 0)
		total += n;
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "--scenario: cannot read '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	if (total > RCUT_SCENARIO_MAX_BYTES) {
		snprintf(err, errlen,
			 "--scenario: '%s' is larger than %d bytes", path,
			 RCUT_SCENARIO_MAX_BYTES);
		return -1;
	}
	return total;
}

int rcut_scenario_load(struct rcut_scenario *s, const char *arg, char *err,
		       size_t errlen)
{
	char path[PATH_MAX], *buf;
	ssize_t len;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	if (rcut_scenario_find(arg, path, sizeof(path), err, errlen))
		return -1;
	buf = malloc(RCUT_SCENARIO_MAX_BYTES + 1);
	if (!buf) {
		snprintf(err, errlen, "--scenario: out of memory");
		return -1;
	}
	len = read_file(path, buf, err, errlen);
	if (len >= 0)
		ret = rcut_scenario_parse(s, path, buf, (size_t)len, err,
					  errlen);
	free(buf);
	s->name = strdup(arg);
	s->path = strdup(path);
	if (ret == 0 && (!s->name || !s->path)) {
		snprintf(err, errlen, "--scenario: out of memory");
		ret = -1;
	}
	return ret;
}

void rcut_scenario_free(struct rcut_scenario *s)
{
	free(s->name);
	free(s->path);
	free(s->lines);
	free(s->words);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

void rcut_config_release(struct rcut_config *cfg)
{
	if (cfg->scenario) {
		rcut_scenario_free(cfg->scenario);
		free(cfg->scenario);
		cfg->scenario = NULL;
	}
	if (cfg->replay) {
		rcut_replay_free(cfg->replay);
		free(cfg->replay);
		cfg->replay = NULL;
	}
}
