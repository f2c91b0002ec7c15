/* tarfile.h - tar archives by libarchive, never by running tar (a file named "--files-from=x"
 * stays a name).  Archives read are hostile: only regular files with relative names free of "."
 * and ".." parts; a link, device or absolute name refuses the whole archive. */
#ifndef PROFOPT_TARFILE_H
#define PROFOPT_TARFILE_H

#include <stddef.h>

struct file_list;
struct stat;
struct tar_out;

/* An archive written as an output (output.h), renamed into place by tar_close(); errors exit. */
struct tar_out *tar_create(const char *path, int gzip);
/* Adds the regular file `file` (a symbolic link is refused) as member name. */
void tar_add_file(struct tar_out *t, const char *name, const char *file);
void tar_add_data(struct tar_out *t, const char *name, const void *data, size_t len);
void tar_add_dir(struct tar_out *t, const char *name);
void tar_close(struct tar_out *t);

/* The name (malloc'd) to extract a checked member as, or NULL with the reason in *why. */
typedef char *(*tar_accept_fn)(const char *name, void *ctx, const char **why);

enum tar_mode {
	TAR_PRIVATE, /* dir is fresh: a member met twice refuses the archive */
	TAR_REPLACE, /* files in dir are replaced; links in the way are removed, with a warning */
};

/* ratio * archive_bytes, at most max; <= 0: $PROFOPT_MAX_INFLATE (100), $PROFOPT_MAX_UNPACKED_BYTES (1 GiB). */
unsigned long long tar_unpack_limit(unsigned long long archive_bytes, long long ratio, long long max);
/* Opens an archive for reading: exits unless it is a regular file (never /dev/zero). */
int tar_open(const char *archive, struct stat *st);
/* Extracts the archive on fd into dir, adding the names to got (if not NULL); returns how many.
 * Every member is checked before the first is written: a refusal (more than max_bytes, too) exits. */
int tar_extract_fd(int fd, const char *archive, const char *dir, enum tar_mode mode, tar_accept_fn accept, void *ctx,
		   unsigned long long max_bytes, struct file_list *got);
/* A stash of *suffix files, unpacking to at most tar_unpack_limit() of its size. */
int tar_extract_profiles(const char *archive, const char *dir, const char *suffix, enum tar_mode mode);

/* ---- reading into memory ---- */
struct member {
	char *name; /* relative, without a leading "./" */
	unsigned char *data;
	size_t len;
};

struct member_list {
	struct member *m; /* sorted by name, one per name */
	int n, cap;
};

/* The regular files named *suffix, others passed over: 0, or -1 with the reason in err. */
int tarmem_read(const char *path, const char *suffix, struct member_list *out, char *err, size_t errlen);
/* The same for an archive in memory. */
int tarmem_parse(const void *data, size_t len, const char *name, const char *suffix, struct member_list *out, char *err,
		 size_t errlen);
void tarmem_free(struct member_list *l);

#endif
