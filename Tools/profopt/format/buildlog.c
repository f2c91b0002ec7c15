/* buildlog.c - reading a build log (see buildlog.h). */
#include "format/buildlog.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const log_kind_names[LOG_KINDS] = {"stale", "corrupted", "missing"};

/* Substrings of the compilers' profile diagnostics (case-insensitive), by kind. */
static const struct {
	const char *text;
	enum log_kind kind;
} patterns[] = {
	{"-Wcoverage-mismatch", LOG_STALE},
	{"does not match its profile data", LOG_STALE},
	{"coverage mismatch", LOG_STALE},
	{"number of counters in profile data", LOG_STALE},
	{"profile data may be out of date", LOG_STALE},
	{"hash mismatch", LOG_STALE},
	{"-Wprofile-instr-out-of-date", LOG_STALE},
	{"profile data may be corrupted", LOG_CORRUPTED},
	{"corrupted profile info", LOG_CORRUPTED},
	{"malformed instrumentation profile", LOG_CORRUPTED},
	{"unsupported instrumentation profile format", LOG_CORRUPTED},
	{"error in reading profile", LOG_CORRUPTED},
	{"could not read profile", LOG_CORRUPTED},
	{"is not a gcov data file", LOG_CORRUPTED},
	{"expected version", LOG_CORRUPTED},
	{"-Wmissing-profile", LOG_MISSING},
	{"-Wprofile-instr-unprofiled", LOG_MISSING},
	{"no profile data available", LOG_MISSING},
	{"profile data may be incomplete", LOG_MISSING},
};

/* Options whose value is the next word: that word is not the source file. */
static const char *const takes_value[] = {"-o", "-MF", "-MT", "-MQ", "-include", "-imacros", "-x", "-I", "-D", "-U",
					  "-isystem", "-iquote", "-idirafter", "-Xclang", "-mllvm", "-Xlinker", NULL};
static const char *const source_suffixes[] = {".c", ".cc", ".cpp", ".cxx", ".C", ".S", ".s", ".m", NULL};

/* "dir/file.c:12:3: warning: ..." (gcc) or "warning: dir/file.c: ..." (clang's backend)
 * -> "dir/file.c"; NULL when the line names no file. */
static char *diagnostic_source(const char *line)
{
	if (starts_with(line, "warning: ") || starts_with(line, "error: "))
		line = strchr(line, ' ') + 1;
	size_t n = strcspn(line, ": \t");
	if (n == 0 || line[n] != ':' || !memchr(line, '.', n))
		return NULL;
	if (n > 2 && starts_with(line, "./"))
		line += 2, n -= 2;
	return xasprintf("%.*s", (int)n, line);
}

/* The words of a command line, one pair of enclosing quotes removed (a copy, split in place). */
static int split_words(char *s, char **w, int max)
{
	int n = 0;
	char *save;
	for (char *tok = strtok_r(s, " \t", &save); tok && n < max; tok = strtok_r(NULL, " \t", &save)) {
		size_t len = strlen(tok);
		if (len >= 2 && (tok[0] == '\'' || tok[0] == '"') && tok[len - 1] == tok[0]) {
			tok[len - 1] = '\0';
			tok++;
		}
		w[n++] = tok;
	}
	return n;
}

static int flags_of_word(const char *w, int flags)
{
	if (!strcmp(w, "-fprofile-use") || starts_with(w, "-fprofile-use=") || !strcmp(w, "-fprofile-instr-use") ||
	    starts_with(w, "-fprofile-instr-use="))
		return flags | PROFILE_FLAG_USE;
	if (!strcmp(w, "-fno-profile-use") || !strcmp(w, "-fno-profile-instr-use"))
		return flags & ~PROFILE_FLAG_USE;
	if (!strcmp(w, "-fprofile-generate") || starts_with(w, "-fprofile-generate=") ||
	    !strcmp(w, "-fprofile-instr-generate") || starts_with(w, "-fprofile-instr-generate=") ||
	    !strcmp(w, "-fcs-profile-generate") || starts_with(w, "-fcs-profile-generate="))
		return flags | PROFILE_FLAG_GENERATE;
	if (!strcmp(w, "-fno-profile-generate") || !strcmp(w, "-fno-profile-instr-generate"))
		return flags & ~PROFILE_FLAG_GENERATE;
	return flags;
}

int profile_flags(const char *cmdline)
{
	char *copy = xstrdup(cmdline), *save;
	int flags = 0, options = 0;
	for (char *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		options += tok[0] == '-';
		flags = flags_of_word(tok, flags);
	}
	free(copy);
	return options ? flags : -1;
}

/* Whether w is one of list (suffix: ends with one, and is longer). */
static int in_list(const char *w, const char *const *list, int suffix)
{
	for (; *list; list++)
		if (suffix ? ends_with(w, *list) && strlen(w) > strlen(*list) : !strcmp(w, *list))
			return 1;
	return 0;
}

/* The object as named from objdir: the log's path joined to make's current directory. */
static char *object_name(const char *obj, const char *cwd, const char *objdir)
{
	char *path = obj[0] == '/' || !cwd ? xstrdup(obj) : xasprintf("%s/%s", cwd, obj);
	normalize_path(path);
	size_t n = objdir ? strlen(objdir) : 0;
	if (objdir && path[0] == '/' && strncmp(path, objdir, n) == 0 && path[n] == '/')
		memmove(path, path + n + 1, strlen(path + n + 1) + 1);
	return path;
}

/* The value of option opt at word i ("-Idir" or "-I dir"), or NULL. */
static char *option_value(char **w, int n, int i, const char *opt)
{
	if (!strcmp(w[i], opt))
		return i + 1 < n ? w[i + 1] : NULL;
	return starts_with(w[i], opt) && w[i][strlen(opt)] ? w[i] + strlen(opt) : NULL;
}

/* Records the compile command on this line, if it is one. */
static void add_compile(struct build_log *l, const char *line, int lineno, const char *cwd, const char *objdir)
{
	if (!strstr(line, " -c"))
		return;
	char *copy = xstrdup(line), *w[4096], *obj = NULL, *src = NULL, *inc[256];
	int n = split_words(copy, w, 4096), compile = 0, flags = 0, ninc = 0;
	for (int i = 0; i < n; i++) {
		compile |= !strcmp(w[i], "-c");
		flags = flags_of_word(w[i], flags);
		char *dir = option_value(w, n, i, "-I"), *o = option_value(w, n, i, "-o");
		if ((dir || (dir = option_value(w, n, i, "-iquote"))) && ninc < 256)
			inc[ninc++] = dir;
		if (o)
			obj = o;
		else if (w[i][0] != '-' && in_list(w[i], source_suffixes, 1) &&
			 !(i > 0 && in_list(w[i - 1], takes_value, 0)))
			src = w[i];
	}
	if (compile && src) {
		/* without -o, the object is the source's name with .o, in the current directory */
		const char *name = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
		char *o = obj ? xstrdup(obj) : xasprintf("%.*s.o", (int)(strrchr(name, '.') - name), name);
		if (ends_with(o, ".o")) {
			l->c = grow_array(l->c, l->nc, &l->capc, sizeof *l->c, 64);
			int k = l->nc++;
			src += starts_with(src, "./") ? 2 : 0;
			l->c[k] = (struct log_compile){object_name(o, cwd, objdir), xstrdup(src), lineno, flags, -1,
						       cwd ? xstrdup(cwd) : NULL, xcalloc((size_t)ninc + 1, sizeof(char *)), ninc,
						       NULL, -1};
			for (int i = 0; i < ninc; i++)
				l->c[k].includes[i] = xstrdup(inc[i]);
			*strmap_slot(&l->objects, l->c[k].object, 1) = (void *)(intptr_t)(k + 1);
		}
		free(o);
	}
	free(copy);
}

int make_dirs_line(struct make_dirs *d, const char *line)
{
	const char *p = strstr(line, "Entering directory ");
	if (!p) {
		if (!strstr(line, "Leaving directory "))
			return 0;
		if (d->depth > 0)
			free(d->dir[--d->depth]);
		return 1;
	}
	p += strlen("Entering directory ");
	p += starts_with(p, "\xe2\x80\x98") ? 3 : (*p == '\'' || *p == '`'); /* any of make's quotes */
	size_t n = strlen(p);
	if (n >= 3 && !strcmp(p + n - 3, "\xe2\x80\x99"))
		n -= 3;
	else if (n && p[n - 1] == '\'')
		n--;
	if (d->depth < 64)
		d->dir[d->depth++] = xasprintf("%.*s", (int)n, p);
	return 1;
}

const char *make_dirs_top(const struct make_dirs *d)
{
	return d->depth ? d->dir[d->depth - 1] : NULL;
}

void make_dirs_free(struct make_dirs *d)
{
	while (d->depth > 0)
		free(d->dir[--d->depth]);
}

static void add_message(struct build_log *l, const char *line, int lineno, enum log_kind kind)
{
	l->m = grow_array(l->m, l->n, &l->cap, sizeof *l->m, 16);
	char *text = xstrdup(line);
	for (unsigned char *p = (unsigned char *)text; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
	l->m[l->n++] = (struct log_message){lineno, kind, text, diagnostic_source(line)};
	l->count[kind]++;
}

/* The function F of gcc's "profile for function 'F' not found in profile data" (malloc'd), or
 * NULL for another message.  Quotes: ASCII or UTF-8 (the locale's). */
static char *missing_function(const char *text)
{
	const char *p = strstr(text, "profile for function ");
	if (!p || !strstr(p, "not found in profile data"))
		return NULL;
	p += strlen("profile for function ");
	p += starts_with(p, "\xe2\x80\x98") ? 3 : (*p == '\'' || *p == '`');
	size_t n = strcspn(p, "'\xe2 ");
	return n ? xasprintf("%.*s", (int)n, p) : NULL;
}

/* Each stale or missing message belongs to the latest compile of the source it names before it
 * (a compile's diagnostics follow its command): a complaint about an earlier compile of an object
 * is not about its last one, which verify judges.  gcc's "profile for function 'F' not found"
 * names one function the profile has no record of (one new since training is tolerated): a
 * compile's are gathered in missing_fns (linear: a hash table). */
static void attribute(struct build_log *l)
{
	struct strmap latest = {0}; /* source -> index + 1 of its latest compile so far */
	int k = 0;
	for (int i = 0; i < l->n; i++) {
		struct log_message *m = &l->m[i];
		for (; k < l->nc && l->c[k].line < m->line; k++)
			*strmap_slot(&latest, l->c[k].source, 1) = (void *)(intptr_t)(k + 1);
		char *fn = m->kind == LOG_CORRUPTED ? NULL : missing_function(m->text);
		int c = m->source ? (int)(intptr_t)strmap_get(&latest, m->source) - 1 : -1;
		if (fn && c >= 0) {
			if (!l->c[c].missing_fns)
				l->c[c].missing_fns = xcalloc(1, sizeof *l->c[c].missing_fns);
			*strmap_slot(l->c[c].missing_fns, fn, 1) = l->c[c].missing_fns;
			l->c[c].missing_first = l->c[c].missing_first >= 0 ? l->c[c].missing_first : i;
		} else if (!fn && m->kind != LOG_CORRUPTED && !m->source) {
			l->unattributed++; /* interleaved output: the compile before may not be its own */
		} else if (!fn && m->kind != LOG_CORRUPTED && c >= 0 && l->c[c].complaint < 0) {
			l->c[c].complaint = i;
		}
		free(fn);
	}
	strmap_free(&latest, NULL);
}

/* A command make echoed over several lines ("\\" at their ends) is one command: returns the
 * joined text once it ends, NULL while it goes on (*first: its first line). */
static const char *command_text(struct buf *cmd, const char *line, int lineno, int *first)
{
	size_t n = strlen(line);
	int more = n && line[n - 1] == '\\';
	if (!cmd->len)
		*first = lineno;
	if (!more && !cmd->len)
		return line;
	buf_add(cmd, line, more ? n - 1 : n);
	buf_puts(cmd, " ");
	return more ? NULL : cmd->data;
}

static void scan(struct build_log *l, char *text, const char *objdir)
{
	struct make_dirs dirs = {0};
	int lineno = 0, first = 0;
	struct buf cmd = {0};
	for (char *p = text, *line; p; ) {
		line = strsep(&p, "\n");
		lineno++;
		if (make_dirs_line(&dirs, line))
			continue;
		const char *command = command_text(&cmd, line, lineno, &first);
		if (command) {
			add_compile(l, command, first, make_dirs_top(&dirs), objdir);
			cmd.len = 0;
		}
		for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++)
			if (strcasestr(line, patterns[i].text)) {
				add_message(l, line, lineno, patterns[i].kind);
				break;
			}
	}
	make_dirs_free(&dirs);
	buf_free(&cmd);
}

int build_log_read(struct build_log *l, const char *path, const char *objdir)
{
	*l = (struct build_log){.path = path};
	size_t len;
	char *text = read_file(path, &len);
	if (!text)
		return -1;
	/* A NUL is a byte like any other: it must not end the text before its end. */
	for (char *z = memchr(text, '\0', len); z; z = memchr(z, '\0', len - (size_t)(z - text)))
		*z = ' ';
	scan(l, text, objdir);
	attribute(l);
	free(text);
	return 0;
}

const struct log_compile *build_log_compile(const struct build_log *l, const char *object)
{
	int k = (int)(intptr_t)strmap_get(&l->objects, object) - 1;
	return k >= 0 ? &l->c[k] : NULL;
}

void build_log_print(const struct build_log *l, FILE *out, int max)
{
	/* a copy: the loop's printable() calls reuse its slots */
	char *path = xstrdup(printable(l->path));
	fprintf(out, "build log %s: %d stale, %d corrupted, %d missing profile diagnostics\n", path,
		l->count[LOG_STALE], l->count[LOG_CORRUPTED], l->count[LOG_MISSING]);
	for (int i = 0; i < l->n && (max < 0 || i < max); i++)
		fprintf(out, "  %s:%d: [%s] %.300s\n", path, l->m[i].line, log_kind_names[l->m[i].kind],
			printable(l->m[i].text));
	if (max >= 0 && l->n > max)
		fprintf(out, "  ... %d more in %s\n", l->n - max, path);
	free(path);
}

void build_log_free(struct build_log *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->m[i].text);
		free(l->m[i].source);
	}
	for (int k = 0; k < l->nc; k++) {
		free(l->c[k].object);
		free(l->c[k].source);
		free(l->c[k].dir);
		for (int i = 0; i < l->c[k].nincludes; i++)
			free(l->c[k].includes[i]);
		free(l->c[k].includes);
		if (l->c[k].missing_fns)
			strmap_free(l->c[k].missing_fns, NULL);
		free(l->c[k].missing_fns);
	}
	free(l->m);
	free(l->c);
	strmap_free(&l->objects, NULL);
}
