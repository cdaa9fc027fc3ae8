// SPDX-License-Identifier: MIT
/* First-failure bookkeeping: when, which check, and the details, once. */
#include "counters.h"
#include "run.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * One "<flavor>-<tag>: <bangs><prefix><message>" line, whole: the prefix
 * is printf-formatted from the trailing arguments, the message from
 * fmt/ap.  bangs is "!!! " for a failure, which the kernel's
 * parse-console.sh reads as one; "" for a CPU-hotplug failure or a stall,
 * which the kernel prints without (their verdicts are RCU_HOTPLUG and
 * STALL, not FAILURE).
 */
static void alert(struct torture_run *run, const char *bangs, const char *fmt,
		  va_list ap, const char *prefix, ...)
	__attribute__((format(printf, 5, 6)));

static void alert(struct torture_run *run, const char *bangs, const char *fmt,
		  va_list ap, const char *prefix, ...)
{
	va_list pap;

	flockfile(stdout);
	printf("%s-%s: %s", run->flavor->name, run->tag, bangs);
	va_start(pap, prefix);
	vprintf(prefix, pap);
	va_end(pap);
	vprintf(fmt, ap);
	putchar('\n');
	funlockfile(stdout);
	fflush(stdout);
}

/*
 * Count a failure in its check's row, a new row (with the message) for a
 * check's first failure if there is room; called with f->lock.
 */
static void tally(struct torture_failures *f, const char *check, uint64_t now,
		  const char *fmt, va_list ap)
{
	struct torture_check_tally *t;
	int i;

	for (i = 0; i < f->nchecks; i++)
		if (!strcmp(f->checks[i].check, check))
			break;
	if (i == f->nchecks) {
		if (i == TORTURE_MAX_CHECKS)
			return;
		t = &f->checks[f->nchecks++];
		t->check = check;
		t->count = 0;
		t->first_ns = now;
		vsnprintf(t->first, sizeof(t->first), fmt, ap);
	}
	f->checks[i].count++;
}

void torture_failure(struct torture_run *run, const char *check,
		     const char *fmt, ...)
{
	struct torture_failures *f = &run->failure;
	uint64_t now;
	bool first;
	va_list ap;

	counter_inc(&run->counters.failed_checks);
	pthread_mutex_lock(&f->lock);
	now = torture_elapsed_ns(run);
	va_start(ap, fmt);
	tally(f, check, now, fmt, ap);
	va_end(ap);
	first = !f->failed;
	if (first) {
		f->failed = true;
		f->first_ns = now;
		f->first_check = check;
		va_start(ap, fmt);
		alert(run, "!!! ", fmt, ap, "first failure at %.3f s: %s: ",
		      (double)f->first_ns / 1e9, check);
		va_end(ap);
	}
	pthread_mutex_unlock(&f->lock);
	if (run->cfg->stop_on_failure)
		torture_stop(run);
}

bool torture_first_failure(struct torture_run *run, uint64_t *at_ns,
			   const char **check)
{
	struct torture_failures *f = &run->failure;
	bool ret;

	pthread_mutex_lock(&f->lock);
	ret = f->failed;
	if (ret) {
		*at_ns = f->first_ns;
		*check = f->first_check;
	}
	pthread_mutex_unlock(&f->lock);
	return ret;
}

int torture_failed_checks(struct torture_run *run,
			  struct torture_check_tally *out, int max)
{
	struct torture_failures *f = &run->failure;
	int n;

	pthread_mutex_lock(&f->lock);
	n = f->nchecks;
	memcpy(out, f->checks, sizeof(*out) * (size_t)(n < max ? n : max));
	pthread_mutex_unlock(&f->lock);
	return n;
}

void torture_internal_error(struct torture_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	alert(run, "!!! ", fmt, ap, "internal error: ");
	va_end(ap);
	atomic_store(&run->failure.internal, true);
	torture_stop(run);
}

bool torture_had_internal_error(struct torture_run *run)
{
	return atomic_load(&run->failure.internal);
}

void torture_problem(struct torture_run *run, bool alert_now, const char *kind,
		     const char *fmt, ...)
{
	struct torture_failures *f = &run->failure;
	va_list ap;

	pthread_mutex_lock(&f->lock);
	if (!f->problem) {
		f->problem = true;
		f->problem_ns = torture_elapsed_ns(run);
		f->problem_kind = kind;
		va_start(ap, fmt);
		vsnprintf(f->problem_text, sizeof(f->problem_text), fmt, ap);
		va_end(ap);
		va_start(ap, fmt);
		if (alert_now)
			alert(run, "", fmt, ap,
			      "first %s failure at %.3f s: ", kind,
			      (double)f->problem_ns / 1e9);
		va_end(ap);
	}
	pthread_mutex_unlock(&f->lock);
}

bool torture_first_problem(struct torture_run *run, uint64_t *at_ns,
			   const char **kind, const char **text)
{
	struct torture_failures *f = &run->failure;
	bool ret;

	pthread_mutex_lock(&f->lock);
	ret = f->problem;
	if (ret) {
		*at_ns = f->problem_ns;
		*kind = f->problem_kind;
		*text = f->problem_text;
	}
	pthread_mutex_unlock(&f->lock);
	return ret;
}
