/* util.c - messages, memory, strings, files, temporary directories. */
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char *progname = "profopt";
int exit_failure = 1;

static char *vxasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		fatal("out of memory");
	return s;
}

/* s, escaped (malloc'd): control characters (C0, DEL, C1: U+0080..U+009F, which terminals obey)
 * and bytes that are not UTF-8 become \xNN; keep_lines keeps newlines and tabs. */
static char *escaped(const char *s, int keep_lines)
{
	struct buf b = {0};
	buf_add(&b, "", 0);
	for (const unsigned char *p = (const unsigned char *)(s ? s : "(null)"); *p;) {
		int n = utf8_length(p), keep = keep_lines && (*p == '\n' || *p == '\t');
		if (!keep && (n == 0 || *p < 0x20 || *p == 0x7f || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0))) {
			for (int i = 0, bytes = n ? n : 1; i < bytes; i++)
				buf_printf(&b, "\\x%02x", *p++);
		} else {
			buf_add(&b, p, (size_t)n);
			p += n;
		}
	}
	return b.data;
}

/* Whatever a name in a message holds, no control byte but its own newlines and tabs passes. */
static void vmessage(const char *kind, const char *fmt, va_list ap)
{
	char *text = vxasprintf(fmt, ap), *safe = escaped(text, 1);
	fflush(stdout);
	fprintf(stderr, "%s: %s%s\n", progname, kind, safe);
	free(safe);
	free(text);
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

static void *checked(void *p)
{
	if (!p)
		fatal("out of memory");
	return p;
}

void *xmalloc(size_t n)
{
	return checked(malloc(n ? n : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return checked(realloc(p, n ? n : 1));
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
	return read_file_max(path, SIZE_MAX - 1, len);
}

char *read_fd_max(int fd, size_t max, size_t *len)
{
	struct buf b = {0};
	char chunk[65536];
	ssize_t n;
	buf_add(&b, "", 0);
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (size_t)n > max - b.len) {
			int e = n < 0 ? errno : EFBIG;
			buf_free(&b);
			errno = e;
			return NULL;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	if (len)
		*len = b.len;
	return b.data;
}

char *read_file_max(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *data = NULL;
	if (fd < 0)
		return NULL;
	/* a regular file says its size: one larger than max is refused before a byte is read */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
		errno = EFBIG;
	else
		data = read_fd_max(fd, max, len);
	int e = errno;
	close(fd);
	errno = e;
	return data;
}

const char *file_kind(mode_t mode)
{
	static const struct {
		mode_t type;
		const char *name;
	} kinds[] = {{S_IFREG, "a regular file"}, {S_IFDIR, "a directory"},   {S_IFCHR, "a character device"},
		     {S_IFBLK, "a block device"}, {S_IFIFO, "a FIFO"},        {S_IFLNK, "a symbolic link"},
		     {S_IFSOCK, "a socket"}};
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if ((mode & S_IFMT) == kinds[i].type)
			return kinds[i].name;
	return "not a regular file";
}

long long env_whole(const char *name, long long fallback)
{
	const char *env = getenv(name);
	long long v;
	if (!env || !*env)
		return fallback;
	if (parse_whole(env, 1, LLONG_MAX, &v) < 0)
		fatal("%s wants a whole number > 0, not '%s'", name, printable(env));
	return v;
}

unsigned char *read_profile(const char *path, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	unsigned long long max = (unsigned long long)env_whole("PROFOPT_MAX_PROFILE_BYTES", 1LL << 30);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char *data = NULL;
	if (fd < 0 || fstat(fd, &st) < 0)
		snprintf(err, errlen, "%s: %s", printable(path), strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(err, errlen, "%s: %s, not a regular file: not a profile", printable(path), file_kind(st.st_mode));
	else if ((unsigned long long)st.st_size > max)
		snprintf(err, errlen, "%s: %lld bytes, more than the %llu bytes a profile file may have "
				      "(PROFOPT_MAX_PROFILE_BYTES)", printable(path), (long long)st.st_size, max);
	else if (!(data = read_fd_max(fd, (size_t)max, len)))
		snprintf(err, errlen, "%s: %s", printable(path), errno == EFBIG ? "it grew beyond the limit while read" : strerror(errno));
	if (fd >= 0)
		close(fd);
	return (unsigned char *)data;
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
		path += n + (path[n] == ':');
	}
	return NULL;
}

void normalize_path(char *path)
{
	int absolute = path[0] == '/', depth = 0; /* depth: the parts written that a ".." may remove */
	char *copy = xstrdup(path), *save;
	size_t len = 0; /* never longer than path: parts are only dropped */
	for (char *p = strtok_r(copy, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		int up = !strcmp(p, "..");
		if (!strcmp(p, ".") || (up && !depth && absolute))
			continue;
		if (up && depth) {
			while (len > 0 && path[len - 1] != '/')
				len--;
			len -= len > 0;
			depth--;
			continue;
		}
		len += (size_t)sprintf(path + len, "%s%s", len || absolute ? "/" : "", p);
		depth += !up;
	}
	if (absolute && len == 0)
		path[len++] = '/';
	path[len] = '\0';
	free(copy);
}

char *resolve_path(const char *path)
{
	char *r = realpath(path, NULL);
	return r ? r : xstrdup(path);
}

size_t common_dir_length(const char *a, const char *b)
{
	size_t i = 0, dir = 0;
	while (a[i] && a[i] == b[i]) {
		if (a[i] == '/')
			dir = i;
		i++;
	}
	if ((!a[i] || a[i] == '/') && (!b[i] || b[i] == '/'))
		dir = i;
	return dir;
}

int file_starts_with(const char *path, const void *magic, size_t len)
{
	unsigned char head[16];
	if (len > sizeof head)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, head, len);
	if (fd >= 0)
		close(fd);
	return n == (ssize_t)len && !memcmp(head, magic, len);
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

uint64_t load_uint(const unsigned char *p, int n, int big)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void format_duration(char *out, size_t n, double s)
{
	if (!(s > 0)) /* negative, or NaN */
		s = 0;
	if (s < 60)
		snprintf(out, n, "%.1f s", s);
	else if (s < 3600)
		snprintf(out, n, "%d min %02d s", (int)(s / 60), (int)fmod(s, 60));
	else if (s < 1e15) /* hours as a double: past INT_MAX seconds an int cast is undefined */
		snprintf(out, n, "%.0f h %02d min", floor(s / 3600), (int)(fmod(s, 3600) / 60));
	else
		snprintf(out, n, "%.3g h", s / 3600);
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
	if (errno || end == s || !isfinite(v))
		return -1;
	if (*end == '%') {
		v /= 100;
		end++;
	} else if (v > 1) {
		v /= 100; /* "90" means 90% */
	}
	return *end || v < 0 || v > 1 ? -1 : v;
}

int parse_whole(const char *s, long long min, long long max, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

long parse_positive(const char *s)
{
	long long v;
	return parse_whole(s, 1, INT_MAX, &v) < 0 ? -1 : (long)v;
}

double parse_seconds(const char *s, double max)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	return errno || end == s || *end || !isfinite(v) || v <= 0 || v > max ? -1 : v;
}

/* Up to this many printable() results are alive at once (several per message). */
#define PRINTABLE_SLOTS 16

const char *printable(const char *s)
{
	static char *slot[PRINTABLE_SLOTS];
	static int next;
	next = (next + 1) % PRINTABLE_SLOTS;
	free(slot[next]);
	return slot[next] = escaped(s, 0);
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
	return v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) ? 0 : n;
}

char *safe_path_arg(const char *path)
{
	return path[0] == '/' ? xstrdup(path) : xasprintf("./%s", path);
}

/* ---- files and trees removed at exit and on a signal */

/* Temporary directories and outputs' temporary files not yet removed or renamed into place. */
#define MAX_DOOMED 32
static char *doomed[MAX_DOOMED];
static pid_t cleanup_pid; /* the process whose files they are: never a child between fork and exec */

/* Removes name (relative to the directory open on parent) and, if it is a directory, all in it,
 * never following a symbolic link.  Only system calls, no memory allocated: it also runs in a
 * signal handler.  Returns the number of entries that could not be removed. */
static int remove_tree_at(int parent, const char *name, int depth)
{
	if (unlinkat(parent, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return 1;
	int fd = depth < 256 ? openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1, bad = 0;
	for (int removed = 1; fd >= 0 && removed;) {
		char block[4096];
		long n;
		removed = 0, bad = 0;
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, block, sizeof block)) > 0)
			for (long at = 0; at < n;) {
				struct dirent64 *e = (struct dirent64 *)(block + at);
				at += e->d_reclen;
				if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
					continue;
				int failed = remove_tree_at(fd, e->d_name, depth + 1);
				removed += !failed, bad += failed;
			}
	}
	if (fd >= 0)
		close(fd);
	return unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : bad + 1;
}

static void remove_doomed(void)
{
	for (int i = 0; i < MAX_DOOMED && getpid() == cleanup_pid; i++)
		if (doomed[i])
			remove_tree_at(AT_FDCWD, doomed[i], 0);
}

static void cleanup_on_signal(int sig)
{
	remove_doomed();
	signal(sig, SIG_DFL);
	raise(sig); /* ended by the signal, as the caller expects */
}

void remove_at_exit(const char *path)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	if (!cleanup_pid) {
		cleanup_pid = getpid();
		atexit(remove_doomed);
		for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
			struct sigaction sa, old;
			/* a signal ignored (nohup) or handled by the caller is left so */
			if (sigaction(sigs[i], NULL, &old) < 0 || old.sa_handler != SIG_DFL)
				continue;
			memset(&sa, 0, sizeof sa);
			sa.sa_handler = cleanup_on_signal;
			sigfillset(&sa.sa_mask);
			sigaction(sigs[i], &sa, NULL);
		}
	}
	for (int i = 0; i < MAX_DOOMED; i++)
		if (!doomed[i]) {
			doomed[i] = xstrdup(path);
			return;
		}
	remove_tree_at(AT_FDCWD, path, 0);
	fatal("more than %d temporary files and directories at once", MAX_DOOMED);
}

void keep_at_exit(const char *path)
{
	for (int i = 0; i < MAX_DOOMED; i++)
		if (doomed[i] && strcmp(doomed[i], path) == 0) {
			char *d = doomed[i];
			doomed[i] = NULL; /* before the free: a signal handler may read the table */
			free(d);
		}
}

char *make_temp_dir(const char *what)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/profopt-%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
	if (!mkdtemp(dir))
		fatal("cannot create a temporary directory %s: %s", printable(dir), strerror(errno));
	remove_at_exit(dir);
	return dir;
}

void remove_dir_tree(const char *dir)
{
	if (remove_tree_at(AT_FDCWD, dir, 0))
		warn("cannot remove all of %s: %s", printable(dir), strerror(errno));
	keep_at_exit(dir);
}

void close_stdout(void)
{
	int bad = ferror(stdout);
	if (fclose(stdout) != 0 || bad) {
		fprintf(stderr, "%s: error: cannot write the output: %s\n", progname,
			errno ? strerror(errno) : "write error");
		_exit(exit_failure);
	}
}

int make_dirs(const char *dir, mode_t mode)
{
	char *path = xstrdup(dir), *p = path;
	int rc = 0;
	while (rc == 0 && p) { /* each parent, then dir itself */
		if ((p = strchr(p + 1, '/')) != NULL)
			*p = '\0';
		rc = mkdir(path, mode) < 0 && errno != EEXIST ? -1 : 0;
		if (p)
			*p = '/';
	}
	free(path);
	return rc;
}

double seconds_since(const char *file, double fallback)
{
	struct stat st;
	struct timespec now;
	if (!file || stat(file, &st) != 0 || clock_gettime(CLOCK_REALTIME, &now) != 0)
		return fallback;
	double s = (double)(now.tv_sec - st.st_mtim.tv_sec) + (double)(now.tv_nsec - st.st_mtim.tv_nsec) / 1e9;
	return s > fallback ? s : fallback;
}
