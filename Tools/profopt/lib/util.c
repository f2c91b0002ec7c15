/* util.c - messages, memory, strings, files, temporary directories. */
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *progname = "profopt";
int exit_failure = 1;

static void vmessage(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* The message of a variadic reporter, then `then` (an exit, or nothing). */
#define REPORT(kind, then)                      \
	do {                                    \
		va_list ap;                     \
		va_start(ap, fmt);              \
		vmessage(kind, fmt, ap);        \
		va_end(ap);                     \
		then;                           \
	} while (0)

void warn(const char *fmt, ...)
{
	REPORT("warning: ", (void)0);
}

void fatal(const char *fmt, ...)
{
	REPORT("error: ", exit(exit_failure));
}

void usage_error(const char *fmt, ...)
{
	REPORT("", exit(2));
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		fatal("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		fatal("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		fatal("out of memory");
	return p;
}

void *grow_array(void *p, int n, int *cap, size_t size, int first)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : first;
	return xrealloc(p, (size_t)*cap * size);
}

char *xstrdup(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1), s);
}

static char *vxasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		fatal("out of memory");
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vxasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vxasprintf(fmt, ap);
	va_end(ap);
	buf_puts(b, s);
	free(s);
}

void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

char *read_file(const char *path, size_t *len)
{
	struct buf b = {0};
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf_add(&b, "", 0);
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			buf_free(&b);
			errno = e;
			return NULL;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	if (len)
		*len = b.len;
	return b.data;
}

int read_and_parse(const char *path, parse_fn fn, void *out, size_t outsize, char *err, size_t errlen)
{
	size_t len;
	unsigned char *data = (unsigned char *)read_file(path, &len);
	if (!data) {
		snprintf(err, errlen, "%s: %s", printable(path), strerror(errno));
		memset(out, 0, outsize);
		return -1;
	}
	int rc = fn(data, len, path, out, err, errlen);
	free(data);
	return rc;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	/* mkstemp: a name nobody could have planted (a symbolic link, say) before us */
	char *tmp = xasprintf("%s.tmp.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	const char *p = data;
	if (fd < 0) {
		int e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0644 & ~mask); /* as open(..., 0644) made it before */
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	/* The data must be on disk before the name says the file is complete. */
	if (fsync(fd) < 0 || close(fd) < 0 || rename(tmp, path) < 0)
		goto fail;
	free(tmp);
	return 0;
fail:;
	int e = errno;
	unlink(tmp);
	free(tmp);
	errno = e;
	return -1;
}

char *find_program(const char *name)
{
	if (!name || !*name)
		return NULL;
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char *cand = xasprintf("%.*s/%s", (int)n, n ? path : ".", name);
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		path += n;
		if (*path == ':')
			path++;
	}
	return NULL;
}

char *resolve_path(const char *path)
{
	char *r = realpath(path, NULL);
	return r ? r : xstrdup(path);
}

int read_fail(const struct read_error *e, size_t at, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (e->err && e->errlen)
		snprintf(e->err, e->errlen, "%s: offset %zu (0x%zx): %s", printable(e->name), at, at, msg);
	return -1;
}

double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void format_duration(char *out, size_t n, double s)
{
	if (s < 0)
		s = 0;
	if (s < 60)
		snprintf(out, n, "%.1f s", s);
	else if (s < 3600)
		snprintf(out, n, "%d min %02d s", (int)s / 60, (int)s % 60);
	else
		snprintf(out, n, "%d h %02d min", (int)s / 3600, (int)s % 3600 / 60);
}

int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

double parse_share(const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s)
		return -1;
	if (*end == '%') {
		v /= 100;
		end++;
	} else if (v > 1) {
		v /= 100; /* "90" means 90% */
	}
	if (*end || v < 0 || v > 1)
		return -1;
	return v;
}

long parse_positive(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0)
		return -1;
	return v;
}

/* Up to this many printable() results are alive at once (several per message). */
#define PRINTABLE_SLOTS 16

const char *printable(const char *s)
{
	static char *slot[PRINTABLE_SLOTS];
	static int next;
	struct buf b = {0};
	buf_add(&b, "", 0);
	for (const unsigned char *p = (const unsigned char *)(s ? s : "(null)"); *p;) {
		int n = utf8_length(p);
		/* C0, DEL, C1 (U+0080..U+009F, which terminals obey) and bytes that are not UTF-8 */
		if (n == 0 || *p < 0x20 || *p == 0x7f || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			int bytes = n ? n : 1;
			for (int i = 0; i < bytes; i++)
				buf_printf(&b, "\\x%02x", p[i]);
			p += bytes;
		} else {
			buf_add(&b, p, (size_t)n);
			p += n;
		}
	}
	free(slot[next]);
	slot[next] = b.data;
	next = (next + 1) % PRINTABLE_SLOTS;
	return b.data;
}

int utf8_length(const unsigned char *p)
{
	unsigned c = p[0];
	int n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000;
	else
		return 0;
	unsigned v = c & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	return n;
}

char *safe_path_arg(const char *path)
{
	return path[0] == '/' ? xstrdup(path) : xasprintf("./%s", path);
}

/* Temporary directories still to be removed when the process exits. */
static char **temp_dirs;
static int ntemp_dirs;

static void remove_temp_dirs(void)
{
	while (ntemp_dirs > 0)
		remove_dir_tree(temp_dirs[ntemp_dirs - 1]);
}

char *make_temp_dir(const char *what)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/profopt-%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
	if (!mkdtemp(dir))
		fatal("cannot create a temporary directory %s: %s", printable(dir), strerror(errno));
	if (!temp_dirs)
		atexit(remove_temp_dirs);
	temp_dirs = xrealloc(temp_dirs, (size_t)(ntemp_dirs + 1) * sizeof *temp_dirs);
	temp_dirs[ntemp_dirs++] = xstrdup(dir);
	return dir;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if ((type == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT)
		warn("cannot remove %s: %s", printable(path), strerror(errno));
	return 0;
}

void remove_dir_tree(const char *dir)
{
	/* depth first, never following a symbolic link out of the tree */
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	for (int i = 0; i < ntemp_dirs; i++)
		if (strcmp(temp_dirs[i], dir) == 0) {
			free(temp_dirs[i]);
			temp_dirs[i] = temp_dirs[--ntemp_dirs];
			break;
		}
}

void close_stdout(void)
{
	int bad = ferror(stdout);
	if (fclose(stdout) != 0)
		bad = 1;
	if (bad) {
		fprintf(stderr, "%s: error: cannot write the output: %s\n", progname,
			errno ? strerror(errno) : "write error");
		_exit(exit_failure);
	}
}

int make_dirs(const char *dir, mode_t mode)
{
	char *path = xstrdup(dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int bad = mkdir(path, mode) < 0 && errno != EEXIST;
		*p = '/';
		if (bad) {
			free(path);
			return -1;
		}
	}
	int rc = mkdir(path, mode) < 0 && errno != EEXIST ? -1 : 0;
	free(path);
	return rc;
}

/* Seconds since FILE was last modified, or `fallback` when it cannot be read: the duration of
 * a stage whose earlier commands ran before this one. */
double seconds_since(const char *file, double fallback)
{
	struct stat st;
	struct timespec now;
	if (!file || stat(file, &st) != 0 || clock_gettime(CLOCK_REALTIME, &now) != 0)
		return fallback;
	double s = (double)(now.tv_sec - st.st_mtim.tv_sec) + (double)(now.tv_nsec - st.st_mtim.tv_nsec) / 1e9;
	return s > fallback ? s : fallback;
}
