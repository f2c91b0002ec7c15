/* tarmem.c - a stash's profile files read into memory (see tarmem.h). */
#include "tarmem.h"
#include "util.h"

#include <archive.h>
#include <archive_entry.h>
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

static int read_data(struct archive *a, struct member *m)
{
	struct buf b = {0};
	char chunk[65536];
	la_ssize_t n;
	buf_add(&b, "", 0);
	while ((n = archive_read_data(a, chunk, sizeof chunk)) > 0)
		buf_add(&b, chunk, (size_t)n);
	m->data = (unsigned char *)b.data;
	m->len = b.len;
	return n < 0 ? -1 : 0;
}

int tarmem_read(const char *path, const char *suffix, struct member_list *out, char *err, size_t errlen)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int rc = 0, r;
	memset(out, 0, sizeof *out);
	archive_read_support_format_all(a);
	archive_read_support_filter_all(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", printable(path), archive_error_string(a));
		archive_read_free(a);
		return -1;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);
		if (!name || archive_entry_filetype(e) != AE_IFREG || !ends_with(name, suffix))
			continue;
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		if (escapes(name)) {
			snprintf(err, errlen, "%s: member %s points outside the archive's tree", printable(path), printable(name));
			rc = -1;
			break;
		}
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 64;
			out->m = xrealloc(out->m, (size_t)out->cap * sizeof *out->m);
		}
		struct member *m = &out->m[out->n++];
		m->name = xstrdup(name);
		m->seq = out->n;
		if (read_data(a, m) < 0) {
			snprintf(err, errlen, "%s: member %s: %s", printable(path), printable(name), archive_error_string(a));
			rc = -1;
			break;
		}
	}
	if (rc == 0 && r != ARCHIVE_EOF) {
		snprintf(err, errlen, "%s: not a readable archive: %s", printable(path), archive_error_string(a));
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
