// SPDX-License-Identifier: MIT
/* Parsers for option values, kept free of global state for unit tests. */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_DURATION_NS (365ULL * 24 * 3600 * NSEC_PER_SEC)

static const struct {
	const char *suffix;
	uint64_t ns;
} duration_units[] = {
	{ "ms", NSEC_PER_MSEC },       { "s", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC },    { "h", 3600 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC }, { "", NSEC_PER_SEC },
};

/*
 * Integer and fraction digits are parsed by hand so that "0.1s" is exactly
 * 100 ms: strtod would round, and a duration must print back as given.
 */
int rcut_parse_duration(const char *text, uint64_t *ns)
{
	const char *p = text;
	uint64_t whole = 0, frac = 0, frac_scale = 1;
	bool digits = false;

	if (!text)
		return -1;
	while (isdigit((unsigned char)*p)) {
		if (whole > MAX_DURATION_NS)
			return -1;
		whole = whole * 10 + (uint64_t)(*p++ - '0');
		digits = true;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			if (frac_scale < 1000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				frac_scale *= 10;
			}
			p++;
			digits = true;
		}
	}
	if (!digits)
		return -1;
	for (size_t i = 0;
	     i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
		uint64_t unit = duration_units[i].ns;

		if (strcmp(p, duration_units[i].suffix) != 0)
			continue;
		if (whole > MAX_DURATION_NS / unit)
			return -1;
		*ns = whole * unit +
		      (uint64_t)((__uint128_t)frac * unit / frac_scale);
		return *ns > MAX_DURATION_NS ? -1 : 0;
	}
	return -1;
}

int rcut_parse_long(const char *text, long min, long max, long *value)
{
	char *end;
	long v;

	if (!text || !*text || isspace((unsigned char)*text))
		return -1;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*value = v;
	return 0;
}

int rcut_parse_long_list(const char *text, long min, long max, long *values,
			 int maxn, int *n)
{
	char item[32];

	*n = 0;
	for (const char *p = text;; p++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (*n >= maxn || len == 0 || len >= sizeof(item))
			return -1;
		memcpy(item, p, len);
		item[len] = '\0';
		if (rcut_parse_long(item, min, max, &values[*n]))
			return -1;
		(*n)++;
		if (!comma)
			return 0;
		p = comma;
	}
}

int rcut_parse_u64(const char *text, uint64_t *value)
{
	char *end;
	unsigned long long v;

	if (!text || !isdigit((unsigned char)*text))
		return -1;
	errno = 0;
	/* Base 16 only with 0x: a leading zero is not octal here. */
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		v = strtoull(text + 2, &end, 16);
	else
		v = strtoull(text, &end, 10);
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X') &&
	    end == text + 2)
		return -1;
	if (errno || *end)
		return -1;
	*value = v;
	return 0;
}

int rcut_parse_bool(const char *text, bool *value)
{
	static const char *const yes[] = { "1", "y", "yes", "true", "on" };
	static const char *const no[] = { "0", "n", "no", "false", "off" };

	if (!text)
		return -1;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(text, yes[i])) {
			*value = true;
			return 0;
		}
		if (!strcasecmp(text, no[i])) {
			*value = false;
			return 0;
		}
	}
	return -1;
}

/* A duration below the millisecond grain as "0.5ms": what the parser reads. */
static void format_fraction_ms(uint64_t ns, char *buf, unsigned long len)
{
	char frac[8];
	int end;

	snprintf(frac, sizeof(frac), "%06llu",
		 (unsigned long long)(ns % NSEC_PER_MSEC));
	for (end = 6; end > 1 && frac[end - 1] == '0'; end--)
		;
	frac[end] = '\0';
	snprintf(buf, len, "%llu.%sms",
		 (unsigned long long)(ns / NSEC_PER_MSEC), frac);
}

void rcut_format_duration(uint64_t ns, char *buf, unsigned long len)
{
	if (ns % NSEC_PER_SEC == 0)
		snprintf(buf, len, "%llus",
			 (unsigned long long)(ns / NSEC_PER_SEC));
	else if (ns % NSEC_PER_MSEC == 0)
		snprintf(buf, len, "%llums",
			 (unsigned long long)(ns / NSEC_PER_MSEC));
	else
		format_fraction_ms(ns, buf, len);
}

void rcut_one_line(char *msg)
{
	for (; *msg; msg++)
		if (iscntrl((unsigned char)*msg))
			*msg = '?';
}
