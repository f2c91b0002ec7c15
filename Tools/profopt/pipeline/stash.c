/* stash.c - `profopt stash save|restore`: keeps profile files across a `make clean` that deletes
 * them (GCC keeps .gcda beside the objects, and under CPython's build/: bpo-26307) in a tar archive
 * (tarfile.h), whole or absent; a restore never writes through a link planted in the build tree. */
#include "commands.h"
#include "lib/tarfile.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

struct stash_options {
	const char *dir, *archive, *suffix;
	struct option_list skip;
};

static const struct option_spec stash_options[] = {
	OPT_BUILD_DIR(struct stash_options, dir),
	OPT_STRING("archive", 0, struct stash_options, archive, "FILE", "the archive (tar) they are kept in"),
	OPT_STRING("suffix", 0, struct stash_options, suffix, "SUFFIX", "the profile files' suffix (default .gcda)"),
	OPT_SKIP(struct stash_options, skip),
	OPT_END,
};

const struct command_options options_stash = {
	"stash",
	"save --build-dir=DIR --archive=FILE [--suffix=.gcda] [--skip=NAME]\n"
	"restore --build-dir=DIR --archive=FILE [--suffix=.gcda] [--skip=NAME]",
	"save:    archives every regular file under DIR ending in SUFFIX (default .gcda) into\n"
	"         FILE (tar), keeping relative paths.  Fails if there is none.\n"
	"restore: removes the symbolic links named *SUFFIX under DIR (a profile is never a link),\n"
	"         then unpacks FILE into DIR, overwriting what is there.  FILE must hold only\n"
	"         regular *SUFFIX files with relative names (no link, device, absolute name or\n"
	"         '..'): otherwise nothing is restored.  A link in the way of a file is removed.\n",
	.options = stash_options,
};

static void restore(const char *dir, const char *archive, const char *suffix, const char *const *skip)
{
	if (access(archive, F_OK) < 0)
		fatal("no stash %s to restore: %s", archive, strerror(errno));
	struct file_list links = {0};
	find_links_all(&links, dir, suffix, skip);
	for (int i = 0; i < links.n; i++) {
		if (unlink(links.paths[i]) < 0)
			fatal("cannot remove the link %s: %s", links.paths[i], strerror(errno));
		warn("removed the link %s: a profile file is never a link", printable(links.paths[i]));
	}
	int n = tar_extract_profiles(archive, dir, suffix, TAR_REPLACE);
	fprintf(stderr, "stash: restored %d profile files from %s into %s\n", n, printable(archive), printable(dir));
}

static void save(const char *dir, const char *archive, const char *suffix, const char *const *skip)
{
	struct file_list files = {0};
	if (chdir(dir) < 0) /* for good: the archive's path is absolute */
		fatal("cannot enter %s: %s", dir, strerror(errno));
	find_files_here(&files, dir, suffix, skip, "a stash without it would lose its profiles");
	file_list_sort(&files);
	if (files.n == 0)
		fatal("no *%s files under %s to stash: there is no profile to keep", suffix, dir);
	struct tar_out *tar = tar_create(archive, 0);
	for (int i = 0; i < files.n; i++)
		tar_add_file(tar, files.paths[i], files.paths[i]);
	tar_close(tar);
	char bytes[32];
	format_bytes(bytes, sizeof bytes, files.total_bytes);
	fprintf(stderr, "stash: saved %d %s files (%s) from %s into %s\n", files.n, printable(suffix),
		bytes, printable(dir), printable(archive));
}

int cmd_stash(int argc, char **argv)
{
	struct stash_options o = {.suffix = ".gcda"};
	if (argc < 2 || (strcmp(argv[1], "save") != 0 && strcmp(argv[1], "restore") != 0))
		usage_error("expected 'save' or 'restore' (see 'profopt stash --help')");
	int first = options_parse(&options_stash, argc - 1, argv + 1, &o);
	if (first < argc - 1)
		usage_error("unexpected argument '%s'", printable(argv[first + 1]));
	if (!o.dir || !o.archive)
		usage_error("--build-dir=DIR and --archive=FILE are required");
	if (!*o.suffix)
		usage_error("--suffix must not be empty");
	char *archive =
		o.archive[0] == '/' ? xstrdup(o.archive) : xasprintf("%s/%s", getcwd(NULL, 0), o.archive);
	(strcmp(argv[1], "save") == 0 ? save : restore)(o.dir, archive, o.suffix, o.skip.v);
	return 0;
}
