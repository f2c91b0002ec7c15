/* elf.c - ELF section names (see elf.h).  Only the headers and the section-name table are
 * read, never the whole object: large objects with debug information stay cheap. */
#include "lib/elf.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct elf {
	int fd, is64, big;
	uint64_t size, shoff, entsize, num, strndx; /* the section headers' offset, size, count, name table */
	struct read_error re;
};

#define get(e, p, n) load_uint((p), (n), (e)->big)

/* Reads len bytes at off, all of them inside the file. */
static int read_at(struct elf *e, void *buf, uint64_t off, uint64_t len, const char *what)
{
	if (off > e->size || len > e->size - off)
		return read_fail(&e->re, off, "%s of %llu bytes, only %llu left: truncated file (actual/expected)",
				 what, (unsigned long long)len,
				 (unsigned long long)(off > e->size ? 0 : e->size - off));
	if (pread(e->fd, buf, (size_t)len, (off_t)off) != (ssize_t)len)
		return read_fail(&e->re, off, "cannot read %s: %s", what, strerror(errno));
	return 0;
}

/* The section headers: offset, entry size, count and the index of the name table. */
static int headers(struct elf *e, const unsigned char *h)
{
	e->shoff = e->is64 ? get(e, h + 0x28, 8) : get(e, h + 0x20, 4);
	e->entsize = get(e, h + (e->is64 ? 0x3a : 0x2e), 2);
	e->num = get(e, h + (e->is64 ? 0x3c : 0x30), 2);
	e->strndx = get(e, h + (e->is64 ? 0x3e : 0x32), 2);
	if (e->shoff == 0)
		return 0;
	if (e->entsize < (e->is64 ? 0x40u : 0x28u))
		return read_fail(&e->re, e->is64 ? 0x3a : 0x2e,
				 "section header of %llu bytes, expected at least %u (actual/expected)",
				 (unsigned long long)e->entsize, e->is64 ? 0x40u : 0x28u);
	if (e->num == 0 || e->strndx == 0xffff) { /* more sections than 16 bits hold: section 0 holds them */
		unsigned char s0[0x40];
		if (read_at(e, s0, e->shoff, e->entsize < sizeof s0 ? e->entsize : sizeof s0, "section header 0") < 0)
			return -1;
		if (e->num == 0)
			e->num = e->is64 ? get(e, s0 + 0x20, 8) : get(e, s0 + 0x14, 4);
		if (e->strndx == 0xffff)
			e->strndx = get(e, s0 + (e->is64 ? 0x28 : 0x18), 4);
	}
	if (e->num > e->size / e->entsize)
		return read_fail(&e->re, e->shoff, "%llu section headers of %llu bytes do not fit in a file of %llu "
				 "bytes (actual/expected)",
				 (unsigned long long)e->num, (unsigned long long)e->entsize,
				 (unsigned long long)e->size);
	if (e->strndx >= e->num)
		return read_fail(&e->re, e->is64 ? 0x3e : 0x32,
				 "section name table %llu of %llu sections (actual/expected)",
				 (unsigned long long)e->strndx, (unsigned long long)e->num);
	return 0;
}

static int walk(struct elf *e, void (*fn)(const char *, void *), void *arg)
{
	unsigned char h[0x40];
	if (read_at(e, h, 0, e->size < sizeof h ? e->size : sizeof h, "ELF header") < 0)
		return -1;
	if (e->size < 0x34 || memcmp(h, "\x7f" "ELF", 4) != 0)
		return 1;
	e->is64 = h[4] == 2;
	e->big = h[5] == 2;
	if ((h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2))
		return read_fail(&e->re, 4, "unknown ELF class %u or byte order %u", h[4], h[5]);
	if (e->is64 && e->size < 0x40)
		return read_fail(&e->re, 0, "ELF header of %llu bytes, expected 64 (actual/expected)",
				 (unsigned long long)e->size);
	if (headers(e, h) < 0)
		return -1;
	if (e->shoff == 0 || e->num == 0)
		return 0;
	unsigned char *sh = xmalloc(e->num * e->entsize);
	char *names = NULL;
	int rc = read_at(e, sh, e->shoff, e->num * e->entsize, "section header table");
	if (rc == 0) {
		const unsigned char *s = sh + e->strndx * e->entsize;
		uint64_t off = e->is64 ? get(e, s + 0x18, 8) : get(e, s + 0x10, 4);
		uint64_t len = e->is64 ? get(e, s + 0x20, 8) : get(e, s + 0x14, 4);
		names = len <= e->size ? xmalloc(len + 1) : NULL;
		rc = read_at(e, names ? names : (char *)h, off, len, "section name table");
		for (uint64_t i = 0; rc == 0 && i < e->num; i++) {
			uint64_t at = get(e, sh + i * e->entsize, 4);
			if (at >= len) {
				rc = read_fail(&e->re, e->shoff + i * e->entsize, "section %llu's name at %llu, outside its "
					       "table of %llu bytes (actual/expected)",
					       (unsigned long long)i, (unsigned long long)at, (unsigned long long)len);
				break;
			}
			names[len] = '\0';
			fn(names + at, arg);
		}
	}
	free(names);
	free(sh);
	return rc;
}

int elf_sections(const char *path, void (*fn)(const char *name, void *arg), void *arg, char *err, size_t errlen)
{
	struct elf e = {.re = {path, err, errlen}};
	struct stat st;
	if ((e.fd = open(path, O_RDONLY)) < 0 || fstat(e.fd, &st) < 0) {
		if (err)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (e.fd >= 0)
			close(e.fd);
		return -1;
	}
	e.size = (uint64_t)st.st_size;
	int rc = walk(&e, fn, arg);
	close(e.fd);
	return rc;
}
