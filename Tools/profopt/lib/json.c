/* json.c - what carries outside text into jansson's documents, and prints them. */
#include "lib/json.h"
#include "lib/util.h"

#include <math.h>

json_t *jw_text(const char *s)
{
	struct buf b = {0};
	buf_add(&b, "", 0);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = utf8_length(p);
		buf_add(&b, n ? (const char *)p : "\xef\xbf\xbd", n ? (size_t)n : 3);
		p += n ? n : 1;
	}
	json_t *v = json_stringn(b.data, b.len);
	free(b.data);
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

json_t *jw_number(double v)
{
	if (!isfinite(v))
		return json_null();
	return v == trunc(v) && fabs(v) < 1e15 ? json_integer((json_int_t)v) : json_real(v);
}

void jw_write(json_t *doc, FILE *out)
{
	if (json_dumpf(doc, out, JSON_ENCODE_ANY | JSON_PRESERVE_ORDER | JSON_INDENT(2) |
				       JSON_REAL_PRECISION(6)))
		fputs("null", out);
	fputc('\n', out);
	fflush(out);
	json_decref(doc);
}

void jw_print(json_t *doc)
{
	jw_write(doc, stdout);
}
