// SPDX-License-Identifier: MIT
/* First-failure bookkeeping: when, which check, and the details, once. */
#include "torture.h"

#include <stdarg.h>
#include <stdio.h>

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
		flockfile(stdout);
		printf("%s-torture: !!! first failure at %.3f s: %s: ",
		       torture_flavor->name, (double)first_ns / 1e9, check);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
		funlockfile(stdout);
		fflush(stdout);
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

	flockfile(stdout);
	printf("%s-%s: !!! internal error: ", torture_flavor->name,
	       torture_tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	funlockfile(stdout);
	fflush(stdout);
	atomic_store(&internal_error, true);
	atomic_store(&torture_stopping, true);
}

bool torture_had_internal_error(void)
{
	return atomic_load(&internal_error);
}
