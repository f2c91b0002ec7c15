/* tarmem.c - a stash's profile files read into memory (see tarmem.h). */
#include "lib/tarmem.h"
#include "lib/util.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A name that could reach outside the directory it is meant for. */
static int escapes(const char *name)
{
	if (name[0] == '/')
		return 1;
	for (const char *p = name; *p; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			return 1;
	return 0;
}

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Sorts by name and keeps the last member of each name, as extracting the archive would. */
static void sort_unique(struct member_list *l)
{
	int k = 0;
	if (l->n == 0)
		return;
	qsort(l->m, (size_t)l->n, sizeof *l->m, cmp_member);
	for (int i = 0; i < l->n; i++) {
		if (i + 1 < l->n && strcmp(l->m[i].name, l->m[i + 1].name) == 0) {
			free(l->m[i].name);
			free(l->m[i].data);
			continue;
		}
		l->m[k++] = l->m[i];
	}
	l->n = k;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct member *)a)->name, ((const struct member *)b)->name);
}

/* Far above any real stash; a compressed bomb stops here instead of filling memory. */
#define MAX_TOTAL_BYTES ((size_t)1 << 30)

static int read_data(struct archive *a, struct member *m, size_t *total)
{
	struct buf b = {0};
	char chunk[65536];
	la_ssize_t n;
	buf_add(&b, "", 0);
	while ((n = archive_read_data(a, chunk, sizeof chunk)) > 0) {
		if ((*total += (size_t)n) > MAX_TOTAL_BYTES) {
			archive_set_error(a, EFBIG, "more than %zu bytes of profiles", MAX_TOTAL_BYTES);
			n = -1;
			break;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	m->data = (unsigned char *)b.data;
	m->len = b.len;
	return n < 0 ? -1 : 0;
}

/* Reads the members of an opened archive; name is the archive's, for messages. */
static int read_members(struct archive *a, const char *name, const char *suffix, struct member_list *out, char *err,
			size_t errlen)
{
	struct archive_entry *e;
	int rc = 0, r;
	size_t total = 0;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *path = archive_entry_pathname(e);
		if (!path || archive_entry_filetype(e) != AE_IFREG || !ends_with(path, suffix))
			continue;
		while (path[0] == '.' && path[1] == '/')
			path += 2;
		if (escapes(path)) {
			snprintf(err, errlen, "%s: member %s points outside the archive's tree", printable(name), printable(path));
			rc = -1;
			break;
		}
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 64;
			out->m = xrealloc(out->m, (size_t)out->cap * sizeof *out->m);
		}
		struct member *m = &out->m[out->n++];
		m->name = xstrdup(path);
		m->seq = out->n;
		if (read_data(a, m, &total) < 0) {
			snprintf(err, errlen, "%s: member %s: %s", printable(name), printable(path), archive_error_string(a));
			rc = -1;
			break;
		}
	}
	if (rc == 0 && r != ARCHIVE_EOF) {
		snprintf(err, errlen, "%s: not a readable archive: %s", printable(name), archive_error_string(a));
		rc = -1;
	}
	archive_read_free(a);
	if (rc < 0) {
		tarmem_free(out);
		return -1;
	}
	sort_unique(out);
	return 0;
}

static struct archive *new_reader(struct member_list *out)
{
	struct archive *a = archive_read_new();
	memset(out, 0, sizeof *out);
	archive_read_support_format_all(a);
	archive_read_support_filter_all(a);
	return a;
}

int tarmem_read(const char *path, const char *suffix, struct member_list *out, char *err, size_t errlen)
{
	struct archive *a = new_reader(out);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", printable(path), archive_error_string(a));
		archive_read_free(a);
		return -1;
	}
	return read_members(a, path, suffix, out, err, errlen);
}

int tarmem_parse(const void *data, size_t len, const char *name, const char *suffix, struct member_list *out, char *err,
		 size_t errlen)
{
	struct archive *a = new_reader(out);
	if (archive_read_open_memory(a, data, len) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", printable(name), archive_error_string(a));
		archive_read_free(a);
		return -1;
	}
	return read_members(a, name, suffix, out, err, errlen);
}

const struct member *tarmem_find(const struct member_list *l, const char *name)
{
	struct member key = {.name = (char *)name};
	return l->n ? bsearch(&key, l->m, (size_t)l->n, sizeof *l->m, cmp_name) : NULL;
}

void tarmem_free(struct member_list *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->m[i].name);
		free(l->m[i].data);
	}
	free(l->m);
	memset(l, 0, sizeof *l);
}
