/* bundle.c - `profopt export` and `profopt import`: a profile as a reusable artifact.
 *
 * A bundle is one tar.gz file holding manifest.json (a flat JSON object of strings: what the
 * profile was made from, and its SHA-256) and profile/: the merged clang profile
 * (merged.profdata) or the archive of GCC's .gcda files (profiles.tar, paths relative to the
 * build directory, so it can be restored into any build directory with the same layout).
 * Import compares the manifest with what the current build expects and refuses a profile made
 * from other sources or another compiler, saying what differs, unless --force is given.
 *
 * Relocation: some builds put an absolute path into object paths (CPython 3.11's setup.py
 * compiles extension modules to build/temp.PLATFORM/ABSOLUTE/SOURCE/DIR/Modules/x.o), and GCC writes
 * each .gcda beside its object.  The exporter records that directory as relocate_root; the
 * importer, given this build's own (--relocate-root), renames the archive's members from the
 * old directory to the new one. */
#include "commands.h"
#include "stamp.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char help_export[] =
	"usage: profopt export --profile=FILE (--output=BUNDLE | --record=JSON) [--manifest=KV-FILE]\n"
	"                      [KEY=VALUE...]\n"
	"\n"
	"Writes BUNDLE (tar.gz): the profile FILE (a merged .profdata, or the tar of .gcda files)\n"
	"and manifest.json with the KEY=VALUE facts given (one per line in KV-FILE, and on the\n"
	"command line), plus profile_sha256, created and profopt_version.  --record writes the\n"
	"manifest alone to JSON (the record installed beside an optimized interpreter).\n";

const char help_import[] =
	"usage: profopt import --bundle=BUNDLE --dest=FILE [--expect=KV-FILE] [--force]\n"
	"                      [--manifest-out=FILE] [--stamp=FILE] [--relocate-root=DIR]\n"
	"                      [KEY=VALUE...]\n"
	"\n"
	"Checks BUNDLE's manifest against the expected KEY=VALUE facts (from KV-FILE and the\n"
	"command line): any that differ are listed and the import is refused, unless --force.\n"
	"Then checks the profile's SHA-256 and writes the profile to FILE.\n"
	"--relocate-root=DIR: when the manifest records another relocate_root (an absolute\n"
	"directory that appears inside the archive's member names), the .gcda archive's members\n"
	"under it are renamed to DIR: a profile of objects named by absolute paths fits here.\n"
	"Exit status: 0 imported, 1 refused or damaged, 2 bad usage.\n";

#define MAX_FACTS 64

struct facts {
	char *key[MAX_FACTS], *value[MAX_FACTS];
	int n;
};

static void facts_set(struct facts *f, const char *key, const char *value)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->key[i], key) == 0) {
			free(f->value[i]);
			f->value[i] = xstrdup(value);
			return;
		}
	if (f->n == MAX_FACTS)
		fatal("too many manifest entries (at most %d)", MAX_FACTS);
	f->key[f->n] = xstrdup(key);
	f->value[f->n++] = xstrdup(value);
}

static const char *facts_get(const struct facts *f, const char *key)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->key[i], key) == 0)
			return f->value[i];
	return NULL;
}

static void facts_add_kv(struct facts *f, const char *kv)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		usage_error("expected KEY=VALUE, not '%s'", kv);
	char *key = xasprintf("%.*s", (int)(eq - kv), kv);
	facts_set(f, key, eq + 1);
	free(key);
}

static void facts_load_kv_file(struct facts *f, const char *path)
{
	char *text = read_file(path, NULL);
	if (!text)
		fatal("cannot read %s: %s", path, strerror(errno));
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (*line && *line != '#')
			facts_add_kv(f, line);
	free(text);
}

/* Reads the flat object written by write_manifest: one "key": "value" per line. */
static int facts_load_manifest(struct facts *f, const char *path)
{
	char *text = read_file(path, NULL);
	if (!text)
		return -1;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *k = strchr(line, '"');
		char *kend = k ? strchr(k + 1, '"') : NULL;
		char *v = kend ? strchr(kend + 1, '"') : NULL;
		char *vend = v ? strrchr(v + 1, '"') : NULL;
		if (!vend || vend == v)
			continue;
		*kend = *vend = '\0';
		/* Unescape \" and \\ (the writer escapes nothing else in practice). */
		char *out = v + 1;
		for (char *p = v + 1; *p; p++) {
			if (*p == '\\' && p[1])
				p++;
			*out++ = *p;
		}
		*out = '\0';
		facts_set(f, k + 1, v + 1);
	}
	free(text);
	return 0;
}

static void write_manifest(const struct facts *f, const char *path)
{
	struct buf b = {0};
	buf_puts(&b, "{\n");
	for (int i = 0; i < f->n; i++) {
		buf_printf(&b, "  \"%s\": \"", f->key[i]);
		for (const char *p = f->value[i]; *p; p++) {
			if (*p == '"' || *p == '\\')
				buf_add(&b, "\\", 1);
			if ((unsigned char)*p >= 0x20)
				buf_add(&b, p, 1);
		}
		buf_printf(&b, "\"%s\n", i + 1 < f->n ? "," : "");
	}
	buf_puts(&b, "}\n");
	if (write_file_atomic(path, b.data, b.len) < 0)
		fatal("cannot write %s: %s", path, strerror(errno));
	buf_free(&b);
}

/* SHA-256 of a file, by coreutils' sha256sum. */
static char *sha256_of(const char *path)
{
	char *argv[] = {"sha256sum", (char *)path, NULL}, *out = NULL;
	int st = capture(argv, &out);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || !out || strlen(out) < 64)
		fatal("sha256sum %s failed: %s", path, out ? out : "cannot run sha256sum");
	out[64] = '\0';
	return out;
}

static void run_checked(char *const argv[], const char *what)
{
	char *out = NULL;
	int st = capture(argv, &out);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fatal("%s failed: %s", what, out && *out ? out : "cannot run it");
	free(out);
}

static void remove_tree(const char *dir)
{
	char *argv[] = {"rm", "-rf", (char *)dir, NULL};
	capture(argv, NULL);
}

/* The working directory of this run, removed at exit whatever the way out (fatal() too). */
static char *work_dir;

static void remove_work_dir(void)
{
	if (work_dir)
		remove_tree(work_dir);
}

static char *make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = xasprintf("%s/profopt-bundle-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir))
		fatal("cannot create a temporary directory: %s", strerror(errno));
	work_dir = dir;
	atexit(remove_work_dir);
	return dir;
}

int cmd_export(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"profile", required_argument, NULL, 'p'},
		{"output", required_argument, NULL, 'o'},
		{"manifest", required_argument, NULL, 'm'},
		{"record", required_argument, NULL, 'r'},
		{NULL, 0, NULL, 0},
	};
	const char *profile = NULL, *output = NULL, *record = NULL;
	struct facts f = {0};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'p': profile = optarg; break;
		case 'o': output = optarg; break;
		case 'm': facts_load_kv_file(&f, optarg); break;
		case 'r': record = optarg; break;
		default: usage_error("unknown option '%s' (see 'profopt export --help')", argv[optind - 1]);
		}
	}
	for (int i = optind; i < argc; i++)
		facts_add_kv(&f, argv[i]);
	if (!profile || (!output && !record))
		usage_error("--profile=FILE and --output=BUNDLE or --record=JSON are required");
	struct stat st;
	if (stat(profile, &st) < 0 || !S_ISREG(st.st_mode))
		fatal("no profile %s to export (run make profile-opt first)", profile);

	char *sum = sha256_of(profile), when[32];
	time_t t = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	char *copy = xstrdup(profile);
	facts_set(&f, "profile_file", basename(copy));
	facts_set(&f, "profile_sha256", sum);
	facts_set(&f, "created", when);
	facts_set(&f, "profopt_version", PROFOPT_VERSION);
	if (record)
		write_manifest(&f, record);
	if (!output) {
		free(sum), free(copy);
		return 0;
	}

	char *tmp = make_tmpdir(), *pdir = xasprintf("%s/profile", tmp), *manifest = xasprintf("%s/manifest.json", tmp);
	char *dest = xasprintf("%s/%s", pdir, basename(copy));
	if (mkdir(pdir, 0755) < 0)
		fatal("mkdir %s: %s", pdir, strerror(errno));
	char *cp[] = {"cp", (char *)profile, dest, NULL};
	run_checked(cp, "copying the profile");
	write_manifest(&f, manifest);
	char *out_tmp = xasprintf("%s.tmp", output);
	char *tar[] = {"tar", "-czf", out_tmp, "-C", tmp, "manifest.json", "profile", NULL};
	run_checked(tar, "tar");
	if (rename(out_tmp, output) < 0)
		fatal("cannot rename %s: %s", out_tmp, strerror(errno));
	fprintf(stderr, "export: %s (%lld bytes of profile, sha256 %.12s...)\n", output, (long long)st.st_size, sum);
	free(sum), free(copy), free(pdir), free(manifest), free(dest), free(out_tmp);
	return 0;
}

/* PATH with the characters special to a sed regular expression (BRE) or its replacement,
 * and the '|' delimiter, escaped. */
static char *sed_escape(const char *path)
{
	struct buf b = {0};
	for (const char *p = path; *p; p++) {
		if (strchr("\\.[]*^$|&", *p))
			buf_add(&b, "\\", 1);
		buf_add(&b, p, 1);
	}
	return b.data ? b.data : xstrdup("");
}

/* Renames the members of the tar ARCHIVE under directory FROM to TO (both absolute). */
static int relocate_archive(const char *archive, const char *from, const char *to, const char *tmp)
{
	char *dir = xasprintf("%s/relocate", tmp), *efrom = sed_escape(from), *eto = sed_escape(to);
	char *transform = xasprintf("--transform=s|%s/|%s/|", efrom, eto);
	char *out = xasprintf("%s.relocated", archive), *list = NULL;
	if (mkdir(dir, 0700) < 0)
		fatal("cannot create %s: %s", dir, strerror(errno));
	char *x[] = {"tar", "-xf", (char *)archive, "-C", dir, transform, NULL};
	run_checked(x, "renaming the profile's paths");
	/* The old directory's parents are left empty: not carried into the new archive. */
	char *f[] = {"find", dir, "-mindepth", "1", "-depth", "-type", "d", "-empty", "-delete", NULL};
	run_checked(f, "removing the emptied directories");
	char *c[] = {"tar", "-cf", out, "-C", dir, ".", NULL};
	run_checked(c, "archiving the relocated profile");
	if (rename(out, archive) < 0)
		fatal("cannot rename %s: %s", out, strerror(errno));
	char *t[] = {"tar", "-tf", (char *)archive, NULL};
	capture(t, &list);
	int moved = 0; /* files (not directories) now under TO */
	for (char *line = list ? strtok(list, "\n") : NULL; line; line = strtok(NULL, "\n"))
		if (strstr(line, to) && line[strlen(line) - 1] != '/')
			moved++;
	free(dir), free(efrom), free(eto), free(transform), free(out), free(list);
	return moved;
}

int cmd_import(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"bundle", required_argument, NULL, 'b'},
		{"dest", required_argument, NULL, 'd'},
		{"expect", required_argument, NULL, 'e'},
		{"force", no_argument, NULL, 'f'},
		{"manifest-out", required_argument, NULL, 'm'},
		{"stamp", required_argument, NULL, 'S'},
		{"relocate-root", required_argument, NULL, 'r'},
		{NULL, 0, NULL, 0},
	};
	const char *bundle = NULL, *dest = NULL, *manifest_out = NULL, *stamp = NULL, *root = NULL;
	struct facts want = {0}, have = {0};
	int force = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': bundle = optarg; break;
		case 'd': dest = optarg; break;
		case 'e': facts_load_kv_file(&want, optarg); break;
		case 'f': force = 1; break;
		case 'm': manifest_out = optarg; break;
		case 'S': stamp = optarg; break;
		case 'r': root = optarg; break;
		default: usage_error("unknown option '%s' (see 'profopt import --help')", argv[optind - 1]);
		}
	}
	for (int i = optind; i < argc; i++)
		facts_add_kv(&want, argv[i]);
	if (!bundle || !dest)
		usage_error("--bundle=BUNDLE and --dest=FILE are required");
	double start = now();
	char *tmp = make_tmpdir();
	char *tar[] = {"tar", "-xzf", (char *)bundle, "-C", tmp, NULL};
	run_checked(tar, "unpacking the profile bundle");
	char *manifest = xasprintf("%s/manifest.json", tmp);
	if (facts_load_manifest(&have, manifest) < 0)
		fatal("%s is not a profopt profile bundle (no manifest.json)", bundle);

	int differ = 0;
	for (int i = 0; i < want.n; i++) {
		const char *got = facts_get(&have, want.key[i]);
		if (got && strcmp(got, want.value[i]) == 0)
			continue;
		if (!differ++)
			fprintf(stderr, "import: the profile in %s was made for something else:\n", bundle);
		fprintf(stderr, "  %-18s profile: %s\n  %-18s this build: %s\n", want.key[i], got ? got : "(not recorded)", "",
			want.value[i]);
	}
	if (differ && !force) {
		fatal("refusing a profile that does not match (%d difference%s); a mismatched profile optimizes "
		      "the wrong code. To use it anyway: --force (make: PGO_PROFILE_FORCE=1)",
		      differ, differ == 1 ? "" : "s");
	}
	if (differ)
		warn("using the mismatched profile anyway (--force)");

	const char *file = facts_get(&have, "profile_file"), *sum = facts_get(&have, "profile_sha256");
	if (!file || !sum || strchr(file, '/'))
		fatal("%s: manifest lacks profile_file or profile_sha256", bundle);
	char *path = xasprintf("%s/profile/%s", tmp, file), *actual = sha256_of(path);
	if (strcmp(actual, sum) != 0)
		fatal("%s: the profile is damaged: sha256 %s, expected %s", bundle, actual, sum);
	char *dest_tmp = xasprintf("%s.tmp", dest);
	char *cp[] = {"cp", path, dest_tmp, NULL};
	run_checked(cp, "copying the profile");
	const char *old_root = facts_get(&have, "relocate_root");
	if (root && *root != '/')
		usage_error("--relocate-root wants an absolute directory, not '%s'", root);
	if (root && old_root && strcmp(old_root, root) != 0 && strstr(file, ".tar")) {
		int moved = relocate_archive(dest_tmp, old_root, root, tmp);
		fprintf(stderr, "import: %d profile files moved from %s/ to %s/\n", moved, old_root, root);
	}
	if (rename(dest_tmp, dest) < 0)
		fatal("cannot rename %s: %s", dest_tmp, strerror(errno));
	if (manifest_out) {
		char *cpm[] = {"cp", manifest, (char *)manifest_out, NULL};
		run_checked(cpm, "copying the manifest");
	}
	fprintf(stderr, "import: profile from %s (made %s) checked and installed as %s\n", bundle,
		facts_get(&have, "created") ? facts_get(&have, "created") : "?", dest);
	if (stamp) {
		char *extra = xasprintf("\"imported_from\": \"%s\", \"forced\": %s", bundle, differ ? "true" : "false");
		stamp_write(stamp, "import", now() - start, extra);
		free(extra);
	}
	free(manifest), free(path), free(actual), free(dest_tmp);
	return 0;
}
