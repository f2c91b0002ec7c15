/* clear.c - `profopt clear`: removes the profile data a compiler family's runtime wrote into
 * the build tree, so that no makefile deletes profiles itself.  GCC writes .gcda files beside
 * the objects (and its compiles .gcno notes); clang writes raw profiles where the pipeline
 * says, never into the build tree, so there is nothing of it to remove there. */
#include "commands.h"
#include "lib/util.h"
#include "lib/walk.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const char help_clear[] =
	"usage: profopt clear --family=gcc|clang|apple-clang --build-dir=DIR [--notes] [--skip=NAME]\n"
	"\n"
	"Removes the profile data the family's runtime wrote under DIR: gcc's *.gcda files (with\n"
	"--notes its compiles' *.gcno notes too); clang writes none there, so nothing is removed.\n"
	"A DIR that does not exist holds nothing to remove.\n"
	"  --skip=NAME   directories of that name are not entered (repeatable)\n"
	"A directory it cannot read, or a file it cannot remove, stops it, named.\n";

#define MAX_SKIP 16

int cmd_clear(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"family", required_argument, NULL, 'f'}, {"build-dir", required_argument, NULL, 'd'},
		{"notes", no_argument, NULL, 'n'},        {"skip", required_argument, NULL, 's'},
		{NULL, 0, NULL, 0},
	};
	const char *family = NULL, *dir = NULL, *skip[MAX_SKIP + 1] = {0};
	int notes = 0, nskip = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'f': family = optarg; break;
		case 'd': dir = optarg; break;
		case 'n': notes = 1; break;
		case 's':
			if (nskip == MAX_SKIP)
				usage_error("at most %d --skip options", MAX_SKIP);
			skip[nskip++] = optarg;
			break;
		default: usage_error("unknown option '%s' (see 'profopt clear --help')", argv[optind - 1]);
		}
	}
	if (!family || !dir || optind < argc)
		usage_error("give --family=gcc|clang|apple-clang and --build-dir=DIR, nothing else");
	if (strcmp(family, "clang") == 0 || strcmp(family, "apple-clang") == 0)
		return 0;
	if (strcmp(family, "gcc") != 0)
		usage_error("--family wants gcc, clang or apple-clang, not '%s'", printable(family));
	struct stat st;
	if (stat(dir, &st) < 0 && errno == ENOENT)
		return 0; /* no build tree, no profile data in it */
	int n = remove_files(dir, ".gcda", skip);
	int m = notes ? remove_files(dir, ".gcno", skip) : 0;
	if (n + m)
		fprintf(stderr, "clear: %d .gcda%s files removed under %s\n", n + m, notes ? " and .gcno" : "", printable(dir));
	return 0;
}
