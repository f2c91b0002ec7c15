/* store.c - `profopt store`: clang's merged profile under its content's name, where the use
 * stage's compiles read it (here, and at the same path on distcc's workers): a stale file can
 * never sit under the name a compile asks for. */
#include "commands.h"
#include "lib/output.h"
#include "lib/sha256.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct store_options {
	const char *profile, *output, *keep;
	int sha256;
};

static const struct option_spec store_options[] = {
	OPT_STRING("profile", 0, struct store_options, profile, "FILE", "the merged profile"),
	OPT_FLAG("sha256", 0, struct store_options, sha256, "print its SHA-256 (its content's name) and do nothing else"),
	OPT_STRING("output", 0, struct store_options, output, "PATH", "where the compiles read it (merged-SHA256.profdata)"),
	OPT_STRING("keep", 0, struct store_options, keep, "DIR",
		   "the pipeline's own directory: a copy there too, as merged-SHA256.profdata, and the earlier "
		   "profiles so named there removed"),
	OPT_END,
};

const struct command_options options_store = {
	"store",
	"--profile=FILE --sha256\n"
	"--profile=FILE --output=PATH [--keep=DIR]",
	"Copies FILE to PATH, which pgo.mk names by its content (merged-SHA256.profdata, the\n"
	"SHA-256 that --sha256 prints), and into the --keep directory under that name, where the\n"
	"files named so of other content are removed; a file that holds it already stays as it is.\n",
	.options = store_options,
};

/* data as path, unless the file there holds it already. */
static void place(const char *path, const char *data, size_t len)
{
	size_t have_len;
	char *have = read_file(path, &have_len), *slash = strrchr(path, '/');
	char *dir = slash && slash > path ? xasprintf("%.*s", (int)(slash - path), path) : NULL;
	if (dir && make_dirs(dir, 0755) < 0 && errno != EEXIST)
		fatal("cannot create %s: %s", printable(dir), strerror(errno));
	if (!have || have_len != len || memcmp(have, data, len) != 0)
		output_write(path, data, len);
}

/* Earlier profiles named by their content in dir, but name, are removed. */
static void remove_others(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (strlen(e->d_name) != strlen(name) || !starts_with(e->d_name, "merged-") ||
		    !ends_with(e->d_name, ".profdata") || !strcmp(e->d_name, name))
			continue;
		char *hex = xasprintf("%.*s", SHA256_HEX_LEN, e->d_name + 7), *path = xasprintf("%s/%s", dir, e->d_name);
		if (sha256_is_hex(hex) && unlink(path) < 0 && errno != ENOENT)
			fatal("cannot remove %s: %s", printable(path), strerror(errno));
		free(hex);
		free(path);
	}
	if (d)
		closedir(d);
}

int cmd_store(int argc, char **argv)
{
	struct store_options o = {0};
	if (options_parse(&options_store, argc, argv, &o) != argc || !o.profile || o.sha256 == !!o.output)
		usage_error("give --profile=FILE and either --sha256 or --output=PATH");
	char sum[SHA256_HEX_LEN + 1], *data = NULL;
	size_t len;
	if (sha256_file(o.profile, sum) < 0 || (!o.sha256 && !(data = read_file(o.profile, &len))))
		fatal("cannot read the merged profile %s: %s", printable(o.profile),
		      strerror(errno));
	if (o.sha256) {
		printf("%s\n", sum);
		return 0;
	}
	char *name = xasprintf("merged-%s.profdata", sum), *here = o.keep ? xasprintf("%s/%s", o.keep, name) : NULL;
	if (here)
		remove_others(o.keep, name);
	place(o.output, data, len);
	if (here)
		place(here, data, len);
	return 0;
}
