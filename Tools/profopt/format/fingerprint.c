/* fingerprint.c - source fingerprints, hashed in this process (sha256.c): no other program
 * reads the names, so any byte a file name holds is fine. */
#include "format/fingerprint.h"
#include "lib/lines.h"
#include "lib/sha256.h"
#include "lib/output.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const fingerprint_default_suffixes[] = {".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".inc", ".S", NULL};

static void add_entry(struct fingerprint *m, char *path, const char *hash, long long size)
{
	m->e = grow_array(m->e, m->n, &m->cap, sizeof *m->e, 256);
	struct fingerprint_entry *e = &m->e[m->n++];
	e->path = path;
	snprintf(e->hash, sizeof e->hash, "%s", hash);
	e->size = size;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct fingerprint_entry *)a)->path, ((const struct fingerprint_entry *)b)->path);
}

/* Sorted by path, each path once (overlapping suffixes, ".h" and ".c.h", or a file named twice);
 * no entries is no array (qsort must not get NULL, even for none). */
static void sort_unique(struct fingerprint *m)
{
	if (m->n > 1)
		qsort(m->e, (size_t)m->n, sizeof *m->e, cmp_entry);
	int out = 0;
	for (int i = 0; i < m->n; i++) {
		if (out > 0 && strcmp(m->e[out - 1].path, m->e[i].path) == 0) {
			free(m->e[i].path);
			continue;
		}
		m->e[out++] = m->e[i];
	}
	m->n = out;
}

/* Adds root/rel's hash and size when it is a regular file (one that is gone is left out). */
static void add_file(struct fingerprint *m, const char *root, const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel), hash[SHA256_HEX_LEN + 1] = "";
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		(void)sha256_file(path, hash); /* unreadable: the hash stays empty, counts as changed */
		add_entry(m, xstrdup(rel), hash, (long long)st.st_size);
	}
	free(path);
}

void fingerprint_scan(struct fingerprint *m, const char *root, const char *const *suffixes, const char *const *skip)
{
	struct file_list l = {0};
	*m = (struct fingerprint){.root = resolve_path(root)};
	for (const char *const *s = suffixes; *s; s++)
		if (find_files(&l, root, *s, skip) < 0)
			fatal("cannot read source tree %s: %s", root, strerror(errno));
	for (int i = 0; i < l.n; i++)
		if (!strchr(l.paths[i], '\n')) /* one path per line: no source file has a newline */
			add_file(m, root, path_under(l.paths[i], root));
	file_list_free(&l);
	sort_unique(m);
}

void fingerprint_files(struct fingerprint *m, char *const *paths, int n)
{
	*m = (struct fingerprint){.listed = 1};
	if (n == 0)
		fatal("no files to fingerprint");
	/* the deepest directory above every path: the first one's, or a shorter one they all share */
	size_t common = strrchr(paths[0], '/') ? (size_t)(strrchr(paths[0], '/') - paths[0]) : 0;
	for (int i = 1; i < n; i++)
		if (common_dir_length(paths[0], paths[i]) < common)
			common = common_dir_length(paths[0], paths[i]);
	m->root = common ? xasprintf("%.*s", (int)common, paths[0]) : xstrdup("/");
	for (int i = 0; i < n; i++)
		if (paths[i][0] == '/' && !strchr(paths[i], '\n'))
			add_file(m, common ? m->root : "", paths[i] + common + 1);
	sort_unique(m);
}

void fingerprint_rehash(struct fingerprint *cur, const struct fingerprint *old, const char *root)
{
	*cur = (struct fingerprint){.root = xstrdup(root ? root : old->root), .listed = 1};
	for (int i = 0; i < old->n; i++)
		add_file(cur, strcmp(cur->root, "/") ? cur->root : "", old->e[i].path);
	sort_unique(cur);
}

void fingerprint_write(const struct fingerprint *m, const char *path)
{
	struct buf b = {0};
	buf_printf(&b, "# profopt source fingerprints %s (sha256, size, path)\nroot %s\n%s", m->listed ? "3" : "2",
		   m->root ? m->root : ".", m->listed ? "files listed\n" : "");
	for (int i = 0; i < m->n; i++)
		buf_printf(&b, "%s %lld %s\n", m->e[i].hash[0] ? m->e[i].hash : "-", m->e[i].size, m->e[i].path);
	output_write(path, b.data, b.len);
	buf_free(&b);
}

/* One "HASH SIZE PATH" line (HASH "-": the file was unreadable) added to m; -1 if not one. */
static int read_entry(struct fingerprint *m, char *line)
{
	size_t hl = strcspn(line, " ");
	if (line[hl] != ' ')
		return -1;
	line[hl] = '\0';
	char *end;
	errno = 0;
	long long size = strtoll(line + hl + 1, &end, 10);
	if ((!sha256_is_hex(line) && strcmp(line, "-")) || errno || end == line + hl + 1 || *end != ' ' || !end[1] ||
	    size < 0)
		return -1;
	add_entry(m, xstrdup(end + 1), line[0] == '-' ? "" : line, size);
	return 0;
}

/* What is wrong with line lineno (1: the header; then "root DIR" or an entry), or NULL. */
static const char *read_line(struct fingerprint *m, char *line, int lineno)
{
	if (lineno == 1) {
		m->listed = starts_with(line, "# profopt source fingerprints 3");
		return m->listed || starts_with(line, "# profopt source fingerprints 2")
			       ? NULL
			       : "not a profopt source fingerprint (made by profopt check --write-fingerprint)";
	}
	if (m->listed && !strcmp(line, "files listed"))
		return NULL;
	if (starts_with(line, "root ")) {
		free(m->root);
		m->root = xstrdup(line + 5);
		return NULL;
	}
	return read_entry(m, line) < 0 ? "expected \"SHA256 SIZE PATH\": a damaged fingerprint" : NULL;
}

/* Every line is checked first (lines.h): a NUL byte cannot end the file early.  A fingerprint
 * that lists no file or lacks its last newline is damaged (the writer writes neither). */
int fingerprint_read(struct fingerprint *m, const char *path, char *err, size_t errlen)
{
	struct lines l;
	const char *why = NULL;
	memset(m, 0, sizeof *m);
	if (lines_read(&l, path, LINES_NAMES, FINGERPRINT_LINE_MAX, err, errlen) < 0)
		return -1;
	for (char *line; !why && (line = lines_next(&l)) != NULL;)
		if ((why = read_line(m, line, l.lineno)) != NULL)
			snprintf(err, errlen, "%s:%d: %s", printable(path), l.lineno, why);
	if (!why && (l.lineno == 0 || !l.final_newline || (m->n == 0 && !m->listed))) {
		why = l.lineno == 0 ? "empty" : !l.final_newline ? "its last line is cut short (no newline)" : "it lists no file";
		snprintf(err, errlen, "%s: %s: a damaged fingerprint", printable(path), why);
	}
	lines_free(&l);
	if (why)
		fingerprint_free(m);
	else
		sort_unique(m);
	return why ? -1 : 0;
}

void fingerprint_free(struct fingerprint *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->e[i].path);
	free(m->e);
	free(m->root);
	memset(m, 0, sizeof *m);
}
