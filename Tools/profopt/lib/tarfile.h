/* tarfile.h - tar archives by libarchive, never by running tar.  Members are written from
 * literal names (a file named "--files-from=x.gcda" is stored as that file) and read as
 * hostile input: only regular files with relative names free of "." and ".." parts are
 * accepted; when extracting, links, hard links, devices, FIFOs and absolute names refuse the
 * whole archive, and nothing is written through a symbolic link.  The profile files of a stash
 * can also be read into memory (tarmem_*): nothing is extracted, member names are only ever
 * used as names. */
#ifndef PROFOPT_TARFILE_H
#define PROFOPT_TARFILE_H

#include <stddef.h>

struct file_list;
struct stat;
struct tar_out;

/* Starts writing a tar archive (gzip-compressed if gzip) as path, an output (output.h): into
 * a temporary file beside it, removed at exit unless tar_close() renamed it into place.  The
 * tar_add_* functions exit on error. */
struct tar_out *tar_create(const char *path, int gzip);
/* Adds the regular file `file` (a symbolic link is refused, never followed) as member name. */
void tar_add_file(struct tar_out *t, const char *name, const char *file);
void tar_add_data(struct tar_out *t, const char *name, const void *data, size_t len);
void tar_add_dir(struct tar_out *t, const char *name);
void tar_close(struct tar_out *t);

/* Decides on one member, a regular file (name relative, without "." or ".." parts, leading
 * "./" removed): returns the name to extract it as (malloc'd: name, or another), or NULL
 * with the reason in *why. */
typedef char *(*tar_accept_fn)(const char *name, void *ctx, const char **why);

enum tar_mode {
	TAR_PRIVATE, /* dir is fresh: a member met twice refuses the archive */
	TAR_REPLACE, /* files in dir are replaced; links in the way are removed, with a warning */
};

/* What an archive of archive_bytes may unpack to at most: ratio times its size, and at most
 * max bytes; ratio <= 0 means $PROFOPT_MAX_INFLATE (default 100), max <= 0
 * $PROFOPT_MAX_UNPACKED_BYTES (default 1 GiB).  Exits on a bad environment value. */
unsigned long long tar_unpack_limit(unsigned long long archive_bytes, long long ratio, long long max);
/* Opens an archive for reading: exits unless it is a regular file (never /dev/zero).  *st: its
 * status (size). */
int tar_open(const char *archive, struct stat *st);
/* Extracts the archive (tar, plain or compressed) open on fd (read from its start; `archive`
 * names it) into dir.  Every member is checked (and accept()ed) before the first is written,
 * so a refused archive writes nothing; the refusal exits, naming the archive and the member.
 * Members whose sizes add up to more than max_bytes refuse it.  The names extracted (relative
 * to dir) are added to got (if not NULL).  Returns the number of files extracted. */
int tar_extract_fd(int fd, const char *archive, const char *dir, enum tar_mode mode, tar_accept_fn accept, void *ctx,
		   unsigned long long max_bytes, struct file_list *got);
/* A stash of profile files at `archive` (accepting regular files named *suffix, e.g. .gcda),
 * unpacking to at most tar_unpack_limit() of its size: what `profopt stash restore`, and any
 * reader of a stash, unpacks. */
int tar_extract_profiles(const char *archive, const char *dir, const char *suffix, enum tar_mode mode);

/* ---- reading into memory ---- */
struct member {
	char *name; /* relative, without a leading "./" */
	unsigned char *data;
	size_t len;
	int seq; /* position in the archive: of two members with one name, the later counts */
};

struct member_list {
	struct member *m; /* sorted by name, one per name */
	int n, cap;
};

/* Reads the regular files of the archive at path whose names end in suffix (other members
 * are passed over).  A name that is absolute or has a "..", "." or empty part refuses the
 * archive.
 * Returns 0, or -1 with a reason naming the archive in err. */
int tarmem_read(const char *path, const char *suffix, struct member_list *out, char *err, size_t errlen);
/* The same for an archive held in memory (name: for messages). */
int tarmem_parse(const void *data, size_t len, const char *name, const char *suffix, struct member_list *out, char *err,
		 size_t errlen);
/* The member called name, or NULL (binary search). */
const struct member *tarmem_find(const struct member_list *l, const char *name);
void tarmem_free(struct member_list *l);

#endif
