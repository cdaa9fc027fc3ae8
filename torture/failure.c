// SPDX-License-Identifier: MIT
/* First-failure bookkeeping: when, which check, and the details, once. */
#include "torture.h"

#include <stdarg.h>
#include <stdio.h>

/*
 * One "<flavor>-<tag>: !!! <prefix><message>" line, whole: the prefix is
 * printf-formatted from the trailing arguments, the message from fmt/ap.
 */
static void alert(const char *fmt, va_list ap, const char *prefix, ...)
	__attribute__((format(printf, 3, 4)));

static void alert(const char *fmt, va_list ap, const char *prefix, ...)
{
	va_list pap;

	flockfile(stdout);
	printf("%s-%s: !!! ", torture_flavor->name, torture_tag);
	va_start(pap, prefix);
	vprintf(prefix, pap);
	va_end(pap);
	vprintf(fmt, ap);
	putchar('\n');
	funlockfile(stdout);
	fflush(stdout);
}

static pthread_mutex_t failure_lock = PTHREAD_MUTEX_INITIALIZER;
static bool failed;
static uint64_t first_ns;
static const char *first_check;

void torture_failure(const char *check, const char *fmt, ...)
{
	bool first;
	va_list ap;

	pthread_mutex_lock(&failure_lock);
	first = !failed;
	if (first) {
		failed = true;
		first_ns = torture_elapsed_ns();
		first_check = check;
		va_start(ap, fmt);
		alert(fmt, ap,
		      "first failure at %.3f s: %s: ", (double)first_ns / 1e9,
		      check);
		va_end(ap);
	}
	pthread_mutex_unlock(&failure_lock);
	if (torture_cfg->stop_on_failure)
		atomic_store(&torture_stopping, true);
}

bool torture_first_failure(uint64_t *at_ns, const char **check)
{
	bool ret;

	pthread_mutex_lock(&failure_lock);
	ret = failed;
	if (ret) {
		*at_ns = first_ns;
		*check = first_check;
	}
	pthread_mutex_unlock(&failure_lock);
	return ret;
}

static atomic_bool internal_error;

void torture_internal_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	alert(fmt, ap, "internal error: ");
	va_end(ap);
	atomic_store(&internal_error, true);
	atomic_store(&torture_stopping, true);
}

bool torture_had_internal_error(void)
{
	return atomic_load(&internal_error);
}
