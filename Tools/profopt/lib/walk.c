/* walk.c - recursive file search (see walk.h). */
#include "lib/walk.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void file_list_add(struct file_list *l, char *path, long long size)
{
	l->paths = grow_array(l->paths, l->n, &l->cap, sizeof *l->paths, 64);
	l->paths[l->n++] = path;
	l->total_bytes += size;
}

static int skipped(const char *name, const char *const *skip)
{
	for (; skip && *skip; skip++)
		if (strcmp(name, *skip) == 0)
			return 1;
	return 0;
}

/* Appends the files under dir of the type (S_IFREG or S_IFLNK) whose names end with suffix. */
static int walk(struct file_list *out, const char *dir, const char *suffix, const char *const *skip, mode_t type)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (!out->unreadable) {
			out->unreadable = xstrdup(dir);
			out->unreadable_errno = errno;
		}
		return -1;
	}
	int status = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *path = strcmp(dir, ".") == 0 ? xstrdup(e->d_name) : xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		int there = lstat(path, &st) == 0; /* type is never a directory's */
		if (there && S_ISDIR(st.st_mode) && !skipped(e->d_name, skip) && walk(out, path, suffix, skip, type) < 0)
			status = -1;
		if (there && (st.st_mode & S_IFMT) == type && ends_with(e->d_name, suffix))
			file_list_add(out, path, (long long)st.st_size);
		else
			free(path);
	}
	closedir(d);
	if (status < 0)
		errno = out->unreadable_errno;
	return status;
}

int find_files(struct file_list *out, const char *dir, const char *suffix, const char *const *skip)
{
	return walk(out, dir, suffix, skip, S_IFREG);
}

/* The walk, or a fatal error naming the first unreadable directory as the user knows it:
 * under shown, the name of the root dir (the current directory, say) has for them. */
static void walk_all(struct file_list *out, const char *dir, const char *shown, const char *suffix,
		     const char *const *skip, mode_t type, const char *why)
{
	if (walk(out, dir, suffix, skip, type) == 0)
		return;
	const char *u = out->unreadable;
	char *name = strcmp(dir, shown) == 0 ? xstrdup(u) : strcmp(u, dir) == 0 ? xstrdup(shown)
										  : xasprintf("%s/%s", shown, u);
	if (why)
		fatal("cannot read %s: %s (%s)", printable(name), strerror(out->unreadable_errno), why);
	fatal("cannot read %s: %s (looking for *%s under %s: nothing may be missed)", printable(name),
	      strerror(out->unreadable_errno), suffix, printable(shown));
}

void find_files_all(struct file_list *out, const char *dir, const char *suffix, const char *const *skip)
{
	walk_all(out, dir, dir, suffix, skip, S_IFREG, NULL);
}

void find_files_here(struct file_list *out, const char *shown, const char *suffix, const char *const *skip,
		     const char *why)
{
	walk_all(out, ".", shown, suffix, skip, S_IFREG, why);
}

void find_links_all(struct file_list *out, const char *dir, const char *suffix, const char *const *skip)
{
	walk_all(out, dir, dir, suffix, skip, S_IFLNK, NULL);
}

const char *path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && path[n] == '/' ? path + n + 1 : path;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void file_list_sort(struct file_list *l)
{
	if (l->n > 1)
		qsort(l->paths, (size_t)l->n, sizeof *l->paths, cmp_path);
}

void file_list_free(struct file_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	free(l->unreadable);
	memset(l, 0, sizeof *l);
}

void format_bytes(char *out, size_t n, long long b)
{
	if (b < 1024)
		snprintf(out, n, "%lld bytes", b);
	else if (b < 1024 * 1024)
		snprintf(out, n, "%.1f KiB", b / 1024.0);
	else if (b < 1024LL * 1024 * 1024)
		snprintf(out, n, "%.1f MiB", b / 1048576.0);
	else
		snprintf(out, n, "%.2f GiB", b / 1073741824.0);
}

int remove_files(const char *dir, const char *suffix, const char *const *skip)
{
	struct file_list found = {0};
	find_files_all(&found, dir, suffix, skip);
	for (int i = 0; i < found.n; i++)
		if (unlink(found.paths[i]) < 0 && errno != ENOENT)
			fatal("cannot remove %s: %s", found.paths[i], strerror(errno));
	int n = found.n;
	file_list_free(&found);
	return n;
}
