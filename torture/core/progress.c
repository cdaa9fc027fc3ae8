// SPDX-License-Identifier: MIT
/*
 * The progress line (see progress.h).  A person at a terminal wants to see
 * how far a run got from its first second, not only at the first stats
 * block (15 s by default) or, in a quiet run, never.  On a terminal that
 * can (TERM set and not "dumb") the line is live: redrawn in place every
 * second, and erased before anything else reaches the terminal, so that
 * the log itself stays as it would be without it.  Standard output and
 * standard error then go through a stdio cookie whose write erases the
 * line first.  Scripts (standard error not a terminal) see nothing.
 */
#define _GNU_SOURCE
#include "progress.h"
#include "lifecycle.h"
#include "run.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIVE_PERIOD_NS 1000000000ULL
#define ERASE "\r\033[K"

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static bool live_on, live_shown;
static uint64_t live_next_ns;

/* Whether standard error is a terminal that understands \r and ESC [K. */
static bool live_terminal(void)
{
	const char *term = getenv("TERM");

	return isatty(STDERR_FILENO) && term && *term && strcmp(term, "dumb");
}

bool torture_progress_wanted(const struct torture_run *run)
{
	const struct rcut_config *c = run->cfg;
	bool blocks = run->test->interval && c->verbose > 0;

	return c->stat_interval_ns && !blocks && !live_terminal() &&
	       isatty(STDERR_FILENO);
}

/* How long the run takes at least, or 0 if that is not known. */
static uint64_t total_ns(const struct rcut_config *c)
{
	switch (c->test) {
	case RCUT_TEST_TORTURE:
		return c->duration_ns;
	case RCUT_TEST_SCALE: /* measures --duration after --holdoff */
		return c->duration_ns ? c->scale.holdoff_ns + c->duration_ns :
					0;
	default:
		return 0;
	}
}

/* "12.0 s of 30.0 s" or "12.0 s" into buf. */
static void progress_text(struct torture_run *run, char *buf, size_t len)
{
	uint64_t total = total_ns(run->cfg);
	double elapsed = (double)torture_elapsed_ns(run) / 1e9;

	if (total)
		snprintf(buf, len, "%.1f s of %.1f s", elapsed,
			 (double)total / 1e9);
	else
		snprintf(buf, len, "%.1f s", elapsed);
}

void torture_progress_print(struct torture_run *run)
{
	char text[64];

	progress_text(run, text, sizeof(text));
	fprintf(stderr, "%s-%s: progress: %s\n", run->flavor->name, run->tag,
		text);
}

static void write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		n -= (size_t)w;
	}
}

/* Erase the live line if it is shown; live_lock held. */
static void hide_locked(void)
{
	if (live_shown)
		write_all(STDERR_FILENO, ERASE, strlen(ERASE));
	live_shown = false;
}

/* The cookie's write: the live line goes, then the text (cookie: an fd). */
static ssize_t live_write(void *cookie, const char *buf, size_t n)
{
	pthread_mutex_lock(&live_lock);
	hide_locked();
	write_all((int)(intptr_t)cookie, buf, n);
	pthread_mutex_unlock(&live_lock);
	return (ssize_t)n;
}

/* Route f (stdout or stderr, on fd) through the cookie; NULL if it fails. */
static FILE *through_cookie(int fd, int mode)
{
	cookie_io_functions_t io = { .write = live_write };
	FILE *f = fopencookie((void *)(intptr_t)fd, "w", io);

	if (f)
		setvbuf(f, NULL, mode, BUFSIZ);
	return f;
}

static void hide_at_exit(void)
{
	torture_progress_hide();
}

/* Once: the cookies for stdout and stderr; false if they cannot be had. */
static bool live_install(void)
{
	static bool tried, ok;
	FILE *out, *err;

	if (tried)
		return ok;
	tried = true;
	fflush(stdout);
	fflush(stderr);
	out = through_cookie(STDOUT_FILENO, _IOLBF);
	err = through_cookie(STDERR_FILENO, _IONBF);
	if (!out || !err) {
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		return false;
	}
	stdout = out;
	stderr = err;
	atexit(hide_at_exit);
	ok = true;
	return true;
}

void torture_progress_tick(struct torture_run *run, uint64_t now)
{
	char text[64], line[256];
	int n;

	if (!live_on) {
		static bool looked;

		if (looked)
			return;
		looked = true;
		if (!live_terminal() || !live_install())
			return;
		live_on = true;
	}
	if (now < live_next_ns)
		return;
	live_next_ns = now + LIVE_PERIOD_NS;
	progress_text(run, text, sizeof(text));
	n = snprintf(line, sizeof(line), ERASE "%s-%s: running %s",
		     run->flavor->name, run->tag, text);
	if (n <= 0)
		return;
	/* Whatever stdio holds goes out first, above the line. */
	fflush(stdout);
	pthread_mutex_lock(&live_lock);
	write_all(STDERR_FILENO, line,
		  (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	live_shown = true;
	pthread_mutex_unlock(&live_lock);
}

void torture_progress_redraw(void)
{
	live_next_ns = live_on ? 1 : live_next_ns;
}

void torture_progress_hide(void)
{
	pthread_mutex_lock(&live_lock);
	hide_locked();
	pthread_mutex_unlock(&live_lock);
}
