/* tarfile.c - tar archives by libarchive (see tarfile.h). */
#include "lib/tarfile.h"
#include "lib/output.h"
#include "lib/strmap.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tar_out {
	struct archive *a;
	struct output out; /* the archive's temporary file, renamed into place by tar_close() */
};

struct tar_out *tar_create(const char *path, int gzip)
{
	struct tar_out *t = xcalloc(1, sizeof *t);
	char err[600];
	if (output_open(&t->out, path, err, sizeof err) < 0)
		fatal("%s", err);
	t->a = archive_write_new();
	/* GNU tar's format: long names without a charset conversion, so any bytes survive */
	if (archive_write_set_format_gnutar(t->a) != ARCHIVE_OK || (gzip && archive_write_add_filter_gzip(t->a) != ARCHIVE_OK) ||
	    archive_write_open_fd(t->a, t->out.fd) != ARCHIVE_OK)
		fatal("cannot write %s: %s", printable(path), archive_error_string(t->a));
	return t;
}

static struct archive_entry *new_entry(const char *name, int type, int perm, long long size, time_t mtime)
{
	struct archive_entry *e = archive_entry_new();
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, perm);
	archive_entry_set_size(e, size);
	archive_entry_set_mtime(e, mtime, 0);
	return e;
}

static void write_header(struct tar_out *t, const char *name, int type, int perm, long long size, time_t mtime)
{
	struct archive_entry *e = new_entry(name, type, perm, size, mtime);
	if (archive_write_header(t->a, e) != ARCHIVE_OK)
		fatal("cannot add %s to %s: %s", printable(name), printable(t->out.path), archive_error_string(t->a));
	archive_entry_free(e);
}

static void write_data(struct tar_out *t, const char *name, const void *data, size_t len)
{
	if (len && archive_write_data(t->a, data, len) != (la_ssize_t)len)
		fatal("cannot write %s into %s: %s",
		      printable(name), printable(t->out.path), archive_error_string(t->a));
}

void tar_add_file(struct tar_out *t, const char *name, const char *file)
{
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		fatal("cannot read %s: %s",
		      printable(file), errno == ELOOP ? "it is a symbolic link" : strerror(errno));
	if (!S_ISREG(st.st_mode))
		fatal("%s is not a regular file", printable(file));
	size_t len = 0;
	char *data = read_fd_max(fd, (size_t)st.st_size, &len);
	if (!data)
		fatal("%s: %s", printable(file), errno == EFBIG ? "it grew while being archived" : strerror(errno));
	if (len != (size_t)st.st_size)
		fatal("%s: read %zu/%lld bytes (it shrank while being archived)", printable(file), len,
		      (long long)st.st_size);
	close(fd);
	write_header(t, name, AE_IFREG, 0644, (long long)len, st.st_mtime);
	write_data(t, name, data, len);
	free(data);
}

void tar_add_data(struct tar_out *t, const char *name, const void *data, size_t len)
{
	write_header(t, name, AE_IFREG, 0644, (long long)len, time(NULL));
	write_data(t, name, data, len);
}

void tar_add_dir(struct tar_out *t, const char *name)
{
	write_header(t, name, AE_IFDIR, 0755, 0, time(NULL));
}

void tar_close(struct tar_out *t)
{
	char err[600];
	if (archive_write_close(t->a) != ARCHIVE_OK)
		fatal("cannot write %s: %s", printable(t->out.path), archive_error_string(t->a));
	archive_write_free(t->a);
	if (output_commit(&t->out, err, sizeof err) < 0)
		fatal("%s", err);
	free(t);
}

/* A reader of tar, plain or gzip-compressed: no filter that would run an outside program. */
static struct archive *new_reader(void)
{
	struct archive *a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	return a;
}

/* A reader of the archive open on fd, from its start (each pass reads the same file). */
static struct archive *open_reader(int fd, const char *path)
{
	struct archive *a = new_reader();
	if (lseek(fd, 0, SEEK_SET) < 0 || archive_read_open_fd(a, fd, 1 << 16) != ARCHIVE_OK)
		fatal("cannot read %s: %s",
		      printable(path), archive_error_string(a) ? archive_error_string(a) : strerror(errno));
	return a;
}

/* What kind of member e is, when it is not a regular file or a directory. */
static const char *bad_type(struct archive_entry *e)
{
	if (archive_entry_hardlink(e))
		return "is a hard link";
	switch (archive_entry_filetype(e)) {
	case AE_IFREG: case AE_IFDIR: return NULL;
	case AE_IFLNK: return "is a symbolic link";
	case AE_IFCHR: case AE_IFBLK: return "is a device";
	case AE_IFIFO: return "is a FIFO";
	default: return "is not a regular file";
	}
}

/* Normalizes name in place (leading "./" and a directory's trailing "/" removed); returns
 * why it is refused, or NULL. */
static const char *bad_name(char *name)
{
	if (name[0] == '/')
		return "has an absolute name";
	while (name[0] == '.' && name[1] == '/')
		memmove(name, name + 2, strlen(name + 2) + 1);
	size_t len = strlen(name);
	while (len > 0 && name[len - 1] == '/')
		name[--len] = '\0';
	for (const char *part = name; *part;) {
		size_t n = strcspn(part, "/");
		if (n == 2 && part[0] == '.' && part[1] == '.')
			return "climbs out of the directory with '..'";
		if (n == 0 || (n == 1 && part[0] == '.'))
			return "has an empty or '.' part in its name";
		part += n + (part[n] == '/');
	}
	return NULL;
}

/* The member's name as stored: a pax archive's UTF-8 name that the locale (C, usually)
 * cannot represent is taken as its UTF-8 bytes, which is what the file system holds. */
static const char *member_name(struct archive_entry *e)
{
	const char *name = archive_entry_pathname(e);
	return name ? name : archive_entry_pathname_utf8(e);
}

static _Noreturn void refuse(const char *archive, const char *name, const char *why)
{
	const char *a = printable(archive), *n = printable(name ? name : "");
	fatal("refusing %s: member '%s' %s (a profile archive holds only regular profile files, named inside "
	      "its directory)", a, n, why);
}

unsigned long long tar_unpack_limit(unsigned long long archive_bytes, long long ratio, long long max)
{
	if (ratio <= 0)
		ratio = env_whole("PROFOPT_MAX_INFLATE", 100);
	if (max <= 0)
		max = env_whole("PROFOPT_MAX_UNPACKED_BYTES", 1LL << 30);
	unsigned long long by_ratio = archive_bytes > ULLONG_MAX / (unsigned long long)ratio
					      ? ULLONG_MAX : archive_bytes * (unsigned long long)ratio;
	return by_ratio < (unsigned long long)max ? by_ratio : (unsigned long long)max;
}

/* First pass: every member checked; the names to extract the regular files as appended to names. */
static void check_all(int fd, const char *archive, tar_accept_fn accept, void *ctx, unsigned long long max_bytes,
		      struct file_list *names)
{
	struct archive *a = open_reader(fd, archive);
	struct archive_entry *e;
	int r;
	unsigned long long total = 0;
	struct strmap seen = {0};
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *raw = member_name(e), *why = bad_type(e);
		char *name = xstrdup(raw ? raw : "");
		if (!why)
			why = raw ? bad_name(name) : "has no name";
		if (why)
			refuse(archive, raw, why);
		total += archive_entry_size(e) > 0 ? (unsigned long long)archive_entry_size(e) : 0;
		/* refused before anything is written: a small archive inflating to gigabytes never fills the disk */
		if (total > max_bytes)
			fatal("refusing %s: member '%s' takes it past %llu bytes unpacked, its limit (a multiple of "
			      "the archive's size, at most an absolute cap: import's --max-inflate, --max-unpacked, or "
			      "PROFOPT_MAX_INFLATE, PROFOPT_MAX_UNPACKED_BYTES); nothing was written",
			      printable(archive), printable(name), max_bytes);
		if (archive_entry_filetype(e) == AE_IFDIR || !*name) {
			free(name);
			continue;
		}
		char *as = accept(name, ctx, &why);
		if (!as)
			refuse(archive, name, why);
		if ((why = bad_name(as)) != NULL)
			refuse(archive, as, why);
		void **dup = strmap_slot(&seen, as, 1);
		if (*dup)
			refuse(archive, as, "appears twice");
		*dup = as;
		file_list_add(names, as, 0);
		free(name);
	}
	if (r != ARCHIVE_EOF)
		fatal("%s is not a readable tar archive: %s", printable(archive), archive_error_string(a));
	archive_read_free(a);
	strmap_free(&seen, NULL);
}

/* A symbolic link at name or at one of its parent directories (relative to the current
 * directory) is removed: a file is never written through a link. */
static void remove_links_in_way(const char *dir, const char *name)
{
	char *path = xstrdup(name);
	for (char *end = path;; end++) {
		if (*end != '/' && *end != '\0')
			continue;
		char saved = *end;
		*end = '\0';
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
			if (unlink(path) < 0)
				fatal("cannot remove the link %s/%s: %s", dir, path, strerror(errno));
			warn("removed the link %s/%s: a profile file is never written through a link", dir,
			     printable(path));
		}
		*end = saved;
		if (!saved)
			break;
	}
	free(path);
}

static void copy_data(struct archive *in, struct archive *out, const char *archive, const char *name)
{
	const void *buf;
	size_t size;
	la_int64_t offset;
	int r;
	while ((r = archive_read_data_block(in, &buf, &size, &offset)) == ARCHIVE_OK)
		if (archive_write_data_block(out, buf, size, offset) < ARCHIVE_OK)
			fatal("cannot write %s: %s", printable(name), archive_error_string(out));
	if (r != ARCHIVE_EOF)
		fatal("%s is damaged: %s", printable(archive), archive_error_string(in));
}

/* Second pass: the checked members written under the current directory (dir). */
static void extract_all(int fd, const char *archive, const char *dir, enum tar_mode mode, char **names, int n)
{
	struct archive *in = open_reader(fd, archive), *out = archive_write_disk_new();
	int flags = ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS;
	archive_write_disk_set_options(out, flags | (mode == TAR_PRIVATE ? ARCHIVE_EXTRACT_NO_OVERWRITE : ARCHIVE_EXTRACT_UNLINK));
	struct archive_entry *e;
	int i = 0, r;
	while ((r = archive_read_next_header(in, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		if (archive_entry_filetype(e) != AE_IFREG)
			continue;
		if (i == n)
			fatal("%s changed while it was read", archive);
		if (mode == TAR_REPLACE)
			remove_links_in_way(dir, names[i]);
		long long size = archive_entry_size(e);
		struct archive_entry *w = new_entry(names[i], AE_IFREG, 0644, size, archive_entry_mtime(e));
		if (archive_write_header(out, w) != ARCHIVE_OK)
			fatal("cannot write %s/%s: %s", dir, printable(names[i]), archive_error_string(out));
		copy_data(in, out, archive, names[i]);
		if (archive_write_finish_entry(out) != ARCHIVE_OK)
			fatal("cannot write %s/%s: %s", dir, printable(names[i]), archive_error_string(out));
		archive_entry_free(w);
		i++;
	}
	if (i != n)
		fatal("%s changed while it was read", archive);
	archive_write_free(out);
	archive_read_free(in);
}

int tar_extract_fd(int fd, const char *archive, const char *dir, enum tar_mode mode, tar_accept_fn accept, void *ctx,
		   unsigned long long max_bytes, struct file_list *got)
{
	struct file_list mine = {0}, *names = got ? got : &mine;
	int first = names->n;
	check_all(fd, archive, accept, ctx, max_bytes, names);
	int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (here < 0 || chdir(dir) < 0)
		fatal("cannot enter %s: %s", dir, strerror(errno));
	extract_all(fd, archive, dir, mode, names->paths + first, names->n - first);
	if (fchdir(here) < 0)
		fatal("cannot return to the working directory: %s", strerror(errno));
	close(here);
	int n = names->n - first;
	file_list_free(&mine);
	return n;
}

int tar_open(const char *archive, struct stat *st)
{
	int fd = open(archive, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, st) < 0)
		fatal("cannot read %s: %s", printable(archive), strerror(errno));
	if (!S_ISREG(st->st_mode))
		fatal("refusing %s: it is %s, not a regular file: not an archive", printable(archive), file_kind(st->st_mode));
	return fd;
}

static char *accept_suffix(const char *name, void *ctx, const char **why)
{
	if (!ends_with(name, (const char *)ctx)) {
		*why = "is not a profile file (its name must end in the profile suffix)";
		return NULL;
	}
	return xstrdup(name);
}

int tar_extract_profiles(const char *archive, const char *dir, const char *suffix, enum tar_mode mode)
{
	struct stat st;
	int fd = tar_open(archive, &st);
	unsigned long long limit = tar_unpack_limit((unsigned long long)st.st_size, 0, 0);
	int n = tar_extract_fd(fd, archive, dir, mode, accept_suffix, (void *)suffix, limit, NULL);
	close(fd);
	return n;
}

/* ---- reading into memory ---- */

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

/* The members of an archive, `opened` libarchive's result of opening it. */
static int read_members(struct archive *a, int opened, const char *name, const char *suffix, struct member_list *out,
			char *err, size_t errlen)
{
	struct archive_entry *e;
	int rc = 0, r;
	size_t total = 0;
	struct strmap seen = {0}; /* name -> 1 + its index: of two members with one name, the later counts */
	memset(out, 0, sizeof *out);
	if (opened != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", printable(name), archive_error_string(a));
		archive_read_free(a);
		return -1;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *raw = member_name(e), *why;
		if (!raw || archive_entry_filetype(e) != AE_IFREG || !ends_with(raw, suffix))
			continue;
		char *path = xstrdup(raw);
		if ((why = bad_name(path)) != NULL) {
			/* an absolute or '..' name could only point outside the tree */
			int outside = raw[0] == '/' || strstr(why, "'..'");
			snprintf(err, errlen, "%s: member %s %s%s", printable(name), printable(raw),
				 outside ? "points outside the archive's tree: it " : "", why);
			free(path);
			rc = -1;
			break;
		}
		void **at = strmap_slot(&seen, path, 1);
		struct member *m;
		if (*at) {
			m = &out->m[(intptr_t)*at - 1];
			free(m->name);
			free(m->data);
		} else {
			out->m = grow_array(out->m, out->n, &out->cap, sizeof *out->m, 64);
			m = &out->m[out->n++];
			*at = (void *)(intptr_t)out->n;
		}
		m->name = path;
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
	strmap_free(&seen, NULL);
	if (rc < 0)
		tarmem_free(out);
	else if (out->n)
		qsort(out->m, (size_t)out->n, sizeof *out->m, cmp_name);
	return rc;
}

int tarmem_read(const char *path, const char *suffix, struct member_list *out, char *err, size_t errlen)
{
	struct stat st;
	memset(out, 0, sizeof *out);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s, not a regular file: not an archive", printable(path), file_kind(st.st_mode));
		return -1;
	}
	struct archive *a = new_reader();
	return read_members(a, archive_read_open_filename(a, path, 65536), path, suffix, out, err, errlen);
}

int tarmem_parse(const void *data, size_t len, const char *name, const char *suffix, struct member_list *out, char *err,
		 size_t errlen)
{
	struct archive *a = new_reader();
	return read_members(a, archive_read_open_memory(a, data, len), name, suffix, out, err, errlen);
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
