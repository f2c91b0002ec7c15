/* verify.c - `profopt verify`: after the profile-use build, how many compiled translation
 * units actually had profile data, and whether the ones that matter most did.
 *   gcc:   X.o had profile data when X.gcda (restored from training) sits beside it.
 *   clang: X.o had profile data when one of the functions it defines has a non-zero entry
 *          count in the merged profile (llvm-profdata show --all-functions, nm). */
#include "commands.h"
#include "stamp.h"
#include "util.h"
#include "walk.h"

#include <getopt.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char help_verify[] =
	"usage: profopt verify --family=gcc|clang --objdir=DIR [OPTIONS]\n"
	"\n"
	"Counts the object files under DIR that were compiled with profile data and fails if\n"
	"a required one (e.g. Python/ceval.o) got none.\n"
	"\n"
	"  --profdata=FILE     merged profile (clang)\n"
	"  --tool=PATH         llvm-profdata (clang; default llvm-profdata)\n"
	"  --nm=PATH           nm to list defined functions (clang; default nm)\n"
	"  --require=OBJ       object (relative to DIR) that must have profile data (repeatable)\n"
	"  --skip=NAME         do not descend into directories called NAME (repeatable)\n"
	"  --list              list the objects without profile data\n"
	"  --stamp=FILE        on success, write the stage record (JSON) to FILE\n";

/* Strips the file prefix clang gives local functions in profiles ("file.c:f" or "file.c;f"). */
static const char *bare_name(const char *s)
{
	const char *p = strrchr(s, ';');
	if (!p)
		p = strrchr(s, ':');
	return p ? p + 1 : s;
}

/* Names of functions with a non-zero entry count, in a hash table (hsearch). */
static int load_profile_functions(const char *tool, const char *profdata)
{
	char *argv[] = {(char *)tool, "show", "--all-functions", "--counts", (char *)profdata, NULL}, *out = NULL;
	int st = capture(argv, &out);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fatal("%s show --all-functions %s failed: %.500s", tool, profdata, out ? out : "cannot run it");
	int n = 0;
	hcreate(1 << 20);
	char *name = NULL;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		size_t len = strlen(line);
		if (len > 3 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ' && line[len - 1] == ':') {
			line[len - 1] = '\0';
			name = line + 2;
		} else if (name && (starts_with(line, "    Block counts: [") || starts_with(line, "    Function count: "))) {
			/* IR-level profiles list block counts (entry not necessarily first): any
			 * non-zero count means the function ran. */
			if (strpbrk(strchr(line, ':'), "123456789")) {
				ENTRY e = {.key = xstrdup(bare_name(name)), .data = NULL};
				hsearch(e, ENTER);
				n++;
			}
			name = NULL;
		}
	}
	free(out);
	return n;
}

/* Marks objects defining a profiled function. nm -A prints "file.o:addr T name". */
static void mark_clang_objects(struct file_list *objs, char *has, const char *nm)
{
	for (int start = 0; start < objs->n; start += 200) {
		int count = objs->n - start < 200 ? objs->n - start : 200;
		char **argv = xcalloc((size_t)count + 4, sizeof *argv);
		argv[0] = (char *)nm;
		argv[1] = "-A";
		argv[2] = "--defined-only";
		for (int i = 0; i < count; i++)
			argv[3 + i] = objs->paths[start + i];
		char *out = NULL;
		capture(argv, &out);
		for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
			char *colon = strstr(line, ".o:");
			if (!colon)
				continue;
			colon[2] = '\0';
			char *sym = strrchr(colon + 3, ' ');
			char type = sym && sym > colon + 3 ? sym[-1] : 0;
			if (type != 'T' && type != 't')
				continue;
			ENTRY e = {.key = sym + 1}, *found = hsearch(e, FIND);
			if (!found)
				continue;
			for (int i = start; i < start + count; i++)
				if (strcmp(objs->paths[i], line) == 0) {
					has[i] = 1;
					break;
				}
		}
		free(out);
		free(argv);
	}
}

static void mark_gcc_objects(struct file_list *objs, char *has)
{
	for (int i = 0; i < objs->n; i++) {
		char *gcda = xasprintf("%.*s.gcda", (int)strlen(objs->paths[i]) - 2, objs->paths[i]);
		struct stat st;
		has[i] = stat(gcda, &st) == 0 && st.st_size > 12;
		free(gcda);
	}
}

int cmd_verify(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"family", required_argument, NULL, 'f'},
		{"objdir", required_argument, NULL, 'd'},
		{"profdata", required_argument, NULL, 'p'},
		{"tool", required_argument, NULL, 't'},
		{"nm", required_argument, NULL, 'n'},
		{"require", required_argument, NULL, 'r'},
		{"skip", required_argument, NULL, 'k'},
		{"list", no_argument, NULL, 'l'},
		{"stamp", required_argument, NULL, 'S'},
		{NULL, 0, NULL, 0},
	};
	const char *family = NULL, *dir = NULL, *profdata = NULL, *tool = "llvm-profdata", *nm = "nm", *stamp = NULL;
	const char *require[32], *skip[16] = {0};
	int nrequire = 0, nskip = 0, list = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'f': family = optarg; break;
		case 'd': dir = optarg; break;
		case 'p': profdata = optarg; break;
		case 't': tool = optarg; break;
		case 'n': nm = optarg; break;
		case 'r':
			if (nrequire == 32)
				usage_error("too many --require options");
			require[nrequire++] = optarg;
			break;
		case 'k':
			if (nskip == 15)
				usage_error("too many --skip options");
			skip[nskip++] = optarg;
			break;
		case 'l': list = 1; break;
		case 'S': stamp = optarg; break;
		default: usage_error("unknown option '%s' (see 'profopt verify --help')", argv[optind - 1]);
		}
	}
	if (!family || !dir)
		usage_error("--family=gcc|clang and --objdir=DIR are required");
	int gcc = strcmp(family, "gcc") == 0;
	if (!gcc && !profdata)
		usage_error("--profdata=FILE is required for clang");
	double start = now();
	char *cwd = getcwd(NULL, 0);
	if (chdir(dir) < 0)
		fatal("cannot enter %s", dir);
	struct file_list objs = {0};
	find_files(&objs, ".", ".o", skip);
	file_list_sort(&objs);
	if (objs.n == 0)
		fatal("no object files under %s: was the profile-use build run?", dir);
	char *has = xcalloc((size_t)objs.n, 1);
	int nfuncs = 0;
	if (gcc) {
		mark_gcc_objects(&objs, has);
	} else {
		char *abs = profdata[0] == '/' ? xstrdup(profdata) : xasprintf("%s/%s", cwd, profdata);
		nfuncs = load_profile_functions(tool, abs);
		mark_clang_objects(&objs, has, nm);
		free(abs);
	}
	int used = 0;
	for (int i = 0; i < objs.n; i++)
		used += has[i];
	printf("verify: %d of %d compiled units used profile data (%.0f%%)", used, objs.n, 100.0 * used / objs.n);
	if (!gcc)
		printf("; %d functions executed in training", nfuncs);
	printf("\n");
	if (list)
		for (int i = 0; i < objs.n; i++)
			if (!has[i])
				printf("  no profile: %s\n", objs.paths[i]);
	int missing = 0;
	struct buf req = {0};
	buf_add(&req, "", 0);
	for (int r = 0; r < nrequire; r++) {
		int ok = 0, seen = 0;
		for (int i = 0; i < objs.n; i++)
			if (strcmp(objs.paths[i], require[r]) == 0) {
				seen = 1;
				ok = has[i];
			}
		printf("verify: %s: %s\n", require[r], ok ? "used profile data" : seen ? "NO PROFILE DATA" : "NOT BUILT");
		buf_printf(&req, "%s\"%s\": %s", r ? ", " : "", require[r], ok ? "true" : "false");
		missing += !ok;
	}
	if (chdir(cwd) < 0) {}
	if (missing)
		fatal("%d required unit(s) were built without profile data: the build is not profile-optimized "
		      "where it matters (stale or missing profile? see the build log)",
		      missing);
	if (used == 0)
		fatal("no unit used profile data");
	if (stamp) {
		char *extra = xasprintf("\"units\": %d, \"units_with_profile\": %d, \"required\": {%s}", objs.n, used, req.data);
		stamp_write(stamp, "verify", now() - start, extra);
		free(extra);
	}
	buf_free(&req);
	free(has);
	free(cwd);
	file_list_free(&objs);
	return 0;
}
