// SPDX-License-Identifier: MIT
/* Built-in flavor lookup, listing, validation and parameter parsing. */
#include "registry.h"
#include "plugin.h"

#include "../torture/util/parse.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const memb_aliases[] = { "urcu-memb", "urcu", NULL };
static const char *const mb_aliases[] = { "urcu-mb", NULL };
#ifndef RCUT_URCU_SIGNAL_ABSENT
static const char *const signal_aliases[] = { "urcu-signal", NULL };
#endif
static const char *const qsbr_aliases[] = { "urcu-qsbr", NULL };
static const char *const bp_aliases[] = { "urcu-bp", NULL };

/* Which liburcu the Makefile built the liburcu flavors against. */
#ifndef RCUT_LIBURCU
#define RCUT_LIBURCU "liburcu (version not known to this build)"
#endif

const struct rcut_flavor_entry rcut_builtin_flavors[] = {
	{ &rcut_flavor_memb, memb_aliases, RCUT_LIBURCU },
	{ &rcut_flavor_mb, mb_aliases, RCUT_LIBURCU },
#ifndef RCUT_URCU_SIGNAL_ABSENT
	{ &rcut_flavor_signal, signal_aliases, RCUT_LIBURCU },
#endif
	{ &rcut_flavor_qsbr, qsbr_aliases, RCUT_LIBURCU },
	{ &rcut_flavor_bp, bp_aliases, RCUT_LIBURCU },
	{ &rcut_flavor_prcu, NULL, NULL },
	{ &rcut_flavor_srcu, NULL, NULL },
#ifdef RCUT_HAVE_CK
	{ &rcut_flavor_ck_epoch, NULL, NULL },
#endif
#ifdef RCUT_HAVE_DPDK
	{ &rcut_flavor_dpdk_qsbr, NULL, NULL },
#endif
	{ &rcut_flavor_busted, NULL, NULL },
	{ &rcut_flavor_busted_cb, NULL, NULL },
	{ &rcut_flavor_busted_toggle, NULL, NULL },
	{ &rcut_flavor_busted_barrier, NULL, NULL },
	{ &rcut_flavor_busted_hotplug, NULL, NULL },
	{ &rcut_flavor_busted_hang, NULL, NULL },
	{ &rcut_flavor_busted_crash, NULL, NULL },
	{ &rcut_flavor_busted_irq, NULL, NULL },
	{ &rcut_flavor_busted_nr, NULL, NULL },
	{ NULL, NULL, NULL },
};

/* Why a flavor of an optional library is not in this build (Makefile). */
#ifndef RCUT_CK_ABSENT
#define RCUT_CK_ABSENT "built without Concurrency Kit"
#endif
#ifndef RCUT_DPDK_ABSENT
#define RCUT_DPDK_ABSENT "built without DPDK"
#endif

const struct rcut_flavor_absent rcut_absent_flavors[] = {
#ifdef RCUT_URCU_SIGNAL_ABSENT
	{ "signal", RCUT_URCU_SIGNAL_ABSENT },
#endif
#ifndef RCUT_HAVE_CK
	{ "ck-epoch", RCUT_CK_ABSENT },
#endif
#ifndef RCUT_HAVE_DPDK
	{ "dpdk-qsbr", RCUT_DPDK_ABSENT },
#endif
	{ NULL, NULL },
};

const char *rcut_flavor_absent_why(const char *name)
{
	for (const struct rcut_flavor_absent *a = rcut_absent_flavors; a->name;
	     a++)
		if (!strcmp(name, a->name))
			return a->why;
	return NULL;
}

const char *rcut_flavor_library(const struct rcut_flavor *f)
{
	for (const struct rcut_flavor_entry *e = rcut_builtin_flavors;
	     e->flavor; e++)
		if (e->flavor == f)
			return e->library;
	return rcut_plugin_library(f);
}

const struct rcut_flavor *rcut_flavor_find(const char *name)
{
	for (const struct rcut_flavor_entry *e = rcut_builtin_flavors;
	     e->flavor; e++) {
		if (!strcmp(name, e->flavor->name))
			return e->flavor;
		for (const char *const *a = e->aliases; a && *a; a++)
			if (!strcmp(name, *a))
				return e->flavor;
	}
	return NULL;
}

const char *rcut_flavor_names(void)
{
	static char buf[512];

	if (!buf[0]) {
		for (const struct rcut_flavor_entry *e = rcut_builtin_flavors;
		     e->flavor; e++) {
			if (buf[0])
				strncat(buf, ", ",
					sizeof(buf) - strlen(buf) - 1);
			strncat(buf, e->flavor->name,
				sizeof(buf) - strlen(buf) - 1);
		}
	}
	return buf;
}

void rcut_flavor_caps(const struct rcut_flavor *f, char *buf, size_t len)
{
	const char *exp = "";
	size_t used;

	if (f->synchronize_expedited)
		exp = f->caps & RCUT_CAP_EXP_IS_SYNC ? ",exp=sync" : ",exp";
	unsigned int caps = rcut_flavor_caps_of(f);
	bool updown = RCUT_FLAVOR_HAS(f, 3) && f->down_read && f->up_read;

	snprintf(buf, len, "sync%s%s%s%s%s%s%s%s%s%s%s%s", exp,
		 f->call ? ",call" : "",
		 f->caps & RCUT_CAP_CALL_MAY_BLOCK ? "(may-block)" : "",
		 f->barrier ? ",barrier" : "",
		 f->set_call_mode ? ",call-modes" : "",
		 f->poll_gp_state ? ",poll" : "", f->cond_sync ? ",cond" : "",
		 f->caps & RCUT_CAP_QSBR ? ",qsbr" : "",
		 f->caps & RCUT_CAP_READER_MAY_BLOCK ? ",blocking-readers" : "",
		 caps & RCUT_CAP_READ_SIGNAL_SAFE ? ",signal-safe-readers" : "",
		 caps & RCUT_CAP_DOUBLE_CALL ? ",double-call-detect" : "",
		 updown ? ",up-down" : "");
	/* ABI version 3's hooks, after the older ones. */
	used = strlen(buf);
	snprintf(buf + used, len - used, "%s%s%s%s",
		 RCUT_FLAVOR_V3(f, poll_gp_state_full) ? ",poll-full" : "",
		 RCUT_FLAVOR_V3(f, cond_sync_full) ? ",cond-full" : "",
		 RCUT_FLAVOR_V3(f, switch_call_mode) ? ",call-toggle" : "",
		 RCUT_FLAVOR_V3(f, gp_stall) ? ",gp-stall" : "");
}

/* The current value of p as text: a choice name for an enum. */
static void param_value(const struct rcut_param *p, char *buf, size_t len)
{
	if (p->type == RCUT_PARAM_ENUM)
		snprintf(buf, len, "%s", p->choices[*p->value]);
	else
		snprintf(buf, len, "%ld", *p->value);
}

/*
 * The name column's width: the longest built-in name, or f's if longer,
 * so that every description starts in the same column.
 */
static int name_width(const struct rcut_flavor *f)
{
	size_t w = f ? strlen(f->name) : 0;

	for (const struct rcut_flavor_entry *e = rcut_builtin_flavors;
	     e->flavor; e++)
		if (strlen(e->flavor->name) > w)
			w = strlen(e->flavor->name);
	return (int)w;
}

void rcut_flavor_list_one(FILE *out, const struct rcut_flavor *f,
			  const char *const *aliases, bool detail)
{
	const char *lib = rcut_flavor_library(f);
	char caps[160], value[64];
	int w = name_width(f);

	rcut_flavor_caps(f, caps, sizeof(caps));
	fprintf(out, "%-*s %s%s%s%s\n", w, f->name, f->description,
		lib ? " [" : "", lib ? lib : "", lib ? "]" : "");
	if (!detail)
		return;
	fprintf(out, "%-*s   primitives: %s\n", w, "", caps);
	if (aliases) {
		fprintf(out, "%-*s   aliases:", w, "");
		for (const char *const *a = aliases; *a; a++)
			fprintf(out, " %s", *a);
		fputc('\n', out);
	}
	for (const struct rcut_param *p = f->params; p && p->name; p++) {
		param_value(p, value, sizeof(value));
		fprintf(out, "%-*s   %s.%s=%s: %s\n", w, "", f->name, p->name,
			value, p->help);
	}
}

void rcut_flavor_list(FILE *out, bool detail, const struct rcut_flavor *one)
{
	bool any = detail;

	for (const struct rcut_flavor_entry *e = rcut_builtin_flavors;
	     e->flavor; e++) {
		rcut_flavor_list_one(out, e->flavor, e->aliases,
				     detail || e->flavor == one);
		any = any || e->flavor == one;
	}
	for (const struct rcut_flavor_absent *a = rcut_absent_flavors; a->name;
	     a++)
		fprintf(out, "%-*s (absent: %s)\n", name_width(NULL), a->name,
			a->why);
	if (any)
		fprintf(out,
			"\nexp=sync: no expedited primitive; --gp-exp uses the normal synchronize.\n");
}

/* A flavor or parameter name: 1 to 32 of [A-Za-z0-9_-]. */
static bool good_name(const char *name)
{
	size_t n = 0;

	for (; name && name[n]; n++)
		if (!isalnum((unsigned char)name[n]) && name[n] != '_' &&
		    name[n] != '-')
			return false;
	return n >= 1 && n <= 32;
}

/* Parameter tables come from plugins too: check what parsing relies on. */
static int validate_params(const struct rcut_flavor *f, char *err,
			   size_t errlen)
{
	for (const struct rcut_param *p = f->params; p && p->name; p++) {
		long nchoices = 0;
		bool ok = good_name(p->name) && p->help && p->value;

		if (ok && p->type == RCUT_PARAM_ENUM) {
			while (p->choices && p->choices[nchoices])
				nchoices++;
			ok = *p->value >= 0 && *p->value < nchoices;
		} else if (ok && p->type == RCUT_PARAM_INT) {
			ok = p->min <= p->max;
		} else if (ok) {
			ok = p->type == RCUT_PARAM_BOOL;
		}
		if (!ok) {
			snprintf(
				err, errlen,
				"flavor %s: parameter '%s' is malformed (name, help, value, type, range or choices)",
				f->name, p->name);
			return -1;
		}
	}
	return 0;
}

int rcut_flavor_validate(const struct rcut_flavor *f, char *err, size_t errlen)
{
	const char *missing = NULL;

	/* Version 2 only added exported calls: a version-1 table is whole. */
	if (f->abi_version < RCUT_FLAVOR_ABI_MIN_VERSION ||
	    f->abi_version > RCUT_FLAVOR_ABI_VERSION) {
		snprintf(
			err, errlen,
			"flavor ABI version %u, this rcutorture takes %u to %u",
			f->abi_version, RCUT_FLAVOR_ABI_MIN_VERSION,
			RCUT_FLAVOR_ABI_VERSION);
		return -1;
	}
	if (!good_name(f->name)) {
		snprintf(
			err, errlen,
			"flavor name missing or malformed; expected 1 to 32 letters, digits, '-' or '_'");
		return -1;
	}
	if (!f->synchronize)
		missing = "synchronize";
	if (!f->read_unlock)
		missing = "read_unlock";
	if (!f->read_lock)
		missing = "read_lock";
	if (!f->description)
		missing = "description";
	if ((f->caps & RCUT_CAP_QSBR) && !f->quiescent_state)
		missing = "quiescent_state (it has RCUT_CAP_QSBR)";
	if (missing) {
		snprintf(err, errlen, "flavor %s lacks the required %s",
			 f->name, missing);
		return -1;
	}
	return validate_params(f, err, errlen);
}

/* Describe what values parameter p accepts, for error messages. */
static void describe_param(const struct rcut_param *p, char *buf, size_t len)
{
	size_t used;

	switch (p->type) {
	case RCUT_PARAM_INT:
		snprintf(buf, len, "an integer from %ld to %ld", p->min,
			 p->max);
		break;
	case RCUT_PARAM_BOOL:
		snprintf(buf, len, "a boolean (0/1, y/n, true/false, on/off)");
		break;
	case RCUT_PARAM_ENUM:
		snprintf(buf, len, "one of ");
		for (const char *const *c = p->choices; c && *c; c++) {
			used = strlen(buf);
			snprintf(buf + used, len - used, "%s%s",
				 c == p->choices ? "" : ", ", *c);
		}
		break;
	}
}

static int parse_param_value(const struct rcut_param *p, const char *text)
{
	long v;
	bool b;

	switch (p->type) {
	case RCUT_PARAM_INT:
		if (rcut_parse_long(text, p->min, p->max, &v))
			return -1;
		*p->value = v;
		return 0;
	case RCUT_PARAM_BOOL:
		if (rcut_parse_bool(text, &b))
			return -1;
		*p->value = b;
		return 0;
	case RCUT_PARAM_ENUM:
		for (long i = 0; p->choices && p->choices[i]; i++) {
			if (!strcmp(text, p->choices[i])) {
				*p->value = i;
				return 0;
			}
		}
		return -1;
	}
	return -1;
}

int rcut_flavor_set_param(const struct rcut_flavor *f, const char *arg,
			  char *err, size_t errlen)
{
	const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
	char accepted[256] = "";
	size_t namelen, keylen;

	if (!dot || !eq || dot > eq || dot == arg || eq == dot + 1) {
		snprintf(err, errlen,
			 "'%s': expected a flavor parameter NAME.KEY=VALUE",
			 arg);
		return -1;
	}
	namelen = (size_t)(dot - arg);
	keylen = (size_t)(eq - dot - 1);
	if (strlen(f->name) != namelen || strncmp(arg, f->name, namelen)) {
		snprintf(
			err, errlen,
			"'%s': parameter for flavor '%.*s', but the flavor is '%s'",
			arg, (int)namelen, arg, f->name);
		return -1;
	}
	for (const struct rcut_param *p = f->params; p && p->name; p++) {
		if (strlen(p->name) != keylen ||
		    strncmp(dot + 1, p->name, keylen))
			continue;
		if (parse_param_value(p, eq + 1) == 0)
			return 0;
		describe_param(p, accepted, sizeof(accepted));
		snprintf(err, errlen, "%s.%s: bad value '%s'; expected %s",
			 f->name, p->name, eq + 1, accepted);
		return -1;
	}
	for (const struct rcut_param *p = f->params; p && p->name; p++) {
		size_t used = strlen(accepted);

		snprintf(accepted + used, sizeof(accepted) - used, "%s%s",
			 used ? ", " : "", p->name);
	}
	snprintf(err, errlen, "%.*s: unknown parameter '%.*s'; %s accepts %s",
		 (int)namelen, arg, (int)keylen, dot + 1, f->name,
		 accepted[0] ? accepted : "no parameters");
	return -1;
}

long *rcut_flavor_param(const struct rcut_flavor *f, const char *key,
			const struct rcut_param **row)
{
	for (const struct rcut_param *p = f->params; p && p->name; p++)
		if (!strcmp(p->name, key) && p->type == RCUT_PARAM_INT) {
			if (row)
				*row = p;
			return p->value;
		}
	return NULL;
}

bool rcut_flavor_param_given(const char *const *params, int nparams,
			     const char *key)
{
	size_t keylen = strlen(key);

	for (int i = 0; i < nparams; i++) {
		const char *dot = strchr(params[i], '.');

		if (dot && !strncmp(dot + 1, key, keylen) &&
		    dot[1 + keylen] == '=')
			return true;
	}
	return false;
}
