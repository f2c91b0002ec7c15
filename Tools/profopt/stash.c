/* stash.c - `profopt stash save|restore`: keeps profile files safe across a `make clean`
 * that would delete them (GCC keeps .gcda next to the objects, also under CPython's build/
 * for extension modules: bpo-26307).  The stash is a tar archive written under a temporary
 * name and renamed, so it is either complete or absent. */
#include "commands.h"
#include "util.h"
#include "walk.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char help_stash[] =
	"usage: profopt stash save --dir=DIR --archive=FILE [--suffix=.gcda] [--skip=NAME]\n"
	"       profopt stash restore --dir=DIR --archive=FILE\n"
	"\n"
	"save:    archives every file under DIR ending in SUFFIX (default .gcda) into FILE\n"
	"         (tar), keeping relative paths.  Fails if there is none.\n"
	"restore: unpacks FILE into DIR, overwriting what is there.\n";

static int run_tar(char *const argv[])
{
	char *out = NULL;
	int st = capture(argv, &out);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fatal("tar failed: %s", out && *out ? out : "cannot run tar");
	free(out);
	return 0;
}

int cmd_stash(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"dir", required_argument, NULL, 'd'},
		{"archive", required_argument, NULL, 'a'},
		{"suffix", required_argument, NULL, 's'},
		{"skip", required_argument, NULL, 'k'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL, *archive = NULL, *suffix = ".gcda";
	const char *skip[16] = {0};
	int nskip = 0, c;
	if (argc < 2 || (strcmp(argv[1], "save") != 0 && strcmp(argv[1], "restore") != 0))
		usage_error("expected 'save' or 'restore' (see 'profopt stash --help')");
	int save = strcmp(argv[1], "save") == 0;
	opterr = 0;
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'a': archive = optarg; break;
		case 's': suffix = optarg; break;
		case 'k':
			if (nskip == 15)
				usage_error("too many --skip options");
			skip[nskip++] = optarg;
			break;
		default: usage_error("unknown option '%s' (see 'profopt stash --help')", argv[optind - 1]);
		}
	}
	if (!dir || !archive)
		usage_error("--dir=DIR and --archive=FILE are required");
	char *abs_archive = archive[0] == '/' ? xstrdup(archive) : xasprintf("%s/%s", getcwd(NULL, 0), archive);

	if (!save) {
		struct stat st;
		if (stat(abs_archive, &st) < 0)
			fatal("no stash %s to restore: %s", abs_archive, strerror(errno));
		char *tar[] = {"tar", "-xf", abs_archive, "-C", (char *)dir, NULL};
		run_tar(tar);
		fprintf(stderr, "stash: restored profiles from %s into %s\n", archive, dir);
		free(abs_archive);
		return 0;
	}

	struct file_list files = {0};
	char *cwd = getcwd(NULL, 0);
	if (chdir(dir) < 0)
		fatal("cannot enter %s: %s", dir, strerror(errno));
	find_files(&files, ".", suffix, skip);
	file_list_sort(&files);
	if (files.n == 0)
		fatal("no *%s files under %s to stash: there is no profile to keep", suffix, dir);
	struct buf list = {0};
	for (int i = 0; i < files.n; i++)
		buf_printf(&list, "%s\n", files.paths[i]);
	char *list_path = xasprintf("%s.list", abs_archive), *tmp = xasprintf("%s.tmp", abs_archive);
	if (write_file_atomic(list_path, list.data, list.len) < 0)
		fatal("cannot write %s: %s", list_path, strerror(errno));
	char *tar[] = {"tar", "-cf", tmp, "-T", list_path, NULL};
	run_tar(tar);
	if (rename(tmp, abs_archive) < 0)
		fatal("cannot rename %s: %s", tmp, strerror(errno));
	unlink(list_path);
	char bytes[32];
	format_bytes(bytes, sizeof bytes, files.total_bytes);
	fprintf(stderr, "stash: saved %d %s files (%s) from %s into %s\n", files.n, suffix, bytes, dir, archive);
	if (chdir(cwd) < 0) {}
	free(cwd);
	buf_free(&list);
	file_list_free(&files);
	free(list_path);
	free(tmp);
	free(abs_archive);
	return 0;
}
