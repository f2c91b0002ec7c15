/* stash.c - `profopt stash save|restore`: keeps profile files safe across a `make clean`
 * that would delete them (GCC keeps .gcda next to the objects, also under CPython's build/
 * for extension modules: bpo-26307).  The stash is a tar archive (libarchive: the names are
 * stored literally, never read as options) written as every output is (output.h), so it is
 * either complete or absent.  Restoring accepts only regular profile files and removes
 * links in their way, so it never writes through a link planted in the build tree. */
#include "commands.h"
#include "format/facts.h"
#include "lib/tarfile.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char help_stash[] =
	"usage: profopt stash save --build-dir=DIR --archive=FILE [--suffix=.gcda] [--skip=NAME]\n"
	"       profopt stash restore --build-dir=DIR --archive=FILE [--suffix=.gcda] [--skip=NAME]\n"
	"\n"
	"save:    archives every regular file under DIR ending in SUFFIX (default .gcda) into\n"
	"         FILE (tar), keeping relative paths.  Fails if there is none.\n"
	"restore: removes the symbolic links named *SUFFIX under DIR (a profile is never a link),\n"
	"         then unpacks FILE into DIR, overwriting what is there.  FILE must hold only\n"
	"         regular *SUFFIX files with relative names (no link, device, absolute name or\n"
	"         '..'): otherwise nothing is restored.  A link in the way of a file is removed.\n"
	"--skip=NAME: directories of that name are not entered (e.g. the pipeline's own).\n"
	"--dir=DIR is the old spelling of --build-dir=DIR.\n";

static void remove_stray_links(const char *dir, const char *suffix, const char *const *skip)
{
	struct file_list links = {0};
	find_links_all(&links, dir, suffix, skip);
	for (int i = 0; i < links.n; i++) {
		if (unlink(links.paths[i]) < 0)
			fatal("cannot remove the link %s: %s", links.paths[i], strerror(errno));
		const char *p = printable(links.paths[i]);
		warn("removed the link %s: a profile file is never a link", p);
	}
	file_list_free(&links);
}

static int restore(const char *dir, const char *archive, const char *suffix, const char *const *skip)
{
	struct stat st;
	if (stat(archive, &st) < 0)
		fatal("no stash %s to restore: %s", archive, strerror(errno));
	remove_stray_links(dir, suffix, skip);
	int n = tar_extract_profiles(archive, dir, suffix, TAR_REPLACE);
	fprintf(stderr, "stash: restored %d profile files from %s into %s\n", n, printable(archive), printable(dir));
	return 0;
}

static int save(const char *dir, const char *archive, const char *suffix, const char *const *skip)
{
	struct file_list files = {0};
	char *cwd = getcwd(NULL, 0);
	if (!cwd || chdir(dir) < 0)
		fatal("cannot enter %s: %s", dir, strerror(errno));
	if (find_files(&files, ".", suffix, skip) < 0)
		fatal("cannot read %s/%s: %s (a stash without it would lose its profiles)", printable(dir),
		      printable(files.unreadable), strerror(files.unreadable_errno));
	file_list_sort(&files);
	if (files.n == 0)
		fatal("no *%s files under %s to stash: there is no profile to keep", suffix, dir);
	struct tar_out *tar = tar_create(archive, 0);
	for (int i = 0; i < files.n; i++)
		tar_add_file(tar, files.paths[i], files.paths[i]);
	tar_close(tar);
	char bytes[32];
	format_bytes(bytes, sizeof bytes, files.total_bytes);
	fprintf(stderr, "stash: saved %d %s files (%s) from %s into %s\n", files.n, printable(suffix), bytes, printable(dir), printable(archive));
	if (chdir(cwd) < 0)
		fatal("cannot return to %s: %s", cwd, strerror(errno));
	free(cwd);
	file_list_free(&files);
	return 0;
}

int cmd_stash(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"build-dir", required_argument, NULL, 'd'},
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
	int saving = strcmp(argv[1], "save") == 0;
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
	if (!*suffix)
		usage_error("--suffix must not be empty");
	char *cwd = getcwd(NULL, 0);
	char *abs_archive = archive[0] == '/' ? xstrdup(archive) : xasprintf("%s/%s", cwd, archive);
	int rc = saving ? save(dir, abs_archive, suffix, skip) : restore(dir, abs_archive, suffix, skip);
	free(cwd);
	free(abs_archive);
	return rc;
}
