/* walk.h - finding files by suffix under a directory tree. */
#ifndef PROFOPT_WALK_H
#define PROFOPT_WALK_H

#include <stddef.h>

struct file_list {
	char **paths;   /* malloc'd, sorted */
	int n, cap;
	long long total_bytes;
	char *unreadable; /* the first directory that could not be read, or NULL */
	int unreadable_errno;
};

/* Appends the regular files *suffix under dir, not entering skip's names: 0, or -1 (errno set)
 * naming the first unreadable directory in out->unreadable (the readable ones' files are in out). */
int find_files(struct file_list *out, const char *dir, const char *suffix, const char *const *skip);
/* find_files, or a fatal error naming the unreadable directory: nothing may be missed. */
void find_files_all(struct file_list *out, const char *dir, const char *suffix, const char *const *skip);
/* find_files_all under ".", which messages call `shown`; why: what a missing directory costs. */
void find_files_here(struct file_list *out, const char *shown, const char *suffix, const char *const *skip,
		     const char *why);
/* The same for symbolic links (never followed) whose names end with suffix. */
void find_links_all(struct file_list *out, const char *dir, const char *suffix, const char *const *skip);
/* The one deletion of profile data in the build tree: how many; exits on what it cannot read or remove. */
int remove_files(const char *dir, const char *suffix, const char *const *skip);
/* path relative to dir, for a path find_files found under dir (it names those of "." without "./"). */
const char *path_under(const char *path, const char *dir);
/* Appends path (malloc'd; the list takes it), of size bytes. */
void file_list_add(struct file_list *l, char *path, long long size);
void file_list_sort(struct file_list *l);
void file_list_free(struct file_list *l);
/* "12.3 MiB" */
void format_bytes(char *out, size_t n, long long bytes);

#endif
