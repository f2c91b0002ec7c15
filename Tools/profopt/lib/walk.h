/* walk.h - finding files by suffix under a directory tree. */
#ifndef PROFOPT_WALK_H
#define PROFOPT_WALK_H

#include <stddef.h>

struct file_list {
	char **paths;   /* malloc'd, sorted */
	long long *sizes;
	int n, cap;
	long long total_bytes;
	char *unreadable; /* the first directory that could not be read, or NULL */
	int unreadable_errno;
};

/* Appends every regular file under dir whose name ends with suffix. Directories named in
 * skip (NULL-terminated, may be NULL) are not entered. Returns 0, or -1 (errno set) if dir
 * or a directory under it is unreadable: out->unreadable names the first, and the files of
 * every readable directory are in out all the same. */
int find_files(struct file_list *out, const char *dir, const char *suffix, const char *const *skip);
/* find_files, or a fatal error naming the unreadable directory: for callers whose result
 * would be incomplete without a word (a stash missing a directory of profiles). */
void find_files_all(struct file_list *out, const char *dir, const char *suffix, const char *const *skip);
/* find_files_all under the current directory, which is `shown` to the user (messages name
 * its directories under that name); why: what a missing directory would cost, NULL when
 * nothing may be missed. */
void find_files_here(struct file_list *out, const char *shown, const char *suffix, const char *const *skip,
		     const char *why);
/* The same for symbolic links (never followed) whose names end with suffix. */
void find_links_all(struct file_list *out, const char *dir, const char *suffix, const char *const *skip);
/* Removes every regular file under dir whose name ends with suffix (skip as above): the one
 * deletion of profile data in the build tree.  Returns how many; a fatal error names a
 * directory it cannot read or a file it cannot remove. */
int remove_files(const char *dir, const char *suffix, const char *const *skip);
/* Appends path (malloc'd; the list takes it). */
void file_list_add(struct file_list *l, char *path, long long size);
void file_list_sort(struct file_list *l);
void file_list_free(struct file_list *l);
/* "12.3 MiB" */
void format_bytes(char *out, size_t n, long long bytes);

#endif
