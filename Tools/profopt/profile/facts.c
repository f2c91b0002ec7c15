/* facts.c - manifest facts (see facts.h). */
#include "profile/facts.h"
#include "lib/util.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void facts_set(struct facts *f, const char *key, const char *value)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->key[i], key) == 0) {
			free(f->value[i]);
			f->value[i] = xstrdup(value);
			return;
		}
	if (f->n == FACTS_MAX)
		fatal("too many manifest entries (at most %d)", FACTS_MAX);
	f->key[f->n] = xstrdup(key);
	f->value[f->n++] = xstrdup(value);
}

const char *facts_get(const struct facts *f, const char *key)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->key[i], key) == 0)
			return f->value[i];
	return NULL;
}

void facts_add_kv(struct facts *f, const char *kv)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv) {
		const char *p = printable(kv);
		usage_error("expected KEY=VALUE, not '%s'", p);
	}
	char *key = xasprintf("%.*s", (int)(eq - kv), kv);
	facts_set(f, key, eq + 1);
	free(key);
}

void facts_load_kv_file(struct facts *f, const char *path)
{
	char *text = read_file(path, NULL);
	if (!text)
		fatal("cannot read %s: %s", path, strerror(errno));
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (*line && *line != '#')
			facts_add_kv(f, line);
	free(text);
}

int facts_load_json(struct facts *f, const char *path, char *err, size_t errlen)
{
	json_error_t e;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
	if (!root) {
		snprintf(err, errlen, "line %d: %s", e.line, e.text);
		return -1;
	}
	int rc = 0;
	if (!json_is_object(root)) {
		snprintf(err, errlen, "not a JSON object");
		rc = -1;
	}
	const char *key;
	json_t *value;
	json_object_foreach(root, key, value) {
		if (rc < 0)
			break;
		if (!json_is_string(value)) {
			const char *p = printable(key);
			snprintf(err, errlen, "the value of \"%s\" is not a string", p);
			rc = -1;
		} else if (f->n == FACTS_MAX) {
			snprintf(err, errlen, "more than %d entries", FACTS_MAX);
			rc = -1;
		} else {
			facts_set(f, key, json_string_value(value));
		}
	}
	json_decref(root);
	return rc;
}

char *facts_to_json(const struct facts *f)
{
	json_t *root = json_object();
	for (int i = 0; i < f->n; i++) {
		/* json_stringn: json_string and json_null are also json.c's writer's names */
		json_t *v = json_stringn(f->value[i], strlen(f->value[i]));
		if (!v || json_object_set_new(root, f->key[i], v) < 0) {
			const char *k = printable(f->key[i]), *p = printable(f->value[i]);
			fatal("manifest entry %s=%s is not UTF-8 text", k, p);
		}
	}
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text)
		fatal("cannot format the manifest");
	char *doc = xasprintf("%s\n", text);
	free(text);
	json_decref(root);
	return doc;
}

void facts_write_json(const struct facts *f, const char *path)
{
	char *doc = facts_to_json(f);
	if (write_file_atomic(path, doc, strlen(doc)) < 0)
		fatal("cannot write %s: %s", path, strerror(errno));
	free(doc);
}

void facts_free(struct facts *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->key[i]), free(f->value[i]);
	f->n = 0;
}
