/* walk.h - finding files by suffix under a directory tree. */
#ifndef PROFOPT_WALK_H
#define PROFOPT_WALK_H

#include <stddef.h>

struct file_list {
	char **paths;   /* malloc'd, sorted */
	long long *sizes;
	int n, cap;
	long long total_bytes;
};

/* Appends every regular file under dir whose name ends with suffix. Directories named in
 * skip (NULL-terminated, may be NULL) are not entered. Returns 0, or -1 if dir is unreadable. */
int find_files(struct file_list *out, const char *dir, const char *suffix, const char *const *skip);
/* The same for symbolic links (never followed) whose names end with suffix. */
int find_links(struct file_list *out, const char *dir, const char *suffix, const char *const *skip);
/* Appends path (malloc'd; the list takes it). */
void file_list_add(struct file_list *l, char *path, long long size);
void file_list_sort(struct file_list *l);
void file_list_free(struct file_list *l);
/* "12.3 MiB" */
void format_bytes(char *out, size_t n, long long bytes);

#endif
