// SPDX-License-Identifier: MIT
/*
 * Unit tests: backtraces (report/backtrace.c, report/srcline.c).  A static
 * function of ours is named as itself, not as the nearest exported
 * symbol, with its file:line when the build has libdw; a name whose symbol
 * does not start where the function's unwind information says is marked
 * as a guess with a trailing '?'.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../report/backtrace.h"
#include "../../report/srcline.h"

static struct rcut_bt bt;

/* A static function that captures its own stack (frame 0 is itself). */
static __attribute__((noinline)) void static_capturer(void)
{
	rcut_backtrace_capture(&bt, 0);
	__asm__ volatile("" ::: "memory"); /* no tail call */
}

/* The printed backtrace as a string (freed by the caller). */
static char *printed(void)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	assert_non_null(m);
	rcut_backtrace_print(m, &bt);
	fclose(m);
	return text;
}

static void static_function_named_with_file_and_line(void **state)
{
	char *text;

	(void)state;
	static_capturer();
	assert_true(bt.n >= 2);
	rcut_backtrace_resolve(&bt);
	assert_string_equal(bt.f[0].name, "static_capturer");
	assert_false(rcut_frame_is_guess(&bt.f[0]));
	assert_string_equal(bt.f[1].name,
			    "static_function_named_with_file_and_line");
	text = printed();
	assert_non_null(strstr(text, "    #0 static_capturer+0x"));
	if (rcut_srcline_available())
		assert_non_null(strstr(text, "test_backtrace.c:"));
	else
		assert_null(strstr(text, "test_backtrace.c:"));
	free(text);
}

/* libunwind's name for a pc 0x515 past a symbol of another function. */
static void name_of_another_function_is_a_guess(void **state)
{
	struct rcut_frame f = {
		.ip = 0x1515, .off = 0x515, .start = 0x1400, .resolved = true
	};

	(void)state;
	strcpy(f.name, "pthread_condattr_setpshared");
	assert_true(rcut_frame_is_guess(&f));
	f.start = 0x1000; /* the symbol is the function's start */
	assert_false(rcut_frame_is_guess(&f));
	f.start = 0; /* no unwind information to check the name by */
	assert_true(rcut_frame_is_guess(&f));
	f.name[0] = '\0'; /* no name at all: "??", not a guess */
	assert_false(rcut_frame_is_guess(&f));
}

/* The guess is printed with its '?' where debug information has nothing. */
static void guess_printed_with_question_mark(void **state)
{
	char *text;

	(void)state;
	memset(&bt, 0, sizeof(bt));
	bt.n = 1;
	bt.f[0] = (struct rcut_frame){ .ip = 0x1515,
				       .off = 0x515,
				       .start = 0x1400,
				       .exact = true,
				       .resolved = true };
	strcpy(bt.f[0].name, "pthread_condattr_setpshared");
	text = printed();
	assert_non_null(strstr(
		text, "    #0 pthread_condattr_setpshared+0x515? [0x1515]"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(static_function_named_with_file_and_line),
		cmocka_unit_test(name_of_another_function_is_a_guess),
		cmocka_unit_test(guess_printed_with_question_mark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
