/* json.c - streaming JSON writer; output is pretty-printed with two-space indents. */
#include "lib/json.h"
#include "lib/util.h"

#include <math.h>

void jw_init(struct json *j, FILE *out)
{
	*j = (struct json){.out = out, .first = {1}};
}

void jw_init_line(struct json *j, FILE *out)
{
	jw_init(j, out);
	j->one_line = 1;
}

static void indent(struct json *j)
{
	if (j->one_line)
		return;
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Separator and indentation before any value or key. */
static void before_item(struct json *j)
{
	if (j->pending_key) {
		j->pending_key = 0;
		return;
	}
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputs(j->one_line ? ", " : ",", j->out);
		indent(j);
	}
	j->first[j->depth] = 0;
}

static void open(struct json *j, char c)
{
	before_item(j);
	fputc(c, j->out);
	if (j->depth < 31)
		j->depth++;
	j->first[j->depth] = 1;
}

static void close(struct json *j, char c)
{
	int empty = j->first[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->out);
}

void jw_begin_object(struct json *j) { open(j, '{'); }
void jw_end_object(struct json *j) { close(j, '}'); }
void jw_begin_array(struct json *j) { open(j, '['); }
void jw_end_array(struct json *j) { close(j, ']'); }

/* A JSON string literal: quotes, backslashes and control characters (C0, DEL, C1) escaped,
 * as \u00XX but for the short forms \n \r \t; each byte that is not part of valid UTF-8
 * becomes U+FFFD, so the output is always valid UTF-8 and valid JSON.  Keys too. */
static void quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = utf8_length(p);
		if (n == 0) {
			fputs("\\ufffd", out);
			p++;
			continue;
		}
		if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) { /* C1 controls */
			fprintf(out, "\\u%04x", p[1]);
			p += 2;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, (size_t)n, out);
			p += n;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
		p++;
	}
	fputc('"', out);
}

void jw_key(struct json *j, const char *key)
{
	before_item(j);
	quoted(j->out, key);
	fputs(": ", j->out);
	j->pending_key = 1;
}

void jw_string(struct json *j, const char *s)
{
	if (!s) {
		jw_null(j);
		return;
	}
	before_item(j);
	quoted(j->out, s);
}

/* decimals < 0: six significant digits; JSON has no infinity or NaN: null */
void jw_fixed(struct json *j, double v, int decimals)
{
	before_item(j);
	if (!isfinite(v))
		fputs("null", j->out);
	else if (decimals < 0)
		fprintf(j->out, "%.6g", v);
	else
		fprintf(j->out, "%.*f", decimals, v);
}

void jw_number(struct json *j, double v) { jw_fixed(j, v, -1); }

void jw_null(struct json *j)
{
	before_item(j);
	fputs("null", j->out);
}

void jw_kv_string(struct json *j, const char *key, const char *s) { jw_key(j, key); jw_string(j, s); }
void jw_kv_number(struct json *j, const char *key, double v) { jw_key(j, key); jw_number(j, v); }

void jw_kv_int(struct json *j, const char *key, long long v)
{
	jw_key(j, key);
	before_item(j);
	fprintf(j->out, "%lld", v);
}

void jw_kv_bool(struct json *j, const char *key, int v)
{
	jw_key(j, key);
	before_item(j);
	fputs(v ? "true" : "false", j->out);
}

void jw_finish(struct json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
}

char *jw_escape(const char *s)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);
	if (!f)
		return NULL;
	quoted(f, s);
	fclose(f);
	return data;
}

json_t *jw_text(const char *s)
{
	char *q = jw_escape(s);
	json_t *v = json_loads(q, JSON_DECODE_ANY, NULL);
	free(q);
	return v;
}

void jw_set(json_t *obj, const char *key, json_t *v)
{
	json_t *k = jw_text(key);
	json_object_set_new(obj, json_string_value(k), v);
	json_decref(k);
}

json_t *jw_opt(const char *s)
{
	return s ? jw_text(s) : json_null();
}

void jw_print(json_t *doc)
{
	char *text = json_dumps(doc, JSON_PRESERVE_ORDER | JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	puts(text ? text : "null");
	fflush(stdout);
	free(text);
	json_decref(doc);
}
