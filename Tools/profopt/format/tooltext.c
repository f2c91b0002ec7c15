/* tooltext.c - llvm-profdata show and nm, run and read (see tooltext.h). */
#include "format/tooltext.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* The line at *pos (up to '\n' or the end): its start and length; *pos moves past it. */
static const char *next_line(const char *text, size_t len, size_t *pos, size_t *n)
{
	const char *line = text + *pos, *nl = memchr(line, '\n', len - *pos);
	*n = nl ? (size_t)(nl - line) : len - *pos;
	*pos += *n + (nl != NULL);
	return line;
}

static int line_starts(const char *line, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && memcmp(line, prefix, k) == 0;
}

/* Adds the unsigned numbers of "[1, 2, 3]" or "4" in line[0..n) to f's counts. */
static void add_numbers(struct shown_function *f, const char *line, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (line[i] < '0' || line[i] > '9') {
			i++;
			continue;
		}
		uint64_t v = 0;
		for (; i < n && line[i] >= '0' && line[i] <= '9'; i++)
			v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + (uint64_t)(line[i] - '0');
		if (v > f->max)
			f->max = v;
		f->sum = f->sum + v < f->sum ? UINT64_MAX : f->sum + v;
		f->zero += v == 0;
		f->counters++;
	}
}

static struct shown_function *new_function(struct shown_profile *p, const char *name, size_t n)
{
	p->fn = grow_array(p->fn, p->n, &p->cap, sizeof *p->fn, 256);
	struct shown_function *f = &p->fn[p->n++];
	*f = (struct shown_function){.name = xmalloc(n + 1)};
	for (size_t i = 0; i < n; i++)
		f->name[i] = name[i] ? name[i] : '?';
	f->name[n] = '\0';
	return f;
}

int profdata_show_parse(const char *text, size_t len, struct shown_profile *p)
{
	struct shown_function *cur = NULL;
	size_t pos = 0, n;
	int before = p->n;
	while (pos < len) {
		const char *line = next_line(text, len, &pos, &n);
		if (n > 3 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ' && line[n - 1] == ':') {
			cur = new_function(p, line + 2, n - 3);
		} else if (cur && (line_starts(line, n, "    Function count: ") ||
				   line_starts(line, n, "    Block counts: ["))) {
			add_numbers(cur, line + 19, n - 19); /* both prefixes: 19 bytes, then no digit */
		} else if (line_starts(line, n, "Instrumentation level: ")) {
			size_t k = 0;
			while (23 + k < n && line[23 + k] != ' ' && line[23 + k] != '\0')
				k++;
			snprintf(p->level, sizeof p->level, "%.*s", (int)k, line + 23);
			cur = NULL;
		}
	}
	return p->n - before;
}

int profdata_show(const char *tool, const char *profdata, struct shown_profile *p, char **why)
{
	char *arg = safe_path_arg(profdata), *out = NULL;
	char *argv[] = {(char *)tool, "show", "--all-functions", "--counts", "--", arg, NULL};
	size_t len = 0;
	static const struct run_opts apart = {.stderr_after = 1}; /* a warning never splits a line */
	int st = run_child(argv, &apart, &out, &len);
	free(arg);
	memset(p, 0, sizeof *p);
	if (!proc_exit_ok(st)) {
		*why = out;
		return -1;
	}
	profdata_show_parse(out, len, p);
	free(out);
	return 0;
}

int profdata_hot_count(const char *tool, const char *profdata, uint64_t *hot, char **why)
{
	char *arg = safe_path_arg(profdata), *out = NULL;
	char *argv[] = {(char *)tool, "show", "--detailed-summary", "--", arg, NULL};
	static const struct run_opts apart = {.stderr_after = 1};
	int st = run_child(argv, &apart, &out, NULL);
	free(arg);
	*hot = 0;
	if (!proc_exit_ok(st)) {
		*why = out;
		return -1;
	}
	/* the line "N blocks (P%) with count >= C account for 99 percentage of the total counts" */
	const char *p = strstr(out, "account for 99 percentage"), *q;
	for (q = p; q && q > out && q[-1] != '\n'; q--)
		;
	if (q && (q = strstr(q, "count >= ")) && q < p)
		*hot = strtoull(q + 9, NULL, 10);
	free(out);
	return 0;
}

void shown_profile_free(struct shown_profile *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->fn[i].name);
	free(p->fn);
	memset(p, 0, sizeof *p);
}

void nm_parse(const char *text, size_t len, char *const *args, int n, nm_symbol_fn fn, void *ctx, int first)
{
	size_t pos = 0;
	int k = 0;
	while (pos < len) {
		/* "OBJECT: name type value size": OBJECT is one of the names given, in their order,
		 * matched as bytes (a newline or ": " in a file name cannot shift the fields) */
		int hit = -1;
		for (int i = k; i < n && hit < 0; i++) {
			size_t a = strlen(args[i]);
			if (len - pos > a + 2 && memcmp(text + pos, args[i], a) == 0 && text[pos + a] == ':' &&
			    text[pos + a + 1] == ' ')
				hit = i;
		}
		if (hit >= 0) {
			k = hit;
			pos += strlen(args[hit]) + 2;
		}
		size_t line;
		const char *sym = next_line(text, len, &pos, &line), *sp = memchr(sym, ' ', line);
		if (hit < 0 || !sp || (size_t)(sp - sym) + 2 > line || memchr(sym, '\0', line))
			continue; /* a message, an archive member, or no symbol */
		char *name = xasprintf("%.*s", (int)(sp - sym), sym);
		fn(ctx, first + hit, name, sp[1]);
		free(name);
	}
}

struct nm_batch {
	nm_symbol_fn fn;
	void *ctx;
};

static void nm_batch_read(void *ctx, const char *out, size_t len, char *const *args, int first, int count)
{
	struct nm_batch *b = ctx;
	nm_parse(out, len, args, count, b->fn, b->ctx, first);
}

int nm_symbols(const char *nm, char *const *objects, int n, int flags, nm_symbol_fn fn, void *ctx, char **why)
{
	/* no "--": the names are made safe instead, and llvm-nm 14 refuses it */
	char *argv[] = {(char *)nm, "-A", "--format=posix", flags & NM_DEFINED ? "--defined-only" : NULL, NULL};
	char **args = xcalloc((size_t)n + 1, sizeof *args);
	for (int i = 0; i < n; i++)
		args[i] = safe_path_arg(objects[i]);
	struct nm_batch b = {fn, ctx};
	int rc = run_batches(argv, args, n, 200, nm_batch_read, &b, why);
	for (int i = 0; i < n; i++)
		free(args[i]);
	free(args);
	return rc;
}
