/* output.c - writing the files a user named (see output.h). */
#include "lib/output.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Why path may not be written ("a character device", "a directory", ...), or NULL. */
static const char *output_refusal(const char *path)
{
	struct stat st;
	return lstat(path, &st) < 0 || S_ISREG(st.st_mode) || S_ISLNK(st.st_mode) ? NULL : file_kind(st.st_mode);
}

/* "cannot write PATH: it is a FIFO, not a regular file ..." into err; returns -1. */
static int refused(const char *path, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "refusing to write %s: it is %s, and an output replaces only a regular file", printable(path),
		 what);
	return -1;
}

void output_check(const char *path)
{
	char err[600];
	const char *what = output_refusal(path);
	if (what && refused(path, what, err, sizeof err) < 0)
		fatal("%s", err);
}

/* No output in o: nothing to write, nothing to remove. */
static void forget(struct output *o)
{
	free(o->tmp), free(o->path);
	*o = (struct output){.fd = -1};
}

int output_open(struct output *o, const char *path, char *err, size_t errlen)
{
	const char *what = output_refusal(path);
	*o = (struct output){.fd = -1};
	if (what)
		return refused(path, what, err, errlen);
	o->path = xstrdup(path);
	o->tmp = xasprintf("%s.tmp.XXXXXX", path);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", printable(path), strerror(errno));
		forget(o);
		return -1;
	}
	remove_at_exit(o->tmp);
	mode_t mask = umask(0);
	umask(mask);
	fchmod(o->fd, 0644 & ~mask); /* as open(..., 0644) would have made it */
	return 0;
}

void output_abort(struct output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp) {
		unlink(o->tmp);
		keep_at_exit(o->tmp);
	}
	forget(o);
}

int output_commit(struct output *o, char *err, size_t errlen)
{
	/* the data on disk before the name says the file is complete */
	int rc = o->fd >= 0 && (fsync(o->fd) < 0 || close(o->fd) < 0) ? -1 : 0;
	o->fd = -1;
	const char *what = rc == 0 ? output_refusal(o->path) : NULL;
	if (what)
		refused(o->path, what, err, errlen);
	else if (rc < 0 || rename(o->tmp, o->path) < 0)
		snprintf(err, errlen, "cannot write %s: %s", printable(o->path), strerror(errno));
	else {
		keep_at_exit(o->tmp);
		forget(o);
		return 0;
	}
	output_abort(o);
	return -1;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int output_write_err(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	struct output o;
	if (output_open(&o, path, err, errlen) < 0)
		return -1;
	if (write_all(o.fd, data, len) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", printable(path), strerror(errno));
		output_abort(&o);
		return -1;
	}
	return output_commit(&o, err, errlen);
}

void output_write(const char *path, const void *data, size_t len)
{
	char err[600];
	if (output_write_err(path, data, len, err, sizeof err) < 0)
		fatal("%s", err);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	char err[600];
	const char *what = output_refusal(path);
	if (what) {
		errno = strcmp(what, "a directory") == 0 ? EISDIR : EEXIST;
		return -1;
	}
	return output_write_err(path, data, len, err, sizeof err);
}

int output_in_place(const char *path, char *err, size_t errlen)
{
	struct stat st;
	const char *what = output_refusal(path);
	if (what)
		return refused(path, what, err, errlen);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && unlink(path) < 0) {
		snprintf(err, errlen, "cannot replace the link %s: %s", printable(path), strerror(errno));
		return -1;
	}
	return 0;
}

int output_open_log(const char *path, int append, char *err, size_t errlen)
{
	struct stat st;
	if (output_in_place(path, err, errlen) < 0)
		return -1;
	/* O_NONBLOCK: a FIFO planted since the check fails to open instead of hanging; no
	 * O_TRUNC before fstat says it is a regular file */
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (append ? O_APPEND : 0), 0644);
	if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		return refused(path, "not a regular file", err, errlen);
	}
	if (fd < 0 || (!append && ftruncate(fd, 0) < 0) || fcntl(fd, F_SETFL, append ? O_APPEND : 0) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", printable(path), strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}
