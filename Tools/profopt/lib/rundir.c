/* rundir.c - a fresh directory for one run of a stage (rundir.h). */
#include "lib/rundir.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *rundir_fresh(const char *parent)
{
	if (make_dirs(parent, 0755) < 0)
		fatal("cannot create %s: %s", printable(parent), strerror(errno));
	DIR *d = opendir(parent);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (!starts_with(e->d_name, "run."))
			continue;
		char *path = xasprintf("%s/%s", parent, e->d_name);
		remove_dir_tree(path);
		struct stat st;
		if (lstat(path, &st) == 0)
			fprintf(stderr, "==> an earlier run's directory is still being written (a task of a killed run?), "
					"left as it is: %s\n", printable(path));
		free(path);
	}
	if (d)
		closedir(d);
	char *run = xasprintf("%s/run.XXXXXX", parent);
	if (!mkdtemp(run))
		fatal("cannot create a directory %s: %s", printable(run), strerror(errno));
	return run;
}

void rundir_replace(const char *run, const char *dest)
{
	remove_dir_tree(dest);
	if (rename(run, dest) < 0)
		fatal("cannot move %s to %s: %s", printable(run), printable(dest), strerror(errno));
}
