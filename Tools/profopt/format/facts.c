/* facts.c - manifest facts (see facts.h). */
#include "format/facts.h"
#include "lib/lines.h"
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Why a fact may not be kept (too long, no key), or NULL: a manifest is hostile input, and
 * its values are shown on the terminal. */
static const char *refusal(size_t key_len, size_t value_len)
{
	static char why[96];
	if (key_len == 0)
		return "an empty key";
	if (key_len > FACTS_KEY_MAX)
		snprintf(why, sizeof why, "a key of %zu bytes, more than the limit of %d", key_len, FACTS_KEY_MAX);
	else if (value_len > FACTS_VALUE_MAX)
		snprintf(why, sizeof why, "a value of %zu bytes, more than the limit of %d", value_len, FACTS_VALUE_MAX);
	else
		return NULL;
	return why;
}

void facts_set(struct facts *f, const char *key, const char *value)
{
	const char *why = refusal(strlen(key), strlen(value));
	if (why)
		fatal("manifest entry '%.64s': %s", printable(key), why);
	if (!f->obj)
		f->obj = json_object();
	if (json_object_size(f->obj) == FACTS_MAX && !json_object_get(f->obj, key))
		fatal("too many manifest entries (at most %d)", FACTS_MAX);
	json_t *v = json_string(value);
	if (!v || json_object_set_new(f->obj, key, v) < 0)
		fatal("manifest entry %s=%s is not UTF-8 text", printable(key), printable(value));
}

const char *facts_get(const struct facts *f, const char *key)
{
	return json_string_value(json_object_get(f->obj, key));
}

void facts_add_kv(struct facts *f, const char *kv, const char *where)
{
	const char *eq = strchr(kv, '='), *why = eq ? refusal((size_t)(eq - kv), strlen(eq + 1)) : NULL;
	if (!eq || why) {
		const char *p = printable(kv);
		if (where)
			fatal("%s: %s, not KEY=VALUE: '%.80s'", where, why ? why : "no '='", p);
		usage_error("expected KEY=VALUE, not '%.80s'%s%s", p, why ? ": " : "", why ? why : "");
	}
	char *key = xasprintf("%.*s", (int)(eq - kv), kv);
	facts_set(f, key, eq + 1);
	free(key);
}

void facts_load_kv_file(struct facts *f, const char *path)
{
	struct lines l;
	char err[512];
	if (lines_read(&l, path, LINES_TEXT, 65536, err, sizeof err) < 0) /* longer: the limits say why */
		fatal("cannot read the facts: %s", err);
	for (char *line; (line = lines_next(&l)) != NULL;)
		if (*line && *line != '#') {
			char *where = xasprintf("%s:%d", printable(path), l.lineno);
			facts_add_kv(f, line, where);
			free(where);
		}
	lines_free(&l);
}

/* One member of a manifest object: a string of bounded length. */
static int load_member(struct facts *f, const char *key, json_t *value, char *err, size_t errlen)
{
	const char *why = json_is_string(value) ? refusal(strlen(key), json_string_length(value)) : NULL;
	if (json_is_string(value) && !why && json_object_size(f->obj) < FACTS_MAX) {
		facts_set(f, key, json_string_value(value));
		return 0;
	}
	if (!json_is_string(value))
		snprintf(err, errlen, "the value of \"%.64s\" is not a string", printable(key));
	else if (why)
		snprintf(err, errlen, "the entry \"%.64s\": %s", printable(key), why);
	else
		snprintf(err, errlen, "more than %d entries", FACTS_MAX);
	return -1;
}

int facts_load_json(struct facts *f, const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = read_file_max(path, FACTS_FILE_MAX, &len);
	if (!text && errno == EFBIG)
		snprintf(err, errlen, "more than %d bytes, the limit of a manifest", FACTS_FILE_MAX);
	else if (!text)
		snprintf(err, errlen, "%s", strerror(errno));
	if (!text)
		return -1;
	json_error_t e;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
	free(text);
	int rc = json_is_object(root) ? 0 : -1;
	if (!root)
		snprintf(err, errlen, "line %d: %s", e.line, e.text);
	else if (rc < 0)
		snprintf(err, errlen, "not a JSON object");
	const char *key;
	json_t *value;
	json_object_foreach(root, key, value) /* none in a non-object, or none read */
		if ((rc = load_member(f, key, value, err, errlen)) < 0)
			break;
	json_decref(root);
	return rc;
}

char *facts_to_json(const struct facts *f)
{
	char *text = f->obj ? json_dumps(f->obj, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : xstrdup("{}");
	if (!text)
		fatal("cannot format the manifest");
	char *doc = xasprintf("%s\n", text);
	free(text);
	return doc;
}

void facts_write_json(const struct facts *f, const char *path)
{
	char *doc = facts_to_json(f);
	output_write(path, doc, strlen(doc));
	free(doc);
}

void facts_free(struct facts *f)
{
	json_decref(f->obj);
	*f = (struct facts){0};
}
