/* clear.c - `profopt clear`: removes the profile data a compiler family's runtime wrote into the
 * build tree (gcc's .gcda beside the objects), so that no makefile deletes profiles itself. */
#include "commands.h"
#include "format/family.h"
#include "lib/util.h"

struct clear_options {
	const char *family, *dir;
	int notes;
	struct option_list skip;
};

static const struct option_spec clear_options[] = {
	OPT_FAMILY(struct clear_options, family),
	OPT_BUILD_DIR(struct clear_options, dir),
	OPT_FLAG("notes", 0, struct clear_options, notes, "gcc: its compiles' *.gcno notes too"),
	OPT_SKIP(struct clear_options, skip),
	OPT_END,
};

const struct command_options options_clear = {
	"clear",
	"[--family=gcc|clang|apple-clang --build-dir=DIR [--notes] [--skip=NAME]] [PATH...]",
	"Removes the profile data the family's runtime wrote under DIR: gcc's *.gcda files (with\n"
	"--notes its compiles' *.gcno notes too); clang writes none there, so nothing is removed.\n"
	"A DIR that does not exist holds nothing to remove.  Each PATH, a file or a directory\n"
	"tree of the pipeline's profile data (raw profiles, merged ones, archives), is removed\n"
	"too, without following a link; one that does not exist is none to remove.\n",
	.options = clear_options,
	"A directory it cannot read, or a file it cannot remove, stops it, named.\n",
};

int cmd_clear(int argc, char **argv)
{
	struct clear_options o = {0};
	int first = options_parse(&options_clear, argc, argv, &o);
	if (!o.family != !o.dir || (!o.family && first == argc))
		usage_error("give --family=gcc|clang|apple-clang and --build-dir=DIR, or PATHs, or both");
	for (int i = first; i < argc; i++)
		remove_dir_tree(argv[i]); /* a file too, never through a link */
	const struct family *fam = o.family ? family_parse(o.family) : NULL;
	if (fam && fam->clear) /* clang's raw profiles are never written into the build tree */
		fam->clear(o.dir, o.notes, o.skip.v);
	return 0;
}
