/* cgfuncs.c - per-function counts from callgrind output files (see cgfuncs.h).  The format
 * (valgrind's docs, "Callgrind Format Specification"): "ob=", "fn=" name the object and
 * function that the cost lines after them belong to, "(N) name" defines a compressed name and
 * "(N)" repeats it; a "calls=" line is followed by the cost of that call, inclusive of the
 * callee, which is not the caller's own. */
#include "bench/bench.h"
#include "bench/cgfuncs.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

void cg_fold_name(char *name)
{
	static const char *const clones[] = {".part.", ".cold", ".constprop.", ".isra.", ".lto_priv.", ".localalias", NULL};
	char *rec = strchr(name, '\'');
	if (rec && rec != name)
		*rec = '\0';
	for (int i = 0; clones[i]; i++) {
		char *c = strstr(name, clones[i]);
		if (c && c != name)
			*c = '\0';
	}
}

/* The name a "key=" line gives: "(N) name" defines N, "(N)" looks it up, "name" is itself
 * (kept under the line's key until its next such line).  Returns a string owned by ids (or
 * NULL for an undefined N). */
static const char *compressed(struct strmap *ids, const char *line)
{
	const char *v = strchr(line, '=') + 1;
	size_t len = strcspn(v, "\n");
	if (*v != '(') {
		char *key = xasprintf("%.*s", (int)(v - line), line);
		char **last = (char **)strmap_slot(ids, key, 1);
		free(key);
		free(*last);
		return *last = xasprintf("%.*s", (int)len, v);
	}
	const char *close = memchr(v, ')', len);
	if (!close)
		return NULL;
	char *id = xasprintf("%.*s", (int)(close - v + 1), v);
	const char *name = close + 1;
	char **slot = (char **)strmap_slot(ids, id, *name == ' ');
	if (slot && *name == ' ') {
		free(*slot);
		*slot = xasprintf("%.*s", (int)(len - (size_t)(name + 1 - v)), name + 1);
	}
	free(id);
	return slot ? *slot : NULL;
}

static struct cg_func *lookup(struct cg_profile *p, const char *object, const char *fn)
{
	const char *slash = object ? strrchr(object, '/') : NULL;
	const char *obj = slash ? slash + 1 : object ? object : "?";
	char *name = xstrdup(fn);
	cg_fold_name(name);
	char *key = xasprintf("%s\t%s", obj, name);
	struct cg_func **slot = (struct cg_func **)strmap_slot(&p->funcs, key, 1);
	if (!*slot) {
		*slot = xcalloc(1, sizeof **slot);
		(*slot)->object = xstrdup(obj);
		(*slot)->name = name;
	} else
		free(name);
	free(key);
	return *slot;
}

/* The first event's count on a cost line: after npos position columns. */
static double line_cost(const char *line, int npos)
{
	const char *p = line;
	for (int i = 0; i < npos; i++) {
		p += strcspn(p, " \t\n");
		p += strspn(p, " \t");
	}
	char *end;
	double v = strtod(p, &end);
	return end == p ? 0 : v;
}

static int words(const char *s)
{
	int n = 0;
	for (s += strspn(s, " \t"); *s && *s != '\n'; s += strspn(s, " \t"), n++)
		s += strcspn(s, " \t\n");
	return n;
}

static void free_str(void *s)
{
	free(s);
}

/* The cost lines of the text, each added to the function before it. */
static int add_costs(struct cg_profile *p, const char *text, char *err, size_t errlen)
{
	struct strmap objs = {0}, fns = {0};
	const char *object = NULL;
	struct cg_func *cur = NULL;
	int npos = 1, skip_next = 0, rc = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (starts_with(l, "positions:"))
			npos = words(l + 10);
		else if (starts_with(l, "ob=") || starts_with(l, "cob=")) {
			const char *o = compressed(&objs, l);
			if (*l == 'o')
				object = o;
		} else if (starts_with(l, "fn=") || starts_with(l, "cfn=")) {
			const char *f = compressed(&fns, l);
			if (*l == 'f') {
				if (!f) {
					snprintf(err, errlen, "fn= names an undefined function: %.40s", printable(l));
					rc = -1;
					break;
				}
				cur = lookup(p, object, f);
			}
		} else if (starts_with(l, "calls="))
			skip_next = 1;
		else if (strchr("0123456789+-*", *l) && *l) {
			if (!skip_next && cur)
				cur->self += line_cost(l, npos);
			skip_next = 0;
		}
	}
	strmap_free(&objs, free_str);
	strmap_free(&fns, free_str);
	return rc;
}

int cg_profile_add(struct cg_profile *p, const char *text, char *err, size_t errlen)
{
	char *names[BENCH_MAX_EVENTS];
	double totals[BENCH_MAX_EVENTS];
	int n = bench_parse_callgrind(text, names, totals, BENCH_MAX_EVENTS);
	if (n == 0) {
		snprintf(err, errlen, "no events: and summary: lines (not a callgrind output file)");
		return -1;
	}
	int rc = 0;
	if (p->event && strcmp(p->event, names[0]) != 0) {
		snprintf(err, errlen, "its first event is %s, another file's %s", printable(names[0]), p->event);
		rc = -1;
	}
	if (!p->event)
		p->event = xstrdup(names[0]);
	for (int i = 0; i < n; i++)
		free(names[i]);
	if (rc == 0 && (rc = add_costs(p, text, err, errlen)) == 0) {
		p->total += totals[0];
		p->files++;
	}
	return rc;
}

static void free_func(void *v)
{
	struct cg_func *f = v;
	free(f->object);
	free(f->name);
	free(f);
}

void cg_profile_free(struct cg_profile *p)
{
	strmap_free(&p->funcs, free_func);
	free(p->event);
	memset(p, 0, sizeof *p);
}

static int by_growth(const void *a, const void *b)
{
	const struct cg_growth *x = a, *y = b;
	double gx = x->after - x->before, gy = y->after - y->before;
	if (gx != gy)
		return gx < gy ? 1 : -1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->object, y->object);
}

int cg_slower(const struct cg_profile *base, const struct cg_profile *other, double threshold, double min_share,
	      struct cg_growth **out)
{
	int n = 0, cap = 0;
	*out = NULL;
	for (size_t i = 0; i < other->funcs.cap; i++) {
		const struct cg_func *f = other->funcs.vals ? other->funcs.vals[i] : NULL;
		if (!f)
			continue;
		const struct cg_func *b = strmap_get(&base->funcs, other->funcs.keys[i]);
		double before = b ? b->self : 0, grown = f->self - before;
		if (grown > threshold * before && grown >= min_share * base->total && grown > 0) {
			*out = grow_array(*out, n, &cap, sizeof **out, 16);
			(*out)[n++] = (struct cg_growth){.object = f->object, .name = f->name, .before = before, .after = f->self};
		}
	}
	if (n)
		qsort(*out, (size_t)n, sizeof **out, by_growth);
	return n;
}
