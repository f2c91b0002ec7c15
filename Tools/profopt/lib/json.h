/* json.h - JSON, written with jansson, the library that also reads it: these carry outside
 * names into its documents and print them. */
#ifndef PROFOPT_JSON_H
#define PROFOPT_JSON_H

#include <jansson.h>
#include <stdio.h>

/* s as a jansson string, its bytes that are not UTF-8 as U+FFFD (jansson refuses them). */
json_t *jw_text(const char *s);
/* obj[key] = v (taking v's reference), key's bytes that are not UTF-8 as U+FFFD. */
void jw_set(json_t *obj, const char *key, json_t *v);
/* s as jw_text, or null for NULL. */
json_t *jw_opt(const char *s);
/* v as an integer when it is one, null when it is not finite (JSON has no infinity or NaN). */
json_t *jw_number(double v);
/* Writes doc to out (two-space indents, keys in their order, a newline) and frees it. */
void jw_write(json_t *doc, FILE *out);
void jw_print(json_t *doc);

#endif
