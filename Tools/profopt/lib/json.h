/* json.h - JSON: the driver writes it with jansson, which also reads it (jw_text, jw_set, jw_opt,
 * jw_print carry its names and print its documents); the streaming writer (jw_init...) is the
 * benchmark tool's. */
#ifndef PROFOPT_JSON_H
#define PROFOPT_JSON_H

#include <jansson.h>
#include <stdio.h>

struct json {
	FILE *out;
	int depth;
	int first[32]; /* per nesting level: no member written yet */
	int pending_key; /* a key was written; the value follows without a comma */
	int one_line;    /* jw_init_line: {"a": 1, "b": [2, 3]} on one line */
};

void jw_init(struct json *j, FILE *out);
/* A document on one line, as a record in a file read line by line (a stage stamp). */
void jw_init_line(struct json *j, FILE *out);
void jw_begin_object(struct json *j);
void jw_end_object(struct json *j);
void jw_begin_array(struct json *j);
void jw_end_array(struct json *j);
void jw_key(struct json *j, const char *key);
void jw_string(struct json *j, const char *s); /* NULL writes null */
void jw_number(struct json *j, double v);
/* decimals < 0: as jw_number */
void jw_fixed(struct json *j, double v, int decimals);
void jw_null(struct json *j);
/* key + value shorthands */
void jw_kv_string(struct json *j, const char *key, const char *s);
void jw_kv_number(struct json *j, const char *key, double v);
void jw_kv_int(struct json *j, const char *key, long long v);
void jw_kv_bool(struct json *j, const char *key, int v);
/* A malloc'd, quoted JSON string literal for s. */
char *jw_escape(const char *s);
/* s as a jansson string, its bytes that are not UTF-8 as U+FFFD (jansson refuses them). */
json_t *jw_text(const char *s);
/* obj[key] = v (taking v's reference), key's bytes that are not UTF-8 as U+FFFD. */
void jw_set(json_t *obj, const char *key, json_t *v);
/* s as jw_text, or null for NULL. */
json_t *jw_opt(const char *s);
/* Prints doc on stdout (two-space indents, keys in their order) and frees it. */
void jw_print(json_t *doc);
/* Ends the document with a newline. */
void jw_finish(struct json *j);

#endif
