/* fingerprint.c - source fingerprints (see fingerprint.h).
 *
 * Why a hand-written hash: profopt links no library with a hash function (no OpenSSL, no
 * zlib), and running a tool such as sha256sum would add a dependency and a process per batch
 * for a job that needs no cryptography: the question is only "did this file change since
 * training?", asked of files nobody crafts to collide.  FNV-1a with 64 bits is the smallest
 * well-known hash that answers it (an accidental collision between two versions of one file
 * has odds of 2^-64), and the file size is recorded too. */
#include "fingerprint.h"
#include "util.h"
#include "walk.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FNV1A64_PRIME 0x100000001b3ull

const char *const fingerprint_default_suffixes[] = {".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".inc", ".S", NULL};

uint64_t fnv1a64(const void *data, size_t n, uint64_t h)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV1A64_PRIME;
	}
	return h;
}

int hash_file(const char *path, uint64_t *hash, long long *size)
{
	unsigned char chunk[65536];
	uint64_t h = FNV1A64_INIT;
	long long total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		h = fnv1a64(chunk, (size_t)n, h);
		total += n;
	}
	close(fd);
	*hash = h;
	*size = total;
	return 0;
}

static void add_entry(struct manifest *m, char *path, uint64_t hash, long long size)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 256;
		m->e = xrealloc(m->e, (size_t)m->cap * sizeof *m->e);
	}
	m->e[m->n++] = (struct manifest_entry){path, hash, size};
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct manifest_entry *)a)->path, ((const struct manifest_entry *)b)->path);
}

int manifest_scan(struct manifest *m, const char *root, const char *const *suffixes, const char *const *skip)
{
	memset(m, 0, sizeof *m);
	m->root = resolve_path(root);
	size_t rlen = strlen(root);
	for (const char *const *s = suffixes; *s; s++) {
		struct file_list l = {0};
		if (find_files(&l, root, *s, skip) < 0) {
			int e = errno;
			file_list_free(&l);
			errno = e;
			return -1;
		}
		for (int i = 0; i < l.n; i++) {
			uint64_t h;
			long long size;
			const char *rel = l.paths[i];
			if (strncmp(rel, root, rlen) == 0 && rel[rlen] == '/')
				rel += rlen + 1;
			if (hash_file(l.paths[i], &h, &size) == 0)
				add_entry(m, xstrdup(rel), h, size);
		}
		file_list_free(&l);
	}
	qsort(m->e, (size_t)m->n, sizeof *m->e, cmp_entry);
	/* overlapping suffixes (".h" and ".c.h") must not list a file twice */
	int out = 0;
	for (int i = 0; i < m->n; i++) {
		if (out > 0 && strcmp(m->e[out - 1].path, m->e[i].path) == 0) {
			free(m->e[i].path);
			continue;
		}
		m->e[out++] = m->e[i];
	}
	m->n = out;
	return 0;
}

int manifest_write(const struct manifest *m, const char *path)
{
	struct buf b = {0};
	buf_printf(&b, "# profopt source fingerprints 1 (FNV-1a 64, size, path)\nroot %s\n", m->root ? m->root : ".");
	for (int i = 0; i < m->n; i++)
		buf_printf(&b, "%016" PRIx64 " %lld %s\n", m->e[i].hash, m->e[i].size, m->e[i].path);
	int r = write_file_atomic(path, b.data, b.len);
	buf_free(&b);
	return r;
}

int manifest_read(struct manifest *m, const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = read_file(path, &len);
	memset(m, 0, sizeof *m);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int lineno = 0, rc = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (lineno == 1) {
			if (!starts_with(line, "# profopt source fingerprints 1")) {
				snprintf(err, errlen, "%s:1: not a profopt fingerprint manifest (made by profopt check --record)", path);
				rc = -1;
				break;
			}
			continue;
		}
		if (starts_with(line, "root ")) {
			free(m->root);
			m->root = xstrdup(line + 5);
			continue;
		}
		char *end;
		errno = 0;
		uint64_t h = strtoull(line, &end, 16);
		long long size = 0;
		if (end == line || *end != ' ' || errno) {
			rc = -1;
		} else {
			size = strtoll(end + 1, &end, 10);
			if (*end != ' ' || !end[1])
				rc = -1;
		}
		if (rc < 0) {
			snprintf(err, errlen, "%s:%d: expected \"HASH SIZE PATH\"", path, lineno);
			break;
		}
		add_entry(m, xstrdup(end + 1), h, size);
	}
	free(text);
	if (rc < 0)
		manifest_free(m);
	else
		qsort(m->e, (size_t)m->n, sizeof *m->e, cmp_entry);
	return rc;
}

void manifest_free(struct manifest *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->e[i].path);
	free(m->e);
	free(m->root);
	memset(m, 0, sizeof *m);
}
