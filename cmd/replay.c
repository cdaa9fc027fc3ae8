// SPDX-License-Identifier: MIT
/* Reading a --json report back for --replay (replay.h), with json-c. */
#include "replay.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_object *rcut_json_member(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* Whether doc is a report this version writes (format 1, rcutorture). */
static int check_document(json_object *doc, const char *file, char *err,
			  size_t errlen)
{
	json_object *format = rcut_json_member(doc, "format");
	json_object *name =
		rcut_json_member(rcut_json_member(doc, "tool"), "name");

	if (!json_object_is_type(doc, json_type_object) || !format ||
	    !json_object_is_type(format, json_type_int) || !name ||
	    strcmp(json_object_get_string(name), "rcutorture")) {
		snprintf(
			err, errlen,
			"--replay: '%s' is not an rcutorture --json report (no format and tool.name \"rcutorture\")",
			file);
		return -1;
	}
	if (json_object_get_int(format) != 1) {
		snprintf(err, errlen,
			 "--replay: '%s' has JSON format %d; expected 1", file,
			 json_object_get_int(format));
		return -1;
	}
	return 0;
}

/* config.args into r->argv, after "rcutorture". */
static int take_args(struct rcut_replay *r, json_object *doc, const char *file,
		     char *err, size_t errlen)
{
	json_object *args =
		rcut_json_member(rcut_json_member(doc, "config"), "args");
	size_t n;

	if (!args || !json_object_is_type(args, json_type_array) ||
	    !json_object_array_length(args)) {
		snprintf(
			err, errlen,
			"--replay: '%s' has no config.args list (a report of an older rcutorture?); expected the arguments of its run",
			file);
		return -1;
	}
	n = json_object_array_length(args);
	r->argv = calloc(n + 2, sizeof(*r->argv));
	if (!r->argv || !(r->argv[0] = strdup("rcutorture"))) {
		snprintf(err, errlen, "--replay: out of memory");
		return -1;
	}
	r->argc = 1;
	for (size_t i = 0; i < n; i++) {
		json_object *a = json_object_array_get_idx(args, i);

		if (!json_object_is_type(a, json_type_string)) {
			snprintf(
				err, errlen,
				"--replay: '%s': config.args[%zu] is not a string",
				file, i);
			return -1;
		}
		r->argv[r->argc] = strdup(json_object_get_string(a));
		if (!r->argv[r->argc++]) {
			snprintf(err, errlen, "--replay: out of memory");
			return -1;
		}
	}
	return 0;
}

int rcut_replay_load(struct rcut_replay *r, const char *file, char *err,
		     size_t errlen)
{
	json_object *doc;
	int ret;

	memset(r, 0, sizeof(*r));
	r->path = strdup(file);
	if (!file[0]) {
		snprintf(err, errlen,
			 "--replay: empty file name; expected a --json report");
		return -1;
	}
	doc = json_object_from_file(file);
	if (!doc) {
		char why[256];

		snprintf(why, sizeof(why), "%s", json_util_get_last_err());
		why[strcspn(why, "\n")] = '\0';
		snprintf(err, errlen, "--replay: cannot read '%s' as JSON: %s",
			 file, why);
		return -1;
	}
	ret = check_document(doc, file, err, errlen);
	if (!ret)
		ret = take_args(r, doc, file, err, errlen);
	json_object_put(doc);
	return ret;
}

void rcut_replay_free(struct rcut_replay *r)
{
	for (int i = 0; r->argv && i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	free(r->path);
	memset(r, 0, sizeof(*r));
}
